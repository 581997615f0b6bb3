#!/bin/bash
# report.sh - a run's table (stdout and RUN_DIR/table.txt) and results.json,
# from its cells' cell.tsv and cell.json.
#
# Usage: report.sh RUN_DIR
# Exit 0 only if every cell's verdict is in its expected set.
set -eu

run=${1:?usage: report.sh RUN_DIR}
[ -d "$run/cells" ] || { echo "report: no cells in $run" >&2; exit 2; }

{
	printf '[\n'
	sep=""
	for j in "$run"/cells/*/cell.json; do
		[ -f "$j" ] || continue
		printf '%s' "$sep"
		cat "$j"
		sep=","
	done
	printf ']\n'
} >"$run/results.json.tmp"
mv "$run/results.json.tmp" "$run/results.json"

wall=$(cat "$run/wall_s" 2>/dev/null || echo "?")
# Rows in run order (cells.list, written by matrix.sh), then any others.
order() {
	local c
	{ [ -f "$run/cells.list" ] && cat "$run/cells.list"; ls "$run/cells"; } | awk '!seen[$0]++' | while IFS= read -r c; do
		if [ -f "$run/cells/$c/cell.tsv" ]; then cat "$run/cells/$c/cell.tsv"; fi
	done
}
order >"$run/rows.tsv"
awk -F'\t' -v wall="$wall" -v run="$run" '
	BEGIN { fmt = "%-24s %-16s %-8s %-14s %-3s %10s %8s %7s\n"
		printf fmt, "cell", "tree", "verdict", "expected", "ok", "wakeups/s", "build_s", "boot_s" }
	{
		want = $7; gsub(/ /, "|", want)
		printf fmt, $1, $5, $6, want, ($8 == "true" ? "ok" : "NO"), $9, $10, $11
		total++; if ($8 == "true") good++; else bad = bad "  " $1 ": " $6 " (" $12 ")\n"
	}
	END {
		printf "cells: %d total, %d as expected, %d unexpected (wall %s s)\n", total, good, total - good, wall
		if (bad) printf "unexpected:\n%s", bad
		printf "results: %s\n", run
		exit total == good ? 0 : 1
	}' "$run/rows.tsv" | tee "$run/table.txt"
rc=${PIPESTATUS[0]}
"$(dirname "$0")/html-report.sh" "$run"
echo "report: $run/index.html, $run/junit.xml"
exit "$rc"
