# Linux 3.1-3.3 (pre-3.4 layout): the 3.0 series (branches/3.0/fix, the same
# bytes) with the 3.1+ config names (configs/old.config); a tree the user
# brings.  Checked on a real 3.2.0 tree, see docs/backports.md.
PACKAGE     :=
SUITES      :=
FAMILY      := pre-3.4
VERSION_MIN := 3.1
VERSION_MAX := 3.3.9999
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
CONFIGS       := old
GUEST_LIBC    := musl
KERNEL_CC     := gcc -fno-pie -no-pie -std=gnu89 -fcommon -Wa,-mrelax-relocations=no -fno-stack-protector -fcf-protection=none -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
KERNEL_HOSTCC := gcc -std=gnu89 -fcommon
