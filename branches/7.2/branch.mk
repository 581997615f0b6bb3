# Debian trixie-backports' 7.2: carries the upstream fix (later layout).
PACKAGE     := linux-source-7.2
SUITES      := trixie-backports
FAMILY      := later
VERSION_MIN := 7.2
VERSION_MAX := 7.2.9999
