# ppc64el: one complete stanza (cf. KUnit's qemu_configs), with its kernel
# config fragments beside it: arch.config always, <group>.config on top of
# configs/<group>.config.  Read by scripts/plan.sh only.  Little-endian
# POWER on QEMU's pseries machine (SLOF): the decrementer, the hvc console.
KARCH     := powerpc
CROSS     := powerpc64le-linux-gnu-
IMAGE     := vmlinux
QEMU      := qemu-system-ppc64
# pseries wants its memory in 256 MiB units.  The spectre mitigation caps
# are off: TCG has none of them, and asking (the default) warns on every boot.
QEMU_ARGS := -M pseries,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off -cpu power9 -m 256
CONSOLE   := hvc0
CMDLINE   :=
GUEST_CC  := powerpc64le-linux-gnu-gcc
PACKAGES  := qemu-system-ppc64:qemu-system-ppc /usr/share/qemu/slof.bin:qemu-system-data powerpc64le-linux-gnu-gcc:gcc-powerpc64le-linux-gnu /usr/powerpc64le-linux-gnu/include/stdio.h:libc6-dev-ppc64el-cross
CELL_TARGET_S := 16
ORDER     := 5
# Configurations that are not tiny (kconfigs/): see scripts/plan.sh.
DEBIAN_ARCH    := ppc64el
DEBIAN_FLAVOUR := powerpc64le
KCONFIG_SYMBOL := CONFIG_PPC64
# What a kernel image brought with IMAGE= must be to boot here.
IMAGE_FORMATS  := elf-ppc64-le
CLOCK_OPTIONS  := PPC_PSERIES
