#!/bin/bash
# fetch-config.sh - one configuration file from Debian's linux-config-X.Y
# package, at the version of the tree it goes with, for one Debian arch.
#
# Usage: fetch-config.sh PACKAGE "SUITE..." BUILD_DIR VERSION DEBARCH FILE
#   PACKAGE  linux-config-X.Y     DEBARCH  Debian's name of the arch (DEBIAN_ARCH)
#   FILE     the configuration's name in the package without .xz, e.g.
#            config.<debarch>_<flavour>_<debarch>
#
# Through the same project-local apt as the trees (no root, signatures
# checked), with that arch's package lists (a foreign arch's .deb too).
# Prints the path of the file, uncompressed:
# BUILD_DIR/kconfigs/PACKAGE_VERSION_DEBARCH/FILE.  Written under a temporary
# name and renamed when complete.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "fetch-config: $*" >&2; exit 1; }
[ $# -eq 6 ] || { echo "usage: fetch-config.sh PACKAGE \"SUITE...\" BUILD_DIR VERSION DEBARCH FILE" >&2; exit 2; }
pkg=$1 suites=$2 build=$3 version=$4 debarch=$5 file=$6
case "$pkg" in linux-config-[0-9]*) ;; *) die "not a linux-config package: $pkg" ;; esac

dir=$build/kconfigs/${pkg}_${version}_$debarch
out=$dir/$file
mkdir -p "$build/locks" "$build/debs"
exec 7>"$build/locks/fetch-$pkg-$debarch.lock"
flock 7
[ ! -f "$out" ] || { echo "$out"; exit 0; }

deb=$build/debs/${pkg}_${version}_$debarch.deb
if [ ! -f "$deb" ]; then
	apt_local "$pkg-$debarch" "$suites" "$build" "$debarch" || exit 1
	served=$(apt_served "$pkg")
	grep -qxF "$version" <<<"$served" \
		|| die "$pkg $version ($debarch) is not in Debian's suites $suites (they serve: ${served//$'\n'/ }): the tree and its configuration must be the same version"
	apt_download "$pkg:$debarch=$version" "$deb" "$pkg $version ($debarch)" \
		"give Debian's configuration file with KCONFIG=" || exit 1
fi
tmp=$dir.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
dpkg-deb -x "$deb" "$tmp"
src=$tmp/usr/src/$pkg/$file.xz
[ -f "$src" ] || die "$deb has no $file; it has: $(find "$tmp/usr/src/$pkg" -name 'config.*' -printf '%f ' 2>/dev/null | sed 's/\.xz//g')"
mkdir -p "$dir"
xz -dc "$src" >"$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$tmp"
echo "$out"
