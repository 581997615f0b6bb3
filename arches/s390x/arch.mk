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
# The guest's compiler (static glibc).
GUEST_CC  := s390x-linux-gnu-gcc
# Host tools, as TOOL:DEBIAN-PACKAGE (a TOOL starting with / is a file).
PACKAGES  := qemu-system-s390x:qemu-system-misc /usr/share/qemu/s390-ccw.img:qemu-system-data s390x-linux-gnu-gcc:gcc-s390x-linux-gnu /usr/s390x-linux-gnu/include/stdio.h:libc6-dev-s390x-cross
# make bench: the target for one cell (boot + whole leap test), seconds.
CELL_TARGET_S := 16
# Where the arch sorts among arches (cells, builds, tables).
ORDER     := 6
# Configurations that are not tiny (kconfigs/): Debian's arch name and its
# kernel flavour, and the option every s390x configuration sets (its clock
# is the architecture's own: no driver option to keep).
DEBIAN_ARCH    := s390x
DEBIAN_FLAVOUR := s390x
KCONFIG_SYMBOL := CONFIG_S390
CLOCK_OPTIONS  :=
