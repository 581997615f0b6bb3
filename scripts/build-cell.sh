#!/bin/bash
# build-cell.sh - build the image a cell's plan names, unless it is cached.
#
# Usage: build-cell.sh PLAN [INDEX/TOTAL]
#
# Reads PLAN (a plan.json from scripts/plan.sh resolve) and nothing else:
# fetches the Debian tree at the planned version (a KSRC tree is used as it
# is), applies the patch stack to the shared tree under its lock, builds in
# the tree's per-arch object directory, copies the image to its cache
# directory (named by the image key) and restores the tree.  Writes
# build.json beside PLAN from an EXIT trap, so a failed or interrupted build
# still says why: {"status": "cached"|"built"|"unpacked"|"failed", "build_s", "reason"};
# a build also gives make_s, the seconds of the image's make within build_s.
set -eu
# LEAP_TRACE=FILE: note each run of this program there (tests count them).
[ -z "${LEAP_TRACE:-}" ] || echo "build-cell.sh $*" >>"$LEAP_TRACE"

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
[ $# -ge 1 ] || { echo "usage: build-cell.sh PLAN [INDEX/TOTAL]" >&2; exit 2; }
plan=$1 pos=${2:-1/1}
[ -f "$plan" ] || { echo "build-cell: no plan at $plan" >&2; exit 2; }
"$here/plan.sh" check-plan "$plan" || exit 2
{
	read -r cell; read -r branch; read -r arch
	read -r src; read -r pkg; read -r suites; read -r version; read -r tree; read -r tree_id
	read -r karch; read -r cross; read -r cc; read -r hostcc; read -r ccache; read -r target; read -r objdir; read -r jobs
	read -r imgdir; read -r image; read -r out
	read -r base_config; read -r origin_config; read -r check_options; read -r modules
} < <(jq -r '.cell, .branch, .arch,
	.tree.source, .tree.package, (.tree.suites | join(" ")), .tree.version, .tree.path, .tree.id,
	.build.karch, .build.cross_compile, .build.cc, .build.hostcc, (.build.ccache // ""), .build.target, .build.objdir, .build.jobs,
	.image.dir, .image.path, .out,
	(.kconfig.base // ""), (.kconfig.origin // ""), ((.kconfig.options // []) | join(" ")), (.kconfig.modules // "")' "$plan")
[ -n "${image:-}" ] || { echo "build-cell: $plan is not a plan (no .image.path)" >&2; exit 2; }
# Patches and fragments are relative to the plan's root (the checkout that planned it).
mapfile -t patches < <(jq -r '.root as $r | .patches[] | $r + "/" + .' "$plan")
# The patches a tree you bring may carry in stable's own form (tree-patch.sh).
LEAP_STABLE_FORM=$(jq -r '.root as $r | (.stable_form // [])[] | $r + "/" + .' "$plan" | xargs -r realpath | paste -sd' ')
export LEAP_STABLE_FORM
mapfile -t frags < <(jq -r '.root as $r | .configs[] | $r + "/" + .' "$plan")
build=$(dirname "$(dirname "$imgdir")")

status=failed reason="harness error before the build" build_s=0 make_s=null cstats=null
write_json() {
	jq -n --arg s "$status" --argjson t "$build_s" --argjson m "$make_s" --arg r "$reason" --argjson c "$cstats" \
		'{status: $s, build_s: $t, reason: $r, log: "build.log"} + if $m then {make_s: $m} else {} end
		+ if $c then {ccache: $c} else {} end' >"$out/build.json.tmp"
	mv "$out/build.json.tmp" "$out/build.json"
}
trap write_json EXIT

if [ -f "$image" ]; then
	status=cached reason="image cached"
	exit 0
fi
# A kernel image you bring: nothing is built; it is unpacked where QEMU
# wants it raw, with its configuration's timekeeping options.
if [ "$src" = image ]; then
	reason="the image could not be unpacked"
	"$here/plan.sh" image-unpack "$plan"
	status=unpacked reason="the image as it is: nothing built"
	echo "[$pos] image $branch $arch ${cell#"$branch-$arch-"} ($version): nothing to build"
	exit 0
fi
if [ "$src" = debian ]; then
	reason="fetching $pkg $version failed"
	"$here/fetch-tree.sh" "$pkg" "$suites" "$build" "$version" >/dev/null
fi
reason="kernel build failed (see cells/$cell/build.log)"
# A tree you bring that does not build with the tiny configuration (vendor
# code often assumes the vendor's options): the way out is its own.
hint=""
if [ "$src" = ksrc ] && [ -z "$base_config" ]; then
	hint="; if that code needs the vendor's options, build with its own configuration: KCONFIG=<its .config> (and KCONFIG_MODULES=on where its code assumes module support)"
elif [ "$src" = ksrc ] && [ "$modules" = off ]; then
	hint="; with module support off: if its code assumes modules, KCONFIG_MODULES=on keeps them (every =m still unset)"
fi
reason="$reason$hint"
echo "[$pos] build $branch $arch ${cell#"$branch-$arch-"} ($version) ..."
start=$(date +%s)
mkdir -p "$build/locks" "$build/images"
backup=$build/locks/$tree_id.backup
# A tree you bring is never written: its variants are patched and built in
# its mirror (tree-patch.sh mirror: hard links to the unchanged files).
src_tree=$tree
[ "$src" != ksrc ] || tree=$build/ksrc/$tree_id
# A Debian tree is extracted whole, its files older than objects built from
# the one before: its object directory remembers the version.  (A tree you
# bring is yours: git gives the files it changes a new time.)
stamp=""
[ "$src" != debian ] || stamp="$pkg $version"
(
	flock 9
	"$here/tree-patch.sh" restore "$tree" "$backup"
	trap '"$here/tree-patch.sh" restore "$tree" "$backup"' EXIT
	[ "$tree" = "$src_tree" ] || "$here/tree-patch.sh" mirror "$src_tree" "$tree" >"$out/mirror.log" 2>&1 \
		|| { cat "$out/mirror.log" >&2; exit 4; }
	[ ! -s "$out/mirror.log" ] || cat "$out/mirror.log"
	# patch.log keeps what was skipped as already in the tree, or why the
	# stack did not apply.
	if [ ${#patches[@]} -gt 0 ] && ! "$here/tree-patch.sh" apply "$tree" "$backup" "${patches[@]}" >"$out/patch.log" 2>&1; then
		cat "$out/patch.log" >&2
		exit 3
	fi
	[ ! -s "$out/patch.log" ] || cat "$out/patch.log"
	CROSS_COMPILE=$cross KERNEL_CC=$cc KERNEL_HOSTCC=$hostcc KERNEL_CCACHE=$ccache JOBS=$jobs TREE_STAMP=$stamp \
		BASE_CONFIG=$base_config ORIGIN_CONFIG=$origin_config CHECK_OPTIONS=$check_options \
		"$here/build-kernel.sh" "$tree" "$objdir" "$karch" "$target" "${frags[@]}" >"$out/build.log" 2>&1 &
	bpid=$!
	# How far it is (scripts/progress.sh): objects of the last full build of
	# this tree and configuration, which its object directory remembers.
	expect=$(cat "$objdir/.leap-objects" 2>/dev/null || echo 0)
	"$here/progress.sh" watch "$out/build.log" "$bpid" "[$pos] build $branch $arch ${cell#"$branch-$arch-"}" "$expect" &
	ppid=$!
	brc=0
	wait "$bpid" || brc=$?
	wait "$ppid" || true
	[ "$brc" -eq 0 ] || { tail -n 20 "$out/build.log" >&2; exit 1; }
	n=$("$here/progress.sh" count "$out/build.log")
	[ "${n:-0}" -le "$expect" ] || echo "$n" >"$objdir/.leap-objects"
	rm -rf "$imgdir.tmp"
	mkdir -p "$imgdir.tmp"
	cp "$objdir/$target" "$objdir/.config" "$imgdir.tmp/"
	[ ! -f "$objdir/.leap-options" ] || cp "$objdir/.leap-options" "$imgdir.tmp/leap-options"
	rm -rf "$imgdir"
	mv "$imgdir.tmp" "$imgdir"
) 9>"$build/locks/$tree_id.lock" || {
	rc=$?
	build_s=$(($(date +%s) - start))
	# 3: the stack did not apply (nothing was built, and the tree is as it was).
	[ $rc -ne 3 ] || reason="patches do not apply: $(sed -n 's/^tree-patch: //p' "$out/patch.log" | tail -n 1)"
	# 4: the tree you bring could not be mirrored (it is as it was).
	[ $rc -ne 4 ] || reason="$(sed -n 's/^tree-patch: //p' "$out/mirror.log" | tail -n 1)"
	# The configuration step: a fragment asks for what this tree's
	# Kconfig cannot give (no vendor question there).
	cfg=$(sed -n 's/^build-kernel: \(not in the final .config.*\)/\1/p' "$out/build.log" 2>/dev/null | head -n 1)
	[ -z "$cfg" ] || reason="kernel configuration failed: $cfg"
	# Where the build stopped, naming the tree you brought, not its copy;
	# a hint only where it fits (not after the tree's own kconfig).
	if [ $rc -eq 1 ] && [ -z "$cfg" ] && [ -f "$out/build.log" ]; then
		at=$(build_stopped "$out/build.log" "$tree" "$src_tree")
		case "$at" in
		"") ;;
		kconfig:*) reason="the tree's own kconfig stopped at the configuration step: \"${at#kconfig: }\" ($src_tree/scripts/kconfig; cells/$cell/build.log); every build here is out of tree (O=), and vendor kconfig code may expect the tree itself as its build directory: build it as its vendor does" ;;
		missing:*) reason="the tree lacks ${at#missing: }, which its build needs (cells/$cell/build.log): bring the whole source (an import may leave a directory out)" ;;
		*) reason="kernel build failed at $at (cells/$cell/build.log)$hint" ;;
		esac
	fi
	exit 1
}
build_s=$(($(date +%s) - start))
make_s=$(grep -x '[0-9][0-9]*' "$objdir/.leap-make-s" 2>/dev/null || echo null)
# With CCACHE=1: the compilations the cache answered and the ones it missed.
[ ! -f "$objdir/.leap-ccache" ] || cstats=$(awk '$2 ~ /hit$/ { h += $3 } $2 == "cache_miss" { m += $3 }
	END { print h + 0, m + 0 }' "$objdir/.leap-ccache" | jq -R -c 'split(" ") | map(tonumber) | {hits: .[0], misses: .[1]}')
status=built reason="built"
echo "[$pos] build $branch $arch ${cell#"$branch-$arch-"} ... ${build_s} s"
