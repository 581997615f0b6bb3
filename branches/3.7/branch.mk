# Linux 3.7-3.9: a tree the user brings (make qemu KSRC=...) in the layout
# of family A after the timekeeper moved to timekeeper_internal.h
# (docs/long-term-lines.md): no shadow copy, its own seqlock, the
# timekeeper passed as tk, the NTP state under ntp_lock.  Every release
# carries the 2012 fix (merged in 3.5) and neither 2015 leap-edge commit,
# which this branch backports (3.7/edge).  Read, built and booted on a real
# 3.8.3 tree; no other release of the range was built, so a tree of it
# whose text differs is refused by the patches' dry run, not fuzzed.  The
# package, arches, compilers and variants come from branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.7
VERSION_MAX := 3.9.9999
# The range runs from after the last layout seen before it (3.6.0, whose
# struct timekeeper is in timekeeping.c: branch 3.5) to the next (3.10.108,
# with a shadow timekeeper): the code picks the branch where ranges overlap.
LAYOUT      := kernel/time/timekeeping.c:timekeeper_internal.h kernel/time/timekeeping.c:tk->offs_real !kernel/time/timekeeping.c:shadow_timekeeper

PATCHES_fixed := 3.7/edge

# The build aids of 3.4 (3.8 still has timeconst.pl and the ACPI
# osi_setup_entries that gcc 12 rejects), 3.11's early exception stubs,
# and the config fragment.
COMPAT        := old/compat 3.4/compat 3.11/compat
CONFIGS       := old

# As on 3.4: the reboot IPI instead of the NMI to stop the other CPUs at
# the end of the test (lockdep warned there on late 3.4 trees); it changes
# nothing before the reboot.
KERNEL_ARGS   := nonmi_ipi
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.8.3
