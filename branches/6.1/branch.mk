# Debian bookworm's 6.1: carries the upstream fix (later layout).
PACKAGE     := linux-source-6.1
SUITES      := bookworm bookworm-security
FAMILY      := later
VERSION_MIN := 6.1
VERSION_MAX := 6.1.9999

# The family's arches and i386 (bookworm still ships an i386 kernel).
ARCHES := x86_64 arm64 i386 armhf ppc64el s390x
