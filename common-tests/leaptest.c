// SPDX-License-Identifier: GPL-2.0
/*
 * leaptest.c - does this kernel get a leap second right?
 *
 * Inserts a leap second at one UTC midnight and deletes one at the next, and
 * checks what 2012 got wrong (absolute CLOCK_REALTIME timers early after the
 * leap: clock_was_set() was not called, see upstream 4873fa070ae8), what 2015
 * got wrong (a timer for 00:00:00 firing during 23:59:60, 833f32d76302), and
 * the leap itself: adjtimex states, the wall clock, TAI and CLOCK_MONOTONIC.
 * Output is KTAP v1; the exit code is kselftest's (0 pass, 1 fail, 4 skip).
 *
 * It sets the clock, so it runs only as PID 1, or a child of PID 1, of a guest
 * booted with "leaptest.harness=1" on the kernel command line, and refuses
 * anywhere else without touching the clock.
 *
 * Build: cc -static -O2 -pthread leaptest.c logic.c report.c sampler.c timers.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"
#include "logic.h"
#include "sampler.h"
#include "report.h"
#include "timers.h"

#define MARKER		"leaptest.harness=1"
#define INSERT_MIDNIGHT	1798761600LL	/* 2027-01-01 00:00:00 UTC */
#define DELETE_MIDNIGHT	(INSERT_MIDNIGHT + 86400)
#define TAI_START	37

/* Top-level tests the harness asked to skip (leaptest.skip=a,b on the command line). */
static char skip_list[256];
/* Leaps in one boot (leaptest.leaps=N): an insertion and a deletion per round. */
#define LEAPS_MAX	1000
static int leaps_wanted = 2;
/* A leap with the second CPU offline (leaptest.hotplug=1). */
static int hotplug_wanted;
/* A leap with the clock set during 23:59:60 (leaptest.set_in_leap=1). */
static int set_in_leap_wanted;

static int guest_only(void)
{
	char buf[4096] = "", leaps[16];
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n > 0)
		buf[n] = '\0';
	if (getpid() != 1 && getppid() != 1) {
		fprintf(stderr, "leaptest: refusing to run: not PID 1 or its child (it sets the clock; run it in the harness's guest: make cell CELL=...)\n");
		return 0;
	}
	cmdline_value(buf, "leaptest.skip=", skip_list, sizeof(skip_list));
	hotplug_wanted = cmdline_has_marker(buf, "leaptest.hotplug=1");
	set_in_leap_wanted = cmdline_has_marker(buf, "leaptest.set_in_leap=1");
	cmdline_value(buf, "leaptest.leaps=", leaps, sizeof(leaps));
	if (leaps[0]) {
		long n = 0;

		if (parse_count(leaps, 1, LEAPS_MAX, &n)) {
			fprintf(stderr, "leaptest: leaptest.leaps=%s: give a number of leaps, 1 to %d\n",
				leaps, LEAPS_MAX);
			return 0;
		}
		leaps_wanted = (int)n;
	}
	if (!cmdline_has_marker(buf, MARKER)) {
		fprintf(stderr, "leaptest: refusing to run: no %s on /proc/cmdline (it sets the clock; run it in the harness's guest: make cell CELL=...)\n", MARKER);
		return 0;
	}
	return 1;
}

static int online_cpus(int *cpus)
{
	cpu_set_t set;
	int n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (int c = 0; c < CPU_SETSIZE && n < MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

static struct threads threads;
/* What probe_cpu() measured on each CPU, in cpus[] order. */
static struct cpu_probe probes[MAX_CPUS];

/* A scenario made ready for another round. */
static void reset_scenario(struct scenario *s)
{
	enum leap_kind kind = s->kind;
	const char *name = s->name;

	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->name = name;
}

static void after_waits_only(struct scenario *s, int ncpu)
{
	start_after_waits(&threads, s->cpu, ncpu, 0);
	if (join_all(&threads)) {
		snprintf(s->err, sizeof(s->err), "cannot start the threads");
		s->failed_setup = 1;
	}
}

static int set_online(int cpu, int on)
{
	char path[64];
	int fd, r;

	mkdir("/sys", 0555);
	mount("sysfs", "/sys", "sysfs", 0, NULL);	/* EBUSY when it is there already */
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	r = write(fd, on ? "1" : "0", 1) == 1 ? 0 : -1;
	close(fd);
	return r;
}

/*
 * Set the clock before @plan's midnight and arm the leap, from the first
 * CPU, up to ARM_TRIES times while the guest stalls past the moment the
 * leap must be armed by.  0: armed (*edge_fd: its 00:00:00 timer); else the
 * scenario has failed its setup, disarmed, with the reason in s->err.
 */
static int arm_with_retries(struct scenario *s, const struct leap_plan *plan, int cpu, int *edge_fd)
{
	int r = 1;

	s->ran = 1;
	pin_to_cpu(cpu);
	for (int try = 0; try < ARM_TRIES && r == 1; try++)
		r = arm_scenario(plan, &s->obs, edge_fd, s->err, sizeof(s->err));
	if (r == 1) {
		int64_t late = s->obs.armed_real_ns - plan->midnight * NSEC_PER_SEC;

		snprintf(s->err, sizeof(s->err),
			 "the %s was armed %d times too late (last at 00:00:00 %+.3f s): the guest stalled, not a kernel fault",
			 s->name, ARM_TRIES, late / 1e9);
		s->harness = 1;
	}
	if (r) {
		s->failed_setup = 1;
		disarm_leap();
	}
	return r;
}

/*
 * One leap: the clock set before its midnight and the leap armed; the waits
 * across it and the second CPU's edge timer started; the leap watched from
 * the first CPU; then the waits after it, all CPUs at once.  @offline: a
 * CPU to take offline once the leap is armed (-1: none).
 */
static void run_scenario(struct scenario *s, const int *cpus, int ncpu, int natural, int offline)
{
	struct leap_plan plan = {
		.kind = s->kind,
		.midnight = s->kind == LEAP_INSERT ? INSERT_MIDNIGHT : DELETE_MIDNIGHT,
		.probe = &probes[0],
	};
	int edge_fd = -1, cancel_fd;
	uint64_t ticks;

	if (arm_with_retries(s, &plan, cpus[0], &edge_fd))
		return;
	/* Offline after the clock was set: only the leap may change its offsets. */
	if (offline >= 0 && set_online(offline, 0)) {
		snprintf(s->skip_why, sizeof(s->skip_why),
			 "cannot take cpu %d offline: %s (no CONFIG_HOTPLUG_CPU?)", offline, strerror(errno));
		disarm_leap();
		return;
	}
	cancel_fd = arm_cancel_on_set(plan.midnight);
	s->cancel_err = cancel_fd < 0 ? errno : 0;
	for (int i = 0; i < ncpu; i++)
		s->cpu[i].cpu = s->span[i].cpu = cpus[i];
	start_span_waits(&threads, s->span, ncpu, s->kind, plan.midnight);
	if (ncpu > 1) {
		s->other.cpu = cpus[1];
		s->other.probe = &probes[1];
		s->other.kind = s->kind;
		s->other.midnight = plan.midnight;
		start_other_cpu(&threads, &s->other);
	}
	sample_leap(&s->obs, edge_fd, &probes[0]);
	/* Started while the waits across the leap may still run. */
	start_after_waits(&threads, s->cpu, ncpu, s->kind == LEAP_INSERT);
	if (join_all(&threads)) {
		snprintf(s->err, sizeof(s->err), "cannot start the threads");
		s->failed_setup = 1;
	}
	/*
	 * The other CPU's adjtimex() reads that say the leap is still to come
	 * count with the sampler's; its other reads prove nothing (a read that
	 * says the leap was applied may come after the step), so only the
	 * sampler's reads in the window are evidence (check_adjtimex()).
	 */
	if (s->other.pending && !s->obs.pending)
		s->obs.pending_adj_ns = s->other.pending_adj_ns;
	s->obs.pending += s->other.pending;
	if (cancel_fd >= 0) {
		s->cancelled = read(cancel_fd, &ticks, sizeof(ticks)) < 0 && errno == ECANCELED;
		close(cancel_fd);
	}
	/* Out of the leap: the natural way (flag cleared, TIME_OK at the next
	 * second) or at once by the STA_PLL reset. */
	if (natural)
		s->obs.back_to_ok_ns = clear_leap_flags();
	disarm_leap();
}

/* A step of the clock an hour ahead after the leaps, then the waits again. */
static void run_step(struct scenario *s, const int *cpus, int ncpu)
{
	struct timespec t;

	s->ran = 1;
	for (int i = 0; i < ncpu; i++)
		s->cpu[i].cpu = cpus[i];
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 3600;
	if (clock_settime(CLOCK_REALTIME, &t)) {
		snprintf(s->err, sizeof(s->err), "cannot step the clock: %s", strerror(errno));
		s->failed_setup = 1;
		return;
	}
	after_waits_only(s, ncpu);
}

/*
 * An insertion with the second CPU offline (taken down once the clock is set
 * and the leap armed): it comes back after the leap, and its CLOCK_REALTIME
 * timers must be on time (its hrtimer base missed the leap's notification;
 * it must refresh its offsets when it starts).
 */
static void run_hotplug(struct scenario *s, const int *cpus, int ncpu)
{
	run_scenario(s, cpus, 1, 0, cpus[1]);
	if (s->skip_why[0])
		return;
	if (set_online(cpus[1], 1)) {
		snprintf(s->err, sizeof(s->err), "cannot bring cpu %d back: %s", cpus[1], strerror(errno));
		s->failed_setup = 1;
		return;
	}
	memset(s->cpu, 0, sizeof(s->cpu));
	for (int i = 0; i < ncpu; i++)
		s->cpu[i].cpu = cpus[i];
	if (!s->failed_setup)
		after_waits_only(s, ncpu);
}

/*
 * An insertion with the clock set an hour ahead during 23:59:60 (as a
 * time daemon stepping the clock might): the timers after it must be on
 * time on every CPU, and the wall clock must then run with MONOTONIC.
 */
static void run_set_in_leap(struct scenario *s, const int *cpus, int ncpu)
{
	struct leap_plan plan = { .kind = LEAP_INSERT, .midnight = INSERT_MIDNIGHT, .probe = &probes[0] };
	struct timespec t, later = ns_ts(1100 * NSEC_PER_MSEC);
	int fd = -1;
	int64_t start, adj;

	if (arm_with_retries(s, &plan, cpus[0], &fd))
		return;
	close(fd);
	start = now_ns(CLOCK_MONOTONIC);
	while (read_adjtimex(&adj) != ST_OOP) {
		if (now_ns(CLOCK_MONOTONIC) - start > SAMPLE_LIMIT_NS) {
			snprintf(s->err, sizeof(s->err), "TIME_OOP never came");
			s->failed_setup = 1;
			disarm_leap();
			return;
		}
	}
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 3600;
	if (clock_settime(CLOCK_REALTIME, &t)) {
		snprintf(s->err, sizeof(s->err), "cannot set the clock during 23:59:60: %s", strerror(errno));
		s->failed_setup = 1;
		disarm_leap();
		return;
	}
	s->obs.off_before_ns = now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < ncpu; i++)
		s->cpu[i].cpu = cpus[i];
	after_waits_only(s, ncpu);
	clock_nanosleep(CLOCK_MONOTONIC, 0, &later, NULL);
	s->obs.off_after_ns = now_ns(CLOCK_REALTIME) - now_ns(CLOCK_MONOTONIC);
	disarm_leap();
}

/* What each leap of a round saw of its window, for the round's line. */
static const char *window_str(const struct scenario *sc)
{
	static char buf[320];
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < NLEAP && used < sizeof(buf); i++) {
		const struct leap_obs *o = &sc[i].obs;
		int64_t b = leap_boundary(o->kind, o->midnight);

		used += snprintf(buf + used, sizeof(buf) - used,
				 "%s%s: %d reads in the window, the step between %+.4f and %+.4f s", i ? "; " : "",
				 sc[i].name, o->window_samples, (o->step_lo_ns - b) / 1e9, (o->step_hi_ns - b) / 1e9);
		if (o->kind == LEAP_INSERT && used < sizeof(buf))
			used += snprintf(buf + used, sizeof(buf) - used, ", cpu %d read %.3f ms into it",
					 sc[i].other.cpu,
					 sc[i].other.edge.window_ns > 0 ? sc[i].other.edge.window_ns / 1e6 : 0.0);
	}
	return buf;
}

/*
 * Whether another round of leaps may bring the evidence @lacking names:
 * adjtimex() reads in the window, or an edge timer's window where some
 * CPU's timers are not tick-bound (another leap cannot untie them).
 */
static int retry_helps(const char *lacking, int ncpu)
{
	int hires = 0;

	for (int i = 0; i < ncpu && i < 2; i++)
		hires |= !probes[i].tick_bound;
	return list_has(lacking, "adjtimex_at_leap") || (list_has(lacking, "leap_edge") && hires);
}

/*
 * leaptest.leaps=N (default 2): N leaps in one boot, an insertion and a
 * deletion per round; odd rounds leave each leap the natural way (the flag
 * cleared, TIME_OK at the next second boundary: the default single round
 * checks it), even ones by the STA_PLL reset.  A round that leaves a check
 * without evidence (no adjtimex() read, no edge timer watched, in the
 * window between the boundary and the step) and failed nothing is followed
 * by another, up to EVIDENCE_ROUNDS more (a round that failed has its
 * verdict; what it did not prove is named, and a buggy kernel's rounds are
 * slow).  A line per round when there is more than one;
 * the KTAP report is a round that failed over one that did not, then the
 * one that lacked the fewest checks' evidence, then the first.
 */
static void run_rounds(struct ktap *k, struct scenario *sc, const int *cpus, int ncpu, int rounds,
		       const struct report_modes *m)
{
	/* kept: the round to report; pool: every round's evidence so far
	 * (merge_evidence()), round pool_round's own and what later ones lent;
	 * cand: kept with the pool's evidence, what the report will say. */
	static struct scenario kept[NSC], pool[NSC], cand[NSC];
	/* A round runs the leaps' scenarios; the copies hold the others as sc
	 * has them, since round_failures() reads every scenario (it read past
	 * copies of NLEAP, and past the data itself where they ended it). */
	const size_t leaps = NLEAP * sizeof(*sc);
	int reported = 0, failed_rounds = 0, kept_lack = -1, extra = 0, kept_failed = 0, pool_round = 0;
	char failed[256], lacking[256], cfailed[256], clacking[256];

	memcpy(kept, sc, sizeof(kept));
	memcpy(pool, sc, sizeof(pool));
	memcpy(cand, sc, sizeof(cand));
	for (int r = 1; r <= rounds + extra; r++) {
		int nlack = 0, more;

		for (int i = 0; i < NLEAP; i++) {
			reset_scenario(&sc[i]);
			run_scenario(&sc[i], cpus, ncpu, r % 2 == 1, -1);
			if (sc[i].harness)
				ktap_line(k, "# leaptest: harness problem: %s", sc[i].err);
		}
		round_failures(sc, ncpu, m, failed, sizeof(failed), lacking, sizeof(lacking));
		for (const char *p = lacking; *p; p++)
			nlack += p == lacking || *p == ',';
		if (failed[0])
			failed_rounds++;
		/* A failed round over a clean one, then the fewer checks lacking. */
		if (kept_lack < 0 || (failed[0] && !kept_failed) ||
		    (!failed[0] == !kept_failed && nlack < kept_lack)) {
			memcpy(kept, sc, leaps);
			reported = r;
			kept_lack = nlack;
			kept_failed = failed[0] != '\0';
		}
		if (!pool_round) {
			memcpy(pool, sc, leaps);
			pool_round = r;
		} else {
			merge_evidence(pool, sc, r, m);
		}
		memcpy(cand, kept, leaps);
		merge_evidence(cand, pool, pool_round, m);
		round_failures(cand, ncpu, m, cfailed, sizeof(cfailed), clacking, sizeof(clacking));
		more = r == rounds + extra && clacking[0] && !kept_failed && extra < EVIDENCE_ROUNDS &&
		       retry_helps(clacking, ncpu);
		if (nlack)
			ktap_line(k, "# leaptest: round %d: no evidence for %s (%s); %s", r, lacking, window_str(sc),
				  more ? "one more round" : clacking[0] ? "no more rounds" :
				  "another round's leaps have it");
		extra += more;
		if (rounds + extra > 1)
			ktap_line(k, "# leaptest: round %d of %d (%s): %s%s", r, rounds + extra,
				  r % 2 ? "left the natural way" : "left by the STA_PLL reset",
				  failed[0] ? "failed: " : "ok", failed);
	}
	memcpy(sc, cand, leaps);
	if (rounds + extra > 1)
		ktap_line(k, "# leaptest: %d leaps, %d of %d rounds failed; reported below: round %d%s",
			  2 * (rounds + extra), failed_rounds, rounds + extra, reported,
			  memcmp(cand, kept, leaps) ? ", with evidence its leaps lacked from another round's" : "");
}

int main(void)
{
	static struct scenario sc[NSC] = {
		[SC_INSERT] = { .kind = LEAP_INSERT, .name = "insert" },
		[SC_DELETE] = { .kind = LEAP_DELETE, .name = "delete" },
		[SC_STEP] = { .name = "step" },
		[SC_HOTPLUG] = { .kind = LEAP_INSERT, .name = "hotplug" },
		[SC_SET_IN_LEAP] = { .kind = LEAP_INSERT, .name = "set_in_leap" },
	};
	struct ktap k = { .out = stdout };
	struct timespec res = { 0 }, t0, t1;
	int cpus[MAX_CPUS], ncpu, rounds;
	char skip[128] = "", unproven[256] = "";
	struct report_modes modes;

	if (!guest_only())
		return 2;
	modes = (struct report_modes){ .skip = skip_list, .hotplug = hotplug_wanted,
				       .set_in_leap = set_in_leap_wanted, .probes = probes };

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ktap_header(&k, planned_tests(&modes));
	ncpu = online_cpus(cpus);
	rounds = (leaps_wanted + 1) / 2;
	clock_getres(CLOCK_REALTIME, &res);
	ktap_line(&k, "# leaptest: cpus=%d clock_realtime_res_ns=%ld leaps=%d%s%s", ncpu, res.tv_nsec,
		  2 * rounds, hotplug_wanted ? " hotplug=1" : "", set_in_leap_wanted ? " set_in_leap=1" : "");
	/*
	 * clock_getres() is printed, never trusted (arm64's vDSO answers 1 ns
	 * whatever the timers do): each CPU's tick and how late its short
	 * sleeps wake are measured, and the checks decide from those.
	 */
	for (int i = 0; i < ncpu; i++) {
		char line[200];

		probes[i].cpu = cpus[i];
		pin_to_cpu(cpus[i]);
		probe_cpu(&probes[i]);
		probe_str(&probes[i], line, sizeof(line));
		ktap_line(&k, "# leaptest: probe %s", line);
		if (probes[i].tick_bound)
			ktap_line(&k, "# leaptest: timers tick-bound on cpu %d: %.3f ms sleeps wake %.3f ms late (tick %.3f ms): no timer can fire between a leap's boundary and the tick that applies it",
				  cpus[i], PROBE_SLEEP_NS / 1e6, probes[i].late_ns / 1e6, probes[i].tick_ns / 1e6);
		if (!probes[i].tick_ns)
			ktap_line(&k, "# leaptest: no tick seen on cpu %d in %.0f ms: the leap's boundary is not placed mid-tick",
				  cpus[i], PROBE_TICK_MAX_NS / 1e6);
	}
	if (ncpu < 2)
		snprintf(skip, sizeof(skip), "only %d CPU online: the hrtimer bases are per CPU", ncpu);
	if (skip[0]) {
		for (int i = 0; i < planned_tests(&modes); i++)
			ktap_result(&k, KTAP_SKIP, "leap", skip);
		return ktap_finish(&k, "");
	}

	block_timer_signals();
	if (set_tai_offset(TAI_START))
		ktap_line(&k, "# cannot set the TAI offset: %s", strerror(errno));
	run_rounds(&k, sc, cpus, ncpu, rounds, &modes);
	run_step(&sc[SC_STEP], cpus, ncpu);
	if (hotplug_wanted) {
		run_hotplug(&sc[SC_HOTPLUG], cpus, ncpu);
		if (sc[SC_HOTPLUG].harness)
			ktap_line(&k, "# leaptest: harness problem: %s", sc[SC_HOTPLUG].err);
	}
	if (set_in_leap_wanted) {
		run_set_in_leap(&sc[SC_SET_IN_LEAP], cpus, ncpu);
		if (sc[SC_SET_IN_LEAP].harness)
			ktap_line(&k, "# leaptest: harness problem: %s", sc[SC_SET_IN_LEAP].err);
	}

	report_all(&k, sc, ncpu, &modes, unproven, sizeof(unproven));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ktap_line(&k, "# leaptest: guest_seconds=%.2f", (ts_ns(&t1) - ts_ns(&t0)) / 1e9);
	return ktap_finish(&k, unproven);
}
