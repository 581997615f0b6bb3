#!/bin/bash
# publish-cell.sh - a built cell's kernel image and initramfs in the plain
# artifact layout its LAVA job deploys from (scripts/lava-jobs.sh):
#   DIR/<cell>/<the plan's image file name>   (bzImage, Image, ...)
#   DIR/<cell>/<the plan's initramfs name>    (initramfs.cpio)
#   DIR/<cell>/plan.json, DIR/<cell>/SHA256SUMS
# Served as it is (a web server's directory, or file:// for lava-run), DIR is
# the ARTIFACTS of `make list-jobs FORMAT=lava`.
#
# Usage: publish-cell.sh PLAN DIR
# Nothing is published for a cell whose build step failed (its build.json
# says so) or left no image: one line, exit 1.  Files are written under a
# temporary name and renamed, so a reader never sees half a kernel.
set -eu
[ $# -eq 2 ] || { echo "usage: publish-cell.sh PLAN DIR" >&2; exit 2; }
plan=$1 dir=$2
[ -f "$plan" ] || { echo "publish-cell: no plan at $plan" >&2; exit 2; }
{ read -r cell; read -r image; read -r initrd; } < <(jq -r '.cell, .image.path, .initramfs.path' "$plan")
build=$(dirname "$plan")/build.json
if [ -f "$build" ] && [ "$(jq -r .status "$build")" = failed ]; then
	echo "publish-cell: $cell: its build failed, nothing published" >&2
	exit 1
fi
for f in "$image" "$initrd"; do
	[ -f "$f" ] || { echo "publish-cell: $cell: no $f, nothing published" >&2; exit 1; }
done
out=$dir/$cell
mkdir -p "$out"
for f in "$image" "$initrd" "$plan"; do
	cp "$f" "$out/.$(basename "$f").tmp"
	mv "$out/.$(basename "$f").tmp" "$out/$(basename "$f")"
done
(cd "$out" && sha256sum "$(basename "$image")" "$(basename "$initrd")" >.SHA256SUMS.tmp && mv .SHA256SUMS.tmp SHA256SUMS)
echo "publish: $out"
