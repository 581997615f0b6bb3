#!/bin/bash
# mutants.sh - build and boot every mutant of a branch on each of its arches,
# and print the kill table: mutant, arch, verdict, killed?, failed KTAP tests.
#
# Usage: mutants.sh BRANCH [ARCH]
#
# A mutant is a directory mutants/<branch>/<name>/ with a series, its patches
# (test fixtures, not fixes) and a mutant.mk: KILLED_BY (the verdicts that
# kill it) and KILLER_TESTS (the KTAP tests that must be among the failed
# ones: a mutant killed for another reason is a finding, not a kill).  The
# planner turns each into a cell <branch>-<arch>-<name> expecting exactly
# that; the runner (matrix.sh) runs them with the stock cells.  Exit 0 only if
# the stock cell passes on every arch and every mutant is killed for its
# reason.  The table is RUN/kill-table.txt.
set -eu -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
case $# in 1 | 2) ;; *) echo "usage: mutants.sh BRANCH [ARCH]" >&2; exit 2 ;; esac
cells=$("$here/plan.sh" mutant-cells "$1" "${2:-}") || exit 2
build=$(build_dir)
lock_build mutants "$build"
new_run mutants- "$build"
rc=0
# shellcheck disable=SC2086 # a list of cells
"$here/matrix.sh" -d "$RUN" $cells || rc=$?
echo

jq -r '
	(["mutant", "arch", "verdict", "killed", "failed KTAP tests"] | @tsv),
	(.[] | [(if .mutant then .variant else "(stock)" end), .arch, .verdict,
		(if .mutant then (if .ok then "yes" elif (.verdict as $v | .expected | index([$v])) then "no (not " + (.killer_tests - .failed_tests | join(",")) + ")" else "no" end) else "-" end),
		(.failed_tests | join(","))] | @tsv),
	("mutants: \([.[] | select(.mutant and .ok)] | length)/\([.[] | select(.mutant)] | length) killed for their reason; stock: " +
		([.[] | select(.mutant | not) | .arch + " " + .verdict] | join(" ")))' "$RUN/results.json" |
	awk -F'\t' 'NF > 1 { printf "%-32s %-7s %-8s %-7s %s\n", $1, $2, $3, $4, $5; next } { print }' >"$RUN/kill-table.txt"
cat "$RUN/kill-table.txt"
exit "$rc"
