#!/bin/bash
# cell.sh - one matrix cell: tree -> patched build -> QEMU boot -> verdict.
#
# Usage: cell.sh CELL RUN_DIR [INDEX/TOTAL]
#
# Environment: BUILD_DIR (default ./build), KSRC (a user's tree instead of the
# Debian package), LIMIT (seconds per boot, default 60), JOBS, KERNEL_CC,
# KERNEL_HOSTCC, CROSS_COMPILE (override the arch's), BUILD_ONLY (stop once
# the image is built and cached), BOOT_ONLY (boot the cached image; never
# fetch or build: matrix.sh's builder did, and said why if it failed).
# Writes RUN_DIR/cells/CELL/{console.log,cell.json}; cell.json is written from
# an EXIT trap, so an interrupted or failed cell still leaves one (verdict
# ERROR).  Images are cached by a key
# over everything that goes into them, so a rerun only boots.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
die() { echo "cell: $*" >&2; exit 1; }
[ $# -ge 2 ] || { echo "usage: cell.sh CELL RUN_DIR [INDEX/TOTAL]" >&2; exit 2; }
cell=$1 run=$2 pos=${3:-1/1}
build=$(realpath -m "${BUILD_DIR:-$root/build}")
limit=${LIMIT:-60}

info=$("$here/plan.sh" info "$cell") || exit 1
eval "$info"
out=$run/cells/$cell
mkdir -p "$out" "$build/locks" "$build/images"

# Reported in cell.json whatever happens below.
verdict=ERROR reason="harness error before boot" tree_version="" image="" build_s=0 boot_s=0
failed="" wakeups_per_s="" early=0 late=0 edge=""
json_str() { printf '"%s"' "$(printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr -d '\000-\037')"; }
write_json() {
	local ok=false e
	for e in $EXPECT; do [ "$e" = "$verdict" ] && ok=true; done
	{
		printf '{"cell": %s, "branch": %s, "arch": %s, "variant": %s,\n' \
			"$(json_str "$cell")" "$(json_str "$BRANCH")" "$(json_str "$ARCH")" "$(json_str "$VARIANT")"
		printf ' "tree": %s, "tree_version": %s, "verdict": %s, "expected": [%s], "ok": %s,\n' \
			"$(json_str "${PACKAGE:-${KSRC:-}}")" "$(json_str "$tree_version")" "$(json_str "$verdict")" \
			"$(for e in $EXPECT; do printf '%s' "${sep:-}$(json_str "$e")"; sep=", "; done)" "$ok"
		printf ' "reason": %s, "failed_tests": %s,\n' "$(json_str "$reason")" "$(json_str "$failed")"
		printf ' "metrics": {"wakeups_per_s": %s, "early_waits": %s, "late_waits": %s, "leap_edge": %s},\n' \
			"${wakeups_per_s:-null}" "$early" "$late" "$(json_str "$edge")"
		printf ' "build_s": %s, "boot_s": %s, "console": %s, "image": %s}\n' \
			"$build_s" "$boot_s" "$(json_str "$out/console.log")" "$(json_str "$image")"
	} >"$out/cell.json.tmp"
	mv "$out/cell.json.tmp" "$out/cell.json"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$cell" "$BRANCH" "$ARCH" "$VARIANT" \
		"${tree_version:--}" "$verdict" "$EXPECT" "$ok" "${wakeups_per_s:--}" "$build_s" "$boot_s" "$reason" >"$out/cell.tsv"
}
trap write_json EXIT

# The tree: a user's (KSRC) or the branch's Debian package.
if [ -n "${KSRC:-}" ]; then
	tree=$(realpath "$KSRC")
	tree_version=$(make -s -C "$tree" kernelversion 2>/dev/null) || die "KSRC=$KSRC is not a kernel tree"
	tree_id=ksrc-$(printf '%s' "$tree" | sha256sum | cut -c1-8)
else
	reason="fetching $PACKAGE failed"
	if [ -n "${BOOT_ONLY:-}" ]; then
		tree=$build/trees/$PACKAGE
		[ -f "$tree.version" ] || exit 1
	else
		tree=$("$here/fetch-tree.sh" "$PACKAGE" "$SUITES" "$build")
	fi
	tree_version=$(cat "$tree.version")
	tree_id=$PACKAGE
fi

# The patch stack: each PATCHES directory's series, in order (entries are
# relative to their series file).  MUTANT=<dir> (a mutants/ directory) replaces
# the variant's stack: the cell becomes <branch>-<arch>-<mutant>, expected to be
# killed (KILLED_BY in its mutant.mk).
if [ -n "${MUTANT:-}" ]; then
	mdir=$root/${MUTANT%/}
	[ -f "$mdir/mutant.mk" ] || die "MUTANT=$MUTANT has no mutant.mk"
	VARIANT=$(basename "$mdir")
	EXPECT=$("$here/plan.sh" value "$mdir/mutant.mk" KILLED_BY)
	cell=$BRANCH-$ARCH-$VARIANT
	out=$run/cells/$cell
	mkdir -p "$out"
	stack="$COMPAT $mdir"
else
	stack="$COMPAT $PATCHES"
fi
# shellcheck disable=SC2086 # a list of directories
series=$("$here/plan.sh" series $stack) || exit 1
mapfile -t patch_files <<<"$series"
[ -n "$series" ] || patch_files=()

cross=${CROSS_COMPILE:-$A_CROSS}
# shellcheck disable=SC2086 # CONFIGS is a list of fragment names
frag_list=$("$here/plan.sh" configs "$ARCH" ${CONFIGS:-}) || exit 1
mapfile -t frags <<<"$frag_list"
export KERNEL_CC=${KERNEL_CC:-$B_KERNEL_CC} KERNEL_HOSTCC=${KERNEL_HOSTCC:-$B_KERNEL_HOSTCC}
# The image key: what goes into the image (bump IMAGE_KEY_VERSION when the way
# it is built changes).
IMAGE_KEY_VERSION=1
key=$( { echo "v$IMAGE_KEY_VERSION $tree_id $tree_version $ARCH $cross ${KERNEL_CC:-} ${KERNEL_HOSTCC:-}"
	cat "${frags[@]}" ${patch_files[@]+"${patch_files[@]}"}; } | sha256sum | cut -c1-12)
imgdir=$build/images/$BRANCH-$ARCH-$VARIANT-$key
image=$imgdir/$(basename "$A_IMAGE")

# The build step's seconds (matrix.sh's builder ran it as BUILD_ONLY).
[ -z "${BOOT_ONLY:-}" ] || build_s=$(cat "$out/build_s" 2>/dev/null || echo 0)
if [ ! -f "$image" ]; then
	reason="kernel build failed (see $out/build.log)"
	[ -z "${BOOT_ONLY:-}" ] || exit 1
	echo "[$pos] build $BRANCH $ARCH $VARIANT ($tree_version) ..."
	start=$(date +%s)
	backup=$build/locks/$tree_id.backup
	(
		flock 9
		"$here/tree-patch.sh" restore "$tree" "$backup"
		trap '"$here/tree-patch.sh" restore "$tree" "$backup"' EXIT
		[ ${#patch_files[@]} -eq 0 ] || "$here/tree-patch.sh" apply "$tree" "$backup" "${patch_files[@]}"
		CROSS_COMPILE=$cross "$here/build-kernel.sh" "$tree" "$build/obj/$tree_id-$ARCH" \
			"$A_KARCH" "$A_IMAGE" "${frags[@]}" >"$out/build.log" 2>&1 \
			|| { tail -n 20 "$out/build.log" >&2; exit 1; }
		rm -rf "$imgdir.tmp"
		mkdir -p "$imgdir.tmp"
		cp "$build/obj/$tree_id-$ARCH/$A_IMAGE" "$build/obj/$tree_id-$ARCH/.config" "$imgdir.tmp/"
		rm -rf "$imgdir"
		mv "$imgdir.tmp" "$imgdir"
	) 9>"$build/locks/$tree_id.lock"
	build_s=$(($(date +%s) - start))
	echo "[$pos] build $BRANCH $ARCH $VARIANT ... ${build_s} s"
fi

if [ -n "${BUILD_ONLY:-}" ]; then
	echo "$build_s" >"$out/build_s"
	reason="BUILD_ONLY: image built, not booted"
	exit 0
fi
initrd=$build/guest/$ARCH${GUEST_LIBC:+-$GUEST_LIBC}/initramfs.cpio
[ -f "$initrd" ] || die "no $initrd: run 'make initramfs' first"
reason="boot failed"
skip=${SKIP_CHECKS:+leaptest.skip=$(tr ' ' ',' <<<"$SKIP_CHECKS")}
export LEAP_CMDLINE="${A_CMDLINE:+$A_CMDLINE }${LEAP_CMDLINE:-}${skip:+ $skip}"
start=$(date +%s.%N)
rc=0
"$here/run-qemu.sh" "$A_QEMU" "$A_QEMU_ARGS" "$A_CONSOLE" "$image" "$initrd" "$out/console.log" "$limit" || rc=$?
boot_s=$(printf '%.1f' "$(echo "$(date +%s.%N) - $start" | bc)")
eval "$("$here/verdict.sh" "$out/console.log" "$rc" | sed -e "s/'/'\\\\''/g" -e "s/=\(.*\)/='\1'/")"
echo "[$pos] boot  $BRANCH $ARCH $VARIANT ... $verdict ${boot_s} s${wakeups_per_s:+ (wakeups/s $wakeups_per_s)}"
