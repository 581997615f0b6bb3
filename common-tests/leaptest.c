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
 * Build: cc -static -O2 -pthread leaptest.c logic.c sampler.c timers.c
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
#include "timers.h"

#define MARKER		"leaptest.harness=1"
/*
 * glibc waits on a condvar's absolute deadline with FUTEX_WAIT_BITSET |
 * FUTEX_CLOCK_REALTIME; musl converts it to a relative FUTEX_WAIT, which no
 * CLOCK_REALTIME base offset can make early.
 */
#ifdef __GLIBC__
#define COND_WAITS_ON_REALTIME 1
#else
#define COND_WAITS_ON_REALTIME 0
#endif
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

static int skipped(struct ktap *k, const char *name)
{
	if (!list_has(skip_list, name))
		return 0;
	ktap_result(k, KTAP_SKIP, name, "not covered by this branch's series (leaptest.skip)");
	return 1;
}

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

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The two leaps, then a clock step after them (as LTP's leapsec01 does);
 * then, when asked for, a leap with the second CPU offline
 * (leaptest.hotplug=1) and one with the clock set during 23:59:60
 * (leaptest.set_in_leap=1).
 */
enum { SC_INSERT, SC_DELETE, NLEAP, SC_STEP = NLEAP, SC_HOTPLUG, SC_SET_IN_LEAP, NSC };

struct scenario {
	enum leap_kind kind;
	const char *name;
	struct leap_obs obs;
	struct cpu_result cpu[MAX_CPUS];	/* the waits after it */
	struct span_result span[MAX_CPUS];	/* the waits across it */
	struct other_cpu other;			/* the second CPU: edge timer, adjtimex */
	int cancel_err;				/* arming the cancel-on-set timerfd */
	int cancelled;				/* it read ECANCELED after the leap */
	char err[200];
	char skip_why[120];	/* the kernel cannot run this scenario */
	int ran;
	int failed_setup;
	int harness;		/* the failure is the guest's stall, not the kernel */
};

static struct threads threads;

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
		s->other.kind = s->kind;
		s->other.midnight = plan.midnight;
		start_other_cpu(&threads, &s->other);
	}
	sample_leap(&s->obs, edge_fd);
	/* Started while the waits across the leap may still run. */
	start_after_waits(&threads, s->cpu, ncpu, s->kind == LEAP_INSERT);
	if (join_all(&threads)) {
		snprintf(s->err, sizeof(s->err), "cannot start the threads");
		s->failed_setup = 1;
	}
	/* The other CPU's adjtimex() reads count with the sampler's. */
	s->obs.window_samples += s->other.window;
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
	struct leap_plan plan = { .kind = LEAP_INSERT, .midnight = INSERT_MIDNIGHT };
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

typedef int (*check_fn)(enum leap_kind, const struct leap_obs *, char *, size_t);

/* A top-level test: its name and how it reports on the scenarios. */
struct top_test {
	const char *name;
	void (*report)(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu);
	check_fn check;		/* report_obs(): the check applied to each scenario */
	const int *mode;	/* run only when this mode is on (NULL: always) */
	int sc;			/* report_timers(): the scenario */
};

static int check_mono_kind(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len)
{
	(void)kind;
	return check_monotonic(o, why, len);
}

/* One top-level test with a subtest per scenario. */
static void report_obs(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	enum ktap_res all = KTAP_SKIP;
	char why[200];

	(void)ncpu;
	if (skipped(k, t->name))
		return;
	ktap_sub_begin(k, t->name, NLEAP);
	for (int i = 0; i < NLEAP; i++) {
		enum ktap_res r;

		if (sc[i].failed_setup) {
			ktap_line(k, "    # %s: %s", sc[i].name, sc[i].err);
			r = KTAP_FAIL;
		} else {
			r = t->check(sc[i].kind, &sc[i].obs, why, sizeof(why)) ? KTAP_PASS : KTAP_FAIL;
			ktap_line(k, "    # %s: %s", sc[i].name, why);
		}
		ktap_sub_result(k, r, sc[i].name, "");
		all = ktap_worst(all, r);
	}
	ktap_result(k, all, t->name, "");
}

static void report_timers(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *s = &sc[t->sc];
	enum ktap_res all = KTAP_SKIP;

	if (skipped(k, t->name))
		return;
	if (s->skip_why[0]) {
		ktap_result(k, KTAP_SKIP, t->name, s->skip_why);
		return;
	}
	ktap_sub_begin(k, t->name, NIFACE);
	for (int i = 0; i < NIFACE; i++) {
		enum ktap_res r = s->failed_setup ? KTAP_FAIL : KTAP_PASS;

		if (i == IF_COND && !COND_WAITS_ON_REALTIME) {
			/* A check that cannot fail is reported as such. */
			ktap_sub_result(k, KTAP_SKIP, iface_names[i],
					"this libc turns the deadline into a relative FUTEX_WAIT: no CLOCK_REALTIME timer");
			continue;
		}

		for (int c = 0; c < ncpu && !s->failed_setup; c++) {
			const struct cpu_result *cr = &s->cpu[c];
			enum wait_class w = classify_wait(TIMER_WAIT_NS, cr->elapsed_ns[i], cr->woke_ns[i],
							  cr->err[i]);

			ktap_line(k, "    # timer scenario=%s iface=%s cpu=%d want_ms=%lld got_ms=%.3f woke_ms=%+.3f %s",
				  s->name, iface_names[i], cr->cpu, TIMER_WAIT_NS / NSEC_PER_MSEC,
				  cr->elapsed_ns[i] / 1e6, cr->woke_ns[i] / 1e6, wait_class_name(w));
			if (w != WAIT_ON_TIME)
				r = KTAP_FAIL;
		}
		ktap_sub_result(k, r, iface_names[i], "");
		all = ktap_worst(all, r);
	}
	ktap_result(k, all, t->name, "");
}

static void report_load(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *s = &sc[SC_INSERT];
	enum ktap_res r = s->failed_setup ? KTAP_FAIL : KTAP_PASS;

	if (skipped(k, t->name))
		return;
	for (int c = 0; c < ncpu && !s->failed_setup; c++) {
		const struct cpu_result *cr = &s->cpu[c];
		long per_s;

		if (load_too_high(cr->wakeups, cr->load_ns, &per_s) || cr->load_errors)
			r = KTAP_FAIL;
		ktap_line(k, "# wakeups_per_s cpu=%d value=%ld errors=%ld max=%d",
			  cr->cpu, per_s, cr->load_errors, LOAD_MAX_PER_S);
	}
	ktap_result(k, r, t->name, "");
}

static void report_control(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	enum ktap_res r = KTAP_PASS;

	if (skipped(k, t->name))
		return;
	for (int i = 0; i < NSC; i++)
		for (int c = 0; c < ncpu && sc[i].ran && !sc[i].skip_why[0] && !sc[i].failed_setup; c++) {
			const struct cpu_result *cr = &sc[i].cpu[c];
			/* A relative monotonic sleep: its deadline is on MONOTONIC. */
			enum wait_class w = classify_wait(TIMER_WAIT_NS, cr->control_ns,
							  cr->control_ns - TIMER_WAIT_NS, cr->control_err);

			/* Only the host can make a relative monotonic sleep late:
			 * noted, not held against the kernel.  Early or failed is. */
			ktap_line(k, "# control scenario=%s cpu=%d relative_monotonic_ms=%.3f %s%s",
				  sc[i].name, cr->cpu, cr->control_ns / 1e6, wait_class_name(w),
				  w == WAIT_LATE ? " (host noise, not a fault)" : "");
			if (w == WAIT_EARLY || w == WAIT_ERROR)
				r = KTAP_FAIL;
		}
	ktap_result(k, r, t->name, "");
}

/* The waits across one leap: a subtest per kind of wait, a line per CPU. */
static void report_span(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *s = &sc[t->sc];
	enum ktap_res all = KTAP_SKIP;

	if (skipped(k, t->name))
		return;
	ktap_sub_begin(k, t->name, NSPAN);
	for (int i = 0; i < NSPAN; i++) {
		enum ktap_res r = s->failed_setup ? KTAP_FAIL : KTAP_PASS;
		int unsupported = 0;

		for (int c = 0; c < ncpu && !s->failed_setup && (i != SP_ITIMER || c == 0); c++) {
			const struct span_wait *w = &s->span[c].w[i];
			enum wait_class wc = classify_span(i, w);

			ktap_line(k, "    # span scenario=%s wait=%s cpu=%d want_ms=%.3f got_ms=%.3f woke_ms=%+.3f %s",
				  s->name, span_names[i], s->span[c].cpu, w->want_ns / 1e6, w->got_ns / 1e6,
				  w->woke_ns / 1e6, wait_class_name(wc));
			if (wc == WAIT_UNSUPPORTED)
				unsupported = 1;
			else if (wc != WAIT_ON_TIME)
				r = KTAP_FAIL;
		}
		if (unsupported && r == KTAP_PASS) {
			ktap_sub_result(k, KTAP_SKIP, span_names[i], "this kernel has no such clock (EINVAL)");
			continue;
		}
		ktap_sub_result(k, r, span_names[i], "");
		all = ktap_worst(all, r);
	}
	ktap_result(k, all, t->name, "");
}

/* A cancel-on-set timerfd (systemd's clock-change watch) sees each leap. */
static void report_cancel(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	enum ktap_res all = KTAP_SKIP;

	(void)ncpu;
	if (skipped(k, t->name))
		return;
	ktap_sub_begin(k, t->name, NLEAP);
	for (int i = 0; i < NLEAP; i++) {
		struct scenario *s = &sc[i];
		enum ktap_res r = KTAP_FAIL;

		if (s->failed_setup) {
			ktap_line(k, "    # %s: %s", s->name, s->err);
		} else if (s->cancel_err == EINVAL) {
			ktap_sub_result(k, KTAP_SKIP, s->name, "no TFD_TIMER_CANCEL_ON_SET on this kernel (before 3.0)");
			continue;
		} else if (s->cancel_err) {
			ktap_line(k, "    # %s: cannot arm the timerfd: %s", s->name, strerror(s->cancel_err));
		} else {
			ktap_line(k, "    # %s: TFD_TIMER_CANCEL_ON_SET timerfd %s", s->name,
				  s->cancelled ? "cancelled by the leap (ECANCELED)" : "not cancelled by the leap");
			r = s->cancelled ? KTAP_PASS : KTAP_FAIL;
		}
		ktap_sub_result(k, r, s->name, "");
		all = ktap_worst(all, r);
	}
	ktap_result(k, all, t->name, "");
}

static enum ktap_res edge_subtest(struct ktap *k, const char *name, const struct scenario *s,
				  const struct edge_obs *e, const char *extra)
{
	enum ktap_res r = KTAP_FAIL;
	char why[200];

	if (s->failed_setup) {
		ktap_line(k, "    # %s: %s", name, s->err);
	} else {
		r = check_edge(s->kind, s->obs.midnight, e, why, sizeof(why)) ? KTAP_PASS : KTAP_FAIL;
		ktap_line(k, "    # %s: %s%s", name, why, extra);
	}
	ktap_sub_result(k, r, name, "");
	return r;
}

/* Timers for 00:00:00: on the sampler's CPU at each leap, and on the second
 * CPU (its own tick, adjtimex writes meanwhile) at the insertion. */
static void report_edge(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *ins = &sc[SC_INSERT];
	const struct other_cpu *o = &ins->other;
	enum ktap_res all;
	char name[32], extra[128];

	(void)ncpu;
	if (skipped(k, t->name))
		return;
	ktap_sub_begin(k, t->name, 3);
	all = edge_subtest(k, "insert", ins, &ins->obs.edge, "");
	snprintf(name, sizeof(name), "insert_cpu%d", o->cpu);
	if (o->err)
		snprintf(extra, sizeof(extra), "; cannot run on cpu %d: %s", o->cpu, strerror(o->err));
	else
		snprintf(extra, sizeof(extra), "; %ld adjtimex writes meanwhile, %ld failed",
			 o->writes, o->write_errors);
	if (o->err || o->write_errors) {
		ktap_line(k, "    # %s: %s", name, extra + 2);
		ktap_sub_result(k, KTAP_FAIL, name, "");
		all = KTAP_FAIL;
	} else {
		all = ktap_worst(all, edge_subtest(k, name, ins, &o->edge, extra));
	}
	all = ktap_worst(all, edge_subtest(k, "delete", &sc[SC_DELETE], &sc[SC_DELETE].obs.edge, ""));
	ktap_result(k, all, t->name, "");
}

static void report_set_in_leap(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *s = &sc[SC_SET_IN_LEAP];
	enum ktap_res r = KTAP_FAIL;
	char why[200];

	(void)ncpu;
	if (skipped(k, t->name))
		return;
	if (s->failed_setup) {
		ktap_line(k, "# set_in_leap: %s", s->err);
	} else {
		r = check_set_in_leap(&s->obs, why, sizeof(why)) ? KTAP_PASS : KTAP_FAIL;
		ktap_line(k, "# set_in_leap: %s", why);
	}
	ktap_result(k, r, t->name, "");
}

/* The top-level tests in run order; the KTAP plan counts them. */
static const struct top_test tests[] = {
	{ .name = "leap_states", .report = report_obs, .check = check_states },
	{ .name = "wall_clock_sequence", .report = report_obs, .check = check_wall_sequence },
	{ .name = "tai_offset", .report = report_obs, .check = check_tai },
	{ .name = "monotonic_continuity", .report = report_obs, .check = check_mono_kind },
	{ .name = "timers_after_insert", .report = report_timers, .sc = SC_INSERT },
	{ .name = "timers_after_delete", .report = report_timers, .sc = SC_DELETE },
	{ .name = "load_after_insert", .report = report_load },
	{ .name = "leap_edge", .report = report_edge },
	{ .name = "adjtimex_at_leap", .report = report_obs, .check = check_adjtimex },
	{ .name = "timers_across_insert", .report = report_span, .sc = SC_INSERT },
	{ .name = "timers_across_delete", .report = report_span, .sc = SC_DELETE },
	{ .name = "cancel_on_set", .report = report_cancel },
	{ .name = "timers_after_step", .report = report_timers, .sc = SC_STEP },
	{ .name = "timers_after_hotplug", .report = report_timers, .sc = SC_HOTPLUG, .mode = &hotplug_wanted },
	{ .name = "clock_set_in_leap", .report = report_set_in_leap, .mode = &set_in_leap_wanted },
	{ .name = "timers_after_set_in_leap", .report = report_timers, .sc = SC_SET_IN_LEAP,
	  .mode = &set_in_leap_wanted },
	{ .name = "control_monotonic", .report = report_control },
};

/* The tests this run reports: those of the modes asked for, and the rest. */
static int planned_tests(void)
{
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(tests); i++)
		n += !tests[i].mode || *tests[i].mode;
	return n;
}

/* The tests one round failed, by a silent report (the step runs once, last). */
static void round_failures(struct scenario *sc, int ncpu, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		struct ktap quiet = { .out = NULL };

		if ((tests[i].report == report_timers && tests[i].sc == SC_STEP) || tests[i].mode)
			continue;
		tests[i].report(&quiet, &tests[i], sc, ncpu);
		if (quiet.fail && used < len)
			used += snprintf(buf + used, len - used, "%s%s", used ? "," : "", tests[i].name);
	}
}

/*
 * leaptest.leaps=N (default 2): N leaps in one boot, an insertion and a
 * deletion per round; odd rounds leave each leap the natural way (the flag
 * cleared, TIME_OK at the next second boundary: the default single round
 * checks it), even ones by the STA_PLL reset.  One line per round; the KTAP report is the first
 * round that failed, or the last one.
 */
static void run_rounds(struct ktap *k, struct scenario *sc, const int *cpus, int ncpu, int rounds)
{
	static struct scenario kept[NLEAP];
	int reported = 0, failed_rounds = 0;
	char failed[256];

	for (int r = 1; r <= rounds; r++) {
		for (int i = 0; i < NLEAP; i++) {
			reset_scenario(&sc[i]);
			run_scenario(&sc[i], cpus, ncpu, r % 2 == 1, -1);
			if (sc[i].harness)
				ktap_line(k, "# leaptest: harness problem: %s", sc[i].err);
		}
		if (rounds == 1)
			return;
		round_failures(sc, ncpu, failed, sizeof(failed));
		ktap_line(k, "# leaptest: round %d of %d (%s): %s%s", r, rounds,
			  r % 2 ? "left the natural way" : "left by the STA_PLL reset",
			  failed[0] ? "failed: " : "ok", failed);
		if (failed[0])
			failed_rounds++;
		if (!reported && (failed[0] || r == rounds)) {
			memcpy(kept, sc, sizeof(kept));
			reported = r;
		}
	}
	memcpy(sc, kept, sizeof(kept));
	ktap_line(k, "# leaptest: %d leaps, %d of %d rounds failed; reported below: round %d",
		  2 * rounds, failed_rounds, rounds, reported);
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
	char skip[128] = "";

	if (!guest_only())
		return 2;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ktap_header(&k, planned_tests());
	ncpu = online_cpus(cpus);
	rounds = (leaps_wanted + 1) / 2;
	clock_getres(CLOCK_REALTIME, &res);
	ktap_line(&k, "# leaptest: cpus=%d clock_realtime_res_ns=%ld leaps=%d%s%s", ncpu, res.tv_nsec,
		  2 * rounds, hotplug_wanted ? " hotplug=1" : "", set_in_leap_wanted ? " set_in_leap=1" : "");
	/*
	 * Low-resolution mode (highres=off) runs every check: its hrtimers
	 * expire from the tick, by the same per-CPU offsets (refreshed by the
	 * clock-was-set sequence on 6.1), and a tick is far inside every
	 * margin (early 5 ms by the deadline's own clock, late 500 ms).
	 */
	if (res.tv_sec || res.tv_nsec != 1)
		ktap_line(&k, "# leaptest: low-resolution mode: timers expire on the tick (%ld ns)", res.tv_nsec);
	if (ncpu < 2)
		snprintf(skip, sizeof(skip), "only %d CPU online: the hrtimer bases are per CPU", ncpu);
	if (skip[0]) {
		for (int i = 0; i < planned_tests(); i++)
			ktap_result(&k, KTAP_SKIP, "leap", skip);
		return ktap_finish(&k);
	}

	block_timer_signals();
	if (set_tai_offset(TAI_START))
		ktap_line(&k, "# cannot set the TAI offset: %s", strerror(errno));
	run_rounds(&k, sc, cpus, ncpu, rounds);
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

	for (size_t i = 0; i < ARRAY_SIZE(tests); i++)
		if (!tests[i].mode || *tests[i].mode)
			tests[i].report(&k, &tests[i], sc, ncpu);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ktap_line(&k, "# leaptest: guest_seconds=%.2f", (ts_ns(&t1) - ts_ns(&t0)) / 1e9);
	return ktap_finish(&k);
}
