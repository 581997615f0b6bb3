#!/bin/bash
# test-host-refusal.sh - the leap test refuses to run on this machine.
#
# It is started here as an unprivileged user, so that even a broken guard could
# not set the clock; the test checks the one-line refusal, the exit code, and
# that CLOCK_REALTIME did not move against CLOCK_MONOTONIC.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
chmod 755 "$w"
srcs=()
for f in "$ROOT"/common-tests/*.c; do
	case "$f" in */test_*) ;; *) srcs+=("$f") ;; esac
done
cc -static -O2 -Wall -Wextra -Werror -pthread -o "$w/leaptest" "${srcs[@]}"
offset() { # realtime - uptime, in whole seconds
	echo $(( $(date +%s) - $(cut -d. -f1 /proc/uptime) ))
}
before=$(offset)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	run=(setpriv --reuid=65534 --regid=65534 --clear-groups "$w/leaptest")
else
	run=("$w/leaptest")
fi
out=$("${run[@]}" 2>&1) && rc=0 || rc=$?
check_eq "refuses with exit 2" 2 "$rc"
check_eq "one line" 1 "$(printf '%s\n' "$out" | wc -l)"
check "says why and what to do" grep -q "^leaptest: refusing to run: .*make cell" <<<"$out"
check "no KTAP output on the host" not grep -q KTAP <<<"$out"
after=$(offset)
check "the host clock did not move" test $((after - before)) -le 1 -a $((before - after)) -le 1
finish host-refusal
