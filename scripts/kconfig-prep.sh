#!/bin/bash
# kconfig-prep.sh - a distribution's (or a maintainer's) kernel configuration,
# made into one this project builds: modules off, debug info off, the signing
# keys only the distribution's build has cleared.  Nothing else is changed.
#
# Usage: kconfig-prep.sh SRC KCONFIG_SYMBOL [MODULES] > OUT
#   KCONFIG_SYMBOL  the option every configuration of the arch sets
#                   (CONFIG_X86_64, CONFIG_ARM64): another arch's file is
#                   refused; - checks only that SRC is a configuration
#   MODULES         off (the default): CONFIG_MODULES off; on: module
#                   support kept (vendor code that assumes struct module
#                   builds), every =m still unset, so no module is built
#                   either way (the build makes the image alone)
#
# Every =m becomes "is not set" before CONFIG_MODULES is turned off: with
# CONFIG_MODULES=n alone, olddefconfig would promote each m to y (thousands
# of drivers built in).
set -eu
die() { echo "kconfig-prep: $*" >&2; exit 1; }
[ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: kconfig-prep.sh SRC KCONFIG_SYMBOL [on|off]" >&2; exit 2; }
src=$1 sym=$2 modules=${3:-off}
case $modules in
off) nomod='s/^CONFIG_MODULES=y$/# CONFIG_MODULES is not set/' ;;
on) nomod='' ;;
*) die "MODULES is '$modules': give on or off (KCONFIG_MODULES=on keeps module support)" ;;
esac
[ -r "$src" ] || die "$src: cannot read it"
[ "$(grep -cE '^CONFIG_[A-Za-z0-9_]+=' "$src")" -ge 100 ] \
	|| die "$src is not a kernel configuration (no CONFIG_ lines): give a .config such as /boot/config-\$(uname -r)"
[ "$sym" = - ] || grep -qx "$sym=y" "$src" || die "$src is not a configuration for this arch (no $sym=y): give one made for it"
sed -E -e 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/' \
	-e '/^(# )?CONFIG_DEBUG_INFO[A-Za-z0-9_]*[= ]/d' \
	-e "$nomod" \
	-e 's/^(CONFIG_SYSTEM_(TRUSTED|REVOCATION)_KEYS)=.*/\1=""/' "$src"
# Debug info off: the pre-5.18 switch and the later choice.
printf '# CONFIG_DEBUG_INFO is not set\nCONFIG_DEBUG_INFO_NONE=y\n'
