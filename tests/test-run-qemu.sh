#!/bin/bash
# test-run-qemu.sh - run-qemu.sh's ends, with a stand-in for QEMU (a shell
# that writes a console log and then spins, as a guest does): a kernel that
# says it cannot reset the machine is stopped as ended (status 0, a note on
# the log); any other last line, quiet as long, is a hung guest (124).
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# plan DIR LAST_LINE SILENCE: a plan whose "QEMU" prints a recorded guest's
# console (a 6.1 regress cell, FAIL), two stray bytes as real consoles
# have (grep calls such a file binary) and LAST_LINE, then spins until it
# is killed.
plan() {
	mkdir -p "$1"
	jq -n --arg out "$1" --arg last "$2" --argjson silence "$3" --arg rec "$rec" '{
		out: $out, packages: [],
		qemu: {limit_s: 30, silence_s: $silence, argv: ["bash", "-c",
			"cat \"$2\" >>\"$1/console.log\"; printf \"\\000\\377\\r\\n[    8.13] %s\\r\\n\" \"$0\" >>\"$1/console.log\"; while :; do sleep 1; done",
			$last, $out, $rec]}}' >"$1/plan.json"
}

rec=$ROOT/tests/fixtures/run-6.1/cells/6.1-x86_64-regress/console.log
plan "$w/halted" "Reboot failed -- System halted" 20
plan "$w/hung" "Restarting system, still" 2
# Both at once: each waits out its guest's 2 quiet seconds.
rc_h=0 rc_g=0
start=$(date +%s)
"$ROOT/scripts/run-qemu.sh" "$w/halted/plan.json" || rc_h=$? &
h=$!
"$ROOT/scripts/run-qemu.sh" "$w/hung/plan.json" &
g=$!
wait "$h" || rc_h=$?
wait "$g" || rc_g=$?
took=$(($(date +%s) - start))

check_eq "halted guest: QEMU stopped as ended (status 0)" 0 "$rc_h"
check "halted guest: stopped after its quiet seconds, not at the silence limit (20 s)" test "$took" -lt 15
check "halted guest: the note names the kernel's line" grep -q '^run-qemu: the guest said "Reboot failed -- System halted"' "$w/halted/console.log"
check "halted guest: the result line is kept" grep -q "^LEAPTEST RESULT: FAIL" "$w/halted/console.log"
check_eq "halted guest: the verdict is the guest's" FAIL "$("$ROOT/scripts/verdict.sh" "$w/halted/console.log" "$rc_h" | sed -n 's/^verdict=//p')"
check_eq "another last line, as quiet: hung (124)" 124 "$rc_g"
check "another last line: no halted note" not grep -q "^run-qemu: the guest said" "$w/hung/console.log"
check "another last line: the silence note" grep -q "^run-qemu: no console output for 2 s" "$w/hung/console.log"
check "no stand-in left running" not pgrep -f "$w/"

finish test-run-qemu
