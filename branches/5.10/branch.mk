# Debian bullseye's 5.10: carries the upstream fix (later layout).  The
# newest upload is the security suite's; bullseye's last point release
# (5.10.223-1) is there for DEBIAN_VERSION=.
PACKAGE     := linux-source-5.10
SUITES      := bullseye-security bullseye
FAMILY      := later
VERSION_MIN := 5.10
VERSION_MAX := 5.14.9999

# 5.10-5.14 predate clock_was_set(bases) (upstream 5.15): their own naive
# patch.  A tree you bring of 5.11-5.14 in this layout takes this branch
# (read in 5.11.14, 5.12.9, 5.14.2); RHEL 9's 5.14, which has the bases
# form, takes 6.1's (its code decides).
PATCHES_naive   := later/regress 5.10/naive
PATCHES_rfc     := later/regress 5.10/rfc
LAYOUT          := kernel/time/timekeeping.c:next_leap_ktime !kernel/time/timekeeping.c:CLOCK_SET_WALL

# And i386 (bullseye still ships an i386 kernel) and ppc64el.
ARCHES += i386 ppc64el

# The real trees brought with KSRC= this branch was built and booted on
# (docs/results.md): Debian's 5.10.262 source with its RT patch set.
RUN_ON := 5.10.262
