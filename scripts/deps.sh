#!/bin/bash
# deps.sh - check the host tools a job needs; as root install the missing
# Debian packages, otherwise print the apt-get line and stop.
#
# Usage: deps.sh [SET | TOOL:PACKAGE]...
#   SET           base (building kernels, fetching trees, reading results) or
#                 test (the host-side tests); base is always checked
#   TOOL:PACKAGE  a command (or, starting with /, a file) and the Debian
#                 package that provides it: an arch stanza's PACKAGES, as
#                 `scripts/plan.sh tools CELL...` lists them
set -eu

die() { echo "deps: $*" >&2; exit 2; }
BASE="make:make python3:python3 gcc:gcc /usr/include/stdio.h:libc6-dev bc:bc bison:bison flex:flex cpio:cpio xz:xz-utils patch:patch git:git flock:util-linux perl:perl jq:jq sha256sum:coreutils /usr/include/libelf.h:libelf-dev /usr/include/openssl/ssl.h:libssl-dev /usr/share/keyrings/debian-archive-keyring.gpg:debian-archive-keyring"
TEST="shellcheck:shellcheck quilt:quilt python3:python3 chromium:chromium pgrep:procps ccache:ccache node:nodejs curl:curl openssl:openssl /usr/lib/python3/dist-packages/lava_common/schemas/__init__.py:lava-common /usr/lib/python3/dist-packages/pexpect/__init__.py:python3-pexpect /usr/lib/python3/dist-packages/jinja2/__init__.py:python3-jinja2"

pairs=()
for what in base "$@"; do
	case "$what" in
	base) read -ra w <<<"$BASE"; pairs+=("${w[@]}") ;;
	test) read -ra w <<<"$TEST"; pairs+=("${w[@]}") ;;
	?*:?*) pairs+=("$what") ;;
	*) die "unknown tool set '$what': use base, test or TOOL:PACKAGE (scripts/plan.sh tools CELL lists an arch's)" ;;
	esac
done

missing=()
for pair in "${pairs[@]}"; do
	tool=${pair%%:*} pkg=${pair#*:}
	case "$tool" in
	/*) [ -e "$tool" ] && continue ;;
	*) command -v "$tool" >/dev/null && continue ;;
	esac
	case " ${missing[*]-} " in *" $pkg "*) ;; *) missing+=("$pkg") ;; esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages; run as root: apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { apt-get update -q >"$log" 2>&1 && apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$log" 2>&1; }; then
	tail -n 5 "$log" >&2
	echo "deps: apt-get install ${missing[*]} failed (see the lines above)" >&2
	exit 1
fi
