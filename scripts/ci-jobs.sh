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
arches=$("$here/plan.sh" arches)
jobs=$(for cell in "$@"; do
	job=$cell
	if [ "$per" = tree-arch ]; then
		for a in $arches; do
			case "$cell" in *-"$a"-*) job=${cell%%-"$a"-*}-$a; break ;; esac
		done
	fi
	printf '%s\t%s\n' "$job" "$cell"
done | awk -F'\t' '!($1 in cells) { order[++n] = $1; cells[$1] = $2; next } { cells[$1] = cells[$1] " " $2 }
	END { for (i = 1; i <= n; i++) print order[i] "\t" cells[order[i]] }')

case "$format" in
list) printf '%s\n' "$jobs" ;;
json)
	printf '%s\n' "$jobs" | awk -F'\t' 'BEGIN { printf "{\"include\": [" }
		{ printf "%s{\"job\": \"%s\", \"cells\": \"%s\"}", (NR > 1 ? ", " : ""), $1, $2 } END { print "]}" }' ;;
gitlab)
	echo "# The matrix's cells, a job per ${per/tree-arch/tree and arch} (scripts/ci-jobs.sh)."
	echo "include:"
	echo "  - local: ci/gitlab-cells.yml"
	printf '%s\n' "$jobs" | awk -F'\t' '{ printf "\n\"%s\":\n  extends: .cells\n  variables:\n    CELLS: \"%s\"\n", $1, $2 }' ;;
esac
