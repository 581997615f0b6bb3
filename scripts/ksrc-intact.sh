#!/bin/bash
# ksrc-intact.sh - show that a tree brought with KSRC= is never written: the
# sha1sum of every file of TREE before, after a whole `make qemu KSRC=TREE`
# run, and after runs killed (SIGKILL to every process of the run) DELAY
# seconds after they started, each in a build directory of its own so
# that its hard-link copy is made and patched again.
#
# Usage: ksrc-intact.sh TREE ARCH VARIANTS [DELAY...]
#   VARIANTS  as make's VARIANT= (e.g. "stock regress")
#   DELAY     seconds before a killed run is killed (default 2 5 10 20)
# BUILD_DIR (default build/) holds the whole run's build directory,
# ksrc-intact/ (logs and snapshots; each run's own directory is removed at
# the end); LEAP_CPU_LOCK is passed on.  One line per step; exit 1 if
# any file of TREE changed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
die() { echo "ksrc-intact: $*" >&2; exit 2; }
[ $# -ge 3 ] || die "usage: ksrc-intact.sh TREE ARCH VARIANTS [DELAY...]"
tree=$(realpath "$1") arch=$2 variants=$3
shift 3
[ -f "$tree/Makefile" ] || die "$tree: not a kernel tree (no Makefile)"
delays=("$@")
[ ${#delays[@]} -gt 0 ] || delays=(2 5 10 20)
build=$(realpath -m "${BUILD_DIR:-$root/build}")/ksrc-intact
rm -rf "$build"
mkdir -p "$build"

snap() { (cd "$tree" && find . -type f -print0 | sort -z | xargs -0 sha1sum) >"$1"; }
changed=0
compare() { # WHAT SNAPSHOT
	if cmp -s "$build/before.sha1" "$2"; then
		echo "ksrc-intact: after $1: every file identical ($(wc -l <"$2") files)"
	else
		echo "ksrc-intact: after $1: CHANGED: $(diff "$build/before.sha1" "$2" | sed -n 's/^[<>] [0-9a-f]*  //p' | sort -u | head -n 5 | tr '\n' ' ')"
		changed=1
	fi
}
run() { # BUILD_DIR: make qemu in a session of its own; prints its session id
	setsid make -C "$root" qemu KSRC="$tree" ARCH="$arch" VARIANT="$variants" BUILD_DIR="$1" \
		>"$1.log" 2>&1 </dev/null &
	echo $!
}

snap "$build/before.sha1"
sid=$(run "$build/whole")
while kill -0 "$sid" 2>/dev/null; do sleep 1; done
echo "ksrc-intact: whole run: $(grep -E '^cells: ' "$build/whole.log" || echo 'no summary line')"
snap "$build/whole.sha1"
compare "a whole run" "$build/whole.sha1"
for d in "${delays[@]}"; do
	b=$build/killed-$d
	sid=$(run "$b")
	sleep "$d"
	at=$(grep -E '^\[|^plan' "$b.log" | tail -n 1 || true)
	pkill -KILL -s "$sid" 2>/dev/null || true
	while pgrep -s "$sid" >/dev/null; do sleep 0.2; done
	snap "$b.sha1"
	compare "a run killed at ${d}s (${at:-before its first line})" "$b.sha1"
done
# The runs' build directories go; their logs and snapshots stay.
for d in "$build"/*/; do rm -rf "$d"; done
exit "$changed"
