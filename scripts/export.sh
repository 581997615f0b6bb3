#!/bin/bash
# export.sh - a branch's fix series in the form a maintainer's tree takes.
#
# Usage: export.sh BRANCH FORMAT OUT [full]
#   FORMAT mbox:   OUT/<branch>-leap.mbox, one mbox for `git am`
#   FORMAT quilt:  OUT/patches/*.patch and OUT/patches/series (`quilt push -a`)
#   FORMAT debian: OUT/debian/patches/bugfix/all/leap-second/*.patch and
#                  OUT/series.add, the lines to add to debian/patches/series
# The series is the fixed variant's patch directories less the regress ones
# (the fix alone); with "full", every directory of the fixed variant.  A
# branch whose trees carry the fix already (no fixed variant, or one built
# on the regress patches) has no fix to export: one line, exit 2.
# Each exported patch ends its trailers with the exporter's Signed-off-by,
# from `git config user.name` and `user.email` (the patches in branches/
# carry upstream's tags only).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
die() { echo "export: $*" >&2; exit 1; }
refuse() { echo "export: $*" >&2; exit 2; }
[ $# -ge 3 ] || { echo "usage: export.sh BRANCH mbox|quilt|debian OUT [full]" >&2; exit 2; }
b=$1 fmt=$2 out=$3 full=${4:-}
fix=$("$here/plan.sh" role fix) || exit 1
fixed=$("$here/plan.sh" get "$b" "PATCHES_$fix") || exit 1
regress=$("$here/plan.sh" get "$b" "PATCHES_$("$here/plan.sh" role regress)")
[ -n "$fixed" ] || refuse "branch $b's trees carry the fix already (no $fix variant): nothing to export"
# A fixed variant built on the regress patches (regress + fix gives back
# the tree as shipped) fixes only what the project broke: its trees carry
# the fix, and there is nothing in it for a maintainer's tree ("full" still
# gives the whole test stack, regress and fix).
if [ -n "$regress" ] && [ -z "$full" ]; then
	on_regress=1
	for d in $regress; do case " $fixed " in *" $d "*) ;; *) on_regress="" ;; esac; done
	[ -z "$on_regress" ] || refuse "branch $b's trees carry the fix already (its $fix variant is the project's regress patches undone): nothing to export"
fi
name=$(git config user.name || true)
email=$(git config user.email || true)
if [ -z "$name" ] || [ -z "$email" ]; then
	die "no git identity for the Signed-off-by line: set it with git config --global user.name \"Your Name\" and git config --global user.email you@example.org"
fi
sob="Signed-off-by: $name <$email>"

dirs=()
for d in $fixed; do
	if [ -z "$full" ]; then
		case " $regress " in *" $d "*) continue ;; esac
	fi
	dirs+=("$d")
done
patches=()
[ ${#dirs[@]} -eq 0 ] || mapfile -t patches < <("$here/plan.sh" series "${dirs[@]}")
[ ${#patches[@]} -gt 0 ] || die "branch $b: no patches to export"
# signed PATCH: the patch with $sob after its last trailer (before the
# first "---" line), unless the exporter already signed it.
signed() {
	awk -v sob="$sob" '!done && /^---$/ { if (last != sob) print sob; done = 1 }
		{ print; if (!done) last = $0 }' "$1"
}
case "$fmt" in mbox | quilt | debian) ;; *) die "unknown FORMAT '$fmt': use mbox, quilt or debian" ;; esac
mkdir -p "$out"
case "$fmt" in
mbox)
	for p in "${patches[@]}"; do signed "$p"; done >"$out/$b-leap.mbox"
	echo "$out/$b-leap.mbox: ${#patches[@]} patches (git am $out/$b-leap.mbox)" ;;
quilt)
	mkdir -p "$out/patches"
	: >"$out/patches/series"
	for p in "${patches[@]}"; do
		signed "$p" >"$out/patches/$(basename "$p")"
		basename "$p" >>"$out/patches/series"
	done
	echo "$out/patches: ${#patches[@]} patches and series (quilt push -a)" ;;
debian)
	dir=bugfix/all/leap-second
	mkdir -p "$out/debian/patches/$dir"
	: >"$out/series.add"
	for p in "${patches[@]}"; do
		signed "$p" >"$out/debian/patches/$dir/$(basename "$p")"
		echo "$dir/$(basename "$p")" >>"$out/series.add"
	done
	echo "$out/debian/patches/$dir: ${#patches[@]} patches; add $out/series.add to debian/patches/series" ;;
esac
