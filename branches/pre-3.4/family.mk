# What the pre-3.4 branches (FAMILY := pre-3.4) share: the family's build
# aids and a musl guest (static glibc refuses kernels older than 3.2).  The
# package, arch, compilers, variants and expected verdicts come from
# branches/old/family.mk; a branch.mk overrides any key.
FAMILY   := old
COMPAT        := pre-3.4/compat
GUEST_LIBC    := musl
