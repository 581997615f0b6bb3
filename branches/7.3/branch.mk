# Debian trixie-backports' 7.3: carries the upstream fix (later layout).
PACKAGE     := linux-source-7.3
SUITES      := trixie-backports
FAMILY      := later
VERSION_MIN := 7.3
VERSION_MAX := 7.3.9999
# PREEMPT_RT is in mainline since 6.12: Debian's rt flavour builds from this tree.
KCONFIGS    := tiny debian debian-rt

# And riscv64 (its QEMU virt machine is ARCH_VIRT from 6.7 on); not
# ppc64el: since powerpc took the generic entry code (GENERIC_ENTRY, 7.2),
# its lockdep warns at every boot, before the leap test (docs/results.md).
ARCHES += riscv64
