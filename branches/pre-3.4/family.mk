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
