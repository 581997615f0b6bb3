# Linux 3.0.x (pre-3.4 layout: leap applied by an ntp.c hrtimer under
# xtime_lock): a tree the user brings (make qemu KSRC=...).  3.1-3.3 use the
# same patches from branches/3.1 (only the config names differ); checked on
# real 3.0.1 and 3.2.0 trees, see docs/backports.md ("pre-3.4 families").
PACKAGE     :=
SUITES      :=
FAMILY      := pre-3.4
VERSION_MIN := 3.0
VERSION_MAX := 3.0.9999
ARCHES      := x86_64
VARIANTS    := stock fixed

EXPECT_stock := FAIL
EXPECT_fixed := PASS

# Patch directories, relative to branches/, applied in order.
PATCHES_stock :=
PATCHES_fixed := 3.0/fix

# Old-tree settings: build aids applied under every variant (shared by the
# pre-3.4 branches), the config fragment used instead of common.config, the
# compilers measured on Debian 12 for 3.4.4, and a musl guest (static glibc
# refuses kernels older than 3.2: "FATAL: kernel too old").
COMPAT        := pre-3.4/compat
CONFIGS       := old-3.0
GUEST_LIBC    := musl
KERNEL_CC     := gcc -fno-pie -no-pie -std=gnu89 -fcommon -Wa,-mrelax-relocations=no -fno-stack-protector -fcf-protection=none -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
KERNEL_HOSTCC := gcc -std=gnu89 -fcommon
