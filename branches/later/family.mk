# What the branches of the later layout (FAMILY := later) share: packaged
# trees that carry the fix, with every variant.  A branch.mk overrides any
# key (5.10 has its own naive patch; the trees that take i386 or riscv64 say
# so in their ARCHES).
VARIANTS := stock regress naive fixed
# A packaged tree's arches unless its branch.mk lists its own (each does
# today: i386 up to 6.1, ppc64el up to 6.12, riscv64 from 6.12 on).
ARCHES   := x86_64 arm64 armhf ppc64el s390x

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
