#!/bin/bash
# test-kselftest.sh - scripts/kselftest.sh's host side: the verdict it reads
# from a console log, and the plan it derives from a cell's (the test's
# initramfs, its options after "--", its own console), nothing else changed.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
ks=$ROOT/scripts/kselftest.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

log() { printf '%s\n' "$@" >"$w/console.log"; "$ks" --verdict "$w/console.log" 0; }
check_eq "exit 0: PASS" PASS "$(log 'leapinit: running /leaptest' 'Leap complete' 'leapinit: leaptest exit=0')"
check_eq "exit 1: FAIL, its error lines counted by kind" \
	"FAIL ERROR: hrtimer early expiration failure observed x1; Error: Early timer expiration x2; Error: Timer seeing incorrect NTP state? x1" \
	"$(log 'Error: Early timer expiration! (Should be 1000)' 'Error: Timer seeing incorrect NTP state? (Should be TIME_WAIT)' \
		'Error: Early timer expiration! (Should be 2000)' 'ERROR: hrtimer early expiration failure observed.' 'Errors observed' \
		'leapinit: leaptest exit=1')"
check_eq "exit 1 without an error line: said" "FAIL no error line" "$(log 'leapinit: leaptest exit=1')"
check_eq "exit 4: SKIP" SKIP "$(log 'leapinit: leaptest exit=4')"
printf 'leapinit: running /leaptest\nLeap complete\n' >"$w/console.log"
check_eq "no exit line: ERROR with run-qemu's status" "ERROR no exit status in the console (run-qemu status 124)" \
	"$("$ks" --verdict "$w/console.log" 124)"
check_eq "the last exit line counts" PASS "$(log 'leapinit: leaptest exit=1' 'leapinit: leaptest exit=0')"

cat >"$w/plan.json" <<'JSON'
{"cell": "3.10-x86_64-stock", "out": "/r/cells/3.10-x86_64-stock",
 "initramfs": {"cc": "gcc", "path": "/b/guest/x86_64/initramfs.cpio"},
 "qemu": {"argv": ["qemu-system-x86_64", "-serial", "file:/r/cells/3.10-x86_64-stock/console.log",
   "-kernel", "/b/images/k/bzImage", "-initrd", "/b/guest/x86_64/initramfs.cpio",
   "-append", "console=ttyS0 clocksource=hpet"], "cmdline": "console=ttyS0 clocksource=hpet", "limit_s": 60}}
JSON
p=$("$ks" --plan "$w/plan.json" /k/cell /k/g/initramfs.cpio "nohz=off -- -i 2")
q() { jq -r "$1" <<<"$p"; }
check_eq "plan: the console goes to the new directory" "file:/k/cell/console.log" "$(q '.qemu.argv[2]')"
check_eq "plan: the test's initramfs" "/k/g/initramfs.cpio /k/g/initramfs.cpio" "$(q '.qemu.argv[6] + " " + .initramfs.path')"
check_eq "plan: nohz=off and the options after --" "console=ttyS0 clocksource=hpet nohz=off -- -i 2" "$(q '.qemu.argv[8]')"
check_eq "plan: cmdline says the same" "$(q '.qemu.argv[8]')" "$(q '.qemu.cmdline')"
check_eq "plan: out" /k/cell "$(q .out)"
check_eq "plan: the kernel and the rest unchanged" "qemu-system-x86_64 -kernel /b/images/k/bzImage 60 3.10-x86_64-stock" \
	"$(q '[.qemu.argv[0], .qemu.argv[3], .qemu.argv[4], (.qemu.limit_s | tostring), .cell] | join(" ")')"

# The table: one row a cell, the kselftest's verdict beside the leap test's.
r=$w/results/20990101-000000
mkdir -p "$r/cells/3.10-x86_64-stock" "$r/kselftest/leap-a-day/3.10-x86_64-stock"
echo '{"tree": {"version": "3.10.108"}}' >"$r/cells/3.10-x86_64-stock/plan.json"
echo '{"verdict": "FAIL", "failed_tests": ["leap_edge", "adjtimex_at_leap"]}' >"$r/cells/3.10-x86_64-stock/cell.json"
echo 'FAIL Error: Early timer expiration x1' >"$r/kselftest/leap-a-day/3.10-x86_64-stock/verdict"
printf '# results\n' >"$w/doc.md"
DOC=$w/doc.md "$ks" --table leap-a-day "$r" >/dev/null
check "table: the row" grep -qxF "| 3.10.108 | 3.10-x86_64-stock | FAIL Error: Early timer expiration x1 | FAIL | leap_edge, adjtimex_at_leap | 20990101-000000 |" "$w/doc.md"
DOC=$w/doc.md "$ks" --table leap-a-day "$r" >/dev/null
check_eq "table: written again in place, not appended" 1 "$(grep -c '^<!-- kselftest:' "$w/doc.md")"

out=$("$ks" "$w/nowhere" 2>&1) && rc=0 || rc=$?
check "not a run: one line, exit 2" test "$rc" -eq 2 -a "$(grep -c . <<<"$out")" -eq 1
check "... says what to give" grep -q "is not a run (no cells/): give BUILD_DIR/results/<id>" <<<"$out"

finish kselftest
