# Debian bookworm's 6.1: carries the upstream fix (later layout).
PACKAGE     := linux-source-6.1
SUITES      := bookworm bookworm-security
FAMILY      := later
# A tree you bring of 5.14 (RHEL 9's, with clock_was_set(bases)) to 6.11.
VERSION_MIN := 5.14
VERSION_MAX := 6.11.9999

# And i386 (bookworm still ships an i386 kernel) and ppc64el.
ARCHES += i386 ppc64el
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 5.14.0 5.15.148 5.15.167 6.6.87 6.8.12
