#!/bin/bash
# results-table.sh - a run's cells as a Markdown table, for docs/results.md.
#
# Usage: results-table.sh RUN_DIR
# Columns: cell, Debian package version, verdict, expected, wakeups/s after the
# insert (highest CPU), build and boot seconds; then the totals line.
set -eu
run=${1:?usage: results-table.sh RUN_DIR}
if [ -f "$run/rows.tsv" ]; then cat "$run/rows.tsv"; else cat "$run"/cells/*/cell.tsv; fi | awk -F'\t' -v wall="$(cat "$run/wall_s" 2>/dev/null || echo "?")" -v run="$(basename "$run")" '
	BEGIN { print "| cell | tree | verdict | expected | ok | wakeups/s | build s | boot s |"; print "|---|---|---|---|---|---:|---:|---:|" }
	{ want = $7; gsub(/ /, " or ", want)
	  printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $5, $6, want, ($8 == "true" ? "yes" : "**no**"), $9, $10, $11
	  n++; if ($8 == "true") ok++ }
	END { printf "\n%d cells, %d as expected, %d unexpected; wall %s s (run %s).\n", n, ok, n - ok, wall, run }'
