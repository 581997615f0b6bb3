// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the leap test's report: one KTAP top-level test per check, a
 * subtest per scenario, interface or wait, and the metric lines the harness
 * reads (wakeups_per_s, timer, span, control).  Pure: it prints what the
 * scenarios hold (test_report.c drives it with made-up ones).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
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

enum { MODE_ALWAYS, MODE_HOTPLUG, MODE_SET_IN_LEAP };

/* The modes of the run being reported (report_all(), round_failures()). */
static const struct report_modes *modes;
/* The top-level tests of the report so far that were skipped for lack of
 * evidence (nodata), and the essential ones skipped for any reason. */
static char nodata[256], unproven[256];

/* A check's result (enum check_res) as KTAP's. */
static enum ktap_res ktap_of(int r)
{
	return r == CHECK_PASS ? KTAP_PASS : r == CHECK_NODATA ? KTAP_SKIP : KTAP_FAIL;
}

static void add_name(char *list, size_t len, const char *name)
{
	size_t used = strlen(list);

	if (!list_has(list, name) && used < len)
		snprintf(list + used, len - used, "%s%s", used ? "," : "", name);
}

typedef int (*check_fn)(enum leap_kind, const struct leap_obs *, char *, size_t);

/* A top-level test: its name and how it reports on the scenarios. */
struct top_test {
	const char *name;
	void (*report)(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu);
	check_fn check;		/* report_obs(): the check applied to each scenario (enum check_res) */
	int mode;		/* run only when this mode is on (MODE_ALWAYS: always) */
	int sc;			/* report_timers(): the scenario */
	int essential;		/* what a PASS claims rests on it (docs/leap-test.md) */
};

/* @t's top-level result; a SKIP says why.  @lacking: skipped for lack of
 * evidence (a round of leaps may be tried again for it). */
static void top_result(struct ktap *k, const struct top_test *t, enum ktap_res r, const char *why, int lacking)
{
	if (r == KTAP_SKIP && lacking)
		add_name(nodata, sizeof(nodata), t->name);
	if (r == KTAP_SKIP && t->essential)
		add_name(unproven, sizeof(unproven), t->name);
	ktap_result(k, r, t->name, why);
}

static int skipped(struct ktap *k, const struct top_test *t)
{
	if (!list_has(modes->skip, t->name))
		return 0;
	top_result(k, t, KTAP_SKIP, "not covered by this branch's series (leaptest.skip)", 0);
	return 1;
}

static int check_mono_kind(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len)
{
	(void)kind;
	return check_monotonic(o, why, len);
}

static int check_adjtimex_kind(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len)
{
	return (int)check_adjtimex(kind, o, why, len);
}

/*
 * A subtest's result into its parent's: the worst, except that a part
 * without evidence leaves the parent without it too (a SKIP, naming that
 * part) unless another part failed.  @lack: the first such part's reason.
 */
static enum ktap_res add_part(enum ktap_res all, enum ktap_res r, int nodata_part, const char *name,
			      const char *why, char *lack, size_t len)
{
	if (nodata_part && !lack[0])
		snprintf(lack, len, "%.24s: %.200s", name, why);
	return ktap_worst(all, r);
}

/* The parent's result and reason from add_part(). */
static void close_parts(struct ktap *k, const struct top_test *t, enum ktap_res all, const char *lack)
{
	if (all != KTAP_FAIL && lack[0])
		top_result(k, t, KTAP_SKIP, lack, 1);
	else
		top_result(k, t, all, "", 0);
}

/* One top-level test with a subtest per scenario. */
static void report_obs(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	enum ktap_res all = KTAP_SKIP;
	char why[200], lack[240] = "";

	(void)ncpu;
	if (skipped(k, t))
		return;
	ktap_sub_begin(k, t->name, NLEAP);
	for (int i = 0; i < NLEAP; i++) {
		enum ktap_res r;
		int c = CHECK_FAIL;

		if (sc[i].failed_setup) {
			ktap_line(k, "    # %s: %s", sc[i].name, sc[i].err);
			r = KTAP_FAIL;
		} else {
			c = t->check(sc[i].kind, &sc[i].obs, why, sizeof(why));
			r = ktap_of(c);
			ktap_line(k, "    # %s: %s", sc[i].name, why);
		}
		ktap_sub_result(k, r, sc[i].name, r == KTAP_SKIP ? "no evidence" : "");
		all = add_part(all, r, c == CHECK_NODATA, sc[i].name, why, lack, sizeof(lack));
	}
	close_parts(k, t, all, lack);
}

static void report_timers(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *s = &sc[t->sc];
	enum ktap_res all = KTAP_SKIP;

	if (skipped(k, t))
		return;
	if (s->skip_why[0]) {
		top_result(k, t, KTAP_SKIP, s->skip_why, 0);
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
	top_result(k, t, all, all == KTAP_SKIP ? "no wait ran" : "", 0);
}

/* The load after the insertion: a line per CPU, the per-second rate kept
 * in the form the harness reads (wakeups_per_s), with both bounds. */
static void report_load(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *s = &sc[SC_INSERT];
	enum ktap_res all = s->failed_setup ? KTAP_FAIL : KTAP_SKIP;
	char why[160], lack[200] = "";

	if (skipped(k, t))
		return;
	for (int c = 0; c < ncpu && !s->failed_setup; c++) {
		const struct cpu_result *cr = &s->cpu[c];
		long per_s;
		int r = check_load(cr->wakeups, cr->load_errors, cr->load_ns, &per_s, why, sizeof(why));
		char name[16];

		snprintf(name, sizeof(name), "cpu %d", cr->cpu);
		ktap_line(k, "# wakeups_per_s cpu=%d value=%ld errors=%ld min=%d max=%d: %s",
			  cr->cpu, per_s, cr->load_errors, LOAD_MIN_PER_S, LOAD_MAX_PER_S, why);
		all = add_part(all, ktap_of(r), r == CHECK_NODATA, name, why, lack, sizeof(lack));
	}
	if (s->failed_setup)
		ktap_line(k, "# load_after_insert: %s", s->err);
	close_parts(k, t, all, lack);
}

static void report_control(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	enum ktap_res r = KTAP_PASS;

	if (skipped(k, t))
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
	top_result(k, t, r, "", 0);
}

/* The waits across one leap: a subtest per kind of wait, a line per CPU. */
static void report_span(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *s = &sc[t->sc];
	enum ktap_res all = KTAP_SKIP;

	if (skipped(k, t))
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
	top_result(k, t, all, all == KTAP_SKIP ? "no wait ran" : "", 0);
}

/* A cancel-on-set timerfd (systemd's clock-change watch) sees each leap. */
static void report_cancel(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	enum ktap_res all = KTAP_SKIP;
	const char *why = "";

	(void)ncpu;
	if (skipped(k, t))
		return;
	ktap_sub_begin(k, t->name, NLEAP);
	for (int i = 0; i < NLEAP; i++) {
		struct scenario *s = &sc[i];
		enum ktap_res r = KTAP_FAIL;

		if (s->failed_setup) {
			ktap_line(k, "    # %s: %s", s->name, s->err);
		} else if (s->cancel_err == EINVAL) {
			why = "no TFD_TIMER_CANCEL_ON_SET on this kernel (before 3.0)";
			ktap_sub_result(k, KTAP_SKIP, s->name, why);
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
	top_result(k, t, all, all == KTAP_SKIP ? why : "", 0);
}

/* One 00:00:00 timer; *@lacking when it fired too late to prove anything. */
static enum ktap_res edge_subtest(struct ktap *k, const char *name, const struct scenario *s,
				  const struct edge_obs *e, const struct cpu_probe *p, const char *extra,
				  char *lack, size_t len)
{
	enum ktap_res r = KTAP_FAIL;
	char why[240];
	int c = CHECK_FAIL;

	if (s->failed_setup) {
		ktap_line(k, "    # %s: %s", name, s->err);
	} else {
		c = check_edge(s->kind, s->obs.midnight, e, p, why, sizeof(why));
		r = ktap_of(c);
		ktap_line(k, "    # %s: %s%s", name, why, extra);
	}
	ktap_sub_result(k, r, name, r == KTAP_SKIP ? "no evidence" : "");
	if (c == CHECK_NODATA && !lack[0])
		snprintf(lack, len, "%.24s: %.200s", name, strstr(why, "; ") ? strstr(why, "; ") + 2 : why);
	return r;
}

/*
 * Timers for 00:00:00: on the sampler's CPU at each leap, and on the second
 * CPU (its own tick, adjtimex writes meanwhile) at the insertion.  The 2015
 * bug is the insertion's: the test is proved when one of the insertion's
 * timers could have fired early and did not; when neither could, it is a
 * SKIP that says why (unless one failed).
 */
static void report_edge(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *ins = &sc[SC_INSERT];
	const struct other_cpu *o = &ins->other;
	enum ktap_res all, r0, r1;
	char name[32], extra[128], lack[240] = "";

	(void)ncpu;
	if (skipped(k, t))
		return;
	ktap_sub_begin(k, t->name, 3);
	r0 = edge_subtest(k, "insert", ins, &ins->obs.edge, &modes->probes[0], "", lack, sizeof(lack));
	snprintf(name, sizeof(name), "insert_cpu%d", o->cpu);
	if (o->err)
		snprintf(extra, sizeof(extra), "; cannot run on cpu %d: %s", o->cpu, strerror(o->err));
	else
		snprintf(extra, sizeof(extra), "; %ld adjtimex writes meanwhile, %ld failed",
			 o->writes, o->write_errors);
	if (o->err || o->write_errors) {
		ktap_line(k, "    # %s: %s", name, extra + 2);
		ktap_sub_result(k, KTAP_FAIL, name, "");
		r1 = KTAP_FAIL;
	} else {
		r1 = edge_subtest(k, name, ins, &o->edge, &modes->probes[1], extra, lack, sizeof(lack));
	}
	all = ktap_worst(r0, r1);
	all = ktap_worst(all, edge_subtest(k, "delete", &sc[SC_DELETE], &sc[SC_DELETE].obs.edge,
					   &modes->probes[0], "", lack, sizeof(lack)));
	if (all != KTAP_FAIL && r0 != KTAP_PASS && r1 != KTAP_PASS)
		top_result(k, t, KTAP_SKIP, lack, 1);
	else
		top_result(k, t, all, "", 0);
}

static void report_set_in_leap(struct ktap *k, const struct top_test *t, struct scenario *sc, int ncpu)
{
	struct scenario *s = &sc[SC_SET_IN_LEAP];
	enum ktap_res r = KTAP_FAIL;
	char why[200];

	(void)ncpu;
	if (skipped(k, t))
		return;
	if (s->failed_setup) {
		ktap_line(k, "# set_in_leap: %s", s->err);
	} else {
		r = check_set_in_leap(&s->obs, why, sizeof(why)) ? KTAP_PASS : KTAP_FAIL;
		ktap_line(k, "# set_in_leap: %s", why);
	}
	top_result(k, t, r, "", 0);
}

/* The top-level tests in run order; the KTAP plan counts them.  Essential:
 * what a PASS claims rests on them (docs/leap-test.md, "What a PASS proves"). */
static const struct top_test tests[] = {
	{ .name = "leap_states", .report = report_obs, .check = check_states, .essential = 1 },
	{ .name = "wall_clock_sequence", .report = report_obs, .check = check_wall_sequence, .essential = 1 },
	{ .name = "tai_offset", .report = report_obs, .check = check_tai, .essential = 1 },
	{ .name = "monotonic_continuity", .report = report_obs, .check = check_mono_kind, .essential = 1 },
	{ .name = "timers_after_insert", .report = report_timers, .sc = SC_INSERT, .essential = 1 },
	{ .name = "timers_after_delete", .report = report_timers, .sc = SC_DELETE, .essential = 1 },
	{ .name = "load_after_insert", .report = report_load, .essential = 1 },
	{ .name = "leap_edge", .report = report_edge, .essential = 1 },
	{ .name = "adjtimex_at_leap", .report = report_obs, .check = check_adjtimex_kind, .essential = 1 },
	{ .name = "timers_across_insert", .report = report_span, .sc = SC_INSERT, .essential = 1 },
	{ .name = "timers_across_delete", .report = report_span, .sc = SC_DELETE, .essential = 1 },
	{ .name = "cancel_on_set", .report = report_cancel },
	{ .name = "timers_after_step", .report = report_timers, .sc = SC_STEP },
	{ .name = "timers_after_hotplug", .report = report_timers, .sc = SC_HOTPLUG, .mode = MODE_HOTPLUG,
	  .essential = 1 },
	{ .name = "clock_set_in_leap", .report = report_set_in_leap, .mode = MODE_SET_IN_LEAP, .essential = 1 },
	{ .name = "timers_after_set_in_leap", .report = report_timers, .sc = SC_SET_IN_LEAP,
	  .mode = MODE_SET_IN_LEAP, .essential = 1 },
	{ .name = "control_monotonic", .report = report_control },
};

static int mode_on(int mode, const struct report_modes *m)
{
	return mode == MODE_ALWAYS || (mode == MODE_HOTPLUG && m->hotplug) ||
	       (mode == MODE_SET_IN_LEAP && m->set_in_leap);
}

/* The tests this run reports: those of the modes asked for, and the rest. */
int planned_tests(const struct report_modes *m)
{
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(tests); i++)
		n += mode_on(tests[i].mode, m);
	return n;
}

void report_all(struct ktap *k, struct scenario *sc, int ncpu, const struct report_modes *m,
		char *unproven_out, size_t len)
{
	modes = m;
	nodata[0] = unproven[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++)
		if (mode_on(tests[i].mode, m))
			tests[i].report(k, &tests[i], sc, ncpu);
	snprintf(unproven_out, len, "%s", unproven);
}

/*
 * Evidence one round lacks, lent by an earlier round's leap of the same kind
 * (each round's leaps are real leaps of this kernel): @kept, the round to
 * report, takes from @other (round @r) the adjtimex() reads in a window
 * where it has too few and neither says the leap was still to come, and an
 * insertion's edge timer that proved something where its own did not; the
 * KTAP lines name the round.  A failure is never lent over or hidden.
 */
void merge_evidence(struct scenario *kept, const struct scenario *other, int r, const struct report_modes *m)
{
	char why[240];

	for (int i = 0; i < NLEAP; i++) {
		struct leap_obs *o = &kept[i].obs;
		const struct leap_obs *b = &other[i].obs;

		if (kept[i].failed_setup || other[i].failed_setup)
			continue;
		if (!o->pending && !b->pending && o->window_samples < ADJ_WINDOW_MIN &&
		    b->window_samples >= ADJ_WINDOW_MIN) {
			o->window_samples = b->window_samples;
			o->window_round = b->window_round ? b->window_round : r;
		}
	}
	if (kept[SC_INSERT].failed_setup || other[SC_INSERT].failed_setup)
		return;
	if (check_edge(LEAP_INSERT, kept[SC_INSERT].obs.midnight, &kept[SC_INSERT].obs.edge, &m->probes[0],
		       why, sizeof(why)) == CHECK_NODATA &&
	    check_edge(LEAP_INSERT, other[SC_INSERT].obs.midnight, &other[SC_INSERT].obs.edge, &m->probes[0],
		       why, sizeof(why)) == CHECK_PASS) {
		kept[SC_INSERT].obs.edge = other[SC_INSERT].obs.edge;
		kept[SC_INSERT].obs.edge.round = other[SC_INSERT].obs.edge.round ? other[SC_INSERT].obs.edge.round : r;
	}
	if (!kept[SC_INSERT].other.err && !other[SC_INSERT].other.err && !other[SC_INSERT].other.write_errors &&
	    check_edge(LEAP_INSERT, kept[SC_INSERT].obs.midnight, &kept[SC_INSERT].other.edge, &m->probes[1],
		       why, sizeof(why)) == CHECK_NODATA &&
	    check_edge(LEAP_INSERT, other[SC_INSERT].obs.midnight, &other[SC_INSERT].other.edge, &m->probes[1],
		       why, sizeof(why)) == CHECK_PASS) {
		kept[SC_INSERT].other.edge = other[SC_INSERT].other.edge;
		kept[SC_INSERT].other.edge.round = other[SC_INSERT].other.edge.round ? other[SC_INSERT].other.edge.round : r;
	}
}

/*
 * What one round of leaps showed, by a silent report (the step runs once,
 * last): the tests it failed, and those it had no evidence for.
 */
void round_failures(struct scenario *sc, int ncpu, const struct report_modes *m, char *buf, size_t len,
		    char *lacking, size_t lacking_len)
{
	size_t used = 0;

	modes = m;
	buf[0] = nodata[0] = unproven[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		struct ktap quiet = { .out = NULL };

		if ((tests[i].report == report_timers && tests[i].sc == SC_STEP) || tests[i].mode != MODE_ALWAYS)
			continue;
		tests[i].report(&quiet, &tests[i], sc, ncpu);
		if (quiet.fail && used < len)
			used += snprintf(buf + used, len - used, "%s%s", used ? "," : "", tests[i].name);
	}
	snprintf(lacking, lacking_len, "%s", nodata);
}
