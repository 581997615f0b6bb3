# Debian bookworm's 6.1: carries the upstream fix (later layout).
PACKAGE     := linux-source-6.1
SUITES      := bookworm bookworm-security
FAMILY      := later
VERSION_MIN := 6.1
VERSION_MAX := 6.1.9999
ARCHES      := x86_64 arm64
VARIANTS    := stock regress naive fixed

EXPECT_stock   := PASS
EXPECT_regress := FAIL
EXPECT_naive   := TIMEOUT SPLAT
EXPECT_fixed   := PASS

PATCHES_stock   :=
PATCHES_regress := regress
PATCHES_naive   := regress naive
PATCHES_fixed   := regress fix
