# Debian trixie-backports' 7.3: carries the upstream fix (later layout).
PACKAGE     := linux-source-7.3
SUITES      := trixie-backports
FAMILY      := later
VERSION_MIN := 7.3
VERSION_MAX := 7.3.9999
# PREEMPT_RT is in mainline since 6.12: Debian's rt flavour builds from this tree.
KCONFIGS    := tiny debian debian-rt

# riscv64 boots this tree (ARCH_VIRT; 6.12 and later).
ARCHES := x86_64 arm64 riscv64
