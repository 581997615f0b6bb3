# What the branches of the later layout (FAMILY := later) share: packaged
# trees that carry the fix, with every variant.  A branch.mk overrides any
# key (5.10 has its own naive patch; the trees that take i386 or riscv64 say
# so in their ARCHES).
VARIANTS := stock regress naive rfc fixed
# The arches every packaged tree takes; a branch.mk adds its own
# (ARCHES += ...).
ARCHES   := x86_64 arm64 armhf s390x

EXPECT_stock   := PASS
EXPECT_regress := FAIL
EXPECT_naive   := TIMEOUT SPLAT
# John Stultz's RFC of 1 July 2012 on top of regress (docs/backports.md,
# "The RFC of 1 July 2012"): the notification deferred to a work item
# from under the timekeeper lock; the 2015 leap edge stays broken.
EXPECT_rfc     := FAIL
EXPECT_fixed   := PASS

# Patch directories, relative to branches/, applied in order.
PATCHES_stock   :=
PATCHES_regress := later/regress
PATCHES_naive   := later/regress later/naive
PATCHES_rfc     := later/regress later/rfc
PATCHES_fixed   := later/regress later/fix
# The configurations its trees build (kconfigs/; KCONFIG= is any branch's).
KCONFIGS := tiny debian

# A tree you bring (KSRC=) of this layout: the leap edge's next_leap_ktime
# and clock_was_set(bases) (CLOCK_SET_WALL, in upstream since 5.15 and in
# RHEL 9's 5.14).  Read in 5.14 (AlmaLinux 9.6), 5.15-5.19, 6.2-6.11,
# 6.13-7.1 trees: later/regress, fix and naive apply to every one of them
# (docs/long-term-lines.md, "5.11-7.1").
LAYOUT   := kernel/time/timekeeping.c:next_leap_ktime kernel/time/timekeeping.c:CLOCK_SET_WALL
