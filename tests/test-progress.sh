#!/bin/bash
# test-progress.sh - a long build says how far it is: a recorded build log
# replayed through scripts/progress.sh gives a line every period with the
# objects built, the time and an estimate; a live watch prints periodic
# lines in a log and rewrites one line in place on a terminal.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
p=$ROOT/scripts/progress.sh

# The recorded build log of Debian's configuration (6.1, x86_64; its
# RECORDED file says which run): replayed as if it took its real time.
rec=$ROOT/tests/fixtures/build-log
gunzip -c "$rec/debian-6.1-x86_64.log.gz" >"$w/debian.log"
n=$("$p" count "$w/debian.log")
secs=$(sed -n 's/^make_s=//p' "$rec/RECORDED")
check "the recorded Debian build compiled thousands of objects" test "$n" -gt 2000
out=$("$p" replay "$w/debian.log" "$secs" 60)
check_eq "a line a minute of a ${secs} s build" $(((secs - 1) / 60)) "$(grep -c '^replay: ' <<<"$out")"
check "each line: objects of the total, percent, time, an estimate" \
	grep -qE "^replay: [0-9]+/$n objects \([0-9]+%\), 1m0s, about [0-9]+m[0-9]+s left$" <(head -n 1 <<<"$out")
check "the count grows line by line" test "$(awk -F'[ /]' '{ print $2 }' <<<"$out" | sort -n -c 2>&1 | wc -l)" -eq 0
last=$(tail -n 1 <<<"$out")
check "the last line is near the end" grep -qE '\((9[0-9]|100)%\)' <<<"$last"

# Without an expected count (a first build): objects and time only.
printf '  CC      kernel/time/ntp.o\n  AS      arch/x86/entry/entry_64.o\n  LD      vmlinux\n  CC [M]  fs/x.o\n' >"$w/small.log"
check_eq "count: CC, AS and module objects, not links" 3 "$("$p" count "$w/small.log")"
check_eq "a build shorter than a period prints nothing" "" "$("$p" replay "$w/small.log" 30 45)"

# A live build (a writer adding objects for 4 s), watched in a log: a line
# a second with PROGRESS_EVERY=1, nothing once it ended.
( for i in $(seq 1 40); do echo "  CC      obj$i.o"; sleep 0.1; done ) >"$w/live.log" &
PROGRESS_EVERY=1 "$p" watch "$w/live.log" $! "[1/1] build x" 40 >"$w/watch.out"
check "in a log: periodic lines" test "$(grep -c '^\[1/1\] build x: [0-9]*/40 objects' "$w/watch.out")" -ge 2
check "in a log: no carriage returns" not grep -q $'\r' "$w/watch.out"
# On a terminal (script(1) gives the watch a tty): one line rewritten in place.
( for i in $(seq 1 30); do echo "  CC      obj$i.o"; sleep 0.1; done ) >"$w/tty.log" &
bpid=$!
script -qfec "$p watch $w/tty.log $bpid '[1/1] build x' 30" "$w/tty.out" >/dev/null
check "on a terminal: the line is rewritten (carriage return, erase)" grep -q $'\r\033\[K\[1/1\] build x: ' "$w/tty.out"
check_eq "on a terminal: it ends erased, no newline of its own (the line holding the updates ends in an erase)" 0 \
	"$(awk '/build x:/ && !/\033\[K\r?$/' "$w/tty.out" | wc -l)"

finish test-progress
