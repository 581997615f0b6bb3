# Debian bookworm's 6.1: carries the upstream fix (later layout).
PACKAGE     := linux-source-6.1
SUITES      := bookworm bookworm-security
FAMILY      := later
VERSION_MIN := 6.1
VERSION_MAX := 6.1.9999

# The arches it boots as expected: the family's, i386 (bookworm still ships
# an i386 kernel) and armhf.  ppc64el and s390x are being brought up.
ARCHES := x86_64 arm64 i386 armhf
