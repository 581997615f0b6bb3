# What every tree the user brings (3.4 and older) shares: no Debian package,
# x86_64 and i386 (arm64 came in 3.7, and 3.4.4 has neither mach-virt nor
# PSCI, which armhf's QEMU virt machine needs), the compilers measured on Debian 12's
# gcc 12 (docs/backports.md, "Compilers" in README.md), and two variants:
# the tree as it is (the 2012 bug: FAIL) and with the fix (PASS).  A
# family.mk or branch.mk that names FAMILY := old overrides any key.
PACKAGE       :=
SUITES        :=
ARCHES        := x86_64 i386
KERNEL_CC     := gcc -fno-pie -no-pie -std=gnu89 -fcommon -Wa,-mrelax-relocations=no -fno-stack-protector -fcf-protection=none -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
KERNEL_HOSTCC := gcc -std=gnu89 -fcommon
VARIANTS      := stock fixed
EXPECT_stock  := FAIL
EXPECT_fixed  := PASS
PATCHES_stock :=
# The 2015 leap-edge commits, each with the leap-test check that fails
# without it: a stock tree that carries the 2012 fix may fail only the
# checks of the ones its code lacks (plan.sh fix-state).
EDGE_FIXES    := 833f32d76302:leap_edge 96efdcf2d080:adjtimex_at_leap
# The configurations its trees build (kconfigs/; KCONFIG= is any branch's).
KCONFIGS := tiny

# arm64, where a branch's ARCHES names it (3.17 on; QEMU virt): KERNEL_CC
# above carries x86 options, so arm64 names its own, the cross compiler
# with the old trees' C dialect; and QEMU's "max" CPU stops 4.4.178 and
# 5.4.59 before their first line of output (their early code meets
# features it predates), where a Cortex-A57 boots them.
KERNEL_CC_arm64 := aarch64-linux-gnu-gcc -std=gnu89 -fcommon
QEMU_ARGS_arm64 := -M virt -cpu cortex-a57
# armhf, where a branch's ARCHES names it (QEMU virt, whose machine the
# kernel knows from 3.9, ARCH_VIRT): the cross compiler with the old C
# dialect, as arm64, and the soft-float ABI the kernel builds with anyway
# (-msoft-float): Debian's compiler is hard-float, and gcc 12 refuses
# -march=armv7-a there ("selected architecture lacks an FPU"), so these
# trees' probe for it fell back to armv5t and their assembly failed
# (4.4.178: "selected processor does not support `isb'").
KERNEL_CC_armhf := arm-linux-gnueabihf-gcc -mfloat-abi=soft -std=gnu89 -fcommon
