# What the pre-3.4 branches (FAMILY := pre-3.4) share: stock expected to show
# the 2012 bug and fixed to cure it, the family's build aids and a musl guest
# (static glibc refuses kernels older than 3.2).  The package, arch and
# compilers come from branches/old/family.mk; a branch.mk overrides any key.
FAMILY   := old
VARIANTS := stock fixed

EXPECT_stock := FAIL
EXPECT_fixed := PASS
PATCHES_stock :=

COMPAT        := pre-3.4/compat
GUEST_LIBC    := musl
