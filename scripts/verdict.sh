#!/bin/bash
# verdict.sh - a cell's verdict, from what the guest printed.
#
# Usage: verdict.sh CONSOLE_LOG QEMU_EXIT_CODE [KILLER_SPLAT]
#
# Prints key=value lines: verdict, reason, failed (KTAP tests that failed),
# passed (the top-level KTAP tests that were ok, not skipped),
# unproven (the essential tests the leap test did not prove: skipped, for
# lack of evidence or because the harness asked; its result line names
# them), skip (one line per top-level test skipped: "NAME REASON"), probe
# (one line per CPU the leap test measured: "CPU TICK_MS LATE_MS TIMERS",
# TICK_MS "-" where it saw no tick), window (one line per leap of the
# reported round: "insert|delete READS", the sampler's reads between the
# boundary and the step), leaps_run (the leaps the guest ran, retries too),
# wakeups_per_s (the highest per CPU after the insert), early, late (timer
# waits), edge, modes (what the leap test ran: "leaps=2", plus "hotplug=1",
# "set_in_leap=1", "tick-bound" when it measured timers bound to the tick on
# a CPU), rounds (with more than one
# round of leaps, each round's failed checks, "ok" for a round that failed
# none, the rounds separated by ";") and, given a mutant's
# KILLER_SPLAT (an extended regex), killer_splat_seen: true when a line of
# the console from the leap test's start matches it (a splat at boot is no
# kill).  Verdicts, strongest first:
#   BOOTFAIL  the leap test never started (the last console lines are the reason)
#   SPLAT     a kernel BUG/WARNING/lockdep report/oops/panic/stall on the console
#             (the reason says when the guest then hung and was killed, and
#             when the splat came before the leap test started: then also
#             the first one during the test, which a boot-time splat hides)
#   PASS, FAIL, SKIP  the leap test's own result line, when it agrees with
#             the KTAP lines (the plan, each test's ok/not ok, the counts, its
#             unproven tests among the skipped ones) and the guest did not
#             hang after it; else ERROR, saying where.  A PASS with unproven
#             tests says so in its reason: it proves only what was seen.
#   TIMEOUT   no result, and run-qemu.sh killed the guest as hung (QEMU_EXIT_CODE
#             124): at the time limit, or silent too long (its note ends the log)
#   ERROR     the guest stopped without a result for another reason, or the
#             leap test says the harness failed (a leap armed too late by a
#             stalled guest): no verdict on the kernel
set -eu

case $# in 2 | 3) ;; *) echo "usage: verdict.sh CONSOLE_LOG QEMU_EXIT_CODE [KILLER_SPLAT]" >&2; exit 2 ;; esac
log=$1 rc=$2 kre=${3:-}
[ -f "$log" ] || { echo "verdict=ERROR"; echo "reason=no console log at $log"; exit 0; }

tr -d '\r' <"$log" | awk -v rc="$rc" -v kre="$kre" '
	function kv(k, v) { printf "%s=%s\n", k, v }
	{ lines[NR % 8] = $0; n = NR }
	/leapinit: (running|hanging)|^KTAP version 1/ { started = 1 }
	/(^|[^A-Za-z])(BUG|WARNING):|kernel BUG at|invalid opcode:|Kernel panic|Oops|general protection fault|Unable to handle kernel|inconsistent lock state|possible (recursive|circular) locking|blocked for more than [0-9]+ seconds|detected (expedited )?stalls?|self-detected stall|Watchdog detected hard LOCKUP|UBSAN:|list_(add|del) corruption/ {
		# The first splat; if it came before the leap test started (a kernel
		# that warns at boot), also the first one after.
		if (!splat) { splat = $0; splat_first = !started }
		else if (splat_first && started && !splat_after) splat_after = $0
	}
	# The splat a mutant is killed by counts from the start of the test only.
	kre != "" && started && $0 ~ kre { kseen = 1 }
	/^# leaptest: harness problem: / { if (!harness) harness = substr($0, 30) }
	/^run-qemu: no console output for [0-9]+ s/ { hung = "silent for " $6 " s, killed"; if (result) hung_after = 1 }
	/LEAPTEST RESULT: (PASS|FAIL|SKIP)/ {
		match($0, /LEAPTEST RESULT: [A-Z]+/); result = substr($0, RSTART + 17, RLENGTH - 17)
		for (i = 1; i <= NF; i++) if ($i ~ /^(pass|fail|skip)=[0-9]+$/) { split($i, kvp, "="); said[kvp[1]] = kvp[2] + 0 }
		for (i = 1; i <= NF; i++) if ($i ~ /^unproven=[a-z0-9_,]+$/) unproven = substr($i, 10)
	}
	# A top-level SKIP and its reason (the record keeps both).
	/^ok [0-9]+ [a-z0-9_]+ # SKIP/ {
		why = $0; sub(/^ok [0-9]+ [a-z0-9_]+ # SKIP ?/, "", why)
		nskip++; skip_name[nskip] = $3; skip_why[nskip] = why; skipped[$3] = why
	}
	# The top-level KTAP plan and results, to check the result line against.
	/^1\.\.[0-9]+$/ && plan == "" { plan = substr($0, 4) + 0 }
	/^ok [0-9]+ / { tests++; if ($0 ~ / # SKIP/) skips++; else { passes++; passed = passed (passed ? "," : "") $3 } }
	/^not ok [0-9]+ / { tests++; fails++; failed = failed (failed ? "," : "") $4 }
	/# wakeups_per_s cpu=/ { for (i = 1; i <= NF; i++) if ($i ~ /^value=/) { v = substr($i, 7) + 0; if (v > wps) wps = v; seen_wps = 1 } }
	/# timer scenario=.* early$/ { early++ }
	/# timer scenario=.* late$/ { late++ }
	/^# leap_edge: / { edge = substr($0, 14) }
	# The modes the test ran (leaptest.leaps=, .hotplug=1, .set_in_leap=1, highres=off).
	/^# leaptest: cpus=/ { for (i = 3; i <= NF; i++) if ($i !~ /^(cpus|clock_realtime_res_ns)=/) modes = modes (modes ? " " : "") $i }
	/^# leaptest: timers tick-bound on cpu / { tickbound = 1 }
	# What the probe measured, per CPU, and the reads of the sampler in each window.
	/^# leaptest: probe cpu=[0-9]+ / {
		pcpu = $4; sub(/^cpu=/, "", pcpu); ptick = "-"; plate = ""; ptm = ""
		for (i = 5; i <= NF; i++) {
			if ($i ~ /^tick_ms=/) { ptick = $i; sub(/^tick_ms=/, "", ptick) }
			if ($i ~ /^sleep_late_ms=/) { plate = $i; sub(/^sleep_late_ms=/, "", plate) }
			if ($i ~ /^timers=/) { ptm = $i; sub(/^timers=/, "", ptm) }
		}
		probes = probes (probes ? "\n" : "") pcpu " " ptick " " plate " " ptm
	}
	/^    # (insert|delete): [0-9]+ samples between / { w = $2; sub(/:$/, "", w); windows = windows (windows ? "\n" : "") w " " $3 }
	/^# leaptest: cpus=/ { for (i = 3; i <= NF; i++) if ($i ~ /^leaps=[0-9]+$/) leaps_run = substr($i, 7) + 0 }
	/^# leaptest: [0-9]+ leaps, [0-9]+ of [0-9]+ rounds failed/ { leaps_run = $3 + 0 }
	# Each round of leaps: "... round R of N (how it was left): ok" or "failed: a,b".
	/^# leaptest: round [0-9]+ of [0-9]+ \(.*\): (ok|failed: [a-z0-9_,]+)$/ {
		r = $0; sub(/^.*\): /, "", r); sub(/^failed: /, "", r)
		rounds = rounds (rounds != "" ? ";" : "") r
	}
	END {
		if (!hung) hung = "killed at the time limit"
		if (!started) {
			tail = ""
			for (i = n - 7; i <= n; i++) if (i > 0) tail = tail (tail ? " | " : "") lines[i % 8]
			verdict = "BOOTFAIL"; reason = "the leap test never started; last lines: " (tail ? tail : "(console empty)")
		} else if (splat) {
			verdict = "SPLAT"; reason = (splat_first ? "before the leap test started: " : "") splat \
				(splat_after ? "; during it: " splat_after : "") (rc == 124 && !result ? " (then hung: " hung ")" : "")
		} else if (harness) {
			verdict = "ERROR"; reason = "harness problem: " harness
		} else if (result) {
			verdict = result; reason = result == "PASS" ? "all checks passed" : (result == "SKIP" ? "preconditions not met" : "failed: " failed)
			if (result == "PASS" && unproven != "") {
				split(unproven, un, ","); reason = "passed what it saw; unproven:"
				for (i = 1; i in un; i++) reason = reason (i > 1 ? ";" : "") " " un[i] " (" (un[i] in skipped ? skipped[un[i]] : "not skipped") ")"
			}
			# The result line must agree with the KTAP lines before it and
			# with how the guest ended; any disagreement is no verdict.
			bad = ""
			if (plan == "") bad = "no KTAP plan line"
			else if (tests != plan) bad = tests + 0 " of the planned " plan " tests reported"
			else if (result == "PASS" && fails) bad = "tests not ok: " failed
			else if (result == "FAIL" && !fails) bad = "no test is not ok"
			else if (said["pass"] != passes + 0 || said["fail"] != fails + 0 || said["skip"] != skips + 0)
				bad = "the result line counts pass=" said["pass"] + 0 " fail=" said["fail"] + 0 " skip=" said["skip"] + 0 \
				      ", the KTAP lines " passes + 0 "/" fails + 0 "/" skips + 0
			else if (hung_after) bad = "the guest then went silent and was killed"
			else if (unproven != "") {
				split(unproven, un, ",")
				for (i = 1; i in un; i++) if (!(un[i] in skipped)) { bad = "it names " un[i] " unproven, which no KTAP line skipped"; break }
			}
			if (bad) { verdict = "ERROR"; reason = "the result line says " result " but " bad }
		} else if (rc == 124) {
			verdict = "TIMEOUT"; reason = "no result: hung guest, " hung
		} else {
			verdict = "ERROR"; reason = "the guest stopped without a result (qemu exit " rc ")"
		}
		gsub(/[^ -~]/, "?", reason)
		kv("verdict", verdict); kv("reason", reason); kv("failed", failed); kv("passed", passed)
		kv("wakeups_per_s", seen_wps ? wps : ""); kv("early", early + 0); kv("late", late + 0); kv("edge", edge)
		kv("modes", modes (tickbound ? (modes ? " " : "") "tick-bound" : "")); kv("rounds", rounds)
		kv("unproven", verdict == "PASS" || verdict == "FAIL" ? unproven : "")
		for (i = 1; i <= nskip; i++) { w = skip_why[i]; gsub(/[^ -~]/, "?", w); kv("skip", skip_name[i] " " w) }
		n = split(probes, pl, "\n"); for (i = 1; i <= n; i++) kv("probe", pl[i])
		n = split(windows, wl, "\n"); for (i = 1; i <= n; i++) kv("window", wl[i])
		kv("leaps_run", leaps_run)
		if (kre != "") kv("killer_splat_seen", kseen ? "true" : "false")
	}'
