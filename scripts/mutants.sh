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
# (hotplug, set_in_leap) unless LEAP_CMDLINE says otherwise.  The table is
# RUN/kill-table.txt (scripts/kill-table.sh), with, per mutant, in how many
# of the guests' leap rounds its killer tests all failed.
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

# The kill table (RUN/kills.json, RUN/kill-table.txt) and the exit status.
exec "$here/kill-table.sh" "$runs" "$RUN" ${results[@]+"${results[@]}"}
