#!/bin/bash
# install.sh - the CI files' validators (package.json here), exactly as
# package-lock.json pins them, from the npm registry into DIR/node_modules:
# each package's tarball fetched, checked against the lock's sha512 and
# unpacked where the lock puts it.  No npm needed; node runs them.  Done
# once per lock (DIR/.lock-sha256 says which).
#
# Usage: install.sh DIR
set -eu
die() { echo "ci-validators: $*" >&2; exit 1; }
[ $# -eq 1 ] || { echo "usage: install.sh DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$1 lock=$here/package-lock.json
registry=${NPM_REGISTRY:-https://registry.npmjs.org}
want=$(sha256sum <"$lock" | cut -d' ' -f1)
[ "$(cat "$dir/.lock-sha256" 2>/dev/null)" != "$want" ] || exit 0
command -v curl >/dev/null || die "no curl: apt-get install curl"
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
# PATH<TAB>NAME<TAB>VERSION<TAB>INTEGRITY for every package the lock holds.
jq -r '.packages | to_entries[] | select(.key != "") |
	[.key, (.key | sub(".*node_modules/"; "")), .value.version, .value.integrity] | @tsv' "$lock" |
while IFS=$'\t' read -r path name version integrity; do
	url=$registry/$name/-/${name##*/}-$version.tgz
	tgz=$dir.tmp/pkg.tgz
	curl -fsSL --retry 3 -o "$tgz" "$url" || die "cannot fetch $url: check the network (the npm registry)"
	case "$integrity" in sha512-*) ;; *) die "$name $version: the lock has no sha512 for it" ;; esac
	[ "$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)" = "${integrity#sha512-}" ] \
		|| die "$url does not match the lock's sha512: not installed"
	mkdir -p "$dir.tmp/$path"
	tar -xzf "$tgz" -C "$dir.tmp/$path" --strip-components=1 --no-same-owner
	rm -f "$tgz"
done
echo "$want" >"$dir.tmp/.lock-sha256"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
