# What the branches of the later layout (FAMILY := later) share: packaged
# trees that carry the fix, with every variant.  A branch.mk overrides any
# key (5.10 has its own naive patch; the trees that take i386 or riscv64 say
# so in their ARCHES).
VARIANTS := stock regress naive fixed
# The arches every packaged tree takes; a branch.mk adds its own
# (ARCHES += ...).
ARCHES   := x86_64 arm64 armhf s390x

EXPECT_stock   := PASS
EXPECT_regress := FAIL
EXPECT_naive   := TIMEOUT SPLAT
EXPECT_fixed   := PASS

# Patch directories, relative to branches/, applied in order.
PATCHES_stock   :=
PATCHES_regress := later/regress
PATCHES_naive   := later/regress later/naive
PATCHES_fixed   := later/regress later/fix
# The configurations its trees build (kconfigs/; KCONFIG= is any branch's).
KCONFIGS := tiny debian
