# Debian trixie-backports' 7.3: carries the upstream fix (later layout).
PACKAGE     := linux-source-7.3
SUITES      := trixie-backports
FAMILY      := later
VERSION_MIN := 7.3
VERSION_MAX := 7.3.9999
