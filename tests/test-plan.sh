#!/bin/bash
# test-plan.sh - matrix planning: cells from branch.mk files, filters, errors.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan=$ROOT/scripts/plan.sh

# A made-up layout, so the test does not depend on today's branches.
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/branches/9.9" "$fake/branches/1.0" "$fake/branches/shared" "$fake/arches"
cp "$ROOT/arches/"*.mk "$fake/arches/"
cat >"$fake/branches/9.9/branch.mk" <<'MK'
# comment := ignored
PACKAGE  := linux-source-9.9
SUITES   := sid experimental
ARCHES   := x86_64 arm64
VARIANTS := stock regress naive fixed
VERSION_MIN := 9.9
VERSION_MAX := 9.9.9999
EXPECT_naive := TIMEOUT SPLAT
PATCHES_fixed := shared/regress shared/fix
MK
cat >"$fake/branches/1.0/branch.mk" <<'MK'
PACKAGE  := linux-source-1.0
ARCHES   := x86_64
VARIANTS := stock fixed
VERSION_MIN := 1.0
VERSION_MAX := 1.2.99
MK
mkdir -p "$fake/branches/0.9"
cat >"$fake/branches/0.9/branch.mk" <<'MK'
PACKAGE  :=
ARCHES   := x86_64
VARIANTS := stock fixed
VERSION_MIN := 0.9
VERSION_MAX := 0.9.99
MK
export LEAP_ROOT=$fake

check_eq "all cells" "10" "$("$plan" cells | wc -l)"
check_eq "first cell" "1.0-x86_64-stock" "$("$plan" cells | head -n 1)"
check_eq "branch filter" "4" "$("$plan" cells 9.9 "" "" | grep -c x86_64)"
check_eq "arch filter" "9.9-arm64-stock 9.9-arm64-regress 9.9-arm64-naive 9.9-arm64-fixed" \
	"$("$plan" cells 9.9 arm64 | paste -sd ' ')"
check_eq "variant filter" "1.0-x86_64-fixed 9.9-x86_64-fixed 9.9-arm64-fixed" \
	"$("$plan" cells "" "" fixed | paste -sd ' ')"
check_eq "variant list filter" "2" "$("$plan" cells 9.9 x86_64 "stock fixed" | wc -l)"
check "shared dir without branch.mk is no branch" not grep -qx shared <<<"$("$plan" branches)"

info=$("$plan" info 9.9-arm64-naive)
check_eq "info expect" "EXPECT=TIMEOUT\\ SPLAT" "$(grep -o 'EXPECT=[^ ]*\\ [^ ]*' <<<"$info")"
check "info arch fields" grep -q "A_QEMU=qemu-system-aarch64" <<<"$info"
check "info patches" grep -q "PATCHES=shared/regress\\\\ shared/fix" <<<"$("$plan" info 9.9-x86_64-fixed)"

err=$("$plan" cells 9.8 2>&1 || true)
check_eq "unknown branch: one line" "1" "$(wc -l <<<"$err")"
check "unknown branch names the choices" grep -q "use one of: 0.9 1.0 9.9" <<<"$err"
check "unknown arch fails" bash -c "! '$plan' cells 9.9 mips"
check "unknown variant fails" bash -c "! '$plan' cells 9.9 x86_64 broken"
err=$("$plan" info 1.0-arm64-stock 2>&1 || true)
check_eq "cell of a missing arch: one line" "1" "$(wc -l <<<"$err")"
check "bad cell name fails" bash -c "! '$plan' info nonsense"

# A branch for trees the user brings: out of the matrix unless asked, with KSRC.
check "user-tree branch not in the matrix" not grep -q '^0.9-' <<<"$("$plan" cells)"
err=$("$plan" cells 0.9 2>&1 || true)
check "user-tree branch asked without KSRC: one line naming KSRC" grep -qx "plan: branch 0.9 runs on a tree you bring: make qemu-0.9 KSRC=/path/to/linux-0.9.x" <<<"$err"
check_eq "user-tree branch with KSRC" "0.9-x86_64-stock 0.9-x86_64-fixed" "$(KSRC=/x "$plan" cells 0.9 | paste -sd ' ')"

check_eq "branch for 9.9.3" "9.9" "$("$plan" branch-for 9.9.3)"
check_eq "branch for 1.2.5" "1.0" "$("$plan" branch-for 1.2.5)"
check "unsupported version fails" bash -c "! '$plan' branch-for 2.6.32"

# A key absent from a branch.mk comes from its family's family.mk.
mkdir -p "$fake/branches/fam" "$fake/branches/8.8"
printf 'ARCHES := arm64\nVARIANTS := stock fixed\nEXPECT_fixed := PASS\nPATCHES_fixed := fam/fix\n' >"$fake/branches/fam/family.mk"
printf 'PACKAGE := linux-source-8.8\nFAMILY := fam\nPATCHES_fixed := fam/fix 8.8/extra\n' >"$fake/branches/8.8/branch.mk"
check_eq "family.mk supplies ARCHES and VARIANTS" "8.8-arm64-stock 8.8-arm64-fixed" "$("$plan" cells 8.8 | paste -sd ' ')"
check "family.mk supplies EXPECT" grep -q "EXPECT=PASS " <<<"$("$plan" info 8.8-arm64-fixed)"
check_eq "branch.mk overrides family.mk" "fam/fix 8.8/extra" "$("$plan" get 8.8 PATCHES_fixed)"
check "a family directory is no branch" not grep -qx fam <<<"$("$plan" branches)"
unset LEAP_ROOT

# The real branches: 5 packaged trees x 2 arches x 4 variants.
check_eq "real matrix is 40 cells" "40" "$("$plan" cells | wc -l)"
# The trees to prefetch: once each, in the order the cells first need them.
check_eq "packages: first use first, once each" \
	"linux-source-6.1 bookworm bookworm-security|linux-source-5.10 bullseye-security" \
	"$("$plan" packages 6.1-arm64-stock 5.10-x86_64-stock 6.1-x86_64-fixed | paste -sd '|')"
check_eq "packages: a user-tree branch needs none" "" "$("$plan" packages 3.4-x86_64-stock)"
# Config fragments: each named one (default common), the arch's, then the
# <fragment>-<arch> ones that exist, in that order.
mkdir -p "$fake/configs"
touch "$fake/configs/common.config" "$fake/configs/old.config" "$fake/configs/x86_64.config" \
	"$fake/configs/arm64.config" "$fake/configs/common-x86_64.config"
check_eq "configs: common x86_64" "$fake/configs/common.config $fake/configs/x86_64.config $fake/configs/common-x86_64.config" \
	"$(LEAP_ROOT=$fake "$plan" configs x86_64 | paste -sd ' ')"
check_eq "configs: arm64 has no common-arm64" "$fake/configs/common.config $fake/configs/arm64.config" \
	"$(LEAP_ROOT=$fake "$plan" configs arm64 common | paste -sd ' ')"
check_eq "configs: CONFIGS := old" "$fake/configs/old.config $fake/configs/x86_64.config" \
	"$(LEAP_ROOT=$fake "$plan" configs x86_64 old | paste -sd ' ')"
check "configs: a missing fragment is refused" not env LEAP_ROOT="$fake" "$plan" configs x86_64 nosuch
check "configs: ... naming it" grep -q "no configs/nosuch.config" <<<"$(LEAP_ROOT=$fake "$plan" configs x86_64 nosuch 2>&1)"
finish plan
