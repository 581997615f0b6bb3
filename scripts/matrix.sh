#!/bin/bash
# matrix.sh - the runner: plan the cells, build and boot them, report; exit 0
# only if every cell's verdict is in its expected set.
#
# Usage: matrix.sh [-n] [-p PREFIX | -d RUN_DIR] CELL...
#   -n          dry run: print each cell's resolved plan (JSON), build nothing
#   -p PREFIX   name the run directory PREFIX<time> (default: <time>)
#   -d RUN_DIR  put the results in RUN_DIR instead
#
# In order: every cell name is checked (one line on a bad one, before
# anything else); the build directory is locked (a second run on it is
# refused); the host tools the cells need are checked or installed; each
# cell's inputs are pinned (scripts/plan.sh pin: the Debian version of each
# tree, each configuration base) and the cell planned once (scripts/plan.sh
# resolve: RUN/cells/<cell>/plan.json);
# the guests' initramfs are built.  Then two pipelines over the cells, in
# list order: one builder (scripts/build-cell.sh; a kernel build already uses
# every core, so builds go one at a time, and a cached image makes a cell's
# build step instant) and BOOTS boot slots (scripts/boot-cell.sh) that boot
# each cell as soon as its build step is done.  The Debian trees download in
# the background from the start, in the order the builder wants them.
# Guests come first: a leap's window lasts a few milliseconds of the
# guest's time, and a guest whose vCPUs the host takes away across it sees
# none of it (docs/leap-test.md).  So BOOTS defaults to the host's cores
# over a guest's CPUs (at least 1), a build step and the guests never run
# at once (the builder holds RUN/.cpu exclusively, each guest shared: even
# at nice 19 a build next to a guest cost a guest every window of three
# rounds), and the builder and the downloads run at the lowest
# priority (nice 19).  Results: BUILD_DIR/results/<run>/ and a "latest"
# link beside it.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
usage() { echo "usage: matrix.sh [-n] [-p PREFIX | -d RUN_DIR] CELL..." >&2; exit 2; }
dry="" prefix="" RUN=""
while getopts np:d: o; do
	case "$o" in
	n) dry=1 ;;
	p) prefix=$OPTARG ;;
	d) RUN=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "matrix: no cells selected (see 'make list-cells')" >&2; exit 2; }
boots=${BOOTS:-}
case "$boots" in "" | [1-9] | [1-9][0-9]) ;; *) echo "matrix: BOOTS=$boots: give a number of boot slots, 1 or more" >&2; exit 2 ;; esac
# Every cell name and input (LIMIT, SILENCE, JOBS) checked, and the tools
# the cells need listed, before anything else.
tools=$("$here/plan.sh" tools "$@") || exit 2
build=$(build_dir)
export BUILD_DIR=$build

# The dry run plans into BUILD_DIR/dry-run (what it prints stays there),
# from what was pinned before: it goes to the network only for a tree or a
# configuration never pinned in this build directory.
if [ -n "$dry" ]; then
	"$here/plan.sh" pin --missing "$@"
	"$here/plan.sh" resolve "$build/dry-run" "$@"
	plans=()
	for c in "$@"; do plans+=("$build/dry-run/cells/$c/plan.json"); done
	jq . "${plans[@]}"
	exit 0
fi

lock_build matrix "$build"
# shellcheck disable=SC2086 # a list of TOOL:PACKAGE words
"$here/deps.sh" $tools
if [ -n "$RUN" ]; then mkdir -p "$RUN"; RUN=$(realpath "$RUN"); else new_run "$prefix" "$build"; fi
printf '%s\n' "$@" >"$RUN/cells.list"
start=$(date +%s)
"$here/plan.sh" pin "$@"
"$here/plan.sh" resolve "$RUN" "$@"
plans=()
for c in "$@"; do plans+=("$RUN/cells/$c/plan.json"); done
# No BOOTS: the host's cores over a guest's CPUs (its QEMU -smp), at least 1.
if [ -z "$boots" ]; then
	boots=$(($(nproc) / $(jq -r '.qemu.argv | .[index("-smp") + 1]' "${plans[0]}")))
	[ "$boots" -gt 0 ] || boots=1
fi

# The guests: one initramfs per flavour the cells boot.
jq -r '[.initramfs.cc, .initramfs.path] | @tsv' "${plans[@]}" | awk '!seen[$0]++' >"$RUN/.guests"
while IFS=$'\t' read -r cc initrd; do
	"$here/guest.sh" "$cc" "$initrd" || { echo "matrix: the guest for $initrd did not build (see above); no cell ran" >&2; exit 1; }
done <"$RUN/.guests"
rm -f "$RUN/.guests"

# Prefetch: each Debian tree once, at its planned version, in cell order.  A
# failure here is not reported: the builder fetches again and says why.
jq -r 'select(.tree.source == "debian") | [.tree.package, (.tree.suites | join(" ")), .tree.version] | @tsv' "${plans[@]}" |
	awk '!seen[$0]++' | while IFS=$'\t' read -r pkg suites version; do
		nice -n 19 "$here/fetch-tree.sh" "$pkg" "$suites" "$build" "$version" >/dev/null 2>&1 || true
	done &

# Boot dispatcher: reads "INDEX/TOTAL PLAN" lines as build steps finish and
# keeps at most $boots cells booting.
# The lock that keeps builds and guests apart (LEAP_CPU_LOCK: a caller's,
# shared with its own CPU-heavy steps: scripts/shipped.sh's unpacking).
cpu=${LEAP_CPU_LOCK:-$RUN/.cpu}
ready=$RUN/.ready
rm -f "$ready"
mkfifo "$ready"
(
	while read -r pos plan; do
		while [ "$(jobs -rp | wc -l)" -ge "$boots" ]; do wait -n || true; done
		flock -s "$cpu" "$here/boot-cell.sh" "$plan" "$pos" &
	done <"$ready"
	wait
) &
dispatcher=$!
exec 9>"$ready"
i=0
for plan in "${plans[@]}"; do
	i=$((i + 1))
	flock -x "$cpu" nice -n 19 "$here/build-cell.sh" "$plan" "$i/$#" || true
	# PUBLISH=dir: the cell's kernel and initramfs in dir/<cell>/ (a LAVA lab's artifacts).
	[ -z "${PUBLISH:-}" ] || "$here/publish-cell.sh" "$plan" "$(realpath -m "$PUBLISH")" || true
	echo "$i/$# $plan" >&9
done
exec 9>&-
wait "$dispatcher" || true
rm -f "$ready"
[ -n "${LEAP_CPU_LOCK:-}" ] || rm -f "$cpu"
wait
echo "$(($(date +%s) - start))" >"$RUN/wall_s"
exec "$here/report.sh" "$RUN"
