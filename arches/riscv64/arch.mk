# riscv64: one complete stanza (cf. KUnit's qemu_configs), with its kernel
# config fragments beside it: arch.config always, <group>.config on top of
# configs/<group>.config.  Read by scripts/plan.sh only.  RISC-V on QEMU's
# virt machine with OpenSBI: the SBI timer, the 16550 console.
KARCH     := riscv
CROSS     := riscv64-linux-gnu-
IMAGE     := arch/riscv/boot/Image
QEMU      := qemu-system-riscv64
QEMU_ARGS := -M virt -bios default
CONSOLE   := ttyS0
CMDLINE   :=
GUEST_CC  := riscv64-linux-gnu-gcc
PACKAGES  := qemu-system-riscv64:qemu-system-misc /usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin:qemu-system-data riscv64-linux-gnu-gcc:gcc-riscv64-linux-gnu /usr/riscv64-linux-gnu/include/stdio.h:libc6-dev-riscv64-cross
CELL_TARGET_S := 12
ORDER     := 7
# Configurations that are not tiny (kconfigs/): see scripts/plan.sh.
DEBIAN_ARCH    := riscv64
DEBIAN_FLAVOUR := riscv64
KCONFIG_SYMBOL := CONFIG_RISCV
# What a kernel image brought with IMAGE= must be to boot here.
IMAGE_FORMATS  := riscv-Image elf-riscv-le
CLOCK_OPTIONS  := RISCV_TIMER
