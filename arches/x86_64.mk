# x86_64 (cf. KUnit's qemu_configs: one stanza, the same fields per arch).
x86_64_KARCH     := x86_64
x86_64_CROSS     :=
x86_64_IMAGE     := arch/x86/boot/bzImage
x86_64_QEMU      := qemu-system-x86_64
# qboot instead of SeaBIOS: about 0.4 s less per boot under TCG.
x86_64_QEMU_ARGS := -M pc -cpu max -bios qboot.rom
x86_64_CONSOLE   := ttyS0
# A clocksource chosen at boot.  Otherwise the TSC's refined calibration
# (about a second after boot) switches clocksource while the test runs, and
# change_clocksource() clears the NTP state with the armed leap second (seen
# on 6.12: TIME_INS -> TIME_ERROR, no leap).
x86_64_CMDLINE   := clocksource=hpet
x86_64_GUEST_CC  := gcc
x86_64_GUEST_CC_MUSL := musl-gcc
