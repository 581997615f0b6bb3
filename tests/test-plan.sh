#!/bin/bash
# test-plan.sh - the planner on a made-up layout (so nothing here depends on
# today's branches): cells, filters, one-line errors, families, the resolved
# plan of a cell and of a mutant, one planning per run, and a throwaway arch,
# branch and variant added as data only.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan=$ROOT/scripts/plan.sh

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/branches/9.9" "$fake/branches/1.0" "$fake/branches/0.9" "$fake/branches/shared/fix" \
	"$fake/arches/x86_64" "$fake/arches/arm64" "$fake/configs" "$fake/mutants/9.9/M1-broken"
for a in x86_64 arm64; do
	cat >"$fake/arches/$a/arch.mk" <<MK
KARCH     := k$a
CROSS     := $a-cross-
IMAGE     := arch/$a/Image
QEMU      := qemu-$a
QEMU_ARGS := -M m$a
CONSOLE   := tty$a
CMDLINE   := opt=$a
GUEST_CC  := $a-gcc
PACKAGES  := qemu-$a:qemu-pkg-$a
MK
	echo "CONFIG_$a=y" >"$fake/arches/$a/arch.config"
done
printf 'GUEST_CC_musl := musl-gcc\nPACKAGES_musl := musl-gcc:musl-tools\n' >>"$fake/arches/x86_64/arch.mk"
echo 'CONFIG_COMMON=y' >"$fake/configs/common.config"
echo 'CONFIG_X=y' >"$fake/arches/x86_64/common.config"
echo 'CONFIG_OLD=y' >"$fake/configs/old.config"
printf '0001-a.patch\n0002-b.patch\n' >"$fake/branches/shared/fix/series"
echo 'fix a' >"$fake/branches/shared/fix/0001-a.patch"
echo 'fix b' >"$fake/branches/shared/fix/0002-b.patch"
mkdir -p "$fake/branches/shared/regress" "$fake/branches/shared/edge"
echo 0001-e.patch >"$fake/branches/shared/edge/series"
echo 'edge' >"$fake/branches/shared/edge/0001-e.patch"
echo 0001-r.patch >"$fake/branches/shared/regress/series"
echo 'regress' >"$fake/branches/shared/regress/0001-r.patch"
cat >"$fake/branches/9.9/branch.mk" <<'MK'
# comment := ignored
PACKAGE  := linux-source-9.9
SUITES   := sid experimental
VARIANTS := stock regress naive fixed
VERSION_MIN := 9.9
VERSION_MAX := 9.9.9999
EXPECT_stock := PASS
EXPECT_regress := FAIL
EXPECT_naive := TIMEOUT SPLAT
EXPECT_fixed := PASS
PATCHES_regress := shared/regress
PATCHES_fixed := shared/regress shared/fix
SKIP_CHECKS := leap_edge other
UNPROVEN_arm64 := adjtimex_at_leap
MK
cat >"$fake/branches/1.0/branch.mk" <<'MK'
PACKAGE  := linux-source-1.0
ARCHES   := x86_64
VARIANTS := stock fixed
EXPECT_stock := PASS
EXPECT_fixed := PASS
VERSION_MIN := 1.0
VERSION_MAX := 1.2.99
MK
cat >"$fake/branches/0.9/branch.mk" <<'MK'
PACKAGE  :=
ARCHES   := x86_64
VARIANTS := stock fixed
EXPECT_stock := FAIL
EXPECT_fixed := PASS
PATCHES_fixed := shared/fix shared/edge
EDGE_FIXES := 833f32d76302:leap_edge 96efdcf2d080:adjtimex_at_leap
KERNEL_ARGS := quiet_stop
GUEST_LIBC := musl
CONFIGS := old
KERNEL_CC := gcc -std=gnu89
VERSION_MIN := 0.9
VERSION_MAX := 0.9.99
MK
echo 0001-m.patch >"$fake/mutants/9.9/M1-broken/series"
echo 'mutant' >"$fake/mutants/9.9/M1-broken/0001-m.patch"
printf 'KILLED_BY := FAIL\nKILLER_TESTS := timers_after_insert load_after_insert\n' >"$fake/mutants/9.9/M1-broken/mutant.mk"
printf 'REFERENCE_BRANCH := 9.9\nSHIPPED_VARIANT := stock\nFIX_VARIANT := fixed\nREGRESS_VARIANT := regress\nLIMIT := 60\nSILENCE := 20\nCPUS := 2\n' >"$fake/harness.mk"
# Fetched trees, as fetch-tree.sh leaves them (so nothing is downloaded).
build=$fake/build
for p in 9.9 1.0; do
	mkdir -p "$build/trees/linux-source-$p"
	echo "all:" >"$build/trees/linux-source-$p/Makefile"
	echo "$p.7-1" >"$build/trees/linux-source-$p.version"
done
# A tree the user brings (its top Makefile's version lines are what the planner reads).
mkdir -p "$fake/linux-0.9"
printf 'VERSION = 0\nPATCHLEVEL = 9\nSUBLEVEL = 5\nEXTRAVERSION =\n' >"$fake/linux-0.9/Makefile"
export LEAP_ROOT=$fake BUILD_DIR=$build
unset KSRC LIMIT SILENCE LEAP_CMDLINE KERNEL_CC KERNEL_HOSTCC CROSS_COMPILE

# --- selection --------------------------------------------------------------
check_eq "all cells: 9.9 on both arches x 4, 1.0 x86_64 x 2" "10" "$("$plan" cells | wc -l)"
check_eq "first cell" "1.0-x86_64-stock" "$("$plan" cells | head -n 1)"
check_eq "no ARCHES: every arch" "9.9-arm64-stock 9.9-x86_64-stock" "$("$plan" cells 9.9 "" stock | paste -sd ' ')"
check_eq "arch filter" "9.9-arm64-stock 9.9-arm64-regress 9.9-arm64-naive 9.9-arm64-fixed" \
	"$("$plan" cells 9.9 arm64 | paste -sd ' ')"
err=$("$plan" cells 1.0 arm64 2>&1 >/dev/null) && rc=0 || rc=$?
check "an arch the branch does not take (its ARCHES): refused" test "$rc" -ne 0
check_eq "... in one line, naming what it takes" "plan: no selected branch takes ARCH=arm64 (the arches each builds: 1.0: x86_64)" "$err"
check_eq "... but fine when another selected branch takes it" "9.9-arm64-stock" "$("$plan" cells "1.0 9.9" arm64 stock)"
check_eq "variant list filter" "9.9-x86_64-stock 9.9-x86_64-fixed" "$("$plan" cells 9.9 x86_64 "stock fixed" | paste -sd ' ')"
check "a directory without branch.mk is no branch" not grep -qx shared <<<"$("$plan" branches)"
check_eq "variants: every declared one" "stock fixed regress naive" "$("$plan" variants | paste -sd ' ')"
for bad in "cells 9.8" "cells 9.9 mips" "cells 9.9 x86_64 broken" "tools 9.9-x86_64-bogus" "tools nonsense" \
	"tools 1.0-arm64-stock" "cells 0.9" "resolve $fake/r 9.9-mips-stock"; do
	# shellcheck disable=SC2086 # the words of a command line
	err=$("$plan" $bad 2>&1) && rc=0 || rc=$?
	check "'plan.sh $bad': fails" test "$rc" -ne 0
	check_eq "'plan.sh $bad': one line" 1 "$(grep -c . <<<"$err")"
done
check "unknown branch names the choices" grep -q "use one of: 0.9 1.0 9.9" <<<"$("$plan" cells 9.8 2>&1)"
check "unknown variant names the choices" grep -q "use one of: stock fixed regress naive" <<<"$("$plan" cells "" "" bogus 2>&1)"
check "user-tree branch not in the matrix" not grep -q '^0.9-' <<<"$("$plan" cells)"
check "user-tree branch asked without KSRC: names KSRC" grep -qx "plan: branch 0.9 runs on a tree you bring: make qemu-0.9 KSRC=/path/to/linux-0.9.x" <<<"$("$plan" cells 0.9 2>&1)"
check_eq "KSRC: stock and fixed" "0.9-x86_64-stock 0.9-x86_64-fixed" "$(KSRC=$fake/linux-0.9 "$plan" cells 0.9 | paste -sd ' ')"
check_eq "branch for 9.9.3" "9.9" "$("$plan" branch-for 9.9.3)"
check_eq "branch for 1.2.5" "1.0" "$("$plan" branch-for 1.2.5)"
check "unsupported version fails" not "$plan" branch-for 2.6.32
check_eq "mutant cells: stock, then each mutant, per arch" \
	"9.9-arm64-stock 9.9-arm64-M1-broken 9.9-x86_64-stock 9.9-x86_64-M1-broken" "$("$plan" mutant-cells 9.9 | paste -sd ' ')"
check_eq "tools: the arches' and the musl flavour's, once each" "qemu-x86_64:qemu-pkg-x86_64 qemu-arm64:qemu-pkg-arm64" \
	"$("$plan" tools 9.9-x86_64-stock 9.9-arm64-fixed 9.9-x86_64-naive | paste -sd ' ')"
check_eq "tools: a musl branch adds musl" "qemu-x86_64:qemu-pkg-x86_64 musl-gcc:musl-tools" "$(KSRC=$fake/linux-0.9 "$plan" tools 0.9-x86_64-stock | paste -sd ' ')"
check_eq "tools --all: trees you bring too" "qemu-x86_64:qemu-pkg-x86_64 musl-gcc:musl-tools qemu-arm64:qemu-pkg-arm64" "$("$plan" tools --all | paste -sd ' ')"
check_eq "a KSRC that is no tree: one line, before anything" "plan: KSRC=$fake/none is not a kernel tree (no Makefile): point KSRC at an unpacked linux-X.Y tree" \
	"$(KSRC=$fake/none "$plan" tools 0.9-x86_64-stock 2>&1)"
printf 'ORDER := 1\n' >>"$fake/arches/x86_64/arch.mk"
check_eq "an arch's ORDER sorts it first" "9.9-x86_64-stock 9.9-arm64-stock" "$("$plan" cells 9.9 "" stock | paste -sd ' ')"
sed -i '/^ORDER/d' "$fake/arches/x86_64/arch.mk"

# --- families: a key missing from a branch.mk comes from its family chain ----
mkdir -p "$fake/branches/fam" "$fake/branches/base" "$fake/branches/8.8"
printf 'ARCHES := arm64\nKERNEL_HOSTCC := hostcc-from-base\n' >"$fake/branches/base/family.mk"
printf 'FAMILY := base\nVARIANTS := stock fixed\nEXPECT_stock := PASS\nEXPECT_fixed := PASS\nPATCHES_fixed := shared/fix\n' >"$fake/branches/fam/family.mk"
printf 'PACKAGE := linux-source-8.8\nFAMILY := fam\nPATCHES_fixed := shared/regress shared/fix\n' >"$fake/branches/8.8/branch.mk"
check_eq "family.mk, then its family: ARCHES and VARIANTS" "8.8-arm64-stock 8.8-arm64-fixed" "$("$plan" cells 8.8 | paste -sd ' ')"
check_eq "the family's family" "hostcc-from-base" "$("$plan" get 8.8 KERNEL_HOSTCC)"
check_eq "branch.mk overrides family.mk" "shared/regress shared/fix" "$("$plan" get 8.8 PATCHES_fixed)"
check "a family directory is no branch" not grep -qx fam <<<"$("$plan" branches)"
printf 'ARCHES += x86_64\n' >>"$fake/branches/8.8/branch.mk"
check_eq "KEY += adds to the family chain's value" "arm64 x86_64" "$("$plan" get 8.8 ARCHES)"
rm -rf "$fake/branches/fam" "$fake/branches/base" "$fake/branches/8.8"

# --- the resolved plan --------------------------------------------------------
"$plan" resolve "$fake/r" 9.9-x86_64-fixed 9.9-arm64-M1-broken
p=$fake/r/cells/9.9-x86_64-fixed/plan.json
q() { jq -r "$1" "$p"; }
check "plan.json is JSON" jq -e . "$p"
check_eq "tree: the fetched package and its version" "debian linux-source-9.9 9.9.7-1 sid,experimental" \
	"$(q '[.tree.source, .tree.package, .tree.version, (.tree.suites | join(","))] | join(" ")')"
# DEBIAN_VERSION: the upload asked for, checked against the extracted tree.
DEBIAN_VERSION=9.9.7-1 "$plan" resolve "$fake/rv" 9.9-x86_64-stock 1.0-x86_64-stock
check_eq "DEBIAN_VERSION=9.9.7-1: 9.9's tree at it, 1.0's as it was" "9.9.7-1 1.0.7-1" \
	"$(jq -r .tree.version "$fake/rv/cells/9.9-x86_64-stock/plan.json") $(jq -r .tree.version "$fake/rv/cells/1.0-x86_64-stock/plan.json")"
check "... its reproducer names the upload, the other's does not" \
	test "$(jq -r .reproducer "$fake/rv/cells/9.9-x86_64-stock/plan.json" | grep -c 'DEBIAN_VERSION=9.9.7-1')$(jq -r .reproducer "$fake/rv/cells/1.0-x86_64-stock/plan.json" | grep -c DEBIAN_VERSION)" = 10
check_eq "plan.sh debian-version: the upload asked of a branch, none of another" "9.9.7-1|" \
	"$(DEBIAN_VERSION=9.9.7-1 "$plan" debian-version 9.9)|$(DEBIAN_VERSION=9.9.7-1 "$plan" debian-version 1.0)"
err=$(DEBIAN_VERSION=9.9.8-1 "$plan" resolve "$fake/rv" 9.9-x86_64-stock 2>&1) && rc=0 || rc=$?
check "DEBIAN_VERSION=9.9.8-1 with the tree at 9.9.7-1: refused" test "$rc" -ne 0
check_eq "... in one line, naming the way round" 1 "$(grep -c 'holds linux-source-9.9 9.9.7-1, the plan wants 9.9.8-1: use another BUILD_DIR' <<<"$err")"
check_eq "... and nothing else" 1 "$(grep -c . <<<"$err")"
for bad in "banana|give Debian's version" "0.1.2-1|no branch's range holds it" "9.9.1-1 9.9.2-1|two versions for branch 9.9"; do
	err=$(DEBIAN_VERSION=${bad%%|*} "$plan" tools 9.9-x86_64-stock 2>&1) && rc=0 || rc=$?
	check_eq "DEBIAN_VERSION=${bad%%|*}: one line, refused" "1 1" "$(grep -c . <<<"$err") $([ "$rc" -ne 0 ] && echo 1)"
	check "... saying ${bad#*|}" grep -q "${bad#*|}" <<<"$err"
done
err=$(DEBIAN_VERSION=9.9.7-1 KSRC=$fake/linux-0.9 "$plan" tools 0.9-x86_64-stock 2>&1) && rc=0 || rc=$?
check "DEBIAN_VERSION with KSRC: refused, one line" test "$rc" -ne 0 -a "$(grep -c 'give one of them' <<<"$err")" -eq 1
check_eq "patches in series order, relative to the repository" \
	"branches/shared/regress/0001-r.patch branches/shared/fix/0001-a.patch branches/shared/fix/0002-b.patch" "$(q '.patches | join(" ")')"
check_eq "configs: common, the arch's, the arch's part of common" "configs/common.config arches/x86_64/arch.config arches/x86_64/common.config" "$(q '.configs | join(" ")')"
check_eq "build: the stanza's arch and cross prefix" "kx86_64 x86_64-cross- arch/x86_64/Image" "$(q '[.build.karch, .build.cross_compile, .build.target] | join(" ")')"
check_eq "image path: branch-arch-variant-key" "$build/images/9.9-x86_64-fixed-$(q .image.key)/Image" "$(q .image.path)"
check_eq "initramfs: the glibc flavour" "x86_64-gcc $build/guest/x86_64/initramfs.cpio" "$(q '[.initramfs.cc, .initramfs.path] | join(" ")')"
# shellcheck disable=SC2016 # jq's $i
check_eq "qemu: the binary, the common args, then the stanza's (which may override one)" "qemu-x86_64 -smp 2|-M mx86_64 -serial" \
	"$(q '(.qemu.argv[0:3] | join(" ")) + "|" + (.qemu.argv | index(["-M"]) as $i | .[$i:$i+3] | join(" "))')"
check_eq "qemu: the guest command line, skips as leaptest.skip" \
	"console=ttyx86_64 leaptest.harness=1 panic=-1 softlockup_panic=0 opt=x86_64 leaptest.skip=leap_edge,other" "$(q '.qemu.argv[-1]')"
check "qemu: the console goes beside the plan" grep -qx "file:$fake/r/cells/9.9-x86_64-fixed/console.log" <<<"$(q '.qemu.argv[]')"
check_eq "expect, skips" "PASS | leap_edge other" "$(q '(.expect | join(" ")) + " | " + (.skip_checks | join(" "))')"
check_eq "may be unproven: what the series skips (no UNPROVEN_x86_64)" "leap_edge other" "$(q '.may_be_unproven | join(" ")')"
check_eq "reproducer (the default build directory)" "make cell CELL=9.9-x86_64-fixed" "$(q .reproducer)"
p=$fake/r/cells/9.9-arm64-M1-broken/plan.json
check_eq "mutant: its series replaces the variant's" "mutants/9.9/M1-broken/0001-m.patch" "$(q '.patches | join(" ")')"
check_eq "mutant: KILLED_BY and KILLER_TESTS" "true FAIL timers_after_insert,load_after_insert" "$(q '[.mutant, (.expect | join(" ")), (.killer_tests | join(","))] | join(" ")')"
check_eq "may be unproven on arm64: UNPROVEN_arm64 too" "adjtimex_at_leap leap_edge other" "$(q '.may_be_unproven | join(" ")')"
# The image key follows every input: a patch, a fragment, the compiler.
k1=$(jq -r .image.key "$fake/r/cells/9.9-x86_64-fixed/plan.json")
"$plan" resolve "$fake/r2" 9.9-x86_64-fixed
check_eq "image key: the same inputs, the same key" "$k1" "$(jq -r .image.key "$fake/r2/cells/9.9-x86_64-fixed/plan.json")"
printf '# a comment changes no kernel\n' >>"$fake/configs/common.config"
"$plan" resolve "$fake/r2" 9.9-x86_64-fixed
check_eq "image key: a comment in a fragment changes nothing" "$k1" "$(jq -r .image.key "$fake/r2/cells/9.9-x86_64-fixed/plan.json")"
# "is not set" looks like a comment but turns an option off: a new kernel.
printf '# CONFIG_SOMETHING is not set\n' >>"$fake/configs/common.config"
"$plan" resolve "$fake/r2" 9.9-x86_64-fixed
k1n=$(jq -r .image.key "$fake/r2/cells/9.9-x86_64-fixed/plan.json")
check "image key: an option turned off in a fragment, a new key" test "$k1" != "$k1n"
sed -i '$d' "$fake/configs/common.config"
echo 'fix b, changed' >"$fake/branches/shared/fix/0002-b.patch"
"$plan" resolve "$fake/r2" 9.9-x86_64-fixed
k2=$(jq -r .image.key "$fake/r2/cells/9.9-x86_64-fixed/plan.json")
check "image key: a changed patch, a new key" test "$k1" != "$k2"
echo 'CONFIG_COMMON=n' >"$fake/configs/common.config"
KERNEL_CC=clang "$plan" resolve "$fake/r2" 9.9-x86_64-fixed
check "image key: a changed fragment or compiler, a new key" test "$k2" != "$(jq -r .image.key "$fake/r2/cells/9.9-x86_64-fixed/plan.json")"
check_eq "reproducer: the user's compiler" "make cell CELL=9.9-x86_64-fixed CC=clang" "$(jq -r .reproducer "$fake/r2/cells/9.9-x86_64-fixed/plan.json")"
# A tree the user brings: its path, its version from make, the branch's compilers.
KSRC=$fake/linux-0.9 "$plan" resolve "$fake/r3" 0.9-x86_64-fixed
p=$fake/r3/cells/0.9-x86_64-fixed/plan.json
check_eq "KSRC: the tree, its version" "ksrc $fake/linux-0.9 0.9.5" "$(q '[.tree.source, .tree.path, .tree.version] | join(" ")')"
check_eq "KSRC: CONFIGS, musl flavour, branch compiler" "configs/old.config arches/x86_64/arch.config|x86_64-musl|gcc -std=gnu89" \
	"$(q '(.configs | join(" ")) + "|" + .initramfs.flavour + "|" + .build.cc')"
check "KSRC: the reproducer names the tree" grep -q "KSRC=$fake/linux-0.9" <<<"$(q .reproducer)"

# What the tree's own code says about the fix, whatever its version.
for t in fixed 2012 833 other; do
	mkdir -p "$fake/k-$t/kernel/time"
	cp "$fake/linux-0.9/Makefile" "$fake/k-$t/"
done
printf 'clock_was_set_delayed();\nnext_leap_ktime\n' >"$fake/k-fixed/kernel/time/timekeeping.c"
printf 'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {\n' >"$fake/k-fixed/kernel/time/ntp.c"
printf 'clock_was_set_delayed();\n' >"$fake/k-2012/kernel/time/timekeeping.c"
printf 'clock_was_set_delayed();\nnext_leap_ktime\n' >"$fake/k-833/kernel/time/timekeeping.c"
printf 'second_overflow();\n' >"$fake/k-other/kernel/time/timekeeping.c"
check_eq "a tree that carries the fix: stock only" "0.9-x86_64-stock" "$(KSRC=$fake/k-fixed "$plan" cells 0.9 2>/dev/null | paste -sd ' ')"
check "... said in one line" grep -q "already carries the leap-second fix in its code" <<<"$(KSRC=$fake/k-fixed "$plan" cells 0.9 2>&1 >/dev/null)"
KSRC=$fake/k-fixed "$plan" resolve "$fake/r4" 0.9-x86_64-stock 2>/dev/null
check_eq "... and expected to PASS" PASS "$(jq -r '.expect | join(" ")' "$fake/r4/cells/0.9-x86_64-stock/plan.json")"
printf 'VARIANTS += regress\nEXPECT_regress := FAIL\nPATCHES_regress := shared/regress\n' >>"$fake/branches/0.9/branch.mk"
check_eq "a tree that carries the fix, on a branch with regress: every variant but the fix" "0.9-x86_64-stock 0.9-x86_64-regress" \
	"$(KSRC=$fake/k-fixed "$plan" cells 0.9 2>/dev/null | paste -sd ' ')"
check "... its line names them" grep -q "runs stock (expected PASS) and regress (as the branch expects of them)" \
	<<<"$(KSRC=$fake/k-fixed "$plan" cells 0.9 2>&1 >/dev/null)"
sed -i '/regress/d' "$fake/branches/0.9/branch.mk"
check_eq "the 2012 fix without the leap edge: stock and fixed" "0.9-x86_64-stock 0.9-x86_64-fixed" "$(KSRC=$fake/k-2012 "$plan" cells 0.9 2>/dev/null | paste -sd ' ')"
check "... said in one line" grep -q "not the 2015 leap-edge fix" <<<"$(KSRC=$fake/k-2012 "$plan" cells 0.9 2>&1 >/dev/null)"
check_eq "fix-state: fixed, 2012, 2012 with 833f32d7 alone, nothing" "fixed|2012|2012 833f32d76302|" \
	"$("$plan" fix-state "$fake/k-fixed")|$("$plan" fix-state "$fake/k-2012")|$("$plan" fix-state "$fake/k-833")|$("$plan" fix-state "$fake/k-other")"
check "833f32d7 without 96efdcf2 is not 'fixed': stock and fixed" test "$(KSRC=$fake/k-833 "$plan" cells 0.9 2>/dev/null | paste -sd ' ')" = "0.9-x86_64-stock 0.9-x86_64-fixed"
check "... its line names the one it has" grep -q "of 833f32d76302 and 96efdcf2d080 only 833f32d76302" <<<"$(KSRC=$fake/k-833 "$plan" cells 0.9 2>&1 >/dev/null)"
# A tree with stable's own 2012 fix: the whole series, each patch decided
# from its code when applied (test-tree-patch.sh); its stock may fail only
# the checks of the 2015 commits it lacks.
KSRC=$fake/k-2012 "$plan" resolve "$fake/r5" 0.9-x86_64-stock 0.9-x86_64-fixed 2>/dev/null
check_eq "2012 tree: fixed is the whole series" "0001-a.patch 0002-b.patch 0001-e.patch" "$(jq -r '.patches | map(split("/")[-1]) | join(" ")' "$fake/r5/cells/0.9-x86_64-fixed/plan.json")"
check_eq "... stock may fail leap_edge and adjtimex_at_leap" "FAIL|leap_edge adjtimex_at_leap" \
	"$(jq -r '(.expect | join(" ")) + "|" + (.fail_within | join(" "))' "$fake/r5/cells/0.9-x86_64-stock/plan.json")"
KSRC=$fake/k-833 "$plan" resolve "$fake/r6" 0.9-x86_64-stock 2>/dev/null
check_eq "a tree with 833f32d7: stock may fail adjtimex_at_leap alone" "adjtimex_at_leap" "$(jq -r '.fail_within | join(" ")' "$fake/r6/cells/0.9-x86_64-stock/plan.json")"
KSRC=$fake/k-other "$plan" resolve "$fake/r7" 0.9-x86_64-stock 0.9-x86_64-fixed 2>/dev/null
check_eq "no fix: the whole stack, stock may fail anything" "0001-a.patch 0002-b.patch 0001-e.patch|" \
	"$(jq -r '.patches | map(split("/")[-1]) | join(" ")' "$fake/r7/cells/0.9-x86_64-fixed/plan.json")|$(jq -r '.fail_within | join(" ")' "$fake/r7/cells/0.9-x86_64-stock/plan.json")"
check_eq "plan.sh stack: what check-BRANCH dry-runs, the whole series" "shared/fix shared/edge|shared/fix shared/edge" \
	"$(KSRC=$fake/k-2012 "$plan" stack 0.9 fixed)|$(KSRC=$fake/k-other "$plan" stack 0.9 fixed)"
check "KERNEL_ARGS: on the command line after the arch's" grep -q "opt=x86_64 quiet_stop" <<<"$(jq -r '.qemu.cmdline' "$fake/r7/cells/0.9-x86_64-stock/plan.json")"
check_eq "no fix: stock and fixed, nothing said" "0.9-x86_64-stock 0.9-x86_64-fixed|" "$(KSRC=$fake/k-other "$plan" cells 0.9 2>&1 | paste -sd ' ')|"
# A tree of another branch's range: one line, nothing planned.
printf 'VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 4\n' >"$fake/k-fixed/Makefile"
err=$(KSRC=$fake/k-fixed "$plan" cells 0.9 2>&1) && rc=0 || rc=$?
check "another branch's tree: refused" test "$rc" -ne 0
check_eq "... in one line naming both" "plan: KSRC=$fake/k-fixed is Linux 9.9.4 (its code already carries the leap-second fix), not a tree of branch 0.9 (0.9-0.9.99); the tree is left as it is: make qemu KSRC=$fake/k-fixed picks its branch" "$err"

# --- boot modes: the same image, another command line -----------------------
mkdir -p "$fake/boots"
printf 'CMDLINE := tick=slow\nORDER := 1\nUNPROVEN := tai_offset\n' >"$fake/boots/slow.mk"
printf 'CMDLINE := needy=1\nNEEDS := CONFIG_NEEDY=y\nSHOWS := needy on\nORDER := 2\n' >"$fake/boots/needy.mk"
check_eq "boots: the modes, by ORDER" "slow needy" "$("$plan" boots | paste -sd ' ')"
check_eq "no BOOT: the plain boot alone" "9.9-x86_64-stock" "$("$plan" cells 9.9 x86_64 stock | paste -sd ' ')"
check_eq "BOOT=all: the plain boot and every mode the configuration takes" "9.9-x86_64-stock 9.9-x86_64-stock+slow" \
	"$("$plan" cells 9.9 x86_64 stock all 2>/dev/null | paste -sd ' ')"
check_eq "... and one line for the mode it cannot take" \
	"plan: boot mode needy needs CONFIG_NEEDY=y, which the tiny configuration of 9.9 on x86_64 does not set: no +needy cells" \
	"$("$plan" cells 9.9 x86_64 stock all 2>&1 >/dev/null)"
echo 'CONFIG_NEEDY=y' >>"$fake/arches/x86_64/arch.config"
check_eq "a fragment that sets NEEDS: the cells exist, on that arch only" "9.9-x86_64-stock+needy 9.9-x86_64-regress+needy" \
	"$("$plan" cells 9.9 "" "stock regress" needy 2>/dev/null | paste -sd ' ')"
check_eq "... the other arch's said in one line" 1 "$("$plan" cells 9.9 "" "stock regress" needy 2>&1 >/dev/null | grep -c 'on arm64 does not set')"
for bad in "cells 9.9 x86_64 stock bogus" "cells 9.9 arm64 stock needy" "resolve $fake/rb 9.9-x86_64-stock+bogus" \
	"resolve $fake/rb 9.9-arm64-stock+needy"; do
	# shellcheck disable=SC2086 # the words of a command line
	err=$("$plan" $bad 2>&1) && rc=0 || rc=$?
	check "'plan.sh $bad': fails" test "$rc" -ne 0
	check_eq "'plan.sh $bad': one line" 1 "$(grep -c . <<<"$err")"
done
check "unknown BOOT names the choices" grep -q "use one of: default slow needy, or all" <<<"$("$plan" cells 9.9 "" "" bogus 2>&1)"
echo '# CONFIG_NEEDY is not set' >"$fake/arches/x86_64/common.config"
check "the last fragment to name an option decides" not "$plan" cells 9.9 x86_64 stock needy
echo 'CONFIG_X=y' >"$fake/arches/x86_64/common.config"
"$plan" resolve "$fake/rb" 9.9-x86_64-stock 9.9-x86_64-stock+slow 9.9-x86_64-stock+needy
p=$fake/rb/cells/9.9-x86_64-stock+slow/plan.json
check_eq "a mode's cell boots the plain cell's image" "$(jq -r .image.path "$fake/rb/cells/9.9-x86_64-stock/plan.json")" "$(q .image.path)"
check_eq "... with the mode's command line after the arch's" \
	"console=ttyx86_64 leaptest.harness=1 panic=-1 softlockup_panic=0 opt=x86_64 tick=slow leaptest.skip=leap_edge,other" "$(q '.qemu.argv[-1]')"
check_eq "... and says which mode" "slow|tick=slow|" "$(q '[.boot.mode, .boot.cmdline, .boot.shows] | join("|")')"
check_eq "... and what it may leave unproven (UNPROVEN)" "leap_edge other tai_offset" "$(q '.may_be_unproven | join(" ")')"
check_eq "the plain cell: the default mode" "default" "$(jq -r .boot.mode "$fake/rb/cells/9.9-x86_64-stock/plan.json")"
check_eq "a mode's proof on the console is in the plan" "needy on" "$(jq -r .boot.shows "$fake/rb/cells/9.9-x86_64-stock+needy/plan.json")"
check_eq "reproducer: the cell name carries the mode" "make cell CELL=9.9-x86_64-stock+slow" "$(q .reproducer)"
sed -i '/CONFIG_NEEDY/d' "$fake/arches/x86_64/arch.config"
rm -rf "$fake/boots"

# --- configurations: tiny, a distribution's, your own -----------------------
mkdir -p "$fake/kconfigs"
printf 'SOURCE := tiny\nORDER := 1\n' >"$fake/kconfigs/tiny.mk"
# shellcheck disable=SC2016 # make's $(...), literally
printf 'SOURCE := debian\nFILE := config.$(DEBIAN_ARCH)_none_$(DEBIAN_FLAVOUR)\nFRAGMENTS := q\nWITHOUT := no such package\nORDER := 2\n' >"$fake/kconfigs/distro.mk"
printf 'SOURCE := kconfig\nFRAGMENTS := q\nORDER := 3\n' >"$fake/kconfigs/kconfig.mk"
echo 'CONFIG_Q=y' >"$fake/configs/q.config"
echo 'CONFIG_QX=y' >"$fake/arches/x86_64/q.config"
printf 'KCONFIGS := tiny distro\n' >>"$fake/branches/9.9/branch.mk"
printf 'DEBIAN_ARCH := amd64\nDEBIAN_FLAVOUR := amd64\nKCONFIG_SYMBOL := CONFIG_X86_64\nCLOCK_OPTIONS := X86_TSC HPET_TIMER\n' >>"$fake/arches/x86_64/arch.mk"
printf 'KCONFIG_SYMBOL := CONFIG_ARM64\n' >>"$fake/arches/arm64/arch.mk"
check_eq "kconfigs: by ORDER" "tiny distro kconfig" "$("$plan" kconfigs | paste -sd ' ')"
check_eq "CONFIG=distro: @distro cells" "9.9-x86_64-stock@distro" "$("$plan" cells 9.9 x86_64 stock "" distro | paste -sd ' ')"
check_eq "CONFIG=all: tiny and every packaged one, where the branch builds it" \
	"1.0-x86_64-stock 9.9-x86_64-stock 9.9-x86_64-stock@distro" "$("$plan" cells "" x86_64 stock "" all 2>/dev/null | paste -sd ' ')"
check_eq "... one line for the branch without it, with why" "plan: branch 1.0 has no @distro cells (no such package): it builds tiny" \
	"$("$plan" cells "" x86_64 stock "" all 2>&1 >/dev/null)"
check_eq "a configuration and a boot mode: @ then +" "9.9-x86_64-stock@distro+slow" \
	"$(mkdir -p "$fake/boots" && printf 'CMDLINE := tick=slow\n' >"$fake/boots/slow.mk" && "$plan" cells 9.9 x86_64 stock slow distro)"
rm -rf "$fake/boots"
printf 'CONFIG_X86_64=y\nCONFIG_MODULES=y\nCONFIG_HZ=250\nCONFIG_E1000=m\n' >"$fake/my.config"
for i in $(seq 100); do echo "CONFIG_PAD_$i=y"; done >>"$fake/my.config"
printf 'CONFIG_ARM64=y\n' >"$fake/arm.config"
cat "$fake/my.config" >>"$fake/arm.config"
sed -i '/CONFIG_X86_64/d' "$fake/arm.config"
for bad in "|cells 9.9 x86_64 stock '' bogus" "|cells 1.0 '' stock '' distro" "|cells 9.9 '' stock '' kconfig" \
	"|tools 9.9-x86_64-stock@bogus" "|tools 1.0-x86_64-stock@distro" "|tools 9.9-x86_64-stock@kconfig" \
	"$fake/my.config|cells 9.9 '' stock '' distro" "$fake/my.config|tools 9.9-x86_64-stock" \
	"$fake/none.config|tools 9.9-x86_64-stock@kconfig" "$fake/arm.config|tools 9.9-x86_64-stock@kconfig" \
	"/etc/hostname|tools 9.9-x86_64-stock@kconfig"; do
	err=$(KCONFIG=${bad%%|*} eval "\"\$plan\" ${bad#*|}" 2>&1) && rc=0 || rc=$?
	[ -z "${SHOW:-}" ] || echo "$err"
	check "'$bad': fails" test "$rc" -ne 0
	check_eq "'$bad': one line" 1 "$(grep -c . <<<"$err")"
done
check "unknown CONFIG names the choices and KCONFIG" grep -q "use one of: tiny distro, or all (your own file: KCONFIG=" <<<"$("$plan" cells 9.9 "" "" "" bogus 2>&1)"
check_eq "KCONFIG: the branch's cells are @kconfig, on the arch the file is for" "9.9-x86_64-stock@kconfig" \
	"$(KCONFIG=$fake/my.config "$plan" cells 9.9 "" stock 2>/dev/null | paste -sd ' ')"
check_eq "... the other arch's said in one line" "plan: KCONFIG=$fake/my.config is no configuration for arm64 (no CONFIG_ARM64=y): no arm64 cells" \
	"$(KCONFIG=$fake/my.config "$plan" cells 9.9 "" stock 2>&1 >/dev/null)"
check_eq "an arch the branch does not take, with KCONFIG too: the same one line" \
	"plan: no selected branch takes ARCH=arm64 (the arches each builds: 1.0: x86_64)|1" \
	"$( { KCONFIG=$fake/my.config "$plan" cells 1.0 arm64 2>&1 >/dev/null; echo "|$?"; } | paste -sd '')"
err=$(KCONFIG=$fake/my.config "$plan" resolve "$fake/rk" 9.9-x86_64-stock@kconfig 2>&1) && rc=0 || rc=$?
check_eq "KCONFIG not yet pinned: resolve refuses in one line, naming pin" "1 1" "$([ "$rc" -ne 0 ] && echo 1) $(grep -c 'is not pinned in .*: run scripts/plan.sh pin' <<<"$err")"
KCONFIG=$fake/my.config "$plan" pin 9.9-x86_64-stock@kconfig
KCONFIG=$fake/my.config "$plan" resolve "$fake/rk" 9.9-x86_64-stock@kconfig
"$plan" resolve "$fake/rk" 9.9-x86_64-stock
p=$fake/rk/cells/9.9-x86_64-stock@kconfig/plan.json
sha=$(sha256sum <"$fake/my.config" | cut -d' ' -f1)
check_eq "KCONFIG: the file's hash, kept under the build directory" "$sha $build/kconfigs/yours/$sha.config" "$(q '[.kconfig.origin_sha256, .kconfig.origin] | join(" ")')"
check "... the base it builds from: modules off" grep -qx '# CONFIG_MODULES is not set' "$(q .kconfig.base)"
check "... and = m not set" grep -qx '# CONFIG_E1000 is not set' "$(q .kconfig.base)"
check_eq "... its fragments: the configuration's, not tiny's" "configs/q.config arches/x86_64/q.config" "$(q '.configs | join(" ")')"
check_eq "... the timekeeping options, the arch's clock drivers last" "HZ NR_CPUS X86_TSC HPET_TIMER" "$(q '.kconfig.options | map(select(. == "HZ" or . == "NR_CPUS" or . == "X86_TSC" or . == "HPET_TIMER")) | join(" ")')"
check_eq "... an object directory of its own, named by the base it builds from" "$build/obj/linux-source-9.9-x86_64@${sha:0:8}" "$(q .build.objdir)"
check "... an image key of its own" test "$(q .image.key)" != "$(jq -r .image.key "$fake/rk/cells/9.9-x86_64-stock/plan.json")"
check "... the reproducer names the file" grep -q "KCONFIG=$fake/my.config" <<<"$(q .reproducer)"
check_eq "the tiny cell: no base, the tree's own objdir" "tiny||$build/obj/linux-source-9.9-x86_64" \
	"$(jq -r '[.kconfig.name, .kconfig.base, .build.objdir] | join("|")' "$fake/rk/cells/9.9-x86_64-stock/plan.json")"
rm -rf "$fake/kconfigs" "$fake/configs/q.config" "$fake/arches/x86_64/q.config"
sed -i '/^KCONFIGS/d' "$fake/branches/9.9/branch.mk"
sed -i '/^DEBIAN_ARCH\|^DEBIAN_FLAVOUR\|^KCONFIG_SYMBOL\|^CLOCK_OPTIONS/d' "$fake/arches/x86_64/arch.mk" "$fake/arches/arm64/arch.mk"

# --- one planning per run: the runner's dry run ------------------------------
trace=$fake/trace
out=$(LEAP_TRACE=$trace "$ROOT/scripts/matrix.sh" -n 9.9-x86_64-stock 9.9-arm64-naive 1.0-x86_64-fixed)
check_eq "dry run: prints the three plans" "9.9-x86_64-stock 9.9-arm64-naive 1.0-x86_64-fixed" "$(jq -r .cell <<<"$out" | paste -sd ' ')"
check_eq "dry run: the planner resolves once, for every cell" 1 "$(grep -c '^plan.sh resolve ' "$trace")"
check_eq "dry run: no build, no boot" 0 "$(grep -c 'cell.sh' "$trace" || true)"
check "dry run: nothing under the build directory's results" test ! -e "$build/results"
check "dry run: the plans stay in BUILD_DIR/dry-run" test -f "$build/dry-run/cells/9.9-arm64-naive/plan.json"

# --- a throwaway arch, branch and variant: data only -------------------------
before=$(cd "$fake" && find branches arches configs mutants -type f | sort)
mkdir -p "$fake/arches/riscv64"
echo 'CONFIG_SERIAL_8250=y' >"$fake/arches/riscv64/arch.config"
cat >"$fake/arches/riscv64/arch.mk" <<'MK'
KARCH     := riscv
CROSS     := riscv64-linux-gnu-
IMAGE     := arch/riscv/boot/Image
QEMU      := qemu-system-riscv64
QEMU_ARGS := -M virt -bios default
CONSOLE   := ttyS0
CMDLINE   :=
GUEST_CC  := riscv64-linux-gnu-gcc
PACKAGES  := qemu-system-riscv64:qemu-system-misc
MK
mkdir -p "$fake/branches/9.8"
cat >"$fake/branches/9.8/branch.mk" <<'MK'
PACKAGE  := linux-source-9.9
SUITES   := sid
VARIANTS := stock leapfree
EXPECT_stock := PASS
EXPECT_leapfree := FAIL
PATCHES_leapfree := shared/regress
MK
after=$(cd "$fake" && find branches arches configs mutants -type f | sort)
check_eq "throwaway arch + branch + variant: its stanza and a branch.mk, none changed" \
	"arches/riscv64/arch.config arches/riscv64/arch.mk branches/9.8/branch.mk" "$(comm -13 <(echo "$before") <(echo "$after") | paste -sd ' ')"
check_eq "the new arch runs on every branch without ARCHES" "9.8-riscv64-stock 9.8-riscv64-leapfree 9.9-riscv64-stock" \
	"$("$plan" cells "" riscv64 | grep -v -- '-regress\|-naive\|-fixed' | paste -sd ' ')"
check "the new variant is known" grep -qx leapfree <<<"$("$plan" variants)"
"$plan" resolve "$fake/r4" 9.8-riscv64-leapfree
p=$fake/r4/cells/9.8-riscv64-leapfree/plan.json
check_eq "its plan: the stanza's QEMU and packages, the variant's stack and verdict" \
	"qemu-system-riscv64 qemu-system-misc branches/shared/regress/0001-r.patch FAIL" \
	"$(q '[.qemu.argv[0], (.packages[0] | split(":")[1]), .patches[0], .expect[0]] | join(" ")')"
sed -i '/^QEMU /d' "$fake/arches/riscv64/arch.mk"
check "an incomplete stanza is refused, naming the field" grep -q "arches/riscv64/arch.mk has no QEMU" \
	<<<"$("$plan" resolve "$fake/r5" 9.8-riscv64-stock 2>&1 || true)"
unset LEAP_ROOT BUILD_DIR

# Nothing outside the data names an arch (the stanza is complete).
check_eq "no arch named in scripts, matrix.mk, Makefile, .ci/run" "" \
	"$(cat "$ROOT"/scripts/*.sh "$ROOT/matrix.mk" "$ROOT/Makefile" "$ROOT/.ci/run" | grep -v '^	@echo ' | grep -E 'x86_64|arm64|aarch64|qemu-system' || true)"

# The real data, trees you bring: a 3.4 tree takes i386 too; 2.6.32-3.3
# (a musl guest) take x86_64 alone, and asking for i386 says so.
for v in 3.4.4 3.2.0; do
	mkdir -p "$fake/real-$v"
	IFS=. read -r a b c <<<"$v"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' "$a" "$b" "$c" >"$fake/real-$v/Makefile"
done
check_eq "real data: a 3.4 tree on x86_64 and i386" "3.4-x86_64-stock 3.4-x86_64-fixed 3.4-i386-stock 3.4-i386-fixed" \
	"$(KSRC=$fake/real-3.4.4 "$plan" cells 3.4 2>/dev/null | paste -sd ' ')"
check_eq "real data: a 3.2 tree on x86_64 alone" "3.1-x86_64-stock 3.1-x86_64-fixed" \
	"$(KSRC=$fake/real-3.2.0 "$plan" cells 3.1 2>/dev/null | paste -sd ' ')"
check_eq "real data: ... i386 asked there: one line" "plan: no selected branch takes ARCH=i386 (the arches each builds: 3.1: x86_64)" \
	"$(KSRC=$fake/real-3.2.0 "$plan" cells 3.1 i386 2>&1)"

# The real data: every packaged branch's cells plan without errors.
# A stack that does not apply: the build step names the patch and the hunk
# (not a build.log that was never written), and the tree is left as it was.
mkdir -p "$fake/linux-0.9/kernel"
printf 'one\ntwo\nthree\n' >"$fake/linux-0.9/kernel/x.c"
cp -r "$fake/linux-0.9" "$fake/linux-0.9.orig"
printf -- '--- a/kernel/x.c\n+++ b/kernel/x.c\n@@ -1,3 +1,3 @@\n one\n-TWO\n+2\n three\n' >"$fake/branches/shared/fix/0001-a.patch"
LEAP_ROOT=$fake BUILD_DIR=$build KSRC=$fake/linux-0.9 "$plan" resolve "$fake/r5" 0.9-x86_64-fixed
"$ROOT/scripts/build-cell.sh" "$fake/r5/cells/0.9-x86_64-fixed/plan.json" >/dev/null 2>&1 && rc=0 || rc=$?
b=$fake/r5/cells/0.9-x86_64-fixed/build.json
check "a stack that does not apply: the build step fails" test "$rc" -ne 0
check_eq "... says why, naming patch, file and hunk" "failed|patches do not apply: 0001-a.patch: FAILS at kernel/x.c: Hunk #1 FAILED at 1." \
	"$(jq -r '.status + "|" + (.reason | sub(" in /.*"; ""))' "$b")"
check "... and leaves the tree as it was" diff -r "$fake/linux-0.9" "$fake/linux-0.9.orig"
mapfile -t real < <("$plan" cells)
check "every packaged branch's cells plan (their names, arches, configurations)" "$plan" tools "${real[@]}"
check_eq "... every packaged branch has cells" "$("$plan" branches | while read -r b; do [ -z "$("$plan" get "$b" PACKAGE)" ] || echo "$b"; done | paste -sd ' ')" \
	"$("$plan" fields "${real[@]}" | cut -f2 | awk '!seen[$0]++' | paste -sd ' ')"
check "every real cell has an expected verdict (the loader refuses a variant without one)" "$plan" branches
# The branches as README shows them: the table is the data's, word for word.
check_eq "README's branch table is make list-branches FORMAT=md" "$(LEAP_ROOT=$ROOT "$plan" list-branches --markdown)" \
	"$(sed -n '/^<!-- branches: /,/^<!-- \/branches -->/p' "$ROOT/README.md" | sed '1d;$d')"
check "list-branches: each branch, what it takes" grep -qx "3.11: Linux 3.11-3.17 (a tree you bring)" <<<"$(LEAP_ROOT=$ROOT "$plan" list-branches)"
check "... and where it was run" grep -qx "  run on: 3.14.40 3.14.70 3.16.0" <<<"$(LEAP_ROOT=$ROOT "$plan" list-branches)"
finish plan
