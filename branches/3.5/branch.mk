# Linux 3.5-3.6: a tree the user brings (make qemu KSRC=...) in the layout
# of family A once the timekeeper is passed as tk (docs/long-term-lines.md):
# struct timekeeper defined in timekeeping.c with its own seqlock, no
# shadow copy, the NTP state under ntp_lock.  Every release carries the
# 2012 fix (merged in 3.5) and neither 2015 leap-edge commit, which this
# branch backports (3.5/edge).  Read on 3.6.5 and 3.6.0, built and booted
# on 3.6.0; a tree whose text differs is refused by the patches' dry run,
# not fuzzed.  The package, arches, compilers and variants come from
# branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.5
VERSION_MAX := 3.8.9999
# The range runs to before the next layout seen (3.8.3, whose timekeeper
# is in timekeeper_internal.h): the code picks the branch where ranges
# overlap.  A 3.5 tree that still names the timekeeper as 3.4 does (no
# tk->) is refused in one line.
LAYOUT      := kernel/time/timekeeping.c:tk->offs_real !kernel/time/timekeeping.c:timekeeper_internal.h !kernel/time/timekeeping.c:shadow_timekeeper

PATCHES_fixed := 3.5/edge

# The build aids of 3.4 (timeconst.pl and the ACPI osi_setup_entries that
# gcc 12 rejects), 3.11's early exception stubs, and the config fragment.
COMPAT        := old/compat 3.4/compat 3.11/compat
CONFIGS       := old

# As on 3.4: the reboot IPI instead of the NMI to stop the other CPUs at
# the end of the test; it changes nothing before the reboot.
KERNEL_ARGS   := nonmi_ipi
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.6.0
