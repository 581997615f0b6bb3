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

# Patch directories, relative to branches/, applied in order.
PATCHES_stock   :=
PATCHES_regress := later/regress
PATCHES_naive   := later/regress later/naive
PATCHES_fixed   := later/regress later/fix
