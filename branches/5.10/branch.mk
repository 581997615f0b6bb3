# Debian bullseye's 5.10: carries the upstream fix (later layout).  The
# newest upload is the security suite's; bullseye's last point release
# (5.10.223-1) is there for DEBIAN_VERSION=.
PACKAGE     := linux-source-5.10
SUITES      := bullseye-security bullseye
FAMILY      := later
VERSION_MIN := 5.10
VERSION_MAX := 5.10.9999

# 5.10 predates clock_was_set(bases): its own naive patch.
PATCHES_naive   := later/regress 5.10/naive

# And i386 (bullseye still ships an i386 kernel) and ppc64el.
ARCHES += i386 ppc64el
