#!/bin/bash
# shipped.sh - Debian's shipped kernels booted as they are: the linux-image
# packages of each packaged tree, each a stock cell (@image.<release>),
# expected PASS; a FAIL is a bug in a kernel Debian ships.
#
# Usage: shipped.sh [-a] "BRANCH..." "ARCH..." [BOOT]
#   (empty lists: every packaged branch, every arch Debian builds)
#   default  the images of each tree's planned version (make qemu-6.1 CONFIG=shipped)
#   -a       every version the suites serve: every ABI (make shipped)
#
# One branch and arch at a time: its images are downloaded (cached in
# BUILD_DIR/debs and BUILD_DIR/shipped) while the previous group boots; each
# group is a run of its own under RUN/parts/, and RUN is their merge
# (scripts/merge-results.sh: its wall time is the parts' sum).  A group whose
# packages cannot be fetched is one line and the others go on.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
all=""
[ "${1:-}" != -a ] || { all=1; shift; }
case $# in 2 | 3) ;; *) echo "usage: shipped.sh [-a] \"BRANCH...\" \"ARCH...\" [BOOT]" >&2; exit 2 ;; esac
branches=$1 arches=$2 boot=${3:-}
build=$(build_dir)
export BUILD_DIR=$build
groups=$("$here/plan.sh" shipped-sources "$branches" "$arches") || exit 2
[ -n "$groups" ] || { echo "shipped: no packaged branch is built on ${arches:-any arch} by Debian" >&2; exit 2; }
lock_build shipped "$build"
new_run shipped- "$build"
mkdir -p "$RUN/parts"
# One lock for every part's guests and the unpacking of the next packages.
export LEAP_CPU_LOCK=$RUN/.cpu
start=$(date +%s)

# The downloads, one group after another, ahead of the boots.
(
	n=0
	while IFS=$'\t' read -r b a debarch pkg suites; do
		n=$((n + 1))
		versions=""
		if [ -z "$all" ]; then
			"$here/plan.sh" pin "$b-$a-stock" >/dev/null
			versions=$("$here/plan.sh" pinned "$b")
		fi
		# shellcheck disable=SC2086 # a list of versions
		nice -n 19 "$here/fetch-shipped.sh" "$pkg" "$suites" "$build" "$debarch" $versions \
			>"$RUN/parts/$n.images" 2>"$RUN/parts/$n.fetch.log" \
			|| echo "shipped: $b $a: $(tail -n 1 "$RUN/parts/$n.fetch.log")" >"$RUN/parts/$n.error"
		touch "$RUN/parts/$n.done"
	done <<<"$groups"
) &
fetcher=$!

n=0 parts=()
while IFS=$'\t' read -r b a _ _ _; do
	n=$((n + 1))
	while [ ! -f "$RUN/parts/$n.done" ]; do sleep 1; done
	# What could not be had is said and kept (the table lists it).
	sed -n "s/^fetch-shipped: not fetched: /$b $a: not fetched: /p" "$RUN/parts/$n.fetch.log" | tee -a "$RUN/not-fetched.txt" >&2
	if [ -f "$RUN/parts/$n.error" ]; then
		tee -a "$RUN/not-fetched.txt" <"$RUN/parts/$n.error" >&2
		continue
	fi
	images=$(cut -f1 "$RUN/parts/$n.images" | paste -sd' ')
	echo "shipped: $b $a: $(grep -c . "$RUN/parts/$n.images") images"
	cells=$(IMAGE=$images "$here/plan.sh" cells "$b" "$a" "" "$boot") || continue
	# shellcheck disable=SC2086 # a list of cells
	IMAGE=$images "$here/matrix.sh" -d "$RUN/parts/$n" $cells >"$RUN/parts/$n.log" 2>&1 || true
	grep -E '^\[[0-9]+/[0-9]+\] boot ' "$RUN/parts/$n.log" || tail -n 3 "$RUN/parts/$n.log"
	parts+=("$RUN/parts/$n")
done <<<"$groups"
wait "$fetcher" || true
rm -f "$LEAP_CPU_LOCK"
[ ${#parts[@]} -gt 0 ] || { echo "shipped: no image was booted" >&2; exit 1; }
rc=0
"$here/merge-results.sh" "$RUN" "${parts[@]}" || rc=$?
# The merge's wall time is the boots'; the run's own includes the first download.
echo "$(($(date +%s) - start))" >"$RUN/wall_s"
"$here/report.sh" "$RUN" >/dev/null || true
exit "$rc"
