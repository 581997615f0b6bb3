# Debian bullseye's 5.10 (security suite): carries the upstream fix (later layout).
PACKAGE     := linux-source-5.10
SUITES      := bullseye-security
FAMILY      := later
VERSION_MIN := 5.10
VERSION_MAX := 5.10.9999
ARCHES      := x86_64 arm64
VARIANTS    := stock regress naive fixed

EXPECT_stock   := PASS
EXPECT_regress := FAIL
EXPECT_naive   := TIMEOUT SPLAT
EXPECT_fixed   := PASS

# Patch directories, relative to branches/, applied in order.
PATCHES_stock   :=
PATCHES_regress := later/regress
PATCHES_naive   := later/regress 5.10/naive
PATCHES_fixed   := later/regress later/fix
