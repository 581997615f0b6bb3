# Linux 3.4 before 3.4.6 (pre-fix struct timekeeper): a tree the user brings
# (make qemu KSRC=...).  3.4.0-3.4.2 also lack upstream fad0c66c4bb8 and are
# not covered here: see docs/backports.md ("3.4 family") and branches/3.4.0/fix.
PACKAGE     :=
SUITES      :=
FAMILY      := 3.4
VERSION_MIN := 3.4.3
VERSION_MAX := 3.4.5
ARCHES      := x86_64
VARIANTS    := stock fixed

EXPECT_stock := FAIL
EXPECT_fixed := PASS

# Patch directories, relative to branches/, applied in order.
PATCHES_stock :=
PATCHES_fixed := 3.4/fix

# Old-tree settings: build aids applied under every variant, the config
# fragment used instead of configs/common.config, and the compilers
# measured on Debian 12 (docs/backports.md, OLD-TREES notes).
COMPAT        := 3.4/compat
CONFIGS       := old
KERNEL_CC     := gcc -fno-pie -no-pie -std=gnu89 -fcommon -Wa,-mrelax-relocations=no -fno-stack-protector -fcf-protection=none -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
KERNEL_HOSTCC := gcc -std=gnu89 -fcommon

# The 2015 leap-edge fix (upstream 833f32d76302) is not carried on 3.4
# (docs/backports.md): the leap test reports leap_edge as SKIP here.
SKIP_CHECKS   := leap_edge
