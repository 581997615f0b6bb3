/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the leap test's report (report.c): what each scenario saw, as
 * KTAP results and metric lines.  No system calls: the host unit tests
 * (test_report.c) report made-up scenarios.
 */
#ifndef LEAP_REPORT_H
#define LEAP_REPORT_H

#include <stddef.h>

#include "ktap.h"
#include "logic.h"
#include "timers.h"

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


/* What the run was asked for on the guest's command line, and what the
 * probe measured before it. */
struct report_modes {
	const char *skip;	/* leaptest.skip=: top-level tests reported SKIP */
	int hotplug;		/* leaptest.hotplug=1 */
	int set_in_leap;	/* leaptest.set_in_leap=1 */
	const struct cpu_probe *probes;	/* per CPU, in the scenarios' CPU order */
};

/* The top-level tests this run reports (the KTAP plan). */
int planned_tests(const struct report_modes *m);
/* Every top-level test of the run, in order; @unproven: the essential ones
 * skipped, comma-separated. */
void report_all(struct ktap *k, struct scenario *sc, int ncpu, const struct report_modes *m,
		char *unproven, size_t len);
/* Evidence @kept lacks, taken from an earlier round @r's leaps (@other). */
void merge_evidence(struct scenario *kept, const struct scenario *other, int r, const struct report_modes *m);
/* The tests one round of leaps failed, and those it had no evidence for,
 * comma-separated (nothing printed). */
void round_failures(struct scenario *sc, int ncpu, const struct report_modes *m, char *buf, size_t len,
		    char *lacking, size_t lacking_len);

#endif
