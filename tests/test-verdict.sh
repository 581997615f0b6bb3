#!/bin/bash
# test-verdict.sh - the verdict parser on real guests' consoles (the 6.1
# cells of fixtures/run-6.1, recorded by the harness) and on consoles cut
# from or edited into them here.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
run=$ROOT/tests/fixtures/run-6.1
v() { "$ROOT/scripts/verdict.sh" "$1" "$2" ${4+"$4"} | sed -n "s/^$3=//p"; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
con() { echo "$run/cells/6.1-$1/console.log"; }

# Every recorded cell: its verdict and what it measured.  A missing console
# fails here (verdict ERROR), it is never skipped.
for a in x86_64 arm64; do
	check_eq "stock $a passes" PASS "$(v "$(con "$a-stock")" 0 verdict)"
	check "stock $a: about 100 wakeups/s" test "$(v "$(con "$a-stock")" 0 wakeups_per_s)" -lt 200
	check_eq "stock $a: no early, no late waits" "0 0" "$(v "$(con "$a-stock")" 0 early) $(v "$(con "$a-stock")" 0 late)"
	check_eq "fixed $a passes" PASS "$(v "$(con "$a-fixed")" 0 verdict)"
	check_eq "regress $a fails" FAIL "$(v "$(con "$a-regress")" 0 verdict)"
	check "regress $a: timer checks named" grep -q "timers_after_insert" <<<"$(v "$(con "$a-regress")" 0 failed)"
	check "regress $a: early waits counted" test "$(v "$(con "$a-regress")" 0 early)" -gt 0
	check "regress $a: load spike measured" test "$(v "$(con "$a-regress")" 0 wakeups_per_s)" -gt 1000
	check_eq "naive $a: SPLAT" SPLAT "$(v "$(con "$a-naive")" 0 verdict)"
done
check_eq "a console that is not there: ERROR" ERROR "$(v "$w/none.log" 0 verdict)"

# The modes the test ran: the leap count of today's console; none named in
# an older console (no leaps= word); the extra leaps and low resolution
# when the console says so.
check_eq "today's console names its leap count" "leaps=2" "$(v "$(con x86_64-stock)" 0 modes)"
sed 's/^\(# leaptest: cpus=2 clock_realtime_res_ns=1\) leaps=2/\1/' "$(con x86_64-stock)" >"$w/older.log"
check_eq "an older console names no modes" "" "$(v "$w/older.log" 0 modes)"
sed 's/^# leaptest: cpus=2 clock_realtime_res_ns=1 leaps=2\r\?$/# leaptest: cpus=2 clock_realtime_res_ns=4000000 leaps=4 hotplug=1\n# leaptest: timers tick-bound on cpu 1: 0.300 ms sleeps wake 3.700 ms late (tick 4.000 ms)/' \
	"$(con x86_64-stock)" >"$w/modes.log"
check_eq "modes: leaps, hotplug, timers measured tick-bound" "leaps=4 hotplug=1 tick-bound" "$(v "$w/modes.log" 0 modes)"
check_eq "modes: the verdict is unchanged" PASS "$(v "$w/modes.log" 0 verdict)"

stock=$(con x86_64-stock)
head=$w/head.log tail=$w/tail.log
sed -n '1,/leapinit: running/p' "$stock" >"$head"
sed -n '/^KTAP version 1/,$p' "$stock" >"$tail"
# Cut: the boot only (never started), and started but no result.
sed -n '1,/leapinit: running/p' "$stock" | head -n -1 >"$w/bootfail.log"
check_eq "early boot only: BOOTFAIL" BOOTFAIL "$(v "$w/bootfail.log" 0 verdict)"
check "BOOTFAIL shows the last console lines" grep -q "last lines: .*" <<<"$(v "$w/bootfail.log" 0 reason)"
check_eq "BOOTFAIL even when killed" BOOTFAIL "$(v "$w/bootfail.log" 124 verdict)"
{ cat "$head"; sed -n '1,3p' "$tail"; } >"$w/started.log"
check_eq "started, killed at the limit: TIMEOUT" TIMEOUT "$(v "$w/started.log" 124 verdict)"
check_eq "started, guest gone without result: ERROR" ERROR "$(v "$w/started.log" 0 verdict)"
check_eq "a stock console less its result line: not PASS" ERROR "$(grep -v 'LEAPTEST RESULT' "$stock" >"$w/nores.log"; v "$w/nores.log" 0 verdict)"

# Kernel lines interleaved with the test's (a second CPU printing): still
# parsed; "ACPI Error" lines (x86 tinyconfig prints two) are no splat.
awk '/^(ok|not ok|#) / { print "[    5.0" NR "] random: crng init done" } { print }' "$stock" >"$w/inter.log"
check "interleaved: the kernel lines are there" test "$(grep -c 'crng init done' "$w/inter.log")" -gt 10
check_eq "interleaved kernel lines still parse" PASS "$(v "$w/inter.log" 0 verdict)"
check_eq "interleaved: the metric still read" "$(v "$stock" 0 wakeups_per_s)" "$(v "$w/inter.log" 0 wakeups_per_s)"
{ cat "$head"; echo "[    1.2] ACPI Error: AE_NOT_FOUND, While resolving a named reference package element (20220331/dspkginit-438)"; cat "$tail"; } >"$w/acpi.log"
check_eq "ACPI Error is not a splat" PASS "$(v "$w/acpi.log" 0 verdict)"

# Splats outrank a PASS result line; each kind of report counts.
for line in "BUG: sleeping function called from invalid context at kernel/cpu.c:310" \
	"WARNING: CPU: 0 PID: 0 at kernel/smp.c:912 smp_call_function_many_cond+0x3a/0x3c0" \
	"WARNING: inconsistent lock state" "watchdog: BUG: soft lockup - CPU#1 stuck for 22s!" \
	"INFO: task kworker/0:1:12 blocked for more than 120 seconds." \
	"rcu: INFO: rcu_sched self-detected stall on CPU" "Kernel panic - not syncing: Fatal exception" \
	"kernel BUG at kernel/time/timekeeping.c:1234!" "invalid opcode: 0000 [#1] PREEMPT SMP NOPTI" \
	"rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 1-... } 21 jiffies s: 45 root: 0x2/." \
	"NMI watchdog: Watchdog detected hard LOCKUP on cpu 1" \
	"UBSAN: shift-out-of-bounds in kernel/time/ntp.c:530:21" \
	"list_del corruption. prev->next should be ffff888003c1b2c8, but was dead000000000100" \
	"general protection fault, probably for non-canonical address 0xdead000000000100: 0000 [#1] SMP" \
	"Unable to handle kernel NULL pointer dereference at virtual address 0000000000000008"; do
	{ cat "$head"; echo "[    9.1] $line"; cat "$tail"; } >"$w/splat.log"
	check_eq "splat: $line" SPLAT "$(v "$w/splat.log" 0 verdict)"
done
# A splat and then a hang (5.10's naive deadlock): SPLAT, and the reason says it hung.
{ cat "$head"; echo "[    4.04] WARNING: CPU: 0 PID: 27 at kernel/smp.c:624 smp_call_function_many_cond+0x5b/0x257"; } >"$w/sh.log"
check_eq "splat then hang: SPLAT" SPLAT "$(v "$w/sh.log" 124 verdict)"
check "splat then hang: reason says it hung" grep -q "then hung: killed at the time limit" <<<"$(v "$w/sh.log" 124 reason)"
# The same, killed by run-qemu.sh's silence watch: the reason says so.
printf '\nrun-qemu: no console output for 20 s: guest killed as hung\n' >>"$w/sh.log"
check_eq "splat then silence: SPLAT" SPLAT "$(v "$w/sh.log" 124 verdict)"
check "splat then silence: reason says silent" grep -q "then hung: silent for 20 s, killed" <<<"$(v "$w/sh.log" 124 reason)"
# A splat during the test: the reason is the splat alone.
check_eq "splat during the test: the reason is the line" "[    4.04] WARNING: CPU: 0 PID: 27 at kernel/smp.c:624 smp_call_function_many_cond+0x5b/0x257" "$(v "$w/sh.log" 0 reason)"
# A kernel that warns at boot (7.3 on ppc64el): the reason says the splat
# came first, and names the one during the test that it would have hidden.
boot="[    0.02] WARNING: CPU: 0 PID: 0 at kernel/locking/lockdep.c:4476 lockdep_hardirqs_on_prepare+0x1c0/0x200"
{ echo "$boot"; cat "$head"; echo "[    4.04] BUG: sleeping function called from invalid context at kernel/smp.c:624"; cat "$tail"; } >"$w/boot-splat.log"
check_eq "boot splat, then one in the test: SPLAT" SPLAT "$(v "$w/boot-splat.log" 0 verdict)"
check_eq "... the reason names both, in order" "before the leap test started: $boot; during it: [    4.04] BUG: sleeping function called from invalid context at kernel/smp.c:624" \
	"$(v "$w/boot-splat.log" 0 reason)"
# A mutant's KILLER_SPLAT counts from the test's start: a boot splat that
# matches it is no kill.
m2=$(sed -n 's/^KILLER_SPLAT := //p' "$ROOT/mutants/6.1/M2-atomic-clock-was-set/mutant.mk")
check_eq "killer splat: the real naive console shows M2's" true "$(v "$(con x86_64-naive)" 0 killer_splat_seen "$m2")"
check_eq "killer splat: not asked, not said" "" "$("$ROOT/scripts/verdict.sh" "$(con x86_64-naive)" 0 | grep '^killer_splat_seen=' || true)"
check_eq "killer splat: during the test" true "$(v "$w/boot-splat.log" 0 killer_splat_seen 'sleeping function called')"
check_eq "killer splat: at boot only, no kill" false "$(v "$w/boot-splat.log" 0 killer_splat_seen 'lockdep_hardirqs_on_prepare')"
{ echo "$boot"; cat "$head" "$tail"; } >"$w/boot-only.log"
check_eq "boot splat alone: the reason says before the test" "before the leap test started: $boot" "$(v "$w/boot-only.log" 0 reason)"
{ cat "$head"; printf '\nrun-qemu: no console output for 7 s: guest killed as hung\n'; } >"$w/silent.log"
check_eq "started, then silent: TIMEOUT" TIMEOUT "$(v "$w/silent.log" 124 verdict)"
check "started, then silent: reason says silent" grep -q "silent for 7 s" <<<"$(v "$w/silent.log" 124 reason)"

# The result line must agree with the KTAP lines and with how the guest
# ended; each disagreement, edited into the real stock console, is ERROR.
ed() { # NAME SED-EXPR: the stock console edited
	sed "$2" "$stock" >"$w/$1.log"
	echo "$w/$1.log"
}
check_eq "the recorded consoles agree with their result lines" "PASS FAIL" "$(v "$stock" 0 verdict) $(v "$(con x86_64-regress)" 0 verdict)"
f=$(ed notok 's/^ok 4 monotonic_continuity/not ok 4 monotonic_continuity/')
check_eq "PASS, but a test not ok: ERROR" ERROR "$(v "$f" 0 verdict)"
check "... the reason names it" grep -q "says PASS but tests not ok: monotonic_continuity" <<<"$(v "$f" 0 reason)"
f=$(ed missing '/^ok 4 monotonic_continuity/d')
check_eq "PASS, but a planned test missing: ERROR" ERROR "$(v "$f" 0 verdict)"
check "... the reason counts them" grep -q "13 of the planned 14 tests reported" <<<"$(v "$f" 0 reason)"
f=$(ed noplan '/^1\.\.14\r\?$/d')
check_eq "no KTAP plan: ERROR" ERROR "$(v "$f" 0 verdict)"
f=$(ed counts 's/^LEAPTEST RESULT: PASS pass=\([0-9]*\)/LEAPTEST RESULT: PASS pass=1\1/')
check_eq "result counts that disagree: ERROR" ERROR "$(v "$f" 0 verdict)"
f=$(ed fail '/^not ok/!s/^LEAPTEST RESULT: PASS/LEAPTEST RESULT: FAIL/')
check_eq "FAIL with every test ok: ERROR" ERROR "$(v "$f" 0 verdict)"
{ cat "$stock"; printf '\nrun-qemu: no console output for 20 s: guest killed as hung\n'; } >"$w/passhung.log"
check_eq "PASS, then the silence watch killed it: ERROR" ERROR "$(v "$w/passhung.log" 124 verdict)"
check "... the reason says so" grep -q "then went silent and was killed" <<<"$(v "$w/passhung.log" 124 reason)"
# The leap test's own word that the harness failed (a stalled guest armed
# the leap too late, three times): ERROR, not the FAIL its checks report.
f=$(ed harness 's/^# leaptest: cpus=2 .*/&\n# leaptest: harness problem: the insert was armed 3 times too late (last at 00:00:00 -0.412 s): the guest stalled, not a kernel fault/')
check_eq "a harness problem: ERROR" ERROR "$(v "$f" 0 verdict)"
check "... the reason is the test's" grep -q "^harness problem: the insert was armed 3 times too late" <<<"$(v "$f" 0 reason)"

# Rounds of leaps: each round's failed checks, in order, "ok" for a clean
# round; none in a console of one round; a line of another shape is no round.
check_eq "one round: no rounds" "" "$(v "$(con x86_64-stock)" 0 rounds)"
sed 's/^# leaptest: cpus=2 clock_realtime_res_ns=1 leaps=2\r\?$/&\n# leaptest: round 1 of 3 (left by the STA_PLL reset): failed: leap_edge,cancel_on_set\r\n[    9.1] Clock: inserting leap second 23:59:60 UTC\n# leaptest: round 2 of 3 (left the natural way): ok\n# leaptest: round 3 of 3 (left by the STA_PLL reset): failed: leap_edge\n# leaptest: round 4 of 3 is not a round: failed: x\n# leaptest: 6 leaps, 2 of 3 rounds failed; reported below: round 1/' \
	"$(con x86_64-stock)" >"$w/rounds.log"
check_eq "rounds: each round's failed checks" "leap_edge,cancel_on_set;ok;leap_edge" "$(v "$w/rounds.log" 0 rounds)"
check_eq "rounds: the verdict is unchanged" PASS "$(v "$w/rounds.log" 0 verdict)"

# A kernel whose timers are bound to the tick (3.14.40 on arm64, recorded):
# leap_edge has nothing to see there and is a SKIP that says why; the stock
# kernel's adjtimex is still caught; the fixed kernel's PASS names what it
# did not prove, and every skip is kept with its reason.
tb=$ROOT/tests/fixtures/tick-bound
check_eq "tick-bound stock: FAIL on adjtimex_at_leap alone" "FAIL adjtimex_at_leap" \
	"$(v "$tb/3.14.40-arm64-stock.console.log" 124 verdict) $(v "$tb/3.14.40-arm64-stock.console.log" 124 failed)"
check_eq "tick-bound: measured, in the modes" "leaps=2 tick-bound" "$(v "$tb/3.14.40-arm64-fixed.console.log" 124 modes)"
check_eq "tick-bound fixed: PASS, leap_edge unproven" "PASS leap_edge" \
	"$(v "$tb/3.14.40-arm64-fixed.console.log" 124 verdict) $(v "$tb/3.14.40-arm64-fixed.console.log" 124 unproven)"
check "... its reason says so, with the measurement" grep -q "^passed what it saw; unproven: leap_edge (insert: timers tick-bound on cpu 0: measured [0-9.]* ms late (tick [0-9.]* ms))$" \
	<<<"$(v "$tb/3.14.40-arm64-fixed.console.log" 124 reason)"
check "... the skip with its reason" grep -q "^leap_edge insert: timers tick-bound on cpu 0" <<<"$(v "$tb/3.14.40-arm64-fixed.console.log" 124 skip)"
check_eq "a full pass has nothing unproven" "" "$(v "$stock" 0 unproven)"
# What the test measured: each CPU's probe, the sampler's reads in each
# leap's window, the leaps it ran.
check "probe: a line per CPU, tick-bound" grep -qxE "0 [0-9.]+ [0-9.]+ tick-bound" <<<"$(v "$tb/3.14.40-arm64-fixed.console.log" 124 probe)"
check_eq "probe: two CPUs" 2 "$(v "$tb/3.14.40-arm64-fixed.console.log" 124 probe | grep -c .)"
check_eq "window: the reads of each leap" "insert delete" "$(v "$tb/3.14.40-arm64-fixed.console.log" 124 window | grep -E '^(insert|delete) [0-9]+$' | cut -d' ' -f1 | paste -sd' ')"
check_eq "leaps_run: the default boot's two" 2 "$(v "$tb/3.14.40-arm64-fixed.console.log" 124 leaps_run)"
f=$(ed noprobe 's/^# leaptest: cpus=2 .*/&\n# leaptest: probe cpu=1 tick not seen sleep_late_ms=1.500 (median of 21 sleeps of 0.3 ms) timers=tick-bound\n# leaptest: 6 leaps, 0 of 3 rounds failed; reported below: round 2/')
check "probe: a tick not seen is -" grep -qx "1 - 1.500 tick-bound" <<<"$(v "$f" 0 probe)"
check_eq "leaps_run: retried rounds count" 6 "$(v "$f" 0 leaps_run)"
# A round without the window's evidence, tried again (recorded): both rounds
# read, four leaps run, the reported round's reads in each window.
rt=$ROOT/tests/fixtures/retry/6.1-x86_64-stock.console.log
check_eq "a retried round: PASS, proved, two rounds, four leaps" "PASS||ok;ok|4" \
	"$(v "$rt" 0 verdict)|$(v "$rt" 0 unproven)|$(v "$rt" 0 rounds)|$(v "$rt" 0 leaps_run)"
check "... the reported round read both windows" test "$(v "$rt" 0 window | awk '$2 >= 2' | grep -c .)" = 2
# The result line's unproven tests must be skipped ones, else no verdict.
f=$(ed unproven 's/^LEAPTEST RESULT: PASS \(.*\)/LEAPTEST RESULT: PASS \1 unproven=leap_edge/')
check_eq "unproven names a test that passed: ERROR" ERROR "$(v "$f" 0 verdict)"
check "... saying which" grep -q "names leap_edge unproven, which no KTAP line skipped" <<<"$(v "$f" 0 reason)"
# A top-level SKIP of an older console (no reason after SKIP) is still kept.
f=$(ed skipnoreason 's/^ok 12 cancel_on_set\r\?$/ok 12 cancel_on_set # SKIP/; s/^\(LEAPTEST RESULT: PASS pass=\)14 fail=0 skip=0/\113 fail=0 skip=1/')
check_eq "a SKIP without a reason: recorded, the verdict unchanged" "cancel_on_set  PASS" \
	"$(v "$f" 0 skip) $(v "$f" 0 verdict)"

finish verdict
