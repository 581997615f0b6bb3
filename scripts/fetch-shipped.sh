#!/bin/bash
# fetch-shipped.sh - the kernel images Debian ships for a packaged tree: the
# linux-image-* binary packages built from the tree's source versions, each
# downloaded once and its image and configuration extracted.
#
# Usage: fetch-shipped.sh [-l] SOURCE_PACKAGE "SUITE..." BUILD_DIR DEBARCH [VERSION...]
#   SOURCE_PACKAGE  the branch's linux-source-X.Y (its versions are the
#                   source's: linux-image packages of the same version)
#   VERSION         Debian versions to take (default: every one the suites serve)
#   -l              list "PACKAGE VERSION" only, download nothing
#
# Through the same project-local apt as the trees (no root, signatures
# checked), with DEBARCH's package lists.  Every flavour of every ABI: the
# signed package where there is one (the same kernel as its -unsigned twin,
# plus a signature), never -dbg.  Prints one line per image:
#   PATH_OF_VMLINUZ<TAB>PACKAGE<TAB>VERSION
# BUILD_DIR/shipped/PACKAGE_VERSION/ holds vmlinuz-<release>,
# config-<release> (as /boot has them) and debian-package ("PACKAGE VERSION",
# which the planner records); it is written under a temporary name and
# renamed when complete.  The .debs stay in BUILD_DIR/debs.  A package that
# cannot be had (a mirror that lists it but does not serve it) is one line
# on stderr, "fetch-shipped: not fetched: PACKAGE VERSION: why", and the
# others go on; exit 1 only when none could be had.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"
die() { echo "fetch-shipped: $*" >&2; exit 1; }
list=""
[ "${1:-}" != -l ] || { list=1; shift; }
[ $# -ge 4 ] || { echo "usage: fetch-shipped.sh [-l] SOURCE_PACKAGE \"SUITE...\" BUILD_DIR DEBARCH [VERSION...]" >&2; exit 2; }
src=$1 suites=$2 debarch=$4
build=$(mkdir -p "$3" && cd "$3" && pwd)
shift 4
case "$src" in linux-source-[0-9]*) ;; *) die "not a linux-source package: $src" ;; esac

mkdir -p "$build/locks" "$build/debs" "$build/shipped"
exec 7>"$build/locks/shipped-$debarch.lock"
flock 7
apt_local "linux-image-$debarch" "$suites" "$build" "$debarch" || exit 1
versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
	mapfile -t versions < <(apt_served "$src")
	[ ${#versions[@]} -gt 0 ] || die "$src is not in Debian's suites $suites"
fi
# linux-image-<abi>-<flavour> at those versions; a signed package stands
# for its -unsigned twin.
pkgs=$(apt-cache "${APTOPTS[@]}" dumpavail | awk -v want=" ${versions[*]} " '
	/^Package: / { p = $2 } /^Version: / { v = $2 }
	/^$/ { if (p ~ /^linux-image-[0-9]+\.[0-9]/ && p !~ /-dbg$/ && index(want, " " v " ")) print p, v; p = v = "" }
	END { if (p ~ /^linux-image-[0-9]+\.[0-9]/ && p !~ /-dbg$/ && index(want, " " v " ")) print p, v }' | sort -u |
	awk '{ n = $1; sub(/-unsigned$/, "", n); if (!((n, $2) in seen) || $1 == n) seen[n, $2] = $1 }
	     END { for (k in seen) { split(k, a, SUBSEP); print seen[k], a[2] } }' | sort -V)
[ -n "$pkgs" ] || die "no linux-image package of $src ${versions[*]} for $debarch in $suites"
if [ -n "$list" ]; then
	echo "$pkgs"
	exit 0
fi
got=0
# get PACKAGE VERSION: its .deb in BUILD_DIR/debs (downloaded once); a line
# on stderr and status 1 where it cannot be had.
get() {
	local deb=$build/debs/${1}_${2}_$debarch.deb err
	if [ ! -f "$deb" ]; then
		echo "fetch-shipped: downloading $1 $2 ($debarch)" >&2
		if ! err=$(apt_download "$1:$debarch=$2" "$deb" "$1 $2 ($debarch)" "boot your own copy with IMAGE=" 2>&1); then
			err=${err##*$'\n'}
			echo "fetch-shipped: not fetched: $1 $2: ${err#fetch-shipped: }" >&2
			return 1
		fi
	fi
}
while read -r pkg ver; do
	dir=$build/shipped/${pkg}_$ver
	if [ ! -f "$dir/debian-package" ]; then
		# From 7.x Debian splits linux-image-X: the kernel is in
		# linux-binary-X (/usr/lib/modules/<release>/vmlinuz), its
		# configuration in linux-base-X; before, both are in /boot.
		debs=("$pkg")
		if apt-cache "${APTOPTS[@]}" show "linux-binary-${pkg#linux-image-}=$ver" >/dev/null 2>&1; then
			debs=("linux-binary-${pkg#linux-image-}" "linux-base-${pkg#linux-image-}")
		fi
		ok=1
		for p in "${debs[@]}"; do get "$p" "$ver" || ok=""; done
		[ -n "$ok" ] || continue
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp/x"
		# Unpacking takes the CPU for seconds: never beside a guest
		# (LEAP_CPU_LOCK, the lock a run's guests share; the download itself
		# goes on while they boot).
		(
			[ -z "${LEAP_CPU_LOCK:-}" ] || { exec 8>>"$LEAP_CPU_LOCK"; flock -x 8; }
			for p in "${debs[@]}"; do
				dpkg-deb --fsys-tarfile "$build/debs/${p}_${ver}_$debarch.deb" \
					| tar -xf - -C "$dir.tmp/x" --wildcards './boot/*' './usr/lib/modules/*/vmlinu*' './usr/lib/modules/*/config' 2>/dev/null || true
			done
		)
		for f in "$dir.tmp"/x/boot/vmlinu* "$dir.tmp"/x/boot/config-*; do
			[ ! -f "$f" ] || mv "$f" "$dir.tmp/"
		done
		for f in "$dir.tmp"/x/usr/lib/modules/*/vmlinu* "$dir.tmp"/x/usr/lib/modules/*/config; do
			[ -f "$f" ] || continue
			rel=$(basename "$(dirname "$f")")
			case "$f" in */config) mv "$f" "$dir.tmp/config-$rel" ;; *) mv "$f" "$dir.tmp/$(basename "$f")-$rel" ;; esac
		done
		rm -rf "$dir.tmp/x"
		if ! compgen -G "$dir.tmp/vmlinu*" >/dev/null; then
			echo "fetch-shipped: not fetched: $pkg $ver: ${debs[*]} hold no kernel image in /boot or /usr/lib/modules/<release>/" >&2
			rm -rf "$dir.tmp"
			continue
		fi
		echo "$pkg $ver" >"$dir.tmp/debian-package"
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	images=("$dir"/vmlinu*)
	printf '%s\t%s\t%s\n' "${images[0]}" "$pkg" "$ver"
	got=$((got + 1))
done <<<"$pkgs"
[ "$got" -gt 0 ] || die "none of the $(grep -c . <<<"$pkgs") linux-image packages of $src for $debarch could be fetched"
