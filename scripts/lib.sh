# shellcheck shell=bash
# lib.sh - what the run scripts share (source it): the build directory, its
# lock, a run directory, and min/median/max.

# The build directory (BUILD_DIR, default ./build), absolute.
build_dir() { realpath -m "${BUILD_DIR:-$(dirname "${BASH_SOURCE[0]}")/../build}"; }

# lock_build NAME BUILD: hold BUILD/.lock until this process and its children
# end, or say who holds it and exit 1.  A child of the holder (LEAP_LOCKED
# names the same directory) goes on under its parent's lock.
lock_build() {
	local name=$1 build=$2
	local fd
	[ "${LEAP_LOCKED:-}" != "$build" ] || return 0
	mkdir -p "$build"
	# A new descriptor each time: a second lock (bench's cold build directory)
	# keeps the first.
	exec {fd}>"$build/.lock"
	flock -n "$fd" || { echo "$name: another make run is using $build (lock $build/.lock): wait for it, or set BUILD_DIR to another directory" >&2; exit 1; }
	export LEAP_LOCKED=$build
}

# new_run PREFIX BUILD: RUN = BUILD/results/<PREFIX><UTC time>, made, and the
# "latest" link pointed at it.
new_run() {
	local base id n=1
	base=$1$(date -u +%Y%m%d-%H%M%S) id=
	mkdir -p "$2/results"
	# Two runs in one second get two directories.
	id=$base
	while ! mkdir "$2/results/$id" 2>/dev/null; do n=$((n + 1)); id=$base.$n; done
	# shellcheck disable=SC2034 # RUN is the caller's
	RUN=$2/results/$id
	ln -sfn "$id" "$2/results/latest"
}

# stats: "min median max" of the numbers on stdin, one decimal each.
stats() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f %.1f %.1f\n", v[1], v[int((NR + 1) / 2)], v[NR] }'
}
