# i386: one complete stanza (cf. KUnit's qemu_configs), with its kernel config
# fragments beside it: arch.config always, <group>.config on top of
# configs/<group>.config.  Read by scripts/plan.sh only.  32-bit x86, as much
# of the 2012 fleet was: 32-bit ktime arithmetic and the old 32-bit time
# syscalls beside the 64-bit ones.
KARCH     := i386
CROSS     := i686-linux-gnu-
IMAGE     := arch/x86/boot/bzImage
QEMU      := qemu-system-i386
# An Intel CPU: QEMU's "max" is an AMD family 6 on qemu-system-i386, which
# the kernel warns is "not suitable for SMP" (a splat at boot).
QEMU_ARGS := -M pc -cpu coreduo -bios qboot.rom
CONSOLE   := ttyS0
# A clocksource chosen at boot (see arches/x86_64/arch.mk).
CMDLINE   := clocksource=hpet
# The guest's compiler: static glibc with a 64-bit time_t (glibc 2.34+), so
# the test's own calls take the 64-bit syscalls; it calls the 32-bit ones
# itself too.
GUEST_CC  := i686-linux-gnu-gcc -D_TIME_BITS=64 -D_FILE_OFFSET_BITS=64
PACKAGES  := qemu-system-i386:qemu-system-x86 i686-linux-gnu-gcc:gcc-i686-linux-gnu /usr/i686-linux-gnu/include/stdio.h:libc6-dev-i386-cross
CELL_TARGET_S := 10
ORDER     := 3
# Configurations that are not tiny (kconfigs/): see scripts/plan.sh.
DEBIAN_ARCH    := i386
DEBIAN_FLAVOUR := 686-pae
KCONFIG_SYMBOL := CONFIG_X86_32
# What a kernel image brought with IMAGE= must be to boot here.
IMAGE_FORMATS  := bzImage-32 elf-i386-le
CLOCK_OPTIONS  := X86_TSC HPET_TIMER X86_PM_TIMER X86_LOCAL_APIC
