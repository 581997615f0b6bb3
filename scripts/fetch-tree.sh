#!/bin/bash
# fetch-tree.sh - download a Debian linux-source-X.Y package and extract its tree.
#
# Usage: fetch-tree.sh [-V] PACKAGE "SUITE..." BUILD_DIR [VERSION]
#   -V       print the version a fetch would extract (the extracted tree's,
#            else the archive's newest, else VERSION once the suites are
#            seen to serve it), and fetch nothing
#   VERSION  the version to extract (scripts/plan.sh resolved it); a tree
#            already extracted at another version is refused, and so is a
#            version the suites do not carry
#
# Uses a project-local apt configuration (its own sources list, state and cache
# under BUILD_DIR/apt/PACKAGE); needs no root and changes nothing on the system.
# apt verifies the archive signatures against the Debian archive keyring.
# On success prints the tree's path; BUILD_DIR/trees/PACKAGE.version holds the
# exact package version.  Every step writes to a temporary name and renames it
# when complete, so an interrupted run never leaves a tree that looks finished.
set -eu
# shellcheck source=scripts/lib.sh
. "$(dirname "$0")/lib.sh"

die() { echo "fetch-tree: $*" >&2; exit 1; }
usage() { echo "usage: fetch-tree.sh [-V] PACKAGE \"SUITE...\" BUILD_DIR [VERSION]" >&2; exit 2; }

only_version=""
[ "${1:-}" != -V ] || { only_version=1; shift; }
[ $# -eq 3 ] || [ $# -eq 4 ] || usage
pkg=$1 suites=$2 build=$3 want=${4:-}
case "$pkg" in linux-source-[0-9]*) ;; *) die "not a linux-source package: $pkg" ;; esac
[ -n "$suites" ] || die "no Debian suite given for $pkg (set SUITES in its branch.mk)"

# Space for the .deb (~150 MB), the tree (~1.4 GB) and two object dirs.
need_mb=${FETCH_NEED_MB:-2500}

trees=$build/trees
tree=$trees/$pkg
# One fetch per package at a time (matrix.sh prefetches while cells build):
# whoever waited finds the tree extracted.
mkdir -p "$build/locks"
exec 7>"$build/locks/fetch-$pkg.lock"
flock 7
if [ -f "$tree.version" ] && [ -f "$tree/Makefile" ]; then
	have=$(cat "$tree.version")
	[ -z "$want" ] || [ "$want" = "$have" ] \
		|| die "$tree holds $pkg $have, the plan wants $want: use another BUILD_DIR, or remove $tree and $tree.version to fetch it again"
	[ -z "$only_version" ] || { echo "$have"; exit 0; }
	echo "$tree"
	exit 0
fi

apt_local "$pkg" "$suites" "$build" || exit 1
version=$(apt-cache "${APTOPTS[@]}" show --no-all-versions "$pkg" 2>/dev/null | sed -n 's/^Version: //p' | head -n 1)
[ -n "$version" ] || die "package $pkg not found in suites: $suites (check SUITES in its branch.mk)"
if [ -n "$want" ] && [ "$want" != "$version" ]; then
	served=$(apt_served "$pkg")
	grep -qxF "$want" <<<"$served" \
		|| die "$pkg $want is not in Debian's suites $suites (they serve: ${served//$'\n'/ })"
	version=$want
fi
[ -z "$only_version" ] || { echo "$version"; exit 0; }
mkdir -p "$trees" "$build/debs"

deb=$build/debs/${pkg}_${version}_all.deb
if [ ! -f "$deb" ]; then
	echo "fetch-tree: downloading $pkg $version" >&2
	apt_download "$pkg=$version" "$deb" "$pkg $version" "bring the tree with KSRC=" || exit 1
fi

free_mb=$(df -Pm "$trees" | awk 'NR==2 {print $4}')
[ "$free_mb" -ge "$need_mb" ] || die "only ${free_mb} MB free under $trees, a tree and its builds need ${need_mb} MB: free space or set BUILD_DIR elsewhere"

echo "fetch-tree: extracting $pkg $version" >&2
tmp=$trees/.tmp.$pkg
rm -rf "$tmp" "$tree"
mkdir -p "$tmp"
dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$tmp" --wildcards './usr/src/linux-source-*.tar.*'
tarball=$(ls "$tmp"/usr/src/linux-source-*.tar.*)
tar -xf "$tarball" -C "$tmp"
rm -rf "${tmp:?}/usr"
top=$(ls "$tmp")
[ -f "$tmp/$top/Makefile" ] || die "no kernel tree inside $deb"
mv "$tmp/$top" "$tree"
rmdir "$tmp"
echo "$version" >"$tree.version.tmp"
mv "$tree.version.tmp" "$tree.version"
echo "$tree"
