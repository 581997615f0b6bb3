#!/bin/bash
# test-data.sh - the data's grammar (docs/plan.md): each defect the loader
# must refuse gives one line naming the file and the line; += adds in the
# same file; the JSON the planner writes survives any character in the
# user's inputs; a dry run works offline once pinned; the roles are data.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan=$ROOT/scripts/plan.sh

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/branches/9.9" "$fake/branches/fam" "$fake/arches/x86_64" "$fake/configs" "$fake/branches/p/fix"
cat >"$fake/arches/x86_64/arch.mk" <<'MK'
KARCH     := x86
CROSS     :=
IMAGE     := arch/x86/boot/bzImage
QEMU      := qemu-system-x86_64
QEMU_ARGS := -M q35
CONSOLE   := ttyS0
CMDLINE   :=
GUEST_CC  := gcc
PACKAGES  := qemu-system-x86_64:qemu-system-x86
MAKE_TEST := yes
MK
echo 'CONFIG_X=y' >"$fake/arches/x86_64/arch.config"
echo 'CONFIG_COMMON=y' >"$fake/configs/common.config"
echo 0001-a.patch >"$fake/branches/p/fix/series"
echo 'fix' >"$fake/branches/p/fix/0001-a.patch"
good_branch() {
	cat >"$fake/branches/9.9/branch.mk" <<'MK'
# A comment line.
PACKAGE  := linux-source-9.9
SUITES   := sid
FAMILY   := fam
VARIANTS := stock fixed
EXPECT_stock := FAIL
EXPECT_fixed := PASS
PATCHES_fixed := p/fix
VERSION_MIN := 9.9
VERSION_MAX := 9.9.9999
MK
	printf 'ARCHES := x86_64\n' >"$fake/branches/fam/family.mk"
}
good_branch
printf 'REFERENCE_BRANCH := 9.9\nSHIPPED_VARIANT := stock\nFIX_VARIANT := fixed\nLIMIT := 60\nSILENCE := 20\nCPUS := 2\n' >"$fake/harness.mk"
build=$fake/build
mkdir -p "$build/trees/linux-source-9.9"
echo "all:" >"$build/trees/linux-source-9.9/Makefile"
echo "9.9.7-1" >"$build/trees/linux-source-9.9.version"
export LEAP_ROOT=$fake BUILD_DIR=$build
unset KSRC LIMIT SILENCE LEAP_CMDLINE KERNEL_CC KERNEL_HOSTCC CROSS_COMPILE KCONFIG DEBIAN_VERSION

check_eq "the good data: its cells" "9.9-x86_64-stock 9.9-x86_64-fixed" "$("$plan" cells | paste -sd ' ')"

# bad LINE|WHAT THE ONE LINE SAYS: the line is put in branch.mk's line 12.
refused() {
	local line=$1 says=$2 err rc
	good_branch
	printf '%s\n' "$line" >>"$fake/branches/9.9/branch.mk"
	err=$("$plan" cells 2>&1) && rc=0 || rc=$?
	check "'$line': refused" test "$rc" -ne 0
	check_eq "'$line': one line, naming file and line" "1 1" \
		"$(grep -c . <<<"$err") $(grep -c '^plan: branches/9.9/branch.mk:11: ' <<<"$err")"
	check "'$line': says $says" grep -qF "$says" <<<"$err"
	[ -z "${SHOW:-}" ] || echo "$err"
}
refused 'SKIP_CHECKS := leap_edge # the edge is later' "a comment after SKIP_CHECKS's value"
refused 'VARIANT := stock' "unknown key VARIANT"
refused 'KERNEL_CC ?= clang' "KERNEL_CC ?=: the data takes := and += only"
refused 'KERNEL_CC = clang' "KERNEL_CC =: the data takes := and += only"
refused 'just some words' "not KEY := VALUE"
refused 'LAYOUT := tk_core' "'tk_core' is not [!]<file of the tree>:<text without blanks>"
refused 'VERSION_MAX := nine' "give a kernel version"
refused 'EXPECT_fixed := PASSED' "'PASSED' is no verdict"
refused 'EXPECT_fixd := PASS' "EXPECT_fixd: no branch has a variant 'fixd'"
refused 'VARIANTS += naive' "variant naive has no EXPECT_naive"
refused 'EDGE_FIXES := 833f32d7:leap_edge' "'833f32d7:leap_edge' is not <12-hex commit>:<leap-test check>"
# Names the data does not define: an arch, a configuration, a config
# fragment, a leap-test check (report.c's table is their home).
mkdir -p "$fake/common-tests" "$fake/kconfigs"
printf 'static const struct top_test tests[] = {\n\t{ .name = "leap_edge", .report = report_edge },\n};\n' >"$fake/common-tests/report.c"
printf 'SOURCE := tiny\n' >"$fake/kconfigs/tiny.mk"
refused 'ARCHES += mips' "ARCHES: 'mips' is not an arch (arches/<arch>/arch.mk; known: x86_64)"
refused 'KCONFIGS := tiny debain' "KCONFIGS: 'debain' is not a configuration (kconfigs/<name>.mk; known: tiny)"
refused 'CONFIGS := common nopci' "CONFIGS: 'nopci' is not a config fragment"
refused 'SKIP_CHECKS := leap_egde' "SKIP_CHECKS: 'leap_egde' is not a leap-test check (common-tests/report.c; known: leap_edge)"
refused 'KERNEL_CC_mips := gcc' "KERNEL_CC_mips: 'mips' is not an arch"
refused 'UNPROVEN_x86_64 := leapedge' "UNPROVEN_x86_64: 'leapedge' is not a leap-test check"
refused 'EDGE_FIXES := 833f32d76302:leap_egde' "EDGE_FIXES: 'leap_egde' is not a leap-test check"
good_branch
check_eq "known names: the cells" "9.9-x86_64-stock 9.9-x86_64-fixed" \
	"$(printf 'KCONFIGS := tiny\nSKIP_CHECKS := leap_edge\nUNPROVEN_x86_64 := leap_edge\n' >>"$fake/branches/9.9/branch.mk" && "$plan" cells | paste -sd ' ')"
good_branch
rm -rf "$fake/common-tests" "$fake/kconfigs"

# The same in an arch stanza, a boot mode, a configuration and a mutant.
good_branch
for f in arches/x86_64/arch.mk:'ORDER := first' boots/slow.mk:'NEEDS := HZ' kconfigs/tiny.mk:'SOURCE := small' \
	mutants/9.9/M1/mutant.mk:'KILLED_BY := DEAD' harness.mk:'LIMIT := 0'; do
	file=${f%%:*} line=${f#*:}
	mkdir -p "$fake/$(dirname "$file")"
	if [ -f "$fake/$file" ]; then cp "$fake/$file" "$fake/$file.orig"; else : >"$fake/$file.orig"; fi
	printf '%s\n' "$line" >>"$fake/$file"
	err=$("$plan" branches 2>&1) && rc=0 || rc=$?
	check_eq "$file '$line': refused in one line naming it" "1 1" \
		"$([ "$rc" -ne 0 ] && echo 1) $(grep -c "^plan: $file:[0-9]*: " <<<"$err")"
	mv "$fake/$file.orig" "$fake/$file"
	[ -s "$fake/$file" ] || rm -f "$fake/$file"
done
rm -rf "$fake/boots" "$fake/kconfigs" "$fake/mutants"

# A family chain that comes back on itself.
printf 'FAMILY := 9.9-loop\nARCHES := x86_64\n' >"$fake/branches/fam/family.mk"
mkdir -p "$fake/branches/9.9-loop"
printf 'FAMILY := fam\n' >"$fake/branches/9.9-loop/family.mk"
err=$("$plan" cells 2>&1) && rc=0 || rc=$?
check_eq "a family cycle: refused in one line, the chain named" "1 1" \
	"$([ "$rc" -ne 0 ] && echo 1) $(grep -c '^plan: branches/9.9-loop/family.mk:1: FAMILY := fam goes round: branches/9.9/branch.mk -> branches/fam/family.mk -> branches/9.9-loop/family.mk -> branches/fam/family.mk$' <<<"$err")"
printf 'FAMILY := none\n' >"$fake/branches/fam/family.mk"
check "a FAMILY without its family.mk: named" grep -q "FAMILY := none, and there is no branches/none/family.mk" <<<"$("$plan" cells 2>&1)"
rm -rf "$fake/branches/9.9-loop"
good_branch

# KEY := then KEY += in the same file: both.
printf 'SKIP_CHECKS := leap_edge\nSKIP_CHECKS += tai_offset\n' >>"$fake/branches/9.9/branch.mk"
check_eq ":= then += in one file: both words" "leap_edge tai_offset" "$("$plan" get 9.9 SKIP_CHECKS)"
printf 'ARCHES += x86_64\n' >>"$fake/branches/9.9/branch.mk"
check_eq "+= alone adds to the family's value" "x86_64 x86_64" "$("$plan" get 9.9 ARCHES)"
good_branch

# --- JSON: any character in the user's inputs -------------------------------
# shellcheck disable=SC2016 # $HOME and `id` must stay text
esc=$(printf 'a\033[1mb "q" \\ ? * [x] $HOME `id` \t tab')
touch "$fake/qemu-q"
printf 'QEMU_ARGS := -M q35 -name ? -x *\n' >>"$fake/arches/x86_64/arch.mk"
sed -i '0,/^QEMU_ARGS/{/^QEMU_ARGS/d}' "$fake/arches/x86_64/arch.mk"
"$plan" pin 9.9-x86_64-stock
(cd "$fake" && LEAP_CMDLINE=$esc "$plan" resolve "$fake/r" 9.9-x86_64-stock)
p=$fake/r/cells/9.9-x86_64-stock/plan.json
check "ESC, quotes, ? and * in LEAP_CMDLINE and QEMU_ARGS: plan.json is JSON" python3 -m json.tool "$p"
check_eq "... the command line as given" "$esc" "$(jq -r '.qemu.cmdline | sub("^.*softlockup_panic=0 "; "")' "$p")"
check_eq "... QEMU_ARGS' ? and * not expanded to file names" "-M q35 -name ? -x *" "$(jq -r '.qemu.argv | index(["-M"]) as $i | .[$i:$i+6] | join(" ")' "$p")"
check "... the reproducer gives the same command line back" test "$(eval "printf '%s' $(jq -r .reproducer "$p" | sed 's/.*LEAP_CMDLINE=//;s/ BUILD_DIR=.*//')")" = "$esc"
jq '.plan_version = 0' "$p" >"$fake/old-plan.json"
err=$("$ROOT/scripts/build-cell.sh" "$fake/old-plan.json" 2>&1) && rc=0 || rc=$?
check_eq "a plan of another schema version: the build step refuses it in one line" "2 1" "$rc $(grep -c 'is a plan of version 0, this checkout reads version 1: plan it again' <<<"$err")"
err=$("$ROOT/scripts/boot-cell.sh" "$fake/old-plan.json" 2>&1) && rc=0 || rc=$?
check_eq "... and so does the boot step" "2 1" "$rc $(grep -c 'plan it again' <<<"$err")"
# A build that failed: the record keeps its seconds and reason, names no
# image (none was built), and nothing boots.
printf '{"status": "failed", "build_s": 37, "reason": "kernel build failed (see build.log)", "log": "build.log"}\n' \
	>"$fake/r/cells/9.9-x86_64-stock/build.json"
"$ROOT/scripts/boot-cell.sh" "$p" >/dev/null 2>&1 && rc=0 || rc=$?
check_eq "a failed build: ERROR with its reason and seconds, no image, no console" \
	"1 ERROR kernel build failed (see build.log) 37 null false" \
	"$rc $(jq -r '[.verdict, .reason, .build_s, .image] | map(tostring) | join(" ")' "$fake/r/cells/9.9-x86_64-stock/cell.json") $(test -e "$fake/r/cells/9.9-x86_64-stock/console.log" && echo true || echo false)"
check_eq "... its skips, unproven checks and evidence: none seen" '[] [] {"probe":[],"window_reads":{},"leaps":null}' \
	"$(jq -c '.skipped_tests, .unproven, .evidence' "$fake/r/cells/9.9-x86_64-stock/cell.json" | paste -sd' ')"
rm "$fake/r/cells/9.9-x86_64-stock/build.json" "$fake/r/cells/9.9-x86_64-stock/cell.json"
check "cells-json is JSON" python3 -m json.tool <<<"$("$plan" cells-json)"
check "list-jobs json is JSON" python3 -m json.tool <<<"$("$ROOT/scripts/ci-jobs.sh" cell json 9.9-x86_64-stock 9.9-x86_64-fixed)"

# --- a dry run offline, once pinned -------------------------------------------
# The tree not extracted: only its pin says its version.  apt cannot run
# (stubs that fail first in PATH): the dry run must not need it.
rm -rf "$build/trees" && mkdir -p "$fake/bin"
printf '9.9.7-1\n' >"$build/pins/linux-source-9.9.version"
for t in apt-get apt-cache curl wget; do printf '#!/bin/sh\necho "%s: no network" >&2\nexit 100\n' "$t" >"$fake/bin/$t"; chmod +x "$fake/bin/$t"; done
one=$(PATH=$fake/bin:$PATH "$ROOT/scripts/matrix.sh" -n 9.9-x86_64-fixed 2>&1) && rc=0 || rc=$?
two=$(PATH=$fake/bin:$PATH "$ROOT/scripts/matrix.sh" -n 9.9-x86_64-fixed 2>&1) || true
check_eq "dry run without the network, once pinned: a plan" "0 9.9.7-1" "$rc $(jq -r .tree.version <<<"$one" 2>/dev/null)"
check_eq "... the same plan twice" "$one" "$two"
rm "$build/pins/linux-source-9.9.version"
err=$(PATH=$fake/bin:$PATH "$ROOT/scripts/matrix.sh" -n 9.9-x86_64-fixed 2>&1) && rc=0 || rc=$?
check "never pinned and no network: the dry run fails" test "$rc" -ne 0
err=$(PATH=$fake/bin:$PATH "$plan" resolve "$fake/r" 9.9-x86_64-fixed 2>&1) && rc=0 || rc=$?
check_eq "... and resolve alone says pin, in one line" "1 1" "$([ "$rc" -ne 0 ] && echo 1) $(grep -c 'is not pinned in .*: run scripts/plan.sh pin' <<<"$err")"

# --- roles: data, not scripts ---------------------------------------------------
check_eq "the reference branch is harness.mk's" "9.9" "$("$plan" role reference)"
check_eq "the shipped and the fix variants" "stock fixed" "$("$plan" role shipped) $("$plan" role fix)"
check_eq "the defaults: once, in harness.mk" "60 20 2" "$("$plan" role limit) $("$plan" role silence) $("$plan" role cpus)"
printf 'LIMIT := 90\n' >>"$fake/harness.mk"
check_eq "a LIMIT in harness.mk is the default" "90" "$("$plan" role limit)"
mkdir -p "$fake/branches/8.8"
sed 's/9\.9/8.8/g' "$fake/branches/9.9/branch.mk" >"$fake/branches/8.8/branch.mk"
sed -i 's/^REFERENCE_BRANCH.*/REFERENCE_BRANCH := 8.8/' "$fake/harness.mk"
# shellcheck disable=SC2016 # make -n prints $(...) as text
check_eq "another reference branch: make test runs its cells" 2 \
	"$(make -s -C "$ROOT" --no-print-directory -n test | grep -c '^cells=$(scripts/plan.sh cells 8.8 "x86_64")')"
printf 'REGRESS_VARIANT := fixed\n' >>"$fake/harness.mk"
check_eq "... make bench measures its cells" "8.8-x86_64-stock 8.8-x86_64-fixed" "$("$ROOT/scripts/bench.sh" -n | paste -sd ' ')"
finish data
