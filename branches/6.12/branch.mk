# Debian trixie's 6.12: carries the upstream fix (later layout).
PACKAGE     := linux-source-6.12
SUITES      := trixie trixie-security
FAMILY      := later
VERSION_MIN := 6.12
VERSION_MAX := 6.12.9999
