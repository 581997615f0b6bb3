# x86_64: one complete stanza (cf. KUnit's qemu_configs), with its kernel config
# fragments beside it: arch.config always, <group>.config on top of
# configs/<group>.config (common, qemu).  Read by scripts/plan.sh only.
KARCH     := x86_64
CROSS     :=
IMAGE     := arch/x86/boot/bzImage
QEMU      := qemu-system-x86_64
# qboot instead of SeaBIOS: about 0.4 s less per boot under TCG.
QEMU_ARGS := -M pc -cpu max -bios qboot.rom
CONSOLE   := ttyS0
# A clocksource chosen at boot.  Otherwise the TSC's refined calibration
# (about a second after boot) switches clocksource while the test runs, and
# change_clocksource() clears the NTP state with the armed leap second (seen
# on 6.12: TIME_INS -> TIME_ERROR, no leap).
CMDLINE   := clocksource=hpet
# The guest's compilers: static glibc, and musl for branches that say
# GUEST_LIBC := musl (static glibc refuses kernels older than 3.2).
GUEST_CC      := gcc
GUEST_CC_musl := musl-gcc
PACKAGES      := qemu-system-x86_64:qemu-system-x86
PACKAGES_musl := musl-gcc:musl-tools
CELL_TARGET_S := 8
# make test boots this arch's cells (CI's scope).
MAKE_TEST := yes
ORDER     := 1
# Configurations that are not tiny (kconfigs/): see scripts/plan.sh.
DEBIAN_ARCH    := amd64
DEBIAN_FLAVOUR := amd64
KCONFIG_SYMBOL := CONFIG_X86_64
# What a kernel image brought with IMAGE= must be to boot here.
IMAGE_FORMATS  := bzImage-64 elf-x86_64-le
CLOCK_OPTIONS  := X86_TSC HPET_TIMER X86_PM_TIMER X86_LOCAL_APIC
