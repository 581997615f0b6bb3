/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logic.h - the leap test's pure logic (logic.c): observations, thresholds,
 * the sampler's per-sample bookkeeping and the checks.
 *
 * The observation structs are filled in the guest (sampler.c, timers.c); the
 * functions of logic.c make no system calls, so the host unit tests
 * (test_logic.c) can drive them with made-up samples and observations.
 */
#ifndef LEAP_LOGIC_H
#define LEAP_LOGIC_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NSEC_PER_SEC	1000000000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_USEC	1000LL
#define MAX_CPUS	64
#define MAX_STATES	16

/* adjtimex() return values (<sys/timex.h> names them too). */
enum { ST_OK = 0, ST_INS = 1, ST_DEL = 2, ST_OOP = 3, ST_WAIT = 4, ST_ERROR = 5 };

enum leap_kind { LEAP_INSERT, LEAP_DELETE };

/* Waits that span the leap: armed before it, due 300 ms after the midnight. */
enum { SP_REALTIME_ABS, SP_TAI_ABS, SP_BOOTTIME_ABS, SP_REALTIME_REL, SP_MONOTONIC_REL,
       SP_ITIMER, NSPAN };

/*
 * What the test measures before any leap, on each CPU, and decides from
 * (never from clock_getres(), which arm64's vDSO answers with a constant
 * 1 ns): how late short absolute sleeps wake, and where the tick falls.
 */
#define PROBE_SLEEPS		21	/* absolute sleeps, their median lateness kept */
#define PROBE_SLEEP_NS		(300 * NSEC_PER_USEC)
#define PROBE_TICKS		8	/* tick intervals timed from CLOCK_MONOTONIC_COARSE */
#define PROBE_TICK_MAX_NS	(200 * NSEC_PER_MSEC)	/* no tick seen in this long: unknown */
#define TICK_BOUND_MIN_NS	NSEC_PER_MSEC	/* tick-bound where no tick was seen */

/*
 * The evidence a check needs before it may pass (below it: SKIP with the
 * reason, never ok).  The sampler's samples with the wall clock between the
 * leap's boundary and the step: each sample reads CLOCK_REALTIME, then
 * adjtimex(), so of two such samples the first one's adjtimex() surely came
 * before the step; an edge timer that had a window to fire early in, on a
 * CPU whose timers are not tick-bound; extra rounds of leaps tried for the
 * window.
 */
#define ADJ_WINDOW_MIN		2
#define EDGE_WINDOW_MIN_NS	(200 * NSEC_PER_USEC)
#define EVIDENCE_ROUNDS		2

/* Thresholds, chosen to hold under TCG noise (see docs/results.md). */
#define TIMER_WAIT_NS		(100 * NSEC_PER_MSEC)	/* each absolute wait */
#define TIMER_EARLY_SLACK_NS	(5 * NSEC_PER_MSEC)	/* a correct kernel is never early */
#define TIMER_LATE_SLACK_NS	(500 * NSEC_PER_MSEC)	/* "about a second late" */
#define LOAD_WAIT_NS		(10 * NSEC_PER_MSEC)
#define LOAD_MAX_PER_S		200	/* 10 ms waits cannot exceed 100/s */
#define LOAD_MIN_PER_S		25	/* below: each wait took 4 times its length */
#define STEP_TOLERANCE_NS	(50 * NSEC_PER_MSEC)
/* How long after its second boundary the leap may be applied: a tick on
 * most kernels, up to half a second on 2.6.32 with NO_HZ, which accumulates
 * time in 0.5 s chunks (NTP_INTERVAL_FREQ 2). */
#define STEP_LATE_MAX_NS	(750 * NSEC_PER_MSEC)
#define SPAN_PAST_NS		(300 * NSEC_PER_MSEC)	/* spanning waits end this long past 00:00:00 */
#define MONO_MAX_DEV_NS		(50 * NSEC_PER_MSEC)	/* MONOTONIC may not outrun MONOTONIC_RAW */

/* The sampler's timing. */
/* Arm STA_INS before 23:59:59 and STA_DEL before 23:59:58, the second
 * boundaries whose tick must see the flag, with 500 ms to spare for a
 * stalled guest; armed later anyway, the leap is tried again. */
#define LEAD_INSERT_NS		(1500 * NSEC_PER_MSEC)
#define LEAD_DELETE_NS		(2500 * NSEC_PER_MSEC)
#define ARM_TRIES		3
#define WALL_STEP_MIN_NS	(NSEC_PER_SEC / 2)	/* a larger change of REALTIME - MONOTONIC is the leap's step */
#define SETTLE_NS		(30 * NSEC_PER_MSEC)	/* sample at least this long past 00:00:00 */
#define EDGE_WAIT_MAX_NS	(500 * NSEC_PER_MSEC)	/* past 00:00:00, stop waiting for the edge timer */
#define BACK_TO_OK_MAX_NS	(2500 * NSEC_PER_MSEC)	/* TIME_WAIT -> TIME_OK: the next second boundary */
#define SAMPLE_LIMIT_NS		(6 * NSEC_PER_SEC)	/* stop sampling after this even with no leap seen */
/* Once the leap is latched, the readers sleep until this long (and a timer
 * resolution) before its boundary, when that is REST_MIN_NS or more away: a
 * vCPU that slept is run at once by the host, a busy one is the first
 * descheduled on a loaded host, and the window after the boundary lasts up
 * to a tick. */
#define WINDOW_WAKE_NS		(5 * NSEC_PER_MSEC)
#define REST_MIN_NS		(20 * NSEC_PER_MSEC)

/* What the probe measured on one CPU before the leaps. */
struct cpu_probe {
	int cpu;
	int64_t tick_ns;		/* the tick, from CLOCK_MONOTONIC_COARSE steps (0: not seen) */
	int ticks;			/* tick intervals timed */
	int64_t late_ns;		/* median lateness of the PROBE_SLEEP_NS sleeps */
	int sleeps;			/* sleeps timed */
	int tick_bound;			/* timers expire on the tick (timers_tick_bound()) */
};

/* What a check concluded: as a correct kernel behaves, not, or no evidence. */
enum check_res { CHECK_FAIL, CHECK_PASS, CHECK_NODATA };

/* A timer for 00:00:00, the leap's edge. */
struct edge_obs {
	int fired, after_step;		/* it fired; the wall clock had stepped by then */
	int round;			/* seen in this earlier round (merge_evidence()); 0: this one */
	int64_t window_ns;		/* the wall clock read this far past the leap's boundary
					 * before the step, by the CPU watching the timer (<= 0:
					 * never): the window an early timer could fire in */
	int64_t real_ns;		/* CLOCK_REALTIME read right after it fired */
	int64_t step_to_fire_ns;	/* MONOTONIC from the wall-clock step to the fire */
};

/* What the sampler saw across one leap. */
struct leap_obs {
	enum leap_kind kind;
	int64_t midnight;		/* the UTC midnight of the leap, seconds */
	int nstates;
	int states[MAX_STATES];		/* adjtimex states, consecutive repeats merged */
	int states_lost;		/* states seen after the history was full (one leap
					 * shows four or five: more means a kernel that cycles) */
	int state_tai[MAX_STATES];	/* adjtimex tai when each state was first seen */
	int64_t off_before_ns, off_after_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	int64_t in_last_second_ns;	/* time spent with wall time in 23:59:59 */
	int64_t step_wall_ns;		/* the wall time the leap was applied at, as the
					 * clock would have read without it */
	int64_t step_lo_ns, step_hi_ns;	/* bounds of that: the last wall time read before
					 * the step, the first read after it less the leap */
	int64_t mono_max_gap_ns;	/* the longest time between two samples (a metric) */
	int64_t mono_max_dev_ns;	/* the largest |MONOTONIC - MONOTONIC_RAW| change between
					 * two samples, less what the reads' own spread allows */
	int mono_backwards;		/* samples where MONOTONIC went back */
	int tai_before, tai_after;	/* adjtimex tai */
	int clock_tai_ok;		/* CLOCK_TAI is readable */
	int64_t ctai_before_ns, ctai_after_ns;	/* CLOCK_TAI - CLOCK_REALTIME */
	int oop_samples;		/* samples inside the inserted second (23:59:60) */
	int oop_tai_min, oop_tai_max;	/* adjtimex tai in those samples */
	int samples;
	/* adjtimex() between the leap's second boundary and the step */
	int window_samples;		/* the sampler's samples with the wall clock past the
					 * boundary, not yet stepped */
	int window_round;		/* those came from this earlier round's leap of the
					 * same kind (merge_evidence()); 0: this one's */
	int pending;			/* samples whose adjtimex time is past the boundary while its
					 * state still says the leap is to come (TIME_INS, TIME_DEL) */
	int64_t pending_adj_ns;		/* the first one's adjtimex time */
	struct edge_obs edge;		/* the 00:00:00 timer on the sampler's CPU */
	int64_t back_to_ok_ns;		/* the natural way out: MONOTONIC from clearing the
					 * flag to TIME_OK (0: not tried; -1: never came) */
	int64_t armed_real_ns;		/* CLOCK_REALTIME right after the leap was armed */
};

/* One reading of the clocks and of adjtimex(). */
struct sample {
	int64_t mono, real, tai;	/* CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_TAI */
	int64_t raw, raw_span;		/* CLOCK_MONOTONIC_RAW around the MONOTONIC read:
					 * the midpoint, and how far apart the two reads were */
	int state, tai_off;		/* adjtimex return value and tai */
	int64_t adj_real;		/* adjtimex time */
};

/* One wait across the leap (SP_*) on one CPU. */
struct span_wait {
	int64_t want_ns;		/* the MONOTONIC length a correct kernel gives it */
	int64_t got_ns;			/* MONOTONIC from arming to waking */
	int64_t woke_ns;		/* absolute waits: their clock on waking minus the deadline */
	int err;			/* errno of a failed wait (EINVAL: not on this kernel) */
};

/* What the sampler keeps track of between samples, beside leap_obs. */
struct leap_track {
	int64_t midnight_ns;		/* the leap's 00:00:00, CLOCK_REALTIME */
	int64_t start_mono;		/* MONOTONIC of the first sample */
	int64_t step_mono;		/* MONOTONIC of the first sample after the wall-clock step */
	int stepped;			/* the wall clock has stepped */
	int raw_stepped;		/* REALTIME - MONOTONIC_RAW has: a leap happened, even
					 * one that stepped MONOTONIC along (then only this) */
	int edge_timer;			/* a timer for 00:00:00 is armed */
	int rested;			/* the sampler slept (rest_until) just before the next
					 * sample: that gap is no stall */
};

/* What leap_done() says about the sampling. */
enum leap_progress { LEAP_RUNNING, LEAP_OVER, LEAP_TIMED_OUT };

enum wait_class { WAIT_ON_TIME, WAIT_EARLY, WAIT_LATE, WAIT_ERROR, WAIT_UNSUPPORTED };

static inline int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

static inline struct timespec ns_ts(int64_t ns)
{
	struct timespec t = { .tv_sec = ns / NSEC_PER_SEC, .tv_nsec = ns % NSEC_PER_SEC };

	return t;
}

/*
 * The sampler's side of the system (sampler.c in the guest; a made-up kernel
 * in test_logic.c), for sample_loop().
 */
struct sampler_ops {
	void (*take)(void *ctx, struct sample *s);	/* read the clocks and adjtimex() */
	/* 1 when the 00:00:00 timer has fired, with REALTIME and MONOTONIC read then. */
	int (*edge)(void *ctx, int64_t *real_ns, int64_t *mono_ns);
	/* Sleep until MONOTONIC @mono_ns (0: nothing to wait for); 1 if it slept. */
	int (*sleep_until)(void *ctx, int64_t mono_ns);
	void *ctx;
	int64_t late_ns;	/* how late a sleep may wake: probe_margin() */
	int edge_timer;		/* a 00:00:00 timer is armed */
};

/* logic.c */
enum leap_progress sample_loop(struct leap_obs *o, struct leap_track *t, const struct sampler_ops *ops);
void obs_add_state(struct leap_obs *o, int state);
int64_t leap_boundary(enum leap_kind kind, int64_t midnight);
int adjtimex_pending(enum leap_kind kind, int64_t midnight, int state, int64_t adj_ns);
int64_t wake_before(enum leap_kind kind, int64_t midnight, int64_t late_ns);
int64_t rest_until(enum leap_kind kind, int64_t midnight, const struct sample *cur, int64_t late_ns);
int64_t median_ns(int64_t *v, int n);
int64_t tick_from_steps(const int64_t *at, int n);
int timers_tick_bound(int64_t late_ns, int64_t tick_ns);
int64_t probe_margin(const struct cpu_probe *p);
int64_t edge_window_min(const struct cpu_probe *p);
void probe_str(const struct cpu_probe *p, char *buf, size_t len);
void obs_begin(struct leap_obs *o, struct leap_track *t, const struct sample *first, int edge_timer);
void obs_step(struct leap_obs *o, struct leap_track *t, const struct sample *prev,
	      const struct sample *cur);
int64_t edge_deadline(enum leap_kind kind);
void edge_fired(struct edge_obs *e, int stepped, int64_t step_mono, int64_t real_ns, int64_t mono_ns);
enum leap_progress leap_done(const struct leap_obs *o, const struct leap_track *t,
			     const struct sample *cur);
void obs_end(struct leap_obs *o, const struct sample *last);
int armed_in_time(enum leap_kind kind, int64_t midnight, int64_t armed_real_ns);
int check_states(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len);
int check_wall_sequence(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len);
int check_tai(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len);
int check_monotonic(const struct leap_obs *o, char *why, size_t len);
enum check_res check_edge(enum leap_kind kind, int64_t midnight, const struct edge_obs *e,
			  const struct cpu_probe *p, char *why, size_t len);
int check_set_in_leap(const struct leap_obs *o, char *why, size_t len);
enum check_res check_adjtimex(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len);
enum wait_class classify_wait(int64_t want_ns, int64_t got_ns, int64_t woke_ns, int err);
int64_t span_length(enum leap_kind kind, int64_t midnight, int64_t real_now);
enum wait_class classify_span(int sp, const struct span_wait *w);
enum check_res check_load(long wakeups, long errors, int64_t elapsed_ns, long *per_s, char *why, size_t len);
int cmdline_has_marker(const char *cmdline, const char *marker);
void cmdline_value(const char *cmdline, const char *key, char *buf, size_t len);
int list_has(const char *list, const char *name);
int parse_count(const char *s, long min, long max, long *out);
const char *state_name(int state);
const char *wait_class_name(enum wait_class c);
extern const char *const span_names[NSPAN];

#endif
