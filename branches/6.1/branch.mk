# Debian bookworm's 6.1: carries the upstream fix (later layout).
PACKAGE     := linux-source-6.1
SUITES      := bookworm bookworm-security
FAMILY      := later
VERSION_MIN := 6.1
VERSION_MAX := 6.1.9999

# And i386 (bookworm still ships an i386 kernel) and ppc64el.
ARCHES += i386 ppc64el
