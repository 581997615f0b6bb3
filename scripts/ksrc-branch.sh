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
# The branch of the version's range whose layout the code shows, or the
# planner's one line (no branch of that version, or none of its layout).
err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$("$(dirname "$0")/plan.sh" branch-for "$ver" "$ksrc" 2>"$err") || { msg=$(cat "$err"); die "${msg#plan: }"; }
# A warning (a tree newer than every branch, planned by its code) is said.
cat "$err" >&2
printf '%s\n' "$out"
