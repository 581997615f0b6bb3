#!/bin/bash
# repeat.sh - boot the same cells N times (optionally with both host cores
# busy) and report wrong verdicts and the spread of the metrics.
#
# Usage: repeat.sh [-n N] [-l] [CELL...]
#   -n N  boots per cell (default 20)
#   -l    run a CPU hog on every host core meanwhile (started and stopped here)
#   CELL  default: 6.1-x86_64-stock 6.1-x86_64-regress 6.1-arm64-stock 6.1-arm64-regress
# Images come from the cache (a first run builds them).  Results go to
# BUILD_DIR/results/repeat-<time>/ with summary.txt.  Exit 1 on any verdict
# outside its cell's expected set.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
build=$(realpath -m "${BUILD_DIR:-$(dirname "$here")/build}")
n=20 load=""
while getopts n:l o; do
	case "$o" in
	n) n=$OPTARG ;;
	l) load=1 ;;
	*) echo "usage: repeat.sh [-n N] [-l] [CELL...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- 6.1-x86_64-stock 6.1-x86_64-regress 6.1-arm64-stock 6.1-arm64-regress
for c in "$@"; do "$here/plan.sh" info "$c" >/dev/null || exit 1; done

mkdir -p "$build/results"
exec 8>"$build/.lock"
flock -n 8 || { echo "repeat: another make run is using $build: wait for it" >&2; exit 1; }
run=$build/results/repeat-$(date -u +%Y%m%d-%H%M%S)${load:+-loaded}
mkdir -p "$run"

hogs=()
stop_hogs() { [ ${#hogs[@]} -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true; }
trap stop_hogs EXIT
if [ -n "$load" ]; then
	for _ in $(seq "$(nproc)"); do
		sh -c 'while :; do :; done' &
		hogs+=($!)
	done
fi

for i in $(seq "$n"); do
	for c in "$@"; do
		BUILD_DIR=$build "$here/cell.sh" "$c" "$run/$i" "$i/$n" >/dev/null 2>&1 || true
		cat "$run/$i/cells/$c/cell.tsv" >>"$run/all.tsv"
	done
done
stop_hogs
hogs=()

awk -F'\t' -v n="$n" -v load="${load:-0}" '
	function med(arr, k,   i, j, t) {	# sort the k values, return the middle one
		for (i = 2; i <= k; i++) for (j = i; j > 1 && arr[j - 1] > arr[j]; j--) { t = arr[j]; arr[j] = arr[j - 1]; arr[j - 1] = t }
		return arr[int((k + 1) / 2)]
	}
	{
		c = $1; runs[c]++; if ($8 != "true") wrong[c]++
		verdicts[c] = verdicts[c] (index(verdicts[c], $6) ? "" : " " $6)
		k = runs[c]; w[c, k] = $9 + 0; b[c, k] = $11 + 0
		if (!(c in order)) { order[c] = ++nc; name[nc] = c }
	}
	END {
		printf "repeat: %d boots per cell, host cores %s\n", n, (load ? "busy (CPU hog on each)" : "idle")
		printf "%-22s %5s %6s %-12s %-22s %-18s\n", "cell", "runs", "wrong", "verdicts", "wakeups/s min/med/max", "boot_s min/med/max"
		for (i = 1; i <= nc; i++) {
			c = name[i]; k = runs[c]
			for (j = 1; j <= k; j++) { ww[j] = w[c, j]; bb[j] = b[c, j] }
			m1 = med(ww, k); m2 = med(bb, k)
			printf "%-22s %5d %6d %-12s %6d/%6d/%6d   %5.1f/%5.1f/%5.1f\n", c, k, wrong[c] + 0, verdicts[c], ww[1], m1, ww[k], bb[1], m2, bb[k]
			total_wrong += wrong[c]
		}
		printf "wrong verdicts: %d\n", total_wrong
		exit total_wrong > 0
	}' "$run/all.tsv" | tee "$run/summary.txt"
exit "${PIPESTATUS[0]}"
