#!/bin/bash
# report.sh - a run's results.json, its table (stdout, table.txt, and
# table.md for docs/results.md), index.html, junit.xml and kcidb.json
# (KernelCI's KCIDB, scripts/kcidb.sh), from its cells' cell.json files.
#
# Usage: report.sh RUN_DIR
# Exit 0 only if every cell's verdict is in its expected set.
set -eu

[ $# -eq 1 ] || { echo "usage: report.sh RUN_DIR" >&2; exit 2; }
run=$1
[ -d "$run/cells" ] || { echo "report: no cells in $run (not a results directory)" >&2; exit 2; }

# Cells in run order (cells.list, written by matrix.sh), then any others.
cells=()
while IFS= read -r c; do
	[ -f "$run/cells/$c/cell.json" ] && cells+=("$run/cells/$c/cell.json")
done < <({ [ -f "$run/cells.list" ] && cat "$run/cells.list"; ls "$run/cells"; } | awk '!seen[$0]++')
[ ${#cells[@]} -gt 0 ] || { echo "report: no cell.json under $run/cells" >&2; exit 2; }
jq -s . "${cells[@]}" >"$run/results.json.tmp"
mv "$run/results.json.tmp" "$run/results.json"

wall=$(cat "$run/wall_s" 2>/dev/null || echo "?")
# One line per cell, the fields by name, for the two tables.
rows() {
	jq -r '.[] | [.cell, .tree_version, .verdict, (.expected | join(" ")), .ok,
		(.metrics.wakeups_per_s // "-"), .build_s, .boot_s, .reason,
		([(if ((.unproven // []) | length) > 0 then "unproven: " + (.unproven | join(",")) else empty end),
		  (if ((.skipped_tests // []) | length) > 0 then "skipped: " + (.skipped_tests | map(.test? // .) | join(",")) else empty end),
		  (if (.leaptest_modes // "") != "" and .leaptest_modes != "leaps=2" then "modes: " + .leaptest_modes else empty end)]
		 | join("; "))] | @tsv' "$run/results.json"
}
rows | awk -F'\t' -v wall="$wall" -v run="$run" '
	BEGIN { fmt = "%-24s %-16s %-8s %-14s %-3s %10s %8s %7s %s\n"
		printf fmt, "cell", "tree", "verdict", "expected", "ok", "wakeups/s", "build_s", "boot_s", "" }
	{
		want = $4; gsub(/ /, "|", want)
		printf fmt, $1, $2, $3, want, ($5 == "true" ? "ok" : "NO"), $6, $7, sprintf("%.1f", $8), $10
		total++; if ($5 == "true") good++; else bad = bad "  " $1 ": " $3 " (" $9 ")\n"
	}
	END {
		printf "cells: %d total, %d as expected, %d unexpected (wall %s s)\n", total, good, total - good, wall
		if (bad) printf "unexpected:\n%s", bad
		printf "results: %s\n", run
		exit total == good ? 0 : 1
	}' | tee "$run/table.txt"
rc=${PIPESTATUS[1]}
rows | awk -F'\t' -v wall="$wall" -v run="$(basename "$run")" '
	BEGIN { print "| cell | tree | verdict | expected | ok | wakeups/s | build s | boot s |"; print "|---|---|---|---|---|---:|---:|---:|" }
	{ want = $4; gsub(/ /, " or ", want)
	  printf "| %s | %s | %s%s | %s | %s | %s | %s | %.1f |\n", $1, $2, $3, ($10 ? " (" $10 ")" : ""), want, ($5 == "true" ? "yes" : "**no**"), $6, $7, $8
	  n++; if ($5 == "true") ok++ }
	END { printf "\n%d cells, %d as expected, %d unexpected; wall %s s (run %s).\n", n, ok, n - ok, wall, run }' >"$run/table.md"
"$(dirname "$0")/html-report.sh" "$run"
# KCIDB I/O data (schema v4) for KernelCI's database; ORIGIN= names the submitter.
"$(dirname "$0")/kcidb.sh" "$run"
echo "report: $run/index.html, $run/junit.xml, $run/kcidb.json"
exit "$rc"
