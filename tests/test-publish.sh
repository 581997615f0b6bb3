#!/bin/bash
# test-publish.sh - scripts/publish-cell.sh: a built cell's kernel and
# initramfs in the plain layout its LAVA job deploys from (lava-jobs.sh's
# ARTIFACTS), and nothing for a cell whose build failed.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w/run/cells/9.9-x86_64-stock" "$w/img" "$w/guest"
head -c 4096 /dev/urandom >"$w/img/bzImage"
head -c 1024 /dev/urandom >"$w/guest/initramfs.cpio"
plan=$w/run/cells/9.9-x86_64-stock/plan.json
jq -n --arg i "$w/img/bzImage" --arg r "$w/guest/initramfs.cpio" \
	'{cell: "9.9-x86_64-stock", image: {path: $i}, initramfs: {path: $r}}' >"$plan"
echo '{"status": "built"}' >"$w/run/cells/9.9-x86_64-stock/build.json"

out=$("$ROOT/scripts/publish-cell.sh" "$plan" "$w/pub")
check_eq "published: the cell's directory named" "publish: $w/pub/9.9-x86_64-stock" "$out"
check_eq "the layout: image, initramfs, plan, sums" "SHA256SUMS bzImage initramfs.cpio plan.json" "$(cd "$w/pub/9.9-x86_64-stock" && printf '%s\n' * | paste -sd ' ')"
check "the image as built" cmp -s "$w/img/bzImage" "$w/pub/9.9-x86_64-stock/bzImage"
check "SHA256SUMS checks" sh -c "cd '$w/pub/9.9-x86_64-stock' && sha256sum -c --quiet SHA256SUMS"
check_eq "no temporary file left" "" "$(find "$w/pub" -name '.*tmp')"
echo '{"status": "failed"}' >"$w/run/cells/9.9-x86_64-stock/build.json"
err=$("$ROOT/scripts/publish-cell.sh" "$plan" "$w/pub2" 2>&1) && rc=0 || rc=$?
check_eq "a failed build: one line, exit 1, nothing published" "1 1 no" "$rc $(grep -c 'its build failed' <<<"$err") $([ -e "$w/pub2/9.9-x86_64-stock" ] && echo yes || echo no)"
echo '{"status": "cached"}' >"$w/run/cells/9.9-x86_64-stock/build.json"
rm "$w/guest/initramfs.cpio"
err=$("$ROOT/scripts/publish-cell.sh" "$plan" "$w/pub3" 2>&1) && rc=0 || rc=$?
check_eq "no initramfs: one line, exit 1" "1 1" "$rc $(grep -c 'no .*initramfs.cpio, nothing published' <<<"$err")"
finish publish
