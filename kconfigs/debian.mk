# debian: Debian's production configuration of the tree and arch (the
# linux-config-X.Y package at the tree's version, its "none" flavour), with
# modules, debug info and the signing keys only Debian's build has turned
# off (scripts/kconfig-prep.sh) and what QEMU needs on top.
SOURCE    := debian
FLAVOUR   := none
FRAGMENTS := qemu
ORDER     := 2
