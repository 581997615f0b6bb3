# arm64 (cf. KUnit's qemu_configs: one stanza, the same fields per arch).
arm64_KARCH     := arm64
arm64_CROSS     := aarch64-linux-gnu-
arm64_IMAGE     := arch/arm64/boot/Image
arm64_QEMU      := qemu-system-aarch64
arm64_QEMU_ARGS := -M virt -cpu max,pauth-impdef=on
arm64_CONSOLE   := ttyAMA0
arm64_CMDLINE   :=
arm64_GUEST_CC  := aarch64-linux-gnu-gcc
