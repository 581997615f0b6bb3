#!/bin/bash
# repeat.sh - boot the same cells N times (optionally with every host core
# busy) and report wrong verdicts and the spread of the metrics.
#
# Usage: repeat.sh [-n N] [-l] [-s] [CELL...]
#   -n N  boots per cell (default 20)
#   -l    run a CPU hog on every host core meanwhile (started and stopped here)
#   -s    soak: 100 leaps in each boot (leaptest.leaps=100), LIMIT 900 s
#   CELL  default: the stock and regress cells of branch 6.1, every arch
# Images come from the cache (a first run builds them).  Results go to
# BUILD_DIR/results/repeat-<time>/ (one runner's run per round, 1/ ... N/)
# with summary.txt.  Exit 1 on any verdict outside its cell's expected set.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
n=20 load="" soak=""
while getopts n:ls o; do
	case "$o" in
	n) n=$OPTARG ;;
	l) load=1 ;;
	s) soak=1 ;;
	*) echo "usage: repeat.sh [-n N] [-l] [-s] [CELL...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case "$n" in [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) echo "repeat: -n $n: give a number of boots, 1 or more" >&2; exit 2 ;; esac
if [ $# -eq 0 ]; then
	cells=$("$here/plan.sh" cells "$("$here/plan.sh" role reference)" "" \
		"$("$here/plan.sh" role shipped) $("$here/plan.sh" role regress)") || exit 2
	# shellcheck disable=SC2086
	set -- $cells
fi
"$here/plan.sh" tools "$@" >/dev/null || exit 2
if [ -n "$soak" ]; then
	# 50 rounds of an insertion and a deletion: about 6 s of guest time each.
	export LEAP_CMDLINE="${LEAP_CMDLINE:+$LEAP_CMDLINE }leaptest.leaps=100" LIMIT=900
fi
build=$(build_dir)
lock_build repeat "$build"
new_run "repeat-${load:+loaded-}${soak:+soak-}" "$build"
run=$RUN

hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true; }
trap stop_hogs EXIT
if [ -n "$load" ]; then
	for _ in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		hogs+=($!)
	done
fi
# Each round is one runner's run; its output goes to RUN/<round>.log.
for i in $(seq "$n"); do
	BOOTS=1 "$here/matrix.sh" -d "$run/$i" "$@" >"$run/$i.log" 2>&1 || true
done
stop_hogs
hogs=()

# Per cell: runs, wrong verdicts, the verdicts seen, wakeups/s and boot_s.
# A round that left no result for a cell counts as a wrong verdict (ERROR).
all=()
for i in $(seq "$n"); do
	[ -f "$run/$i/results.json" ] && all+=("$run/$i/results.json")
done
for c in "$@"; do
	[ ${#all[@]} -gt 0 ] && jq -s -r --arg c "$c" --argjson n "$n" '[.[][] | select(.cell == $c)] |
		[$c, $n, ($n - length + ([.[] | select(.ok | not)] | length)),
		 (([.[].verdict] + (if length < $n then ["ERROR"] else [] end)) | unique | join(" "))] | @tsv' "${all[@]}" \
		|| printf '%s\t%s\t%s\tERROR\n' "$c" "$n" "$n"
	{ [ ${#all[@]} -eq 0 ] || jq -s -r --arg c "$c" '.[][] | select(.cell == $c) | .metrics.wakeups_per_s // 0' "${all[@]}"; } | stats | grep . || echo "0 0 0"
	{ [ ${#all[@]} -eq 0 ] || jq -s -r --arg c "$c" '.[][] | select(.cell == $c) | .boot_s' "${all[@]}"; } | stats | grep . || echo "0 0 0"
done | paste - - - | awk -F'\t' -v n="$n" -v load="${load:-0}" -v soak="${soak:-0}" '
	BEGIN {
		printf "repeat: %d boots per cell%s, host cores %s\n", n, (soak ? " of 100 leaps each" : ""), (load ? "busy (CPU hog on each)" : "idle")
		printf "%-22s %5s %6s %-12s %-24s %-18s\n", "cell", "runs", "wrong", "verdicts", "wakeups/s min/med/max", "boot_s min/med/max"
	}
	{ split($5, w, " "); split($6, b, " ")
	  printf "%-22s %5d %6d %-12s %6d/%6d/%6d   %5.1f/%5.1f/%5.1f\n", $1, $2, $3, $4, w[1], w[2], w[3], b[1], b[2], b[3]
	  wrong += $3 }
	END { printf "wrong verdicts: %d\n", wrong; exit wrong > 0 }' | tee "$run/summary.txt"
exit "${PIPESTATUS[2]}"
