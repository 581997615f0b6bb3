# Linux 4.10-5.9: a tree the user brings (make qemu KSRC=...) that carries
# the whole fix (the 2012 fix and both 2015 leap-edge commits), with a
# scalar ktime_t (docs/long-term-lines.md, family E).  stock runs the tree
# as it is; regress re-creates the 2012 bug in this layout and drops the
# leap-edge adjustment (4.10/regress).  Built and booted on real 4.14.67,
# 4.19.108 and 5.4.59 trees, none of which has .tv64 (4.9.124 still has
# it); its patches also apply to 5.9.4's kernel/time (not built).  No
# 4.10-4.13 tree was read: the range starts at 4.10 because the union is
# gone by 4.14, and a 4.10-4.13 tree whose text differs is refused by the
# patches' dry run, not fuzzed.  The package, arches, compilers and
# variants come from branches/lts/family.mk.
FAMILY      := lts
VERSION_MIN := 4.10
VERSION_MAX := 5.9.9999
# The range starts after the last tree seen with the union (4.9.124): the
# code picks the branch where ranges overlap (a scalar ktime_t).
LAYOUT      := kernel/time/timekeeping.c:next_leap_ktime !kernel/time/timekeeping.c:.tv64

PATCHES_regress := 4.10/regress

# The config fragment: configs/common.config, with PCI (ACPI depends on it
# in 4.14 and 4.19), without configs/time32.config: 4.14 has no
# COMPAT_32BIT_TIME, and 4.19 derives it (no prompt) as n on i386, where the
# 32-bit time calls are built in without it.
CONFIGS         := common pci

# The family's host compiler, and gcc 12's use-after-free warning off: the
# tiny configurations of 4.14.67, 4.19.108 and 5.4.59 have STACK_VALIDATION,
# so objtool and its libsubcmd are built with the host compiler, under
# -Werror, and gcc 12 stops on libsubcmd's xrealloc() (subcmd-util.h).
# 4.4.178 and 4.9.124 build no objtool here (no STACK_VALIDATION in their
# tiny configuration).
KERNEL_HOSTCC   := gcc -std=gnu89 -fcommon -Wno-use-after-free
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 4.14.67 4.14.325 4.19.108 4.19.255 5.4.59 5.4.291 5.4.301
