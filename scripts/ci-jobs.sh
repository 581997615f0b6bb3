#!/bin/bash
# ci-jobs.sh - the matrix's cells as CI jobs: one job per tree and arch (its
# cells share the tree's download and, per configuration, its build) or one
# job per cell.
#
# Usage: ci-jobs.sh PER FORMAT CELL...
#   PER     tree-arch | cell
#   FORMAT  list    a line per job: NAME, a tab, its cells
#           json    {"include": [{"job": NAME, "cells": "CELL ..."}, ...]},
#                   a GitHub Actions strategy.matrix (.github/workflows/)
#           gitlab  a child pipeline: ci/gitlab-cells.yml included, a job
#                   each extending its .cells with the cells in CELLS
#                   (.gitlab-ci.yml's plan job writes it)
# A job's cells run with `make cell CELL="$CELLS"`.  The cells come from
# `make list-cells` (make list-jobs passes them), in its order.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
die() { echo "ci-jobs: $*" >&2; exit 2; }
[ $# -ge 2 ] || { echo "usage: ci-jobs.sh tree-arch|cell list|json|gitlab CELL..." >&2; exit 2; }
per=$1 format=$2
shift 2
case "$per" in tree-arch | cell) ;; *) die "PER=$per: give tree-arch (a job per tree and arch, the default) or cell (a job per cell)" ;; esac
case "$format" in list | json | gitlab) ;; *) die "FORMAT=$format: give list, json (GitHub Actions) or gitlab (a GitLab child pipeline)" ;; esac
[ $# -gt 0 ] || die "no cells selected: nothing to run"

# NAME<TAB>CELLS, a line per job, in the cells' order.
# The planner reads each name back (branch and arch: fields 2 and 3).
fields=$("$here/plan.sh" fields "$@") || exit 2
jobs=$(while IFS=$'\t' read -r cell branch arch _; do
	job=$cell
	[ "$per" != tree-arch ] || job=$branch-$arch
	printf '%s\t%s\n' "$job" "$cell"
done <<<"$fields" | awk -F'\t' '!($1 in cells) { order[++n] = $1; cells[$1] = $2; next } { cells[$1] = cells[$1] " " $2 }
	END { for (i = 1; i <= n; i++) print order[i] "\t" cells[order[i]] }')

case "$format" in
list) printf '%s\n' "$jobs" ;;
json)
	printf '%s\n' "$jobs" | jq -R -n -c '{include: [inputs | split("\t") | {job: .[0], cells: .[1]}]}' ;;
gitlab)
	echo "# The matrix's cells, a job per ${per/tree-arch/tree and arch} (scripts/ci-jobs.sh)."
	echo "include:"
	echo "  - local: ci/gitlab-cells.yml"
	# A JSON string is a YAML double-quoted scalar: jq writes both.
	printf '%s\n' "$jobs" | jq -R -r 'split("\t") | "\n\(.[0] | tojson):\n  extends: .cells\n  variables:\n    CELLS: \(.[1] | tojson)"' ;;
esac
