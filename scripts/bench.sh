#!/bin/bash
# bench.sh - measure the matrix's speed against its targets and record it in
# docs/results.md (between the "bench" markers).
#
# Usage: bench.sh [-n] [-r RUNS] [-c | -b]
#   -n       name the cells it would measure (a line each) and stop
#   -r RUNS  repetitions of the cheap figures (default 5)
#   -c       first measure a cold `make matrix` in a fresh build directory
#            (downloads, extraction, every build: about 50 minutes for the
#            first 40 cells on 2 cores, nearly 3 hours for 112), then take
#            the other figures on what it built
#   -b       first build each arch's stock cell from nothing (its image
#            and object directory removed): the per-arch build figures
#            without a cold matrix (about 5 minutes an arch here)
# Figures, on the reference branch (harness.mk; its shipped variant, and its
# regress variant for the switch): one cell's boot + leap test on each arch (wall,
# QEMU started to QEMU gone; each arch after the first also against twice
# the first's); with -c or -b, each arch's tiny full build against 1.5 times
# the first's; a variant switch with its incremental rebuild
# (patch, build, restore) on its first arch; a warm `make matrix` (every
# image cached: reboots only); and, with -c, the cold matrix.  Every run goes
# through the runner (matrix.sh) under the build directory's lock.  The warm
# figure is taken only when BUILD_DIR holds every cell's image (else the
# table says how many are missing: it never builds the whole matrix).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
runs=5 cold="" fresh="" names=""
while getopts nr:cb o; do
	case "$o" in
	n) names=1 ;;
	r) runs=$OPTARG ;;
	c) cold=1 ;;
	b) fresh=1 ;;
	*) echo "usage: bench.sh [-n] [-r RUNS] [-c | -b]" >&2; exit 2 ;;
	esac
done
[ -z "$cold" ] || [ -z "$fresh" ] || { echo "bench: COLD=1 (-c) already builds every arch from nothing: give it or BUILDS=1 (-b), not both" >&2; exit 2; }
case "$runs" in [1-9] | [1-9][0-9]) ;; *) echo "bench: -r $runs: give a number of runs, 1 or more" >&2; exit 2 ;; esac
b=$("$here/plan.sh" role reference) || exit 2
stock=$("$here/plan.sh" cells "$b" "" "$("$here/plan.sh" role shipped)") || exit 2
switch=$("$here/plan.sh" cells "$b" "" "$("$here/plan.sh" role regress)" | head -n 1)
[ -z "$names" ] || { printf '%s\n' "$stock" "$switch"; exit 0; }
all=$("$here/plan.sh" cells) || exit 2
ncells=$(wc -l <<<"$all")
build=$(build_dir)
lock_build bench "$build"
new_run bench- "$build"
out=$RUN
# cell_field RUN_DIR CELL KEY: one number from the cell's cell.json.
cell_field() { jq -r ".$3" "$1/cells/$2/cell.json"; }
# matrix_s START RUN_DIR [NOTE]: seconds since START, the run's "N as
# expected of M" and NOTE.
matrix_s() {
	echo "$(($(date +%s) - $1)) s ($(jq '[.[] | select(.ok)] | length' "$2/results.json" 2>/dev/null || echo '?') as expected of $(jq length "$2/results.json" 2>/dev/null || echo '?')${3:+, $3})"
}

# 5 (first, on request): cold matrix in a fresh build directory (its own
# lock); the other figures then run on it, warm.
cold_s="not measured in this run (bench.sh -c)"
if [ -n "$cold" ]; then
	start=$(date +%s)
	# shellcheck disable=SC2086 # a list of cells
	BUILD_DIR=$out/cold-build LEAP_LOCKED="" "$here/matrix.sh" -d "$out/cold" $all >"$out/cold.log" 2>&1 || true
	cold_s=$(matrix_s "$start" "$out/cold")
	build=$out/cold-build
	export BUILD_DIR=$build
	lock_build bench "$build"
fi

# The runs whose stock cells were full builds (the per-arch build figures).
builds_run=""
[ -z "$cold" ] || builds_run=$out/cold

# 1b (-b): each arch's stock cell built from nothing, one after another.
if [ -n "$fresh" ]; then
	# shellcheck disable=SC2086 # a list of cells
	"$here/plan.sh" pin $stock && "$here/plan.sh" resolve "$out/builds-plan" $stock >/dev/null
	for c in $stock; do
		p=$out/builds-plan/cells/$c/plan.json
		rm -rf "$(jq -r .image.dir "$p")" "$(jq -r .build.objdir "$p")"
		"$here/matrix.sh" -d "$out/builds" "$c" >/dev/null || true
	done
	builds_run=$out/builds
fi

# 1, 2: one cell per arch, boot + leap test (images cached by a first call,
# unless the cold run or -b has just built and booted them).
for c in $stock; do
	[ -n "$builds_run" ] || "$here/matrix.sh" -d "$out/warmup" "$c" >/dev/null || true
	for i in $(seq "$runs"); do
		"$here/matrix.sh" -d "$out/cell-$i" "$c" >/dev/null || true
		cell_field "$out/cell-$i" "$c" boot_s
	done | stats >"$out/stats-$c"
done

# 3: variant switch: drop the cached image, so the cell patches the tree,
# rebuilds what the patches touch, copies the image and restores.
for i in $(seq "$runs"); do
	rm -rf "$build/images/$switch"-*
	"$here/matrix.sh" -d "$out/switch-$i" "$switch" >/dev/null || true
	cell_field "$out/switch-$i" "$switch" build_s
done | stats >"$out/stats-switch"

# 4: warm matrix: every image cached, every cell rebooted; not measured
# when some image is missing (the runner would build it: hours, not reboots).
# shellcheck disable=SC2086
"$here/plan.sh" pin $all && "$here/plan.sh" resolve "$out/warm-plan" $all >/dev/null
missing=0
for c in $all; do
	[ -f "$(jq -r .image.path "$out/warm-plan/cells/$c/plan.json")" ] || missing=$((missing + 1))
done
if [ "$missing" -eq 0 ]; then
	start=$(date +%s)
	# shellcheck disable=SC2086
	"$here/matrix.sh" -d "$out/warm" $all >"$out/warm.log" 2>&1 || true
	warm=$(matrix_s "$start" "$out/warm" "one run")
else
	warm="not measured in this run: $missing of $ncells cells have no image in the build directory (make matrix builds them)"
fi

# The CPU model: figures from two machines of the same size can differ by
# a third (docs/results.md), so the table names the one it was taken on.
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
kvm="not used (the harness runs QEMU TCG)"
[ -e /dev/kvm ] && kvm="$kvm; /dev/kvm present"
# The target for one cell is the arch's (CELL_TARGET_S in its stanza), and
# for every arch after the first, twice the first arch's median in this run.
first=${stock%%$'\n'*}
median() { cut -d' ' -f2 "$out/stats-$1"; }
target() {
	local t
	t="<= $("$here/plan.sh" arch-get "$(jq -r .arch "$out/cell-1/cells/$1/cell.json")" CELL_TARGET_S)"
	[ "$1" = "$first" ] || t="$t; <= 2 x $first: $(awk -v a="$(median "$1")" -v b="$(median "$first")" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }')"
	echo "$t"
}
# A tiny full build per arch (the stock cells of the cold run or of -b),
# next to the first arch's.
builds() {
	local c s f t
	[ -n "$builds_run" ] || return 0
	f=$(jq -r '.build_s' "$builds_run/cells/$first/cell.json" 2>/dev/null || echo 0)
	for c in $stock; do
		s=$(jq -r '.build_s' "$builds_run/cells/$c/cell.json" 2>/dev/null || echo "?")
		if [ "$c" = "$first" ]; then t="(the reference)"; else
			t=$(awk -v a="$s" -v b="$f" -v r="$first" 'BEGIN { printf "<= 1.5 x %s: %.2fx", r, (b > 0 ? a / b : 0) }')
		fi
		echo "| tiny full build ($(basename "$builds_run") run), $c (s) | $s | $t |"
	done
}
{
	echo "<!-- bench: generated by scripts/bench.sh (make bench); rerun it to refresh -->"
	echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') (run $(basename "$out"), BOOTS=${BOOTS:-the default}) on $(nproc) cores${cpu:+ ($cpu)}, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), KVM: $kvm; $runs runs where cheap."
	echo
	echo "| measure | min / median / max | target |"
	echo "|---|---|---|"
	for c in $stock; do
		echo "| one cell: boot + whole leap test, $c (s) | $(sed 's# # / #g' "$out/stats-$c") | $(target "$c") |"
	done
	echo "| variant switch + incremental rebuild, $switch (s) | $(sed 's# # / #g' "$out/stats-switch") | <= 20 |"
	echo "| warm \`make matrix\`, $ncells cells, reboots only | $warm | <= $((12 * ncells)) s (12 s a cell: 480 s for the first 40) |"
	echo "| cold \`make matrix\`, downloads included | $cold_s | <= $((75 * ncells)) s (75 s a cell: 3000 s for the first 40) |"
	builds
	echo "<!-- /bench -->"
} >"$out/table.md"
cat "$out/table.md"
doc_section bench "$out/table.md" "$root/docs/results.md" "Speed (make bench)"
