#!/bin/bash
# merge-results.sh - one report from several runs (e.g. one CI runner per cell).
#
# Usage: merge-results.sh OUT_DIR RUN_DIR...
# Each RUN_DIR is a results directory (build/results/<run>) or a copy of one;
# their cells/ are gathered in OUT_DIR (cell.json paths are relative to the
# run directory, so they hold there too), then report.sh writes the table,
# results.json, junit.xml and index.html.  A cell present in two runs keeps
# the later run's result.  Exit status: report.sh's.
set -eu

[ $# -ge 2 ] || { echo "usage: merge-results.sh OUT_DIR RUN_DIR..." >&2; exit 2; }
out=$1
shift
mkdir -p "$out/cells"
for run in "$@"; do
	[ -d "$run/cells" ] || { echo "merge-results: $run has no cells/ (not a results directory)" >&2; exit 1; }
	[ -f "$run/cells.list" ] && cat "$run/cells.list" >>"$out/cells.list"
	for c in "$run"/cells/*/; do
		name=$(basename "$c")
		rm -rf "$out/cells/$name"
		cp -r "$c" "$out/cells/$name"
	done
done
exec "$(dirname "$0")/report.sh" "$out"
