#!/bin/bash
# deps.sh - check the host tools a job needs; as root install the missing
# Debian packages, otherwise print the apt-get line and stop.
#
# Usage: deps.sh WHAT...   (WHAT: x86_64, arm64, base, test)
set -eu

pkgs_for() {
	case "$1" in
	base) echo "make:make gcc:gcc bc:bc bison:bison flex:flex cpio:cpio xz:xz-utils patch:patch git:git flock:util-linux perl:perl /usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev /usr/share/keyrings/debian-archive-keyring.gpg:debian-archive-keyring" ;;
	x86_64) echo "qemu-system-x86_64:qemu-system-x86 musl-gcc:musl-tools" ;;
	arm64) echo "qemu-system-aarch64:qemu-system-arm aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu /usr/aarch64-linux-gnu/include/stdio.h:libc6-dev-arm64-cross" ;;
	test) echo "shellcheck:shellcheck quilt:quilt python3:python3 chromium:chromium" ;;
	*) echo "deps: unknown tool set '$1' (use base, test or an arch of arches/)" >&2; exit 2 ;;
	esac
}

missing=()
for what in base "$@"; do
	for pair in $(pkgs_for "$what"); do
		tool=${pair%%:*} pkg=${pair#*:}
		case "$tool" in
		/*) [ -e "$tool" ] && continue ;;
		*) command -v "$tool" >/dev/null && continue ;;
		esac
		case " ${missing[*]-} " in *" $pkg "*) ;; *) missing+=("$pkg") ;; esac
	done
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages; run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; }; then
	echo "deps: apt-get install ${missing[*]} failed" >&2
	exit 1
fi
