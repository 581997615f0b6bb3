// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c - host unit tests of the leap test's report (report.c):
 * the KTAP plan per mode, a test the harness skips, a scenario that failed
 * its setup, the load metric and its limit, a kernel without a flag, and a
 * round's failed tests.  Made-up scenarios, nothing run.
 *
 * Build: cc -Wall -Wextra -O2 -pthread test_report.c report.c logic.c timers.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int passed, failed;

#define EXPECT(c) do { if (c) passed++; else { failed++; \
	printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)

static struct scenario sc[NSC];
static const struct cpu_probe hires[2] = {
	{ .cpu = 0, .tick_ns = 4000000, .late_ns = 60000 }, { .cpu = 1, .tick_ns = 4000000, .late_ns = 60000 },
};
static const struct cpu_probe tickb[2] = {
	{ .cpu = 0, .tick_ns = 10000000, .late_ns = 9700000, .tick_bound = 1 },
	{ .cpu = 1, .tick_ns = 10000000, .late_ns = 9700000, .tick_bound = 1 },
};
static char unproven[256];

static void reset(void)
{
	memset(sc, 0, sizeof(sc));
	sc[SC_INSERT] = (struct scenario){ .kind = LEAP_INSERT, .name = "insert", .ran = 1 };
	sc[SC_DELETE] = (struct scenario){ .kind = LEAP_DELETE, .name = "delete", .ran = 1 };
	sc[SC_STEP] = (struct scenario){ .name = "step", .ran = 1 };
	sc[SC_HOTPLUG] = (struct scenario){ .kind = LEAP_INSERT, .name = "hotplug" };
	sc[SC_SET_IN_LEAP] = (struct scenario){ .kind = LEAP_INSERT, .name = "set_in_leap" };
}

/* The whole report of the scenarios, as the guest would print it. */
static char *report(const struct report_modes *m, int ncpu, struct ktap *k)
{
	static char *buf;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	*k = (struct ktap){ .out = f };
	ktap_header(k, planned_tests(m));
	report_all(k, sc, ncpu, m, unproven, sizeof(unproven));
	fclose(f);
	return buf;
}

static void test_plan(void)
{
	struct report_modes none = { .skip = "", .probes = hires }, both = { .skip = "", .hotplug = 1, .set_in_leap = 1 };
	struct report_modes hot = { .skip = "", .hotplug = 1 };

	EXPECT(planned_tests(&none) == 14);
	EXPECT(planned_tests(&hot) == 15);
	EXPECT(planned_tests(&both) == 17);
}

static void test_skip_and_setup(void)
{
	struct report_modes m = { .skip = "leap_states,timers_after_step", .probes = hires };
	struct ktap k;
	char *out;

	reset();
	strcpy(sc[SC_INSERT].err, "cannot set the clock: EPERM");
	sc[SC_INSERT].failed_setup = 1;
	out = report(&m, 1, &k);
	EXPECT(strstr(out, "KTAP version 1\n1..14\n") == out);
	EXPECT(strstr(out, "\nok 1 leap_states # SKIP not covered by this branch's series (leaptest.skip)\n") != NULL);
	/* A scenario that could not run fails the checks on it, saying why. */
	EXPECT(strstr(out, "    # insert: cannot set the clock: EPERM\n") != NULL);
	EXPECT(strstr(out, "\nnot ok 2 wall_clock_sequence\n") != NULL);
	EXPECT(strstr(out, "ok 13 timers_after_step # SKIP") != NULL);
	/* Every planned test reported once, in order. */
	EXPECT(k.next == 15 && k.pass + k.fail + k.skip == 14);
	/* A test the harness skipped is essential: the run does not prove it. */
	EXPECT(strcmp(unproven, "leap_states") == 0);
	free(out);
}

static void test_load_and_cancel(void)
{
	struct report_modes m = { .skip = "", .probes = hires };
	struct ktap k;
	char *out, failed_tests[256], lacking[256];

	reset();
	sc[SC_INSERT].cpu[0] = (struct cpu_result){ .cpu = 0, .wakeups = 5000, .load_ns = NSEC_PER_SEC };
	sc[SC_INSERT].cpu[1] = (struct cpu_result){ .cpu = 1, .wakeups = 90, .load_ns = NSEC_PER_SEC };
	sc[SC_INSERT].cancel_err = EINVAL;
	sc[SC_DELETE].cancel_err = EINVAL;
	out = report(&m, 2, &k);
	/* The metric line the harness reads, per CPU, and the limit. */
	EXPECT(strstr(out, "\n# wakeups_per_s cpu=0 value=5000 errors=0 min=25 max=200: 5000 wake-ups/s") != NULL);
	EXPECT(strstr(out, "\n# wakeups_per_s cpu=1 value=90 errors=0 min=25 max=200: 90 wake-ups/s") != NULL);
	EXPECT(strstr(out, "\nnot ok 7 load_after_insert\n") != NULL);
	/* A kernel without TFD_TIMER_CANCEL_ON_SET: SKIP, never a pass, and
	 * the top-level SKIP says why (the record reads it there). */
	EXPECT(strstr(out, "    ok 1 insert # SKIP no TFD_TIMER_CANCEL_ON_SET on this kernel (before 3.0)\n") != NULL);
	EXPECT(strstr(out, "\nok 12 cancel_on_set # SKIP no TFD_TIMER_CANCEL_ON_SET on this kernel (before 3.0)\n") != NULL);
	free(out);

	/* A round's failures: the same reports, silent. */
	round_failures(sc, 2, &m, failed_tests, sizeof(failed_tests), lacking, sizeof(lacking));
	EXPECT(strstr(failed_tests, "load_after_insert") != NULL);
	EXPECT(strstr(failed_tests, "cancel_on_set") == NULL);
	EXPECT(strstr(failed_tests, "leap_states") != NULL);	/* no states seen: a failure */
	sc[SC_INSERT].cpu[0].wakeups = 50;
	round_failures(sc, 2, &m, failed_tests, sizeof(failed_tests), lacking, sizeof(lacking));
	EXPECT(strstr(failed_tests, "load_after_insert") == NULL);
	/* A floor: 10 ms waits at 20 a second are timers running late. */
	sc[SC_INSERT].cpu[0].wakeups = 20;
	round_failures(sc, 2, &m, failed_tests, sizeof(failed_tests), lacking, sizeof(lacking));
	EXPECT(strstr(failed_tests, "load_after_insert") != NULL);
}

/*
 * Evidence: a leap whose window nobody read (adjtimex), an edge timer that
 * fired after the step on tick-bound CPUs: SKIP with the reason, named in
 * the unproven list and in a round's lacking list; one that failed wins.
 */
static void test_no_evidence(void)
{
	struct report_modes m = { .skip = "", .probes = tickb };
	int64_t mid = 1798761600LL * NSEC_PER_SEC;
	struct ktap k;
	char *out, failed_tests[256], lacking[256];

	reset();
	for (int i = 0; i < NLEAP; i++) {
		sc[i].obs.midnight = 1798761600LL + (i == SC_DELETE ? 86400 : 0);
		sc[i].obs.window_samples = i == SC_INSERT ? 5 : 1;
	}
	sc[SC_INSERT].obs.edge = (struct edge_obs){ .fired = 1, .after_step = 1, .real_ns = mid + 1000,
						    .window_ns = 2000000 };
	for (int c = 0; c < 2; c++)
		sc[SC_INSERT].cpu[c] = (struct cpu_result){ .cpu = c, .wakeups = 95, .load_ns = NSEC_PER_SEC };
	sc[SC_INSERT].other.cpu = 1;
	sc[SC_INSERT].other.edge = sc[SC_INSERT].obs.edge;
	sc[SC_DELETE].obs.edge = (struct edge_obs){ .fired = 1, .after_step = 1,
						    .real_ns = sc[SC_DELETE].obs.midnight * NSEC_PER_SEC + 1000 };
	out = report(&m, 2, &k);
	EXPECT(strstr(out, "    ok 1 insert # SKIP no evidence\n") != NULL);
	EXPECT(strstr(out, "\nok 8 leap_edge # SKIP insert: timers tick-bound on cpu 0: measured 9.700 ms late (tick 10.000 ms)\n") != NULL);
	EXPECT(strstr(out, "    ok 1 insert\n    # delete: 1 samples") != NULL && strstr(out, "    ok 2 delete # SKIP no evidence\n") != NULL);

	EXPECT(strstr(out, "\nok 9 adjtimex_at_leap # SKIP delete: 1 samples between 23:59:59 and the step (want 2)") != NULL);
	EXPECT(strstr(unproven, "leap_edge,adjtimex_at_leap") != NULL);
	free(out);
	round_failures(sc, 2, &m, failed_tests, sizeof(failed_tests), lacking, sizeof(lacking));
	EXPECT(strcmp(lacking, "leap_edge,adjtimex_at_leap") == 0);
	EXPECT(strstr(failed_tests, "leap_edge") == NULL && strstr(failed_tests, "adjtimex") == NULL);

	/* High-resolution timers and the window seen: both proved. */
	m.probes = hires;
	sc[SC_DELETE].obs.window_samples = 4;
	out = report(&m, 2, &k);
	EXPECT(strstr(out, "\nok 8 leap_edge\n") != NULL && strstr(out, "\nok 9 adjtimex_at_leap\n") != NULL);
	EXPECT(strstr(unproven, "leap_edge") == NULL && strstr(unproven, "adjtimex") == NULL);
	free(out);
	/* One CPU's timer proved it, the other's saw no window: proved. */
	sc[SC_INSERT].other.edge.window_ns = 0;
	out = report(&m, 2, &k);
	EXPECT(strstr(out, "    ok 2 insert_cpu1 # SKIP no evidence\n") != NULL && strstr(out, "\nok 8 leap_edge\n") != NULL);
	free(out);
	/* Evidence lent by another round's leaps of the same kind: the reads
	 * of its deletion's window and its insertion's edge timers, named; a
	 * failure is never lent over. */
	{
		static struct scenario other[NSC];
		char ft[256], lk[256];

		memcpy(other, sc, sizeof(other));
		sc[SC_DELETE].obs.window_samples = 1;
		sc[SC_INSERT].obs.edge.window_ns = 0;
		sc[SC_INSERT].other.edge.window_ns = 0;
		other[SC_DELETE].obs.window_samples = 7;
		other[SC_INSERT].other.edge.window_ns = 2000000;
		merge_evidence(sc, other, 3, &m);
		EXPECT(sc[SC_DELETE].obs.window_samples == 7 && sc[SC_DELETE].obs.window_round == 3);
		EXPECT(sc[SC_INSERT].obs.edge.round == 3 && sc[SC_INSERT].other.edge.round == 3);
		out = report(&m, 2, &k);
		EXPECT(strstr(out, "    # delete: 7 samples between 23:59:59 and the step (want 2), adjtimex said the leap was still to come in 0, at round 3's deletion\n") != NULL);
		EXPECT(strstr(out, ", at round 3's insertion; window seen 2.000 ms") != NULL);
		EXPECT(strstr(out, "\nok 8 leap_edge\n") != NULL && strstr(out, "\nok 9 adjtimex_at_leap\n") != NULL);
		free(out);
		round_failures(sc, 2, &m, ft, sizeof(ft), lk, sizeof(lk));
		EXPECT(lk[0] == '\0');
		/* Lent on: the round stays the leap's own. */
		memcpy(other, sc, sizeof(other));
		sc[SC_DELETE].obs.window_samples = 0;
		sc[SC_DELETE].obs.window_round = 0;
		merge_evidence(sc, other, 5, &m);
		EXPECT(sc[SC_DELETE].obs.window_round == 3);
		/* Not over a reading that says the leap is still to come. */
		sc[SC_DELETE].obs.window_samples = 0;
		sc[SC_DELETE].obs.window_round = 0;
		sc[SC_DELETE].obs.pending = 1;
		merge_evidence(sc, other, 4, &m);
		EXPECT(sc[SC_DELETE].obs.window_samples == 0 && sc[SC_DELETE].obs.window_round == 0);
		sc[SC_DELETE].obs.pending = 0;
		sc[SC_DELETE].obs.window_samples = 4;
	}
	/* A reading that says the leap is still to come fails, however few. */
	sc[SC_DELETE].obs.window_samples = 1;
	sc[SC_DELETE].obs.pending = 1;
	out = report(&m, 2, &k);
	EXPECT(strstr(out, "\nnot ok 9 adjtimex_at_leap\n") != NULL);
	free(out);
}

int main(void)
{
	test_plan();
	test_skip_and_setup();
	test_load_and_cancel();
	test_no_evidence();
	printf("report: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
