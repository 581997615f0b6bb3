# Debian bullseye's 5.10 (security suite): carries the upstream fix (later layout).
PACKAGE     := linux-source-5.10
SUITES      := bullseye-security
FAMILY      := later
VERSION_MIN := 5.10
VERSION_MAX := 5.10.9999

# 5.10 predates clock_was_set(bases): its own naive patch.
PATCHES_naive   := later/regress 5.10/naive

# The family's arches and i386 (bullseye still ships an i386 kernel).
ARCHES := x86_64 arm64 i386 armhf ppc64el s390x
