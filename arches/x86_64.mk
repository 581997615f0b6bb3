# x86_64: the six fields of an arch (cf. KUnit's qemu_configs).
x86_64_KARCH   := x86_64
x86_64_CROSS   :=
x86_64_IMAGE   := arch/x86/boot/bzImage
x86_64_QEMU    := qemu-system-x86_64
x86_64_CONSOLE := ttyS0
x86_64_QEMU_ARGS := -M pc -cpu max -bios qboot.rom
x86_64_GUEST_CC := gcc
x86_64_GUEST_CC_MUSL := musl-gcc
