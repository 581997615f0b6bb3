# What the pre-3.4 branches (FAMILY := pre-3.4) share: the family's build
# aids and a musl guest (static glibc refuses kernels older than 3.2).  The
# package, arch, compilers, variants and expected verdicts come from
# branches/old/family.mk; a branch.mk overrides any key.
FAMILY   := old
COMPAT        := old/compat pre-3.4/compat
GUEST_LIBC    := musl
# x86_64 alone: Debian 12 has no i386 musl to cross-compile with (musl-tools
# is the host's own), and its i386 static glibc says "for GNU/Linux 3.2.0".
ARCHES        := x86_64
# John Stultz's RFC of 1 July 2012, never merged, in this layout
# (docs/backports.md, "The RFC of 1 July 2012"): asked for with VARIANT=rfc
# on a tree without the 2012 fix.  Expected to fail what it cannot mend:
# the 2015 leap edge (leap_edge, adjtimex_at_leap) and the tree's own gaps.
# 3.0 and 3.1 take 3.0/rfc (3.0's clock_was_set() is the RFC's own).
VARIANTS      := stock rfc fixed
EXPECT_rfc    := FAIL
PATCHES_rfc   := pre-3.4/rfc
