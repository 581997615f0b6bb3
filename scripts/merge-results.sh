#!/bin/bash
# merge-results.sh - one report from several runs (e.g. one CI runner per cell).
#
# Usage: merge-results.sh OUT_DIR RUN_DIR...
# Each RUN_DIR is a results directory (build/results/<run>) or a copy of one;
# their cells/ are gathered in OUT_DIR (cell.json paths are relative to the
# run directory, so they hold there too), then report.sh writes the table,
# results.json, junit.xml and index.html.  A cell present in two runs keeps
# the later run's result.  When every run recorded its wall time, OUT_DIR's
# is their sum: the time the parts took one after another on one machine.
# Exit status: report.sh's.
set -eu

[ $# -ge 2 ] || { echo "usage: merge-results.sh OUT_DIR RUN_DIR..." >&2; exit 2; }
out=$1
shift
mkdir -p "$out/cells"
wall=0
for run in "$@"; do
	if [ -n "$wall" ] && [ -f "$run/wall_s" ]; then
		wall=$(awk -v w="$wall" '/^[0-9]+$/ { s = w + $1 } END { print s }' "$run/wall_s")
	else
		wall=""
	fi
	[ -d "$run/cells" ] || { echo "merge-results: $run has no cells/ (not a results directory)" >&2; exit 1; }
	[ -f "$run/cells.list" ] && cat "$run/cells.list" >>"$out/cells.list"
	for c in "$run"/cells/*/; do
		name=$(basename "$c")
		rm -rf "$out/cells/$name"
		cp -r "$c" "$out/cells/$name"
	done
done
if [ -n "$wall" ]; then echo "$wall" >"$out/wall_s"; else rm -f "$out/wall_s"; fi
exec "$(dirname "$0")/report.sh" "$out"
