# arm64: one complete stanza (cf. KUnit's qemu_configs), with its kernel config
# fragments beside it: arch.config always, <group>.config on top of
# configs/<group>.config (common, qemu).  Read by scripts/plan.sh only.
KARCH     := arm64
CROSS     := aarch64-linux-gnu-
IMAGE     := arch/arm64/boot/Image
QEMU      := qemu-system-aarch64
QEMU_ARGS := -M virt -cpu max,pauth-impdef=on
CONSOLE   := ttyAMA0
CMDLINE   :=
GUEST_CC  := aarch64-linux-gnu-gcc
PACKAGES  := qemu-system-aarch64:qemu-system-arm aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu /usr/aarch64-linux-gnu/include/stdio.h:libc6-dev-arm64-cross
CELL_TARGET_S := 10
# make test boots this arch's cells (CI's scope).
MAKE_TEST := yes
ORDER     := 2
# Configurations that are not tiny (kconfigs/): see scripts/plan.sh.
DEBIAN_ARCH    := arm64
DEBIAN_FLAVOUR := arm64
KCONFIG_SYMBOL := CONFIG_ARM64
# What a kernel image brought with IMAGE= must be to boot here.
IMAGE_FORMATS  := arm64-Image elf-aarch64-le
CLOCK_OPTIONS  := ARM_ARCH_TIMER
