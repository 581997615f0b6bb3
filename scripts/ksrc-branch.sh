#!/bin/bash
# ksrc-branch.sh - the branch for a user's kernel tree, from its top Makefile.
#
# Usage: ksrc-branch.sh KSRC   (prints the branch name, e.g. 3.4)
set -eu

die() { echo "ksrc: $*" >&2; exit 1; }
[ $# -eq 1 ] || { echo "usage: ksrc-branch.sh KSRC" >&2; exit 2; }
ksrc=$1
mk=$ksrc/Makefile
{ [ -f "$mk" ] && [ -d "$ksrc/kernel" ] && grep -q '^PATCHLEVEL *=' "$mk"; } \
	|| die "KSRC=$ksrc is not a kernel source tree (no top Makefile with VERSION/PATCHLEVEL): point KSRC at an unpacked linux-X.Y tree"
field() { sed -n "s/^$1 *= *\([0-9]*\).*/\1/p" "$mk" | head -n 1; }
ver=$(field VERSION).$(field PATCHLEVEL).$(field SUBLEVEL)
ver=${ver%.}
fix=$("$(dirname "$0")/plan.sh" fix-state "$ksrc")
case "$fix" in
fixed) fix=" and its code already carries the leap-second fix" ;;
2012*) fix=" and its code carries the 2012 fix but not both 2015 leap-edge fixes (upstream 833f32d76302, 96efdcf2d080)" ;;
esac
# The branch of the version's range whose layout the code shows; a tree
# of a known range in no known layout gets the planner's line.
if out=$("$(dirname "$0")/plan.sh" branch-for "$ver" "$ksrc" 2>&1); then
	printf '%s\n' "$out"
	exit 0
fi
case $out in
*"no branch supports"*) die "KSRC=$ksrc is Linux $ver, which no branch supports (see branches/*/branch.mk VERSION_MIN/MAX)$fix" ;;
*) die "${out#plan: }" ;;
esac
