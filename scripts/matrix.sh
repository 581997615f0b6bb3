#!/bin/bash
# matrix.sh - run cells, then report; exit 0 only if every cell's verdict is
# in its expected set.
#
# Usage: matrix.sh CELL...
#
# Two pipelines over the cells, in list order: one builder (a kernel build
# already uses every core, so builds go one at a time; a cached image makes
# a cell's build step instant) and BOOTS boot slots (default 2) that boot
# each cell as soon as its image is ready.  So boots overlap the next
# builds, and a warm run (every image cached) boots two guests at a time.
# BOOTS=1 boots one guest at a time.  The trees the cells need are
# downloaded in the background from the start, in the order the builder
# wants them.
#
# Holds BUILD_DIR/.lock for the whole run: a second run on the same build
# directory is refused instead of corrupting it.  Results go to
# BUILD_DIR/results/<run>/ with a "latest" link beside.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath -m "${BUILD_DIR:-$(dirname "$here")/build}")
boots=${BOOTS:-2}
[ $# -gt 0 ] || { echo "matrix: no cells selected (see 'make list-cells')" >&2; exit 2; }
case "$boots" in [1-9] | [1-9][0-9]) ;; *) echo "matrix: BOOTS=$boots: give a number of boot slots, 1 or more" >&2; exit 2 ;; esac
case "${SILENCE:-20}" in [0-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) echo "matrix: SILENCE=$SILENCE: give whole seconds (0 turns the silence kill off)" >&2; exit 2 ;; esac
mkdir -p "$build/results"
exec 8>"$build/.lock"
flock -n 8 || { echo "matrix: another make run is using $build (lock $build/.lock): wait for it, or set BUILD_DIR to another directory" >&2; exit 1; }
export BUILD_DIR=$build

run_id=$(date -u +%Y%m%d-%H%M%S)
run=$build/results/$run_id
mkdir -p "$run"
ln -sfn "$run_id" "$build/results/latest"
printf '%s\n' "$@" >"$run/cells.list"
start=$(date +%s)

# Prefetch: each Debian tree once, in cell order (a user's KSRC needs none).
# A failure here is not reported: the builder fetches again and says why.
if [ -z "${KSRC:-}" ]; then
	"$here/plan.sh" packages "$@" | while read -r pkg suites; do
		"$here/fetch-tree.sh" "$pkg" "$suites" "$build" >/dev/null 2>&1 || true
	done &
fi

# Boot dispatcher: reads "INDEX/TOTAL CELL" lines as images become ready and
# keeps at most $boots cells booting.
ready=$run/.ready
mkfifo "$ready"
(
	while read -r pos cell; do
		while [ "$(jobs -rp | wc -l)" -ge "$boots" ]; do wait -n || true; done
		BOOT_ONLY=1 "$here/cell.sh" "$cell" "$run" "$pos" &
	done <"$ready"
	wait
) &
dispatcher=$!
exec 9>"$ready"
i=0
for cell in "$@"; do
	i=$((i + 1))
	BUILD_ONLY=1 "$here/cell.sh" "$cell" "$run" "$i/$#" || true
	echo "$i/$# $cell" >&9
done
exec 9>&-
wait "$dispatcher" || true
rm -f "$ready"
wait
echo "$(($(date +%s) - start))" >"$run/wall_s"
exec "$here/report.sh" "$run"
