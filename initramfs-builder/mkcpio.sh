#!/bin/bash
# mkcpio.sh - pack the guest's init and leap test into an uncompressed newc cpio.
#
# Usage: mkcpio.sh OUT.cpio INIT LEAPTEST
# Needs no root: the archive holds no device nodes (init mounts devtmpfs).
set -eu

[ $# -eq 3 ] || { echo "usage: mkcpio.sh OUT.cpio INIT LEAPTEST" >&2; exit 2; }
command -v cpio >/dev/null || { echo "mkcpio: cpio not found: apt-get install cpio" >&2; exit 1; }
out=$1 init=$2 test=$3
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/dev" "$stage/proc"
install -m 0755 "$init" "$stage/init"
install -m 0755 "$test" "$stage/leaptest"
(cd "$stage" && printf '%s\n' . dev proc init leaptest | cpio -o -H newc --owner=0:0 --quiet) >"$out.tmp"
mv "$out.tmp" "$out"
