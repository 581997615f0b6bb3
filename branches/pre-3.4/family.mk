# What the pre-3.4 branches (FAMILY := pre-3.4) share: trees the user brings
# (no package), x86_64 only (arm64 came in 3.7), stock expected to show the
# 2012 bug and fixed to cure it; the shared build aids, the compilers measured
# on Debian 12 (shared/OLD-TREES.md) and a musl guest (static glibc refuses
# kernels older than 3.2).  A branch.mk overrides any key.
PACKAGE  :=
SUITES   :=
ARCHES   := x86_64
VARIANTS := stock fixed

EXPECT_stock := FAIL
EXPECT_fixed := PASS
PATCHES_stock :=

COMPAT        := pre-3.4/compat
GUEST_LIBC    := musl
KERNEL_CC     := gcc -fno-pie -no-pie -std=gnu89 -fcommon -Wa,-mrelax-relocations=no -fno-stack-protector -fcf-protection=none -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
KERNEL_HOSTCC := gcc -std=gnu89 -fcommon
