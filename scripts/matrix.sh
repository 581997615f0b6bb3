#!/bin/bash
# matrix.sh - run cells one after another, then report; exit 0 only if every
# cell's verdict is in its expected set.
#
# Usage: matrix.sh CELL...
#
# Holds BUILD_DIR/.lock for the whole run: a second run on the same build
# directory is refused instead of corrupting it.  Results go to
# BUILD_DIR/results/<run>/ with a "latest" link beside.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath -m "${BUILD_DIR:-$(dirname "$here")/build}")
[ $# -gt 0 ] || { echo "matrix: no cells selected (see 'make list-cells')" >&2; exit 2; }
mkdir -p "$build/results"
exec 8>"$build/.lock"
flock -n 8 || { echo "matrix: another make run is using $build (lock $build/.lock): wait for it, or set BUILD_DIR to another directory" >&2; exit 1; }

run_id=$(date -u +%Y%m%d-%H%M%S)
run=$build/results/$run_id
mkdir -p "$run"
ln -sfn "$run_id" "$build/results/latest"
printf '%s\n' "$@" >"$run/cells.list"
start=$(date +%s)
i=0
for cell in "$@"; do
	i=$((i + 1))
	BUILD_DIR=$build "$here/cell.sh" "$cell" "$run" "$i/$#" || true
done
echo "$(($(date +%s) - start))" >"$run/wall_s"
exec "$here/report.sh" "$run"
