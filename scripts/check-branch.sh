#!/bin/bash
# check-branch.sh - dry-run every patch directory of a branch against a tree.
#
# Usage: check-branch.sh BRANCH   (tree: $KSRC, else the branch's Debian package)
#
# One line per patch: applies / applies with offset / already in the tree /
# FAILS at file: hunk.
# A directory is checked on top of the directories its variant stacks under
# it (fix on top of regress, as PATCHES_fixed says).  Exit 1 on any failure.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
[ $# -eq 1 ] || { echo "usage: check-branch.sh BRANCH" >&2; exit 2; }
b=$1
variants=$("$here/plan.sh" get "$b" VARIANTS) || exit 1
if [ -n "${KSRC:-}" ]; then
	"$here/ksrc-branch.sh" "$KSRC" >/dev/null || exit 1
	# A tree of another branch's range is refused, one that already
	# carries the fix is named (one line each); neither is touched.
	v=$(KSRC=$KSRC "$here/plan.sh" ksrc "$b") || exit 1
	[ "$v" != stock ] || { echo "== $b: nothing to apply"; exit 0; }
	# A tree that already carries the fix, or stable's 2012 form of it, is
	# checked for the variants it runs: the others (the 2012 RFC, whose base
	# is a tree without the fix) are not for it.
	[ -z "$("$here/plan.sh" fix-state "$KSRC")" ] || variants=$v
	tree=$KSRC
else
	"$here/plan.sh" cells "$b" >/dev/null || exit 1
	pkg=$("$here/plan.sh" get "$b" PACKAGE)
	want=$("$here/plan.sh" debian-version "$b") || exit 1
	tree=$("$here/fetch-tree.sh" "$pkg" "$("$here/plan.sh" get "$b" SUITES)" "$(realpath -m "${BUILD_DIR:-$root/build}")" ${want:+"$want"}) || exit 1
fi
rc=0
for v in $variants; do
	# What the build would apply, each patch decided from the tree's code
	# (applies, in the tree as it is or in another form, or fails).
	stack=$("$here/plan.sh" stack "$b" "$v")
	[ -n "$stack" ] || continue
	stable=$("$here/plan.sh" stable-form "$b" "$v")
	# shellcheck disable=SC2086 # a list of directories
	LEAP_STABLE_FORM=$([ -z "$stable" ] || "$here/plan.sh" series $stable | paste -sd' ')
	export LEAP_STABLE_FORM
	# The build applies the branch's build aids (COMPAT) first: so does the check.
	stack="$("$here/plan.sh" get "$b" COMPAT) $stack"
	# shellcheck disable=SC2086 # a list of directories
	mapfile -t files < <("$here/plan.sh" series $stack)
	# shellcheck disable=SC2086 # word splitting trims the list
	echo "== $b $v:" $stack
	"$here/tree-patch.sh" check "$tree" "${files[@]}" || rc=1
done
exit $rc
