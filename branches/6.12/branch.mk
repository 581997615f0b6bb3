# Debian trixie's 6.12: carries the upstream fix (later layout).
PACKAGE     := linux-source-6.12
SUITES      := trixie trixie-security
FAMILY      := later
VERSION_MIN := 6.12
VERSION_MAX := 6.12.9999
# PREEMPT_RT is in mainline since 6.12: Debian's rt flavour builds from this tree.
KCONFIGS    := tiny debian debian-rt

# The family's arches and riscv64 (its QEMU virt machine is ARCH_VIRT from
# 6.7 on).
ARCHES := x86_64 arm64 armhf ppc64el s390x riscv64
