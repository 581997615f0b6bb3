#!/bin/bash
# test-verdict.sh - the verdict parser on recorded console logs (fixtures/).
# The 6.1-* logs are real guests' consoles; the others are cut from them.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
fx=$ROOT/tests/fixtures
v() { "$ROOT/scripts/verdict.sh" "$1" "$2" | sed -n "s/^$3=//p"; }

check_eq "stock x86_64 passes" PASS "$(v "$fx/6.1-x86_64-stock.log" 0 verdict)"
check_eq "stock x86_64 wakeups metric" "80" "$(v "$fx/6.1-x86_64-stock.log" 0 wakeups_per_s)"
check_eq "stock: no early waits" "0" "$(v "$fx/6.1-x86_64-stock.log" 0 early)"
check_eq "interleaved kernel lines still parse" PASS "$(v "$fx/interleaved-pass.log" 0 verdict)"
check_eq "ACPI Error is not a splat" PASS "$(v "$fx/interleaved-pass.log" 0 verdict)"
check_eq "early boot only: BOOTFAIL" BOOTFAIL "$(v "$fx/bootfail-early.log" 0 verdict)"
check "BOOTFAIL shows the last console lines" grep -q "last lines: .*" <<<"$(v "$fx/bootfail-early.log" 0 reason)"
check_eq "BOOTFAIL even when killed" BOOTFAIL "$(v "$fx/bootfail-early.log" 124 verdict)"
check_eq "started, killed at the limit: TIMEOUT" TIMEOUT "$(v "$fx/hang-after-start.log" 124 verdict)"
check_eq "started, guest gone without result: ERROR" ERROR "$(v "$fx/hang-after-start.log" 0 verdict)"
check_eq "no console log: ERROR" ERROR "$(v "$fx/does-not-exist.log" 0 verdict)"

if [ -f "$fx/6.1-x86_64-regress.log" ]; then
	check_eq "regress x86_64 fails" FAIL "$(v "$fx/6.1-x86_64-regress.log" 0 verdict)"
	check "regress: timer checks named" grep -q "timers_after_insert" <<<"$(v "$fx/6.1-x86_64-regress.log" 0 failed)"
	check "regress: load spike measured" test "$(v "$fx/6.1-x86_64-regress.log" 0 wakeups_per_s)" -gt 1000
fi
for f in "$fx"/6.1-*-naive.log; do
	[ -f "$f" ] || continue
	check_eq "naive $(basename "$f"): SPLAT" SPLAT "$(v "$f" 0 verdict)"
done
if [ -f "$fx/6.1-arm64-stock.log" ]; then
	check_eq "stock arm64 passes" PASS "$(v "$fx/6.1-arm64-stock.log" 0 verdict)"
fi

# Splats outrank a PASS result line; each kind of report counts.
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for line in "BUG: sleeping function called from invalid context at kernel/cpu.c:310" \
	"WARNING: CPU: 0 PID: 0 at kernel/smp.c:912 smp_call_function_many_cond+0x3a/0x3c0" \
	"WARNING: inconsistent lock state" "watchdog: BUG: soft lockup - CPU#1 stuck for 22s!" \
	"INFO: task kworker/0:1:12 blocked for more than 120 seconds." \
	"rcu: INFO: rcu_sched self-detected stall on CPU" "Kernel panic - not syncing: Fatal exception"; do
	{ sed -n '1,/leapinit: running/p' "$fx/6.1-x86_64-stock.log"; echo "[    9.1] $line"
	  sed -n '/KTAP version 1/,$p' "$fx/6.1-x86_64-stock.log"; } >"$tmp"
	check_eq "splat: $line" SPLAT "$(v "$tmp" 0 verdict)"
done
# A splat and then a hang (5.10's naive deadlock): SPLAT, and the reason says it hung.
{ sed -n '1,/leapinit: running/p' "$fx/6.1-x86_64-stock.log"
  echo "[    4.04] WARNING: CPU: 0 PID: 27 at kernel/smp.c:624 smp_call_function_many_cond+0x5b/0x257"; } >"$tmp"
check_eq "splat then hang: SPLAT" SPLAT "$(v "$tmp" 124 verdict)"
check "splat then hang: reason says it hung" grep -q "then hung: killed at the time limit" <<<"$(v "$tmp" 124 reason)"
# The same, killed by run-qemu.sh's silence watch: the reason says so.
printf '\nrun-qemu: no console output for 20 s: guest killed as hung\n' >>"$tmp"
check_eq "splat then silence: SPLAT" SPLAT "$(v "$tmp" 124 verdict)"
check "splat then silence: reason says silent" grep -q "then hung: silent for 20 s, killed" <<<"$(v "$tmp" 124 reason)"
{ sed -n '1,/leapinit: running/p' "$fx/6.1-x86_64-stock.log"
  printf '\nrun-qemu: no console output for 7 s: guest killed as hung\n'; } >"$tmp"
check_eq "started, then silent: TIMEOUT" TIMEOUT "$(v "$tmp" 124 verdict)"
check "started, then silent: reason says silent" grep -q "silent for 7 s" <<<"$(v "$tmp" 124 reason)"
finish verdict
