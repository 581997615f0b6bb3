# armhf: one complete stanza (cf. KUnit's qemu_configs), with its kernel config
# fragments beside it: arch.config always, <group>.config on top of
# configs/<group>.config.  Read by scripts/plan.sh only.  32-bit ARMv7 on
# QEMU's virt machine: the arm generic timer, 32-bit time syscalls.
KARCH     := arm
CROSS     := arm-linux-gnueabihf-
IMAGE     := arch/arm/boot/zImage
QEMU      := qemu-system-arm
QEMU_ARGS := -M virt,highmem=off -cpu cortex-a15
CONSOLE   := ttyAMA0
CMDLINE   :=
# The guest's compiler: static glibc with a 64-bit time_t; the test calls the
# 32-bit time syscalls itself too.
GUEST_CC  := arm-linux-gnueabihf-gcc -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64
PACKAGES  := qemu-system-arm:qemu-system-arm arm-linux-gnueabihf-gcc:gcc-arm-linux-gnueabihf /usr/arm-linux-gnueabihf/include/stdio.h:libc6-dev-armhf-cross
CELL_TARGET_S := 12
ORDER     := 4
# Configurations that are not tiny (kconfigs/): see scripts/plan.sh.
DEBIAN_ARCH    := armhf
DEBIAN_FLAVOUR := armmp
KCONFIG_SYMBOL := CONFIG_ARM
# What a kernel image brought with IMAGE= must be to boot here.
IMAGE_FORMATS  := arm-zImage elf-arm-le
CLOCK_OPTIONS  := ARM_ARCH_TIMER
