#!/bin/bash
# tier: full (asks Debian's archive)
# test-fetch.sh - fetch-tree.sh against Debian's archive: a package it does
# not serve, and too little disk for the tree, each refused in one line
# before anything is extracted.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

out=$("$ROOT/scripts/fetch-tree.sh" linux-source-0.01 "bookworm" "$w/net" 2>&1) && rc=0 || rc=$?
check "unknown package fails" test "$rc" -ne 0
check "unknown package: one line" grep -q "^fetch-tree: package linux-source-0.01 not found" <<<"$out"
out=$(FETCH_NEED_MB=999999999 "$ROOT/scripts/fetch-tree.sh" linux-source-6.1 "bookworm bookworm-security" "$w/disk" 2>&1) && rc=0 || rc=$?
check "no space: fails" test "$rc" -ne 0
check "no space: before extracting" grep -q "MB free under .* need" <<<"$out"
check "no space: nothing extracted" test ! -e "$w/disk/trees/linux-source-6.1"
finish fetch
