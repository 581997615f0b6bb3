#!/bin/bash
# bench-plan.sh - the planner's speed and faithfulness against an older
# planner, in one run: the dry run (make matrix DRY_RUN=1, matrix.sh -n) of
# the tiny cells and of every cell of CONFIG=all BOOT=all, by this checkout's
# planner and by the planner of REV, both reading this checkout's data; then
# every plan of the two compared field by field, image keys included.
# Written to docs/results.md between the "plan-bench" markers (DOC= another
# file).
#
# Usage: bench-plan.sh REV
#   REV  a commit of this repository whose scripts/ plan the cells too
#        (e.g. the last one before the planner moved to Python)
# The cells of CONFIG=all BOOT=all that this checkout cannot plan (a boot
# mode a Debian configuration does not take, a configuration the mirror
# does not serve) are left out of both, and counted.  Both planners run on
# one build directory, pinned first (the older one asks the archive for each
# tree not extracted, as it did).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
[ $# -eq 1 ] || { echo "usage: bench-plan.sh REV" >&2; exit 2; }
rev=$1
git -C "$root" rev-parse -q --verify "$rev^{commit}" >/dev/null || { echo "bench-plan: $rev is no commit of this repository" >&2; exit 2; }
build=$(build_dir)
export BUILD_DIR=$build
lock_build bench-plan "$build"
new_run plan-bench- "$build"
out=$RUN
old=$out/old-checkout
mkdir -p "$old"
git -C "$root" archive "$rev" scripts | tar -x -C "$old"

"$here/plan.sh" cells >"$out/tiny.list"
"$here/plan.sh" cells "" "" "" all all >"$out/all-asked.list" 2>/dev/null
# The cells this checkout plans (-k: one that cannot be planned is named and
# left out, not the whole list).
# shellcheck disable=SC2046 # a list of cells
"$here/plan.sh" pin -k --missing $(cat "$out/all-asked.list") 2>"$out/pin.log" || true
# shellcheck disable=SC2046
"$here/plan.sh" resolve -k "$out/probe" $(cat "$out/all-asked.list") 2>"$out/left-out.log" || true
grep -Fxf <(ls "$out/probe/cells") "$out/all-asked.list" >"$out/all.list" || true
grep -Fvxf "$out/all.list" "$out/all-asked.list" >"$out/left-out.list" || true

# dry NAME SCRIPTS LIST: time the dry run of LIST by SCRIPTS' planner; its
# plans kept in OUT/NAME.
dry() {
	local t0 t1
	rm -rf "$build/dry-run"
	t0=$(date +%s%N)
	# shellcheck disable=SC2046 # a list of cells
	LEAP_ROOT=$root "$2/matrix.sh" -n $(cat "$3") >/dev/null
	t1=$(date +%s%N)
	mv "$build/dry-run" "$out/$1"
	echo $(((t1 - t0) / 1000000))
}
old_tiny=$(dry old-tiny "$old/scripts" "$out/tiny.list")
new_tiny=$(dry new-tiny "$here" "$out/tiny.list")
old_all=$(dry old-all "$old/scripts" "$out/all.list")
new_all=$(dry new-all "$here" "$out/all.list")

# Every plan of the two, field by field (the checkout's root is the same:
# both read this checkout's data).
same() {
	python3 - "$out/old-$1" "$out/new-$1" <<'PY'
import json, os, sys
a, b = sys.argv[1], sys.argv[2]
diff = []
for c in sorted(os.listdir(a + "/cells")):
    pa = json.load(open(f"{a}/cells/{c}/plan.json"))
    pb = json.load(open(f"{b}/cells/{c}/plan.json"))
    for p, base in ((pa, a), (pb, b)):
        p["out"] = p["out"].replace(os.path.realpath(base), "RUN")
        p["qemu"]["argv"] = [x.replace(os.path.realpath(base), "RUN") for x in p["qemu"]["argv"]]
    if pa != pb:
        diff.append(c)
print(len(os.listdir(a + "/cells")), len(diff), " ".join(diff[:5]))
PY
}
read -r n_tiny d_tiny x_tiny <<<"$(same tiny)"
read -r n_all d_all x_all <<<"$(same all)"
left=$(wc -l <"$out/left-out.list")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }

table=$out/table.md
{
	echo "<!-- plan-bench: written by scripts/bench-plan.sh; do not edit by hand -->"
	echo "Run $(basename "$out"): the dry run (\`matrix.sh -n\`: tools, pin, resolve, each plan printed) of this checkout's planner against the planner of $(git -C "$root" rev-parse --short=12 "$rev"), both reading this checkout's data, on one build directory, one after the other.  Target: at least 5 times faster."
	echo
	echo "| cells | how many | before (s) | after (s) | faster | plans identical |"
	echo "|---|---|---|---|---|---|"
	echo "| tiny (make matrix) | $n_tiny | $(ratio "$old_tiny" 1000) | $(ratio "$new_tiny" 1000) | $(ratio "$old_tiny" "$new_tiny")x | $((n_tiny - d_tiny)) of $n_tiny${x_tiny:+ (differ: $x_tiny)} |"
	echo "| CONFIG=all BOOT=all, those planned | $n_all | $(ratio "$old_all" 1000) | $(ratio "$new_all" 1000) | $(ratio "$old_all" "$new_all")x | $((n_all - d_all)) of $n_all${x_all:+ (differ: $x_all)} |"
	echo
	echo "Left out of CONFIG=all BOOT=all: $left cells this checkout does not plan (a boot mode the Debian configuration does not take, or a configuration Debian's mirror did not serve); the list is in the run directory."
	echo "<!-- /plan-bench -->"
} >"$table"
cat "$table"
doc_section plan-bench "$table" "${DOC:-$root/docs/results.md}" "The planner: speed and faithfulness"
