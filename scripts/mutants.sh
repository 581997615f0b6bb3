#!/bin/bash
# mutants.sh - build and boot every mutant of a branch on each of its arches,
# and print the kill table: mutant, arch, verdict, killed?, failed KTAP tests.
#
# Usage: mutants.sh [-r RUNS] [-c CONFIG] BRANCH [ARCH]
#   -r RUNS    boots per cell (default 3): a mutant is killed only when every
#              boot kills it for its reason, and the stock cell must pass every time
#   -c CONFIG  build them from that configuration (kconfigs/; default tiny)
#
# A mutant is a directory mutants/<branch>/<name>/ with a series, its patches
# (test fixtures, not fixes) and a mutant.mk: KILLED_BY (the verdicts that
# kill it), KILLER_TESTS (the KTAP tests that must be among the failed
# ones: a mutant killed for another reason is a finding, not a kill) and,
# for a splat, KILLER_SPLAT (the console must show that one).  The planner
# turns each into a cell <branch>-<arch>-<name> expecting exactly that; the
# runner (matrix.sh) runs them with the stock cells, once per round (RUN/1,
# RUN/2, ...).  Exit 0 only if the stock cell passes on every arch in every
# round and every mutant is killed for its reason in every round.  The
# guest also runs four rounds of leaps and the test's extra-leap modes
# (hotplug, set_in_leap) unless LEAP_CMDLINE says otherwise.  The table is RUN/kill-table.txt.
set -eu -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
runs=3 config=""
while getopts r:c: o; do
	case "$o" in
	r) runs=$OPTARG ;;
	c) config=$OPTARG ;;
	*) echo "usage: mutants.sh [-r RUNS] [-c CONFIG] BRANCH [ARCH]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case "$runs" in [1-9] | [1-9][0-9]) ;; *) echo "mutants: -r $runs: give a number of rounds, 1 to 99" >&2; exit 2 ;; esac
case $# in 1 | 2) ;; *) echo "usage: mutants.sh [-r RUNS] [-c CONFIG] BRANCH [ARCH]" >&2; exit 2 ;; esac
# The leap test's modes with leaps of their own run here too (a CPU offline
# during a leap, the clock set during 23:59:60), and four rounds of leaps
# per boot: a fault that shows only inside the short window between a
# leap's boundary and the tick that applies it (M7) gets four chances a
# boot (the KTAP report is the first round that failed; each round's failed
# tests are on the console).  LEAP_CMDLINE overrides.
export LEAP_CMDLINE="${LEAP_CMDLINE:-leaptest.leaps=8 leaptest.hotplug=1 leaptest.set_in_leap=1}"
cells=$("$here/plan.sh" mutant-cells "$1" "${2:-}" "$config") || exit 2
build=$(build_dir)
lock_build mutants "$build"
new_run mutants- "$build"
results=()
for i in $(seq "$runs"); do
	echo "== round $i of $runs"
	# shellcheck disable=SC2086 # a list of cells
	"$here/matrix.sh" -d "$RUN/$i" $cells || true
	[ ! -f "$RUN/$i/results.json" ] || results+=("$RUN/$i/results.json")
done
echo

# One row per cell over every round (RUN/kills.json): its verdicts and how
# many rounds it was as expected in; killed only when all were.  The table
# and the exit status both come from it.
jq -s 'map(.[]) | group_by(.cell) | map({cell: .[0].cell, mutant: .[0].mutant, variant: .[0].variant,
	arch: .[0].arch, verdicts: map(.verdict), oks: (map(select(.ok)) | length), rows: .})' \
	${results[@]+"${results[@]}"} >"$RUN/kills.json"
jq -r --argjson runs "$runs" '
	(["mutant", "arch", "verdicts", "killed", "failed KTAP tests"] | @tsv),
	(.[] | [(if .mutant then .variant else "(stock)" end), .arch, (.verdicts | join(" ")),
		(if .mutant then (if .oks == $runs then "yes \(.oks)/\($runs)" else "no \(.oks)/\($runs)" +
			([.rows[] | select(.ok | not) |
			  if .verdict == "SPLAT" and (.expected | index(["SPLAT"])) then " (not the splat /" + .killer_splat + "/)"
			  elif (.verdict as $v | .expected | index([$v])) then " (not " + (.killer_tests - .failed_tests | join(",")) + ")"
			  else "" end] | unique | join("")) end)
		 else (if .oks == $runs then "-" else "stock wrong \($runs - .oks)/\($runs)" end) end),
		([.rows[].failed_tests[]] | unique | join(","))] | @tsv),
	("mutants: \([.[] | select(.mutant and .oks == $runs)] | length)/\([.[] | select(.mutant)] | length) killed for their reason in \($runs) of \($runs) rounds; stock: " +
		([.[] | select(.mutant | not) | .arch + " " + (.verdicts | join(","))] | join(" ")))' "$RUN/kills.json" |
	awk -F'\t' 'NF > 1 { printf "%-32s %-7s %-20s %-9s %s\n", $1, $2, $3, $4, $5; next } { print }' >"$RUN/kill-table.txt"
cat "$RUN/kill-table.txt"
# Every cell as expected in every round (and every round left its results).
[ "${#results[@]}" -eq "$runs" ] && jq -e --argjson runs "$runs" 'all(.oks == $runs)' "$RUN/kills.json" >/dev/null
