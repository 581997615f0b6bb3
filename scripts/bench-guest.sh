#!/bin/bash
# bench-guest.sh - what a change to the leap test costs in boot time: the
# reference branch's stock cell on the first arch make test boots, booted N
# times with the leap test of git revision REV and N times with this
# checkout's, alternating, on the same cached kernel image.
#
# Usage: bench-guest.sh REV [N]      (N: boots of each, default 3)
# Prints a line per boot (which test, boot_s, the guest's own seconds) and
# the medians with their ratio, and writes them to
# BUILD_DIR/results/bench-guest-<time>.txt.  REV's checkout is a temporary
# git worktree using this checkout's build directory; its guest is built
# there, and this checkout's is built again after each of its boots.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
case $# in 1 | 2) ;; *) echo "usage: bench-guest.sh REV [N]" >&2; exit 2 ;; esac
rev=$1 n=${2:-3}
case "$n" in [1-9] | [1-9][0-9]) ;; *) echo "bench-guest: N=$n: give a number of boots, 1 to 99" >&2; exit 2 ;; esac
git -C "$root" rev-parse --verify -q "$rev^{commit}" >/dev/null ||
	{ echo "bench-guest: $rev is no commit of this repository" >&2; exit 2; }
build=$(build_dir)
cell=$("$here/plan.sh" role reference)-$("$here/plan.sh" test-arches | head -n 1)-$("$here/plan.sh" role shipped)
w=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$w/old" >/dev/null 2>&1 || true; rm -rf "$w"' EXIT
git -C "$root" worktree add -q --detach "$w/old" "$rev"

# One boot of the cell from checkout $2; prints "boot_s guest_s".
boot() {
	local log=$w/$1.log run
	make -s -C "$2" cell CELL="$cell" BUILD_DIR="$build" >"$log" 2>&1 ||
		{ echo "bench-guest: the $1 boot failed (its log: $log)" >&2; cat "$log" >&2; exit 1; }
	run=$(sed -n 's/^results: //p' "$log" | tail -n 1)
	printf '%s %s\n' "$(jq -r .boot_s "$run/cells/$cell/cell.json")" \
		"$(tr -d '\r' <"$run/cells/$cell/console.log" | sed -n 's/^# leaptest: guest_seconds=//p')"
}

out=$build/results/bench-guest-$(date +%Y%m%d-%H%M%S).txt
mkdir -p "$build/results"
{
	echo "cell $cell, leap test of $rev ($(git -C "$root" rev-parse --short "$rev")) against this checkout ($(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- common-tests || echo ', with changes')), $n boots each, alternating"
	for i in $(seq "$n"); do
		echo "before $i $(boot before "$w/old")"
		echo "after $i $(boot after "$root")"
	done
} | tee "$out.tmp"
awk '$1 == "before" || $1 == "after" { b[$1, ++n[$1]] = $3; g[$1, n[$1]] = $4 }
	function med(a, k, m,   i, j, t, v) {
		for (i = 1; i <= m; i++) v[i] = a[k, i]
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
		return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
	}
	END {
		bb = med(b, "before", n["before"]); ba = med(b, "after", n["after"])
		gb = med(g, "before", n["before"]); ga = med(g, "after", n["after"])
		printf "median boot_s: before %.1f, after %.1f (x%.2f); guest seconds: before %.2f, after %.2f (x%.2f)\n",
			bb, ba, ba / bb, gb, ga, ga / gb
	}' "$out.tmp" | tee -a "$out.tmp"
mv "$out.tmp" "$out"
echo "bench-guest: $out"
