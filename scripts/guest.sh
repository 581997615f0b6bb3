#!/bin/bash
# guest.sh - the guest's static init and leap test, packed as an initramfs.
#
# Usage: guest.sh CC INITRAMFS
# Builds INITRAMFS (and init, leaptest beside it) with the compiler CC, only
# when the sources or CC changed since the last build (a stamp beside it).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
[ $# -eq 2 ] || { echo "usage: guest.sh CC INITRAMFS" >&2; exit 2; }
cc=$1 out=$2
dir=$(dirname "$out")
read -ra ccw <<<"$cc"
command -v "${ccw[0]}" >/dev/null || { echo "guest: $cc not found: run make deps" >&2; exit 1; }
srcs=()
for f in "$root"/common-tests/*.c; do
	case "$f" in */test_*) ;; *) srcs+=("$f") ;; esac
done
inputs=("${srcs[@]}" "$root"/common-tests/*.h "$root/initramfs-builder/init.c" "$root/initramfs-builder/mkcpio.sh")
flags=(-static -s -O2 -Wall -Wextra -Werror -pthread)
stamp=$( { echo "$cc ${flags[*]}"; cat "${inputs[@]}"; } | sha256sum | cut -c1-16)
[ -f "$out" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$stamp" ] && exit 0

mkdir -p "$dir"
rm -f "$dir/.stamp"
echo "guest: building $out with $cc"
"${ccw[@]}" "${flags[@]}" -o "$dir/leaptest.tmp" "${srcs[@]}" && mv "$dir/leaptest.tmp" "$dir/leaptest"
"${ccw[@]}" "${flags[@]}" -o "$dir/init.tmp" "$root/initramfs-builder/init.c" && mv "$dir/init.tmp" "$dir/init"
"$root/initramfs-builder/mkcpio.sh" "$out" "$dir/init" "$dir/leaptest"
echo "$stamp" >"$dir/.stamp"
