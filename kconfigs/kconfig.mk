# kconfig: the file KCONFIG= names (a maintainer's own .config), treated as
# Debian's is; any branch.  Its cells are @kconfig, its builds keyed by the
# file's hash.
SOURCE    := kconfig
FRAGMENTS := qemu
ORDER     := 4
