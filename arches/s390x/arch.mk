# s390x: one complete stanza (cf. KUnit's qemu_configs), with its kernel
# config fragments beside it: arch.config always, <group>.config on top of
# configs/<group>.config.  Read by scripts/plan.sh only.  IBM Z on QEMU's
# s390-ccw-virtio machine: the TOD clock and CPU timer, the SCLP console.
KARCH     := s390
CROSS     := s390x-linux-gnu-
IMAGE     := arch/s390/boot/bzImage
QEMU      := qemu-system-s390x
QEMU_ARGS := -M s390-ccw-virtio -cpu max
CONSOLE   := ttysclp0
CMDLINE   :=
GUEST_CC  := s390x-linux-gnu-gcc
PACKAGES  := qemu-system-s390x:qemu-system-misc /usr/share/qemu/s390-ccw.img:qemu-system-data s390x-linux-gnu-gcc:gcc-s390x-linux-gnu /usr/s390x-linux-gnu/include/stdio.h:libc6-dev-s390x-cross
CELL_TARGET_S := 16
ORDER     := 6
# Configurations that are not tiny (kconfigs/): see scripts/plan.sh.
DEBIAN_ARCH    := s390x
DEBIAN_FLAVOUR := s390x
KCONFIG_SYMBOL := CONFIG_S390
# What a kernel image brought with IMAGE= must be to boot here.
IMAGE_FORMATS  := s390-image elf-s390-be
CLOCK_OPTIONS  :=
