#!/bin/bash
# clean-root.sh - a clean Debian 12 root, as a CI runner's debian:12 image
# is, to run a job in: made once with mmdebstrap (variant minbase, what the
# debian:12 image is made of, from deb.debian.org's bookworm,
# bookworm-updates and bookworm-security) into a tarball cached in
# BUILD_DIR/clean-root/, and unpacked fresh for every job, so each job starts
# from nothing but that.
#
# Usage: clean-root.sh image               make the cached tarball (once) and print its path
#        clean-root.sh new DIR              unpack a fresh root into DIR (which must not exist)
#        clean-root.sh clone DIR PATH [DEPTH]  a fresh git clone of this repository's
#                                           committed HEAD at PATH inside the root (a
#                                           new or empty directory), DEPTH commits deep
#                                           (default 1)
#        clean-root.sh exec DIR [-w WORKDIR] [-e NAME=VALUE]... -- COMMAND...
#                                           run COMMAND as root in the root, in WORKDIR
#                                           (default /), with only PATH, HOME and the
#                                           -e variables set, stdin empty
#        clean-root.sh remove DIR           remove the root (refused while anything is
#                                           mounted under it)
#
# exec runs in a mount and PID namespace of its own (unshare): /proc is
# mounted fresh, /dev and /sys bound from the host, all of them under DIR
# and unmounted when COMMAND ends (a trap, and the namespace's end in any
# case: nothing it mounts is ever seen outside it), and every process
# COMMAND leaves behind ends with it.  The host's /etc/resolv.conf is copied
# in, as a container runtime does.  Needs root, mmdebstrap and unshare
# (util-linux).
set -eu

die() { echo "clean-root: $*" >&2; exit 1; }
usage() { sed -n '/^# Usage:/,/^#$/s/^# \{0,1\}//p' "$0" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
[ "$(id -u)" -eq 0 ] || die "needs root (mmdebstrap, chroot and mounts)"
cache=$(realpath -m "${BUILD_DIR:-$repo/build}")/clean-root
suite=bookworm
mirror=http://deb.debian.org
tarball=$cache/debian-12-minbase.tar

# Nothing mounted at or under DIR (in this mount namespace).
unmounted() { # DIR
	awk -v d="$(realpath -m "$1")" '$5 == d || substr($5, 1, length(d) + 1) == d "/" { found = 1 } END { exit found }' /proc/self/mountinfo
}

image() {
	[ -s "$tarball" ] && return 0
	command -v mmdebstrap >/dev/null || die "no mmdebstrap: apt-get install mmdebstrap"
	mkdir -p "$cache"
	exec 7>"$cache/.lock"
	flock 7
	[ -s "$tarball" ] && return 0
	echo "clean-root: making a Debian 12 root (mmdebstrap, minbase) in $tarball" >&2
	mmdebstrap --quiet --variant=minbase --format=tar "$suite" "$tarball.tmp" \
		"deb $mirror/debian $suite main" \
		"deb $mirror/debian $suite-updates main" \
		"deb $mirror/debian-security $suite-security main" >&2
	mv "$tarball.tmp" "$tarball"
}

new() { # DIR
	[ ! -e "$1" ] || die "$1 exists: remove it first (clean-root.sh remove)"
	image
	mkdir -p "$1"
	tar -xpf "$tarball" -C "$1" --numeric-owner
	cp /etc/resolv.conf "$1/etc/resolv.conf"
}

clone() { # DIR PATH [DEPTH]
	local dest=$1/${2#/}
	[ -d "$1/etc" ] || die "$1 is not a root (clean-root.sh new)"
	[ ! -e "$dest" ] || [ -z "$(ls -A "$dest")" ] || die "$2 is not empty in the root"
	mkdir -p "$(dirname "$dest")"
	git clone -q --depth "${3:-1}" "file://$repo" "$dest"
}

run() { # DIR [-w WORKDIR] [-e NAME=VALUE]... -- COMMAND...
	local dir=$1 wd=/ o
	local -a envs=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root)
	shift
	while [ $# -gt 0 ]; do
		case "$1" in
		-w) wd=$2; shift 2 ;;
		-e) case "$2" in [A-Za-z_]*=*) envs+=("$2") ;; *) die "-e $2: give NAME=VALUE" ;; esac; shift 2 ;;
		--) shift; break ;;
		*) usage ;;
		esac
	done
	[ $# -gt 0 ] || usage
	[ -x "$dir/bin/sh" ] || die "$dir is not a root (clean-root.sh new)"
	dir=$(realpath "$dir")
	# The namespace's own shell: mounts, the command in the root, unmounts.
	# shellcheck disable=SC2016 # expanded by that shell
	o='set -u
	root=$1 wd=$2
	shift 2
	trap '\''umount -R -l "$root/dev" "$root/sys" "$root/proc" 2>/dev/null || true'\'' EXIT
	mount -t proc proc "$root/proc"
	mount --rbind /dev "$root/dev"
	mount --rbind /sys "$root/sys"
	chroot "$root" /bin/sh -c '\''cd "$1" && shift && exec /usr/bin/env -i "$@"'\'' sh "$wd" "$@" </dev/null'
	unshare --mount --pid --fork --propagation private /bin/bash -c "$o" sh "$dir" "$wd" "${envs[@]}" "$@"
}

remove() { # DIR
	[ -e "$1" ] || return 0
	unmounted "$1" || die "something is still mounted under $1: not removed"
	rm -rf --one-file-system "$1"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
image) [ $# -eq 0 ] || usage; image; echo "$tarball" ;;
new) [ $# -eq 1 ] || usage; new "$1" ;;
clone) case $# in 2 | 3) clone "$@" ;; *) usage ;; esac ;;
exec) [ $# -ge 1 ] || usage; run "$@" ;;
remove) [ $# -eq 1 ] || usage; remove "$1" ;;
*) usage ;;
esac
