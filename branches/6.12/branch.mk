# Debian trixie's 6.12: carries the upstream fix (later layout).
PACKAGE     := linux-source-6.12
SUITES      := trixie trixie-security
FAMILY      := later
# A tree you bring of 6.12-7.1 (tk_core with its own lock from 6.13,
# auxiliary clocks from 6.17: the series apply all the same).
VERSION_MIN := 6.12
VERSION_MAX := 7.1.9999
# PREEMPT_RT is in mainline since 6.12: Debian's rt flavour builds from this tree.
KCONFIGS    := tiny debian debian-rt

# And ppc64el, and riscv64 (its QEMU virt machine is ARCH_VIRT from 6.7 on).
ARCHES += ppc64el riscv64
