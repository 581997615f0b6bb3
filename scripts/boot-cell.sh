#!/bin/bash
# boot-cell.sh - boot a cell's image with the leap test and judge what the
# guest printed.
#
# Usage: boot-cell.sh PLAN [INDEX/TOTAL]
#
# Reads PLAN (scripts/plan.sh resolve) and the build.json that
# scripts/build-cell.sh left beside it; a failed build is reported as ERROR
# with the build's reason, and nothing boots.  Writes console.log and
# cell.json beside PLAN; cell.json is written from an EXIT trap, so an
# interrupted cell still leaves one (verdict ERROR).  Its paths are relative
# to the run directory (RUN/cells/<cell>/.. /..).
set -eu
# LEAP_TRACE=FILE: note each run of this program there (tests count them).
[ -z "${LEAP_TRACE:-}" ] || echo "boot-cell.sh $*" >>"$LEAP_TRACE"

here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: boot-cell.sh PLAN [INDEX/TOTAL]" >&2; exit 2; }
plan=$(realpath "$1") pos=${2:-1/1}
"$here/plan.sh" check-plan "$plan" || exit 2
{
	read -r cell; read -r branch; read -r arch; read -r image; read -r initrd; read -r out
	read -r boot_mode; read -r shows
} < <(jq -r '.cell, .branch, .arch, .image.path, .initramfs.path, .out, (.boot.mode // "default"), (.boot.shows // "")' "$plan")
run=$(dirname "$(dirname "$out")")
[ -n "${initrd:-}" ] || { echo "boot-cell: $plan is not a plan (no .initramfs.path)" >&2; exit 2; }

verdict=ERROR reason="harness error before boot" build_s=0 boot_s=0
failed="" passed="" wakeups_per_s="" early=0 late=0 edge="" modes="" rounds="" splat_seen=false unproven="" skips=""
probes="" windows="" leaps_run=""
write_json() {
	local opts="" img=""
	[ ! -f "$(dirname "$image")/leap-options" ] || opts=$(cat "$(dirname "$image")/leap-options")
	# The record names only what exists: no image where none was built.
	[ ! -f "$image" ] || img=$(realpath -m -s --relative-to="$run" "$image")
	jq -n --slurpfile p "$plan" --arg verdict "$verdict" --arg reason "$reason" --arg opts "$opts" \
		--arg failed "$failed" --arg passed "$passed" --arg wps "$wakeups_per_s" --argjson early "$early" --argjson late "$late" --argjson splat_seen "$splat_seen" \
		--arg edge "$edge" --arg modes "$modes" --arg rounds "$rounds" --argjson build_s "$build_s" --argjson boot_s "$boot_s" \
		--arg unproven "$unproven" --arg skips "$skips" --arg probes "$probes" --arg windows "$windows" \
		--arg leaps_run "$leaps_run" \
		--arg cell_dir "cells/$cell" --arg image "$img" '
		$p[0] as $p | ($failed | split(",") | map(select(. != ""))) as $f |
		($unproven | split(",") | map(select(. != ""))) as $u |
		{cell: $p.cell, branch: $p.branch, arch: $p.arch, variant: $p.variant, mutant: $p.mutant,
		 tree: (if $p.tree.source == "debian" then $p.tree.package else $p.tree.path end),
		 tree_version: $p.tree.version, tree_vendor: ($p.tree.vendor // ""), tree_rt: ($p.tree.rt // ""),
		 tree_source: $p.tree.source,
		 tree_image: (if $p.tree.source == "image" then $p.tree.image + {package: $p.tree.package} else null end),
		 verdict: $verdict, expected: $p.expect,
		 ok: (($p.expect | index([$verdict]) != null)
		      and ($verdict != "FAIL" or ($p.killer_tests - $f | length) == 0)
		      and ($verdict != "FAIL" or ($p.fail_within // []) == [] or ($f - $p.fail_within | length) == 0)
		      and ($verdict != "SPLAT" or ($p.killer_splat // "") == "" or $splat_seen)
		      and ($verdict != "PASS" or ($u - ($p.may_be_unproven // []) | length) == 0)),
		 reason: $reason, failed_tests: $f, passed_tests: ($passed | split(",") | map(select(. != ""))), killer_tests: $p.killer_tests, fail_within: ($p.fail_within // []),
		 killer_splat: ($p.killer_splat // ""), killer_splat_seen: $splat_seen,
		 skipped_tests: ($skips | split("\n") | map(select(. != "") | capture("^(?<test>[^ ]+) ?(?<reason>.*)$"))),
		 unproven: $u, may_be_unproven: ($p.may_be_unproven // []),
		 evidence: {probe: ($probes | split("\n") | map(select(. != "") | split(" ")
		                    | {cpu: (.[0] | tonumber), tick_ms: (if .[1] == "-" then null else (.[1] | tonumber) end),
		                       late_ms: (.[2] | tonumber), timers: .[3]})),
		            window_reads: ($windows | split("\n") | map(select(. != "") | split(" ") | {key: .[0], value: (.[1] | tonumber)})
		                           | from_entries),
		            leaps: (if $leaps_run == "" then null else ($leaps_run | tonumber) end)},
		 metrics: {wakeups_per_s: (if $wps == "" then null else ($wps | tonumber) end),
		           early_waits: $early, late_waits: $late, leap_edge: $edge},
		 leaptest_modes: $modes,
		 leap_rounds: ($rounds | split(";") | map(select(. != "") | if . == "ok" then [] else split(",") end)),
		 kconfig: {name: ($p.kconfig.name // "tiny"), source: ($p.kconfig.source // ""),
		           origin_sha256: ($p.kconfig.origin_sha256 // ""), modules: ($p.kconfig.modules // ""),
		           options: ($opts | split("\n") | map(select(contains("=")) | split("=") | {key: .[0], value: (.[1:] | join("="))}) | from_entries)},
		 boot_mode: ($p.boot.mode // "default"),
		 build_s: $build_s, boot_s: $boot_s,
		 console: ($cell_dir + "/console.log"), plan: ($cell_dir + "/plan.json"),
		 image: (if $image == "" then null else $image end),
		 reproducer: $p.reproducer}' >"$out/cell.json.tmp"
	mv "$out/cell.json.tmp" "$out/cell.json"
}
trap write_json EXIT

# The build step's result.
if [ -f "$out/build.json" ]; then
	{ read -r bstatus; read -r breason; read -r build_s; } < <(jq -r '.status, .reason, .build_s' "$out/build.json")
else
	bstatus=failed breason="no build.json: the build step did not run"
fi
if [ "$bstatus" = failed ]; then
	reason=$breason
	echo "[$pos] boot  $branch $arch ${cell#"$branch-$arch-"} ... ERROR ($reason)"
	exit 1
fi
[ -f "$image" ] || { reason="no image at $image after a $bstatus build"; exit 1; }
[ -f "$initrd" ] || { reason="no initramfs at $initrd"; exit 1; }

reason="boot failed"
start=$(date +%s.%N)
rc=0
"$here/run-qemu.sh" "$plan" || rc=$?
boot_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
while IFS= read -r line; do
	case "$line" in
	verdict=*) verdict=${line#*=} ;;
	reason=*) reason=${line#*=} ;;
	failed=*) failed=${line#*=} ;;
	passed=*) passed=${line#*=} ;;
	wakeups_per_s=*) wakeups_per_s=${line#*=} ;;
	early=*) early=${line#*=} ;;
	late=*) late=${line#*=} ;;
	edge=*) edge=${line#*=} ;;
	modes=*) modes=${line#*=} ;;
	rounds=*) rounds=${line#*=} ;;
	unproven=*) unproven=${line#*=} ;;
	skip=*) skips+=${line#*=}$'\n' ;;
	probe=*) probes+=${line#*=}$'\n' ;;
	window=*) windows+=${line#*=}$'\n' ;;
	leaps_run=*) leaps_run=${line#*=} ;;
	# A mutant killed by a splat must show the one it names (KILLER_SPLAT).
	killer_splat_seen=*) splat_seen=${line#*=} ;;
	esac
done < <("$here/verdict.sh" "$out/console.log" "$rc" "$(jq -r '.killer_splat // ""' "$plan")")
# An image you bring whose console stayed silent: its serial console is not
# built in (a module cannot speak before the leap test starts).
if [ "$verdict" = BOOTFAIL ] && [ "$(jq -r .tree.source "$plan")" = image ] && ! [ -s "$out/console.log" ]; then
	reason="the console stayed silent: the image must have the serial console QEMU's $arch machine gives ($(jq -r '.qemu.cmdline | capture("console=(?<c>[^ ]+)").c' "$plan")) built in (=y), not as a module"
fi
# A boot mode must show that the kernel took it (its SHOWS), else the cell
# did not test what its name says.
if [ -n "$shows" ] && [ "$verdict" != ERROR ] && ! grep -Eq -- "$shows" "$out/console.log"; then
	reason="boot mode $boot_mode did not take: the console never shows /$shows/ (was: $verdict, $reason)"
	verdict=ERROR
fi
echo "[$pos] boot  $branch $arch ${cell#"$branch-$arch-"} ... $verdict ${boot_s} s${wakeups_per_s:+ (wakeups/s $wakeups_per_s)}${unproven:+ unproven: $unproven}"
