# debian: Debian's production configuration of the tree and arch (the
# linux-config-X.Y package at the tree's version: the arch's own flavour
# of the "none" featureset), with modules, debug info and the signing keys
# only Debian's build has turned off (scripts/kconfig-prep.sh) and what
# QEMU needs on top.
SOURCE    := debian
FILE      := config.$(DEBIAN_ARCH)_none_$(DEBIAN_FLAVOUR)
FRAGMENTS := qemu
ORDER     := 2
