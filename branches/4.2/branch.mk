# Linux 4.2-4.9: a tree the user brings (make qemu KSRC=...) that carries
# the whole fix (the 2012 fix and both 2015 leap-edge commits), in the
# layout where ktime_t is still a union compared through .tv64
# (docs/long-term-lines.md, family D).  stock runs the tree as it is;
# regress re-creates the 2012 bug in this layout and drops the leap-edge
# adjustment (4.2/regress).  Built and booted on real 4.4.178 and 4.9.124
# trees (both have .tv64); its patches also apply to the kernel/time of a
# 4.2.8-ckt12 tree (not built); 4.2, 4.3 and 4.5-4.8 were not built here.
# The package, arches, compilers and variants come from
# branches/lts/family.mk.
FAMILY      := lts
VERSION_MIN := 4.2
VERSION_MAX := 4.13.9999
# The range runs up to the first tree seen with a scalar ktime_t (4.14.67):
# the code picks the branch where ranges overlap (ktime_t a union).
LAYOUT      := kernel/time/timekeeping.c:next_leap_ktime.tv64

PATCHES_regress := 4.2/regress

# The config fragment under the names these versions know (no
# POSIX_TIMERS or SOFTLOCKUP_DETECTOR symbol yet), with TTY.
CONFIGS       := old old-tty
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 4.4.178 4.9.124 4.9.337
