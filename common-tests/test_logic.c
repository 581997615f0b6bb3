// SPDX-License-Identifier: GPL-2.0
/*
 * test_logic.c - host-side unit tests of the leap test's pure logic (logic.c).
 *
 * Feeds the checks what a correct kernel and each broken one would show, and
 * the sampler's bookkeeping (obs_begin/obs_step/leap_done) made-up samples.
 * Build and run: cc -Wall -Wextra -o test_logic test_logic.c logic.c && ./test_logic
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "logic.h"

static int passed, failed;

#define EXPECT(cond) do {						\
	if (cond) {							\
		passed++;						\
	} else {							\
		failed++;						\
		printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
	}								\
} while (0)

/* What the probe measures on a CPU with high-resolution timers and a 4 ms
 * tick, and on one whose timers are bound to a 10 ms tick. */
static const struct cpu_probe HIRES = { .cpu = 0, .tick_ns = 4 * NSEC_PER_MSEC, .ticks = PROBE_TICKS,
					.late_ns = 60 * NSEC_PER_USEC, .sleeps = PROBE_SLEEPS };
static const struct cpu_probe TICKB = { .cpu = 0, .tick_ns = 10 * NSEC_PER_MSEC, .ticks = PROBE_TICKS,
					.late_ns = 9700 * NSEC_PER_USEC, .sleeps = PROBE_SLEEPS,
					.tick_bound = 1 };

/* The leap applied at @at, as the wall clock would have read without it. */
static void set_step(struct leap_obs *o, int64_t at)
{
	o->step_wall_ns = o->step_lo_ns = o->step_hi_ns = at;
}

static struct leap_obs good(enum leap_kind kind)
{
	struct leap_obs o = { .midnight = 1798761600LL, .samples = 1000, .clock_tai_ok = 1 };
	int step = kind == LEAP_INSERT ? -1 : 1;

	obs_add_state(&o, ST_OK);
	obs_add_state(&o, kind == LEAP_INSERT ? ST_INS : ST_DEL);
	obs_add_state(&o, kind == LEAP_INSERT ? ST_INS : ST_DEL);	/* merged */
	if (kind == LEAP_INSERT)
		obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_WAIT);
	o.off_before_ns = 5 * NSEC_PER_SEC;
	o.off_after_ns = o.off_before_ns + step * NSEC_PER_SEC + 30000;
	o.in_last_second_ns = kind == LEAP_INSERT ? 2 * NSEC_PER_SEC : 4 * NSEC_PER_MSEC;
	set_step(&o, o.midnight * NSEC_PER_SEC - (kind == LEAP_INSERT ? 0 : NSEC_PER_SEC) + 4 * NSEC_PER_MSEC);
	o.mono_max_gap_ns = 20000;
	o.mono_max_dev_ns = 1000;
	o.tai_before = 37;
	o.tai_after = 37 - step;
	o.ctai_before_ns = 37 * NSEC_PER_SEC;
	o.ctai_after_ns = (37 - step) * NSEC_PER_SEC + 1000;
	if (kind == LEAP_INSERT) {
		o.oop_samples = 100;
		o.oop_tai_min = o.oop_tai_max = 38;
	}
	o.edge.fired = o.edge.after_step = kind == LEAP_INSERT;
	o.edge.window_ns = 4 * NSEC_PER_MSEC - 50000;	/* read up to the step */
	o.edge.real_ns = o.midnight * NSEC_PER_SEC + 20000;
	o.edge.step_to_fire_ns = NSEC_PER_SEC;
	return o;
}

static void test_good_kernel(void)
{
	char why[200];

	for (int k = LEAP_INSERT; k <= LEAP_DELETE; k++) {
		struct leap_obs o = good(k);

		EXPECT(o.nstates == (k == LEAP_INSERT ? 4 : 3));
		EXPECT(check_states(k, &o, why, sizeof(why)));
		EXPECT(check_wall_sequence(k, &o, why, sizeof(why)));
		EXPECT(check_tai(k, &o, why, sizeof(why)));
		EXPECT(check_monotonic(&o, why, sizeof(why)));
	}
	struct leap_obs o = good(LEAP_INSERT);

	EXPECT(check_edge(LEAP_INSERT, o.midnight, &o.edge, &HIRES, why, sizeof(why)) == CHECK_PASS);
	EXPECT(strstr(why, "after the step") != NULL);
}

static void test_states(void)
{
	char why[200];
	struct leap_obs o = good(LEAP_INSERT);

	/* Left the natural way: TIME_OK at the next second boundary, or never. */
	o.back_to_ok_ns = 400 * NSEC_PER_MSEC;
	EXPECT(check_states(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "; TIME_OK 0.400 s after the flag was cleared") != NULL);
	o.back_to_ok_ns = -1;
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "; still TIME_WAIT 2.5 s after the flag was cleared") != NULL);
	o = good(LEAP_INSERT);

	EXPECT(!check_states(LEAP_DELETE, &o, why, sizeof(why)));	/* wrong kind */
	o.nstates = 0;
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_WAIT);			/* no TIME_OOP */
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strcmp(why, "states TIME_INS(tai 0)>TIME_WAIT(tai 0)") == 0);
	o.nstates = 0;
	obs_add_state(&o, ST_ERROR);			/* STA_UNSYNC left set */
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	o = good(LEAP_DELETE);
	o.nstates = 0;
	obs_add_state(&o, ST_DEL);
	obs_add_state(&o, ST_WAIT);			/* no leading TIME_OK is fine */
	EXPECT(check_states(LEAP_DELETE, &o, why, sizeof(why)));
	obs_add_state(&o, ST_OK);			/* must end in TIME_WAIT */
	EXPECT(!check_states(LEAP_DELETE, &o, why, sizeof(why)));

	/* 7.2's one-sample TIME_WAIT inside 23:59:60: tolerated, and said. */
	o = good(LEAP_INSERT);
	o.nstates = 0;
	obs_add_state(&o, ST_OK);
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_WAIT);
	obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_WAIT);
	EXPECT(check_states(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "tolerated") != NULL);
	obs_add_state(&o, ST_OOP);			/* but it must end in TIME_WAIT */
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	/* 6.1: TIME_WAIT read once right at the leap (do_adjtimex() took the
	 * time before the tick applied the leap, the state after), then the
	 * sequence goes on: tolerated, and said.  Seen in CI on 6.1 arm64. */
	o.nstates = 0;
	obs_add_state(&o, ST_OK);
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_WAIT);
	obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_WAIT);
	EXPECT(check_states(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "tolerated") != NULL);
	o.nstates = 0;
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_WAIT);			/* TIME_OOP skipped */
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	obs_add_state(&o, ST_INS);			/* ahead, then not the expected state */
	obs_add_state(&o, ST_WAIT);
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	o.nstates = 0;
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_DEL);			/* a state of the other kind */
	obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_WAIT);
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));

	/* The whole sequence twice: a second leap, not a glitch. */
	for (int k = LEAP_INSERT; k <= LEAP_DELETE; k++) {
		o = good(k);
		o.nstates = 0;
		for (int twice = 0; twice < 2; twice++) {
			obs_add_state(&o, ST_OK);
			obs_add_state(&o, k == LEAP_INSERT ? ST_INS : ST_DEL);
			if (k == LEAP_INSERT)
				obs_add_state(&o, ST_OOP);
			obs_add_state(&o, ST_WAIT);
		}
		EXPECT(!check_states(k, &o, why, sizeof(why)));
		EXPECT(strstr(why, "the sequence started again") != NULL);
	}
	/* Started again before it ended (mutant M10: 23:59:60 twice). */
	o = good(LEAP_INSERT);
	o.nstates = 0;
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_WAIT);
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "the sequence started again") != NULL);
	/* A history longer than it keeps: said, and no pass. */
	o = good(LEAP_INSERT);
	o.nstates = 0;
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_OOP);
	for (int i = 0; i < MAX_STATES; i++)
		obs_add_state(&o, i % 2 ? ST_OOP : ST_WAIT);
	EXPECT(o.nstates == MAX_STATES && o.states_lost > 0);
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strncmp(why, "more than 16 states, ", 21) == 0);
}

static void test_wall_and_tai(void)
{
	char why[200];
	struct leap_obs o = good(LEAP_INSERT);

	o.off_after_ns = o.off_before_ns;		/* no step: leap not applied */
	EXPECT(!check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));
	o = good(LEAP_INSERT);
	set_step(&o, o.step_wall_ns - NSEC_PER_SEC);			/* applied at 23:59:59 */
	EXPECT(!check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));
	o = good(LEAP_INSERT);
	set_step(&o, o.step_wall_ns + STEP_LATE_MAX_NS);		/* applied too late */
	EXPECT(!check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));
	o = good(LEAP_INSERT);
	set_step(&o, o.step_wall_ns + 520 * NSEC_PER_MSEC);		/* 2.6.32: half a second late */
	EXPECT(check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "applied 0.524 s after 00:00:00") != NULL);
	o = good(LEAP_DELETE);
	set_step(&o, o.step_wall_ns + NSEC_PER_SEC);			/* applied at 00:00:00 */
	EXPECT(!check_wall_sequence(LEAP_DELETE, &o, why, sizeof(why)));
	/* The tick applied the leap between one sample's MONOTONIC and REALTIME
	 * reads: the estimate says 2 ms early, the bounds allow on time (6.1
	 * x86_64, M8). */
	o = good(LEAP_INSERT);
	o.step_wall_ns = o.midnight * NSEC_PER_SEC - 2 * NSEC_PER_MSEC;
	o.step_lo_ns = o.step_wall_ns;
	o.step_hi_ns = o.midnight * NSEC_PER_SEC + 4 * NSEC_PER_MSEC;
	EXPECT(check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "applied -0.002 s after 00:00:00 (between -0.002 and +0.004 s)") != NULL);
	o.step_hi_ns = o.midnight * NSEC_PER_SEC - NSEC_PER_MSEC;	/* surely before midnight */
	EXPECT(!check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));
	o = good(LEAP_INSERT);		/* surely too late */
	o.step_lo_ns = o.midnight * NSEC_PER_SEC + STEP_LATE_MAX_NS;
	o.step_hi_ns = o.step_wall_ns = o.step_lo_ns + NSEC_PER_MSEC;
	EXPECT(!check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));

	o = good(LEAP_INSERT);
	o.tai_after = o.tai_before;			/* M5: TAI not updated */
	o.ctai_after_ns = o.ctai_before_ns;
	EXPECT(!check_tai(LEAP_INSERT, &o, why, sizeof(why)));
	o = good(LEAP_DELETE);
	o.ctai_after_ns = o.ctai_before_ns;		/* CLOCK_TAI alone wrong */
	EXPECT(!check_tai(LEAP_DELETE, &o, why, sizeof(why)));
	o.clock_tai_ok = 0;				/* old kernel: adjtimex only */
	EXPECT(check_tai(LEAP_DELETE, &o, why, sizeof(why)));
	EXPECT(strstr(why, "no CLOCK_TAI") != NULL);

	o = good(LEAP_INSERT);
	o.oop_tai_min = 37;				/* before dd48d708: old TAI in 23:59:60 */
	o.oop_tai_max = 37;
	EXPECT(!check_tai(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "tai 37..37 during 23:59:60 (want 38)") != NULL);
	o.oop_tai_max = 38;				/* changed inside the second */
	EXPECT(!check_tai(LEAP_INSERT, &o, why, sizeof(why)));
	o.oop_samples = 0;				/* 23:59:60 never sampled */
	o.oop_tai_min = o.oop_tai_max = 38;
	EXPECT(!check_tai(LEAP_INSERT, &o, why, sizeof(why)));
	EXPECT(strstr(why, "no sample during 23:59:60") != NULL);
}

static void test_monotonic(void)
{
	char why[200];
	struct leap_obs o = good(LEAP_INSERT);

	o.mono_backwards = 1;				/* M6 on insert */
	EXPECT(!check_monotonic(&o, why, sizeof(why)));
	o = good(LEAP_DELETE);
	o.mono_max_gap_ns = o.mono_max_dev_ns = NSEC_PER_SEC;	/* M6 on delete */
	EXPECT(!check_monotonic(&o, why, sizeof(why)));
	o.mono_max_dev_ns = 300 * NSEC_PER_MSEC;	/* a smaller forward jump */
	EXPECT(!check_monotonic(&o, why, sizeof(why)));
	o.mono_max_dev_ns = 1000;			/* a 1 s host stall: both clocks moved */
	EXPECT(check_monotonic(&o, why, sizeof(why)));
}

/* What a stalled host and a kernel that steps MONOTONIC look like. */
static void test_monotonic_vs_raw(void)
{
	struct leap_obs o = { .midnight = 1798761600LL };
	struct leap_track t;
	struct sample a = { .mono = 0, .raw = 0 }, b;
	char why[200];

	/* A 700 ms stall: both clocks moved 700 ms. */
	obs_begin(&o, &t, &a, 0);
	b = (struct sample){ .mono = 700 * NSEC_PER_MSEC, .raw = 700 * NSEC_PER_MSEC + 20000 };
	obs_step(&o, &t, &a, &b);
	EXPECT(o.mono_max_gap_ns == 700 * NSEC_PER_MSEC && check_monotonic(&o, why, sizeof(why)));
	/* A stall between the reads of one sample: its spread covers it. */
	memset(&o, 0, sizeof(o));
	obs_begin(&o, &t, &a, 0);
	b = (struct sample){ .mono = 10 * NSEC_PER_MSEC, .raw = 110 * NSEC_PER_MSEC, .raw_span = 200 * NSEC_PER_MSEC };
	obs_step(&o, &t, &a, &b);
	EXPECT(check_monotonic(&o, why, sizeof(why)));
	/* 3.4.2's insert: MONOTONIC back by the leap's second, RAW on. */
	memset(&o, 0, sizeof(o));
	obs_begin(&o, &t, &a, 0);
	b = (struct sample){ .mono = 10 * NSEC_PER_MSEC - NSEC_PER_SEC, .raw = 10 * NSEC_PER_MSEC };
	obs_step(&o, &t, &a, &b);
	EXPECT(!check_monotonic(&o, why, sizeof(why)));
	EXPECT(o.mono_max_dev_ns == NSEC_PER_SEC);
	/* Its delete: MONOTONIC forward by a second in a 4 ms sample gap. */
	memset(&o, 0, sizeof(o));
	obs_begin(&o, &t, &a, 0);
	b = (struct sample){ .mono = 4 * NSEC_PER_MSEC + NSEC_PER_SEC, .raw = 4 * NSEC_PER_MSEC };
	obs_step(&o, &t, &a, &b);
	EXPECT(!check_monotonic(&o, why, sizeof(why)));
}

static void test_edge(void)
{
	char why[200];
	struct leap_obs o = good(LEAP_INSERT);

	o.edge.after_step = 0;			/* fired at the old 00:00:00 */
	EXPECT(check_edge(LEAP_INSERT, o.midnight, &o.edge, &HIRES, why, sizeof(why)) == CHECK_FAIL);
	o = good(LEAP_INSERT);
	o.edge.real_ns = o.midnight * NSEC_PER_SEC - 999 * NSEC_PER_MSEC; /* during 23:59:60 */
	EXPECT(check_edge(LEAP_INSERT, o.midnight, &o.edge, &HIRES, why, sizeof(why)) == CHECK_FAIL);
	o = good(LEAP_INSERT);
	o.edge.fired = 0;
	EXPECT(check_edge(LEAP_INSERT, o.midnight, &o.edge, &HIRES, why, sizeof(why)) == CHECK_FAIL);
	EXPECT(strstr(why, "had not fired") != NULL);
	/* Fired after the step: proof only where it could have fired before. */
	o = good(LEAP_INSERT);
	EXPECT(check_edge(LEAP_INSERT, o.midnight, &o.edge, &TICKB, why, sizeof(why)) == CHECK_NODATA);
	o.edge.window_ns = EDGE_WINDOW_MIN_NS - 1;
	EXPECT(check_edge(LEAP_INSERT, o.midnight, &o.edge, &HIRES, why, sizeof(why)) == CHECK_NODATA);
	EXPECT(strstr(why, "wall clock read 0.200 ms past 00:00:00 before the step (want 0.200)") != NULL);
	o.edge.window_ns = -5;		/* never read past 00:00:00 before the step */
	EXPECT(check_edge(LEAP_INSERT, o.midnight, &o.edge, &HIRES, why, sizeof(why)) == CHECK_NODATA);
	EXPECT(strstr(why, "wall clock read 0.000 ms") != NULL);
	o.edge.window_ns = EDGE_WINDOW_MIN_NS;
	EXPECT(check_edge(LEAP_INSERT, o.midnight, &o.edge, &HIRES, why, sizeof(why)) == CHECK_PASS);
}

/*
 * A made-up kernel seen by the sampler: one sample every SIM_DT from
 * LEAD_*_NS before midnight, the leap applied @lag after its second boundary.
 */
#define SIM_MIDNIGHT	1798761600LL
#define SIM_MONO0	(50 * NSEC_PER_SEC)
#define SIM_DT		(10 * NSEC_PER_MSEC)
#define SIM_MAX		10000
/* The sample at which the simulated clock reaches 00:00:00 (insert) or
 * 23:59:59 (delete): the sampler starts LEAD_*_NS before midnight. */
#define SI		(LEAD_INSERT_NS / SIM_DT)
#define SD		(LEAD_DELETE_NS / SIM_DT - 100)
/* Samples not taken while the sampler rests: from the leap's latch, a
 * second before its boundary, to WINDOW_WAKE_NS before the boundary. */
#define SIM_ASLEEP	((NSEC_PER_SEC - WINDOW_WAKE_NS) / SIM_DT)

struct kernel {
	enum leap_kind kind;
	int64_t lag;		/* the leap is applied this long after its boundary */
	int leaps;		/* 0: the wall clock never steps */
	int edge_timer;		/* a 00:00:00 timer is armed... */
	int edge_at;		/* ...and fires before this sample (0: never) */
	int blip_at, blip_state;	/* this sample reports that state (0: none) */
	int tai_late;		/* TAI grows at the end of 23:59:60 (before dd48d708) */
	int adj_unfixed;	/* adjtimex() without 833f32d7's ntp.c half */
	int mono_steps;		/* MONOTONIC steps with the leap (M6) */
};

static struct sample kernel_at(const struct kernel *k, int i)
{
	int64_t m = SIM_MIDNIGHT * NSEC_PER_SEC, e = i * SIM_DT, pre;
	struct sample s = { .mono = SIM_MONO0 + e, .raw = SIM_MONO0 + e, .tai_off = 37 };

	if (k->kind == LEAP_INSERT) {
		pre = m - LEAD_INSERT_NS + e;
		if (k->leaps && pre >= m + k->lag) {
			s.real = pre - NSEC_PER_SEC;		/* 23:59:59 again */
			s.tai_off = k->tai_late && s.real < m ? 37 : 38;
			s.state = s.real < m ? ST_OOP : ST_WAIT;
		} else {
			s.real = pre;
			s.state = pre >= m - NSEC_PER_SEC ? ST_INS : ST_OK;
			if (k->leaps && pre >= m && !k->adj_unfixed) {	/* past midnight, before the tick */
				s.state = ST_OOP;
				s.adj_real = pre - NSEC_PER_SEC;
				s.tai_off = 38;
			}
		}
	} else {
		pre = m - LEAD_DELETE_NS + e;
		if (k->leaps && pre >= m - NSEC_PER_SEC + k->lag) {
			s.real = pre + NSEC_PER_SEC;		/* 23:59:59 skipped */
			s.tai_off = 36;
			s.state = ST_WAIT;
		} else {
			s.real = pre;
			s.state = pre >= m - 2 * NSEC_PER_SEC ? ST_DEL : ST_OK;
			if (k->leaps && pre >= m - NSEC_PER_SEC && !k->adj_unfixed) {
				s.state = ST_WAIT;
				s.adj_real = pre + NSEC_PER_SEC;
				s.tai_off = 36;
			}
		}
	}
	if (k->blip_at && i == k->blip_at)
		s.state = k->blip_state;
	if (k->mono_steps)	/* REALTIME - MONOTONIC stays, MONOTONIC_RAW does not step */
		s.mono += s.real - (k->kind == LEAP_INSERT ? m - LEAD_INSERT_NS : m - LEAD_DELETE_NS) - e;
	s.tai = s.real + s.tai_off * NSEC_PER_SEC;
	if (!s.adj_real)
		s.adj_real = s.real;
	return s;
}

struct run {
	struct leap_obs o;
	struct leap_track t;
	enum leap_progress end;
	int last;		/* the sample that ended the sampling */
	int64_t last_real;	/* its wall time, from midnight */
};

/* The made-up kernel as sample_loop() sees the system: sample after sample,
 * a sleep skipping the samples it sleeps through. */
struct sim {
	const struct kernel *k;
	int i;			/* the sample last taken */
};

static void sim_take(void *ctx, struct sample *s)
{
	struct sim *m = ctx;

	*s = kernel_at(m->k, ++m->i);
}

static int sim_edge(void *ctx, int64_t *real_ns, int64_t *mono_ns)
{
	struct sim *m = ctx;
	struct sample s = kernel_at(m->k, m->i + 1);

	if (!m->k->edge_at || m->i + 1 != m->k->edge_at)
		return 0;
	*real_ns = s.real;
	*mono_ns = s.mono;
	return 1;
}

static int sim_sleep(void *ctx, int64_t mono_ns)
{
	struct sim *m = ctx;

	if (!mono_ns)
		return 0;
	m->i += (mono_ns - kernel_at(m->k, m->i).mono) / SIM_DT;	/* asleep: no samples */
	return 1;
}

/* The sampler's own loop (logic.c sample_loop()) on a made-up kernel. */
static struct run simulate(const struct kernel *k)
{
	struct run r = { .o = { .kind = k->kind, .midnight = SIM_MIDNIGHT, .clock_tai_ok = 1 } };
	struct sim m = { .k = k, .i = -1 };
	struct sampler_ops ops = { .take = sim_take, .edge = sim_edge, .sleep_until = sim_sleep,
				   .ctx = &m, .late_ns = 1, .edge_timer = k->edge_timer };

	r.end = sample_loop(&r.o, &r.t, &ops);
	r.last = m.i;
	r.last_real = kernel_at(k, m.i).real - SIM_MIDNIGHT * NSEC_PER_SEC;
	return r;
}

static void test_sampler_insert(void)
{
	struct kernel k = { .kind = LEAP_INSERT, .leaps = 1 };
	struct run r = simulate(&k);
	char why[200];

	/* Stepped back at sample SI; 23:59:59 read twice, 100 samples each. */
	EXPECT(r.end == LEAP_OVER);
	EXPECT(r.last == SI + 103 && r.last_real == SETTLE_NS);	/* first TIME_WAIT + 30 ms */
	EXPECT(r.o.samples == SI + 104 - SIM_ASLEEP);
	EXPECT(r.t.stepped && r.t.step_mono == SIM_MONO0 + LEAD_INSERT_NS);
	EXPECT(r.o.in_last_second_ns == 2 * NSEC_PER_SEC);
	EXPECT(r.o.off_after_ns - r.o.off_before_ns == -NSEC_PER_SEC);
	EXPECT(r.o.tai_before == 37 && r.o.tai_after == 38);
	EXPECT(r.o.ctai_before_ns == 37 * NSEC_PER_SEC && r.o.ctai_after_ns == 38 * NSEC_PER_SEC);
	EXPECT(r.o.mono_max_gap_ns == SIM_DT && r.o.mono_backwards == 0 && r.o.mono_max_dev_ns == 0);
	EXPECT(check_states(LEAP_INSERT, &r.o, why, sizeof(why)));
	EXPECT(strcmp(why, "states TIME_OK(tai 37)>TIME_INS(tai 37)>TIME_OOP(tai 38)>TIME_WAIT(tai 38)") == 0);
	EXPECT(check_wall_sequence(LEAP_INSERT, &r.o, why, sizeof(why)));
	EXPECT(check_tai(LEAP_INSERT, &r.o, why, sizeof(why)));
	EXPECT(r.o.oop_samples == 100 && r.o.oop_tai_min == 38 && r.o.oop_tai_max == 38);
	EXPECT(check_monotonic(&r.o, why, sizeof(why)));
	EXPECT(!r.o.edge.fired);

	/* 2.6.32 with NO_HZ: the leap applied 520 ms after midnight (time is
	 * accumulated in half-second chunks): a correct kernel, 23:59:59 read
	 * for less than 1.5 s. */
	k.lag = 520 * NSEC_PER_MSEC;
	r = simulate(&k);
	EXPECT(r.o.in_last_second_ns == 1480 * NSEC_PER_MSEC);
	EXPECT(check_wall_sequence(LEAP_INSERT, &r.o, why, sizeof(why)));
	EXPECT(strstr(why, "applied 0.520 s after 00:00:00") != NULL);
	k.lag = 0;

	/* TAI moved at the end of 23:59:60: right before and after, wrong during. */
	k.tai_late = 1;
	r = simulate(&k);
	EXPECT(r.o.tai_before == 37 && r.o.tai_after == 38);
	EXPECT(r.o.oop_samples == 100 && r.o.oop_tai_min == 37 && r.o.oop_tai_max == 37);
	EXPECT(!check_tai(LEAP_INSERT, &r.o, why, sizeof(why)));
}

static void test_sampler_delete(void)
{
	/* The step comes 25 ms into 23:59:59: three samples read it. */
	struct kernel k = { .kind = LEAP_DELETE, .leaps = 1, .lag = 25 * NSEC_PER_MSEC };
	struct run r = simulate(&k);
	char why[200];

	EXPECT(r.end == LEAP_OVER);
	EXPECT(r.last == SD + 3 && r.last_real == 30 * NSEC_PER_MSEC);
	EXPECT(r.o.samples == SD + 4 - SIM_ASLEEP);
	EXPECT(r.t.step_mono == SIM_MONO0 + LEAD_DELETE_NS - NSEC_PER_SEC + 30 * NSEC_PER_MSEC);
	EXPECT(r.o.in_last_second_ns == 30 * NSEC_PER_MSEC);
	EXPECT(r.o.off_after_ns - r.o.off_before_ns == NSEC_PER_SEC);
	EXPECT(r.o.nstates == 3 && r.o.state_tai[1] == 37 && r.o.state_tai[2] == 36);
	EXPECT(check_states(LEAP_DELETE, &r.o, why, sizeof(why)));
	EXPECT(check_wall_sequence(LEAP_DELETE, &r.o, why, sizeof(why)));
	EXPECT(strcmp(why, "wall step +1.000 s (want +1), applied 0.030 s after 23:59:59 (between +0.020 and +0.030 s), 0.030 s spent in 23:59:59") == 0);
	EXPECT(check_tai(LEAP_DELETE, &r.o, why, sizeof(why)));
	EXPECT(r.o.oop_samples == 0);
}

static void test_sampler_no_leap(void)
{
	struct kernel k = { .kind = LEAP_INSERT, .leaps = 0 };
	struct run r = simulate(&k);
	char why[200];

	/* Never over: the limit ends it, the first sample past 6 s. */
	EXPECT(r.end == LEAP_TIMED_OUT);
	EXPECT(r.last == SAMPLE_LIMIT_NS / SIM_DT + 1 && r.o.samples == r.last + 1 - SIM_ASLEEP);
	EXPECT(!r.t.stepped && r.t.step_mono == 0);
	EXPECT(r.o.off_after_ns == r.o.off_before_ns);
	EXPECT(r.o.in_last_second_ns == NSEC_PER_SEC);
	EXPECT(r.o.nstates == 2 && r.o.states[1] == ST_INS);
	EXPECT(!check_states(LEAP_INSERT, &r.o, why, sizeof(why)));
	EXPECT(!check_wall_sequence(LEAP_INSERT, &r.o, why, sizeof(why)));
	EXPECT(!check_tai(LEAP_INSERT, &r.o, why, sizeof(why)));

	/* TIME_WAIT past midnight without a step is not the leap's end either. */
	k.blip_at = 300;
	k.blip_state = ST_WAIT;
	r = simulate(&k);
	EXPECT(r.end == LEAP_TIMED_OUT && r.last == SAMPLE_LIMIT_NS / SIM_DT + 1);
}

static void test_sampler_mono(void)
{
	int64_t m = SIM_MIDNIGHT * NSEC_PER_SEC - NSEC_PER_SEC;	/* 23:59:59 */
	static const int64_t ms[] = { 0, 10, 5, 700, 710 };	/* back 5 ms, then a 695 ms gap */
	static const int64_t raw[] = { 0, 10, 15, 710, 720 };	/* MONOTONIC_RAW went on */
	struct leap_obs o = { .midnight = SIM_MIDNIGHT };
	struct leap_track t;
	struct sample prev = { .mono = 0, .real = m }, cur;
	char why[200];

	obs_begin(&o, &t, &prev, 0);
	for (int i = 1; i < 5; i++) {
		cur = (struct sample){ .mono = ms[i] * NSEC_PER_MSEC, .raw = raw[i] * NSEC_PER_MSEC,
				       .real = m + ms[i] * NSEC_PER_MSEC };
		obs_step(&o, &t, &prev, &cur);
		prev = cur;
		EXPECT(leap_done(&o, &t, &cur) == LEAP_RUNNING);
	}
	EXPECT(o.samples == 5 && o.mono_backwards == 1);
	EXPECT(o.mono_max_gap_ns == 695 * NSEC_PER_MSEC);
	EXPECT(o.mono_max_dev_ns == 10 * NSEC_PER_MSEC);	/* the step back against RAW */
	EXPECT(o.in_last_second_ns == 715 * NSEC_PER_MSEC);	/* the step back not counted */
	EXPECT(!t.stepped);
	EXPECT(!check_monotonic(&o, why, sizeof(why)));
	EXPECT(strcmp(why, "5 samples, 1 went back, largest gap 0.695 s, MONOTONIC moved 0.010 s apart from MONOTONIC_RAW") == 0);

	/* A wall-clock step is a change of REALTIME - MONOTONIC beyond 0.5 s. */
	cur = (struct sample){ .mono = prev.mono + 1, .real = prev.real + 1 + WALL_STEP_MIN_NS };
	obs_step(&o, &t, &prev, &cur);
	EXPECT(!t.stepped);
	prev = cur;
	cur = (struct sample){ .mono = prev.mono + 1, .real = prev.real - WALL_STEP_MIN_NS };
	obs_step(&o, &t, &prev, &cur);
	EXPECT(t.stepped && t.step_mono == 710 * NSEC_PER_MSEC + 2);
	prev = cur;
	cur = (struct sample){ .mono = prev.mono + 1, .real = prev.real + 1 + NSEC_PER_SEC };
	obs_step(&o, &t, &prev, &cur);
	EXPECT(t.step_mono == 710 * NSEC_PER_MSEC + 2);	/* the first step is the one */
}

static void test_sampler_edge(void)
{
	struct kernel k = { .kind = LEAP_INSERT, .leaps = 1, .edge_timer = 1 };
	struct run r;
	char why[200];

	/* Never fires: the sampler waits until 500 ms past midnight. */
	r = simulate(&k);
	EXPECT(r.end == LEAP_OVER && r.last == SI + 150 && r.last_real == EDGE_WAIT_MAX_NS);
	EXPECT(!r.o.edge.fired && check_edge(LEAP_INSERT, SIM_MIDNIGHT, &r.o.edge, &HIRES, why, sizeof(why)) == CHECK_FAIL);

	/* Fires at 00:00:00.100 (the second one), 1.1 s after the step; but
	 * the leap was applied at its boundary, so no sample saw the window
	 * an early timer fires in: no evidence. */
	k.edge_at = SI + 110;
	r = simulate(&k);
	EXPECT(r.end == LEAP_OVER && r.last == SI + 110);
	EXPECT(r.o.edge.fired && r.o.edge.after_step && r.o.edge.window_ns == 0);
	EXPECT(r.o.edge.step_to_fire_ns == 1100 * NSEC_PER_MSEC);
	EXPECT(r.o.edge.real_ns == (SIM_MIDNIGHT * NSEC_PER_SEC) + 100 * NSEC_PER_MSEC);
	EXPECT(check_edge(LEAP_INSERT, SIM_MIDNIGHT, &r.o.edge, &HIRES, why, sizeof(why)) == CHECK_NODATA);
	EXPECT(strcmp(why, "fired after the wall-clock step, at 00:00:00 +0.100000 s, 1.100 s after the step; "
			   "wall clock read 0.000 ms past 00:00:00 before the step (want 0.200)") == 0);

	/* The same with the leap applied 30 ms after its boundary: the sampler
	 * read 00:00:00.020 before the step, and the timer did not fire then. */
	k.lag = 30 * NSEC_PER_MSEC;
	k.edge_at = SI + 113;
	r = simulate(&k);
	EXPECT(r.o.edge.fired && r.o.edge.after_step && r.o.edge.window_ns == 20 * NSEC_PER_MSEC);
	EXPECT(check_edge(LEAP_INSERT, SIM_MIDNIGHT, &r.o.edge, &HIRES, why, sizeof(why)) == CHECK_PASS);
	EXPECT(strstr(why, "; window seen 20.000 ms") != NULL);
	/* ... but on a CPU whose timers are tick-bound, a timer could not have
	 * fired in that window: no evidence, saying so. */
	EXPECT(check_edge(LEAP_INSERT, SIM_MIDNIGHT, &r.o.edge, &TICKB, why, sizeof(why)) == CHECK_NODATA);
	EXPECT(strstr(why, "; timers tick-bound on cpu 0: measured 9.700 ms late (tick 10.000 ms)") != NULL);
	k.lag = 0;

	/* Fires at 00:00:00, 50 ms before the step (the 2015 bug): done at
	 * TIME_WAIT + settle. */
	k.lag = 50 * NSEC_PER_MSEC;
	k.edge_at = SI;
	r = simulate(&k);
	EXPECT(r.end == LEAP_OVER && r.last == SI + 103);
	EXPECT(r.o.edge.fired && !r.o.edge.after_step && r.o.edge.step_to_fire_ns == 0);
	EXPECT(r.o.edge.real_ns == (SIM_MIDNIGHT * NSEC_PER_SEC));
	EXPECT(check_edge(LEAP_INSERT, SIM_MIDNIGHT, &r.o.edge, &HIRES, why, sizeof(why)) == CHECK_FAIL);
	/* Seen early is a failure whatever the probe says. */
	EXPECT(check_edge(LEAP_INSERT, SIM_MIDNIGHT, &r.o.edge, &TICKB, why, sizeof(why)) == CHECK_FAIL);
}

/* M6: MONOTONIC steps with the leap; no step in REALTIME - MONOTONIC, but
 * the sampling still ends with the leap instead of at its time limit. */
static void test_sampler_mono_steps(void)
{
	struct kernel k = { .kind = LEAP_INSERT, .leaps = 1, .mono_steps = 1 };
	struct run r = simulate(&k);
	char why[200];

	EXPECT(r.end == LEAP_OVER && r.last == SI + 103);
	EXPECT(!r.t.stepped && r.t.raw_stepped);
	EXPECT(!check_wall_sequence(LEAP_INSERT, &r.o, why, sizeof(why)));
	EXPECT(!check_monotonic(&r.o, why, sizeof(why)));
}

static void test_sampler_state_again(void)
{
	/* 7.2: one sample of TIME_WAIT inside 23:59:60, then TIME_OOP again. */
	struct kernel k = { .kind = LEAP_INSERT, .leaps = 1, .blip_at = SI + 45, .blip_state = ST_WAIT };
	struct run r = simulate(&k);
	char why[200];

	EXPECT(r.end == LEAP_OVER && r.last == SI + 103);
	EXPECT(r.o.nstates == 6 && r.o.states[3] == ST_WAIT && r.o.states[4] == ST_OOP);
	EXPECT(r.o.state_tai[3] == 38);
	EXPECT(check_states(LEAP_INSERT, &r.o, why, sizeof(why)));
	EXPECT(strstr(why, "tolerated") != NULL);

	/* Past 00:00:00 + settle but not in TIME_WAIT: one sample more. */
	k.blip_at = SI + 103;
	k.blip_state = ST_OOP;
	r = simulate(&k);
	EXPECT(r.end == LEAP_OVER && r.last == SI + 104);
	EXPECT(r.o.nstates == 6 && r.o.states[4] == ST_OOP);
}

/* adjtimex() between the boundary and the tick that applies the leap. */
static void test_adjtimex_window(void)
{
	char why[200];

	for (int kind = LEAP_INSERT; kind <= LEAP_DELETE; kind++) {
		struct kernel k = { .kind = kind, .leaps = 1, .lag = 50 * NSEC_PER_MSEC };
		struct run r = simulate(&k);

		EXPECT(r.o.window_samples == 5 && r.o.pending == 0);
		EXPECT(check_adjtimex(kind, &r.o, why, sizeof(why)) == CHECK_PASS);
		EXPECT(check_states(kind, &r.o, why, sizeof(why)));
		EXPECT(check_tai(kind, &r.o, why, sizeof(why)));

		k.adj_unfixed = 1;	/* M7 */
		r = simulate(&k);
		EXPECT(r.o.window_samples == 5 && r.o.pending == 5);
		EXPECT(check_adjtimex(kind, &r.o, why, sizeof(why)) == CHECK_FAIL);
		EXPECT(strstr(why, kind == LEAP_INSERT ? "first: TIME_INS at 00:00:00 +0.000000 s" :
					       "first: TIME_DEL at 00:00:00 -1.000000 s") != NULL);

		/* No sample in the window (the leap applied at its boundary), or
		 * fewer than ADJ_WINDOW_MIN: nothing proved, a SKIP with the count. */
		k.adj_unfixed = 0;
		k.lag = 0;
		r = simulate(&k);
		EXPECT(r.o.window_samples == 0 && check_adjtimex(kind, &r.o, why, sizeof(why)) == CHECK_NODATA);
		EXPECT(strstr(why, "0 samples between") == why && strstr(why, "(want 2)") != NULL);
		k.adj_unfixed = 1;	/* ... and so on a kernel without the fix */
		r = simulate(&k);
		EXPECT(check_adjtimex(kind, &r.o, why, sizeof(why)) == CHECK_NODATA);
		/* One sample: its adjtimex() may have come after the step, so
		 * it proves nothing, unless it says the leap is still to come. */
		k.lag = 10 * NSEC_PER_MSEC;
		r = simulate(&k);
		EXPECT(r.o.window_samples == 1 && r.o.pending == 1);
		EXPECT(check_adjtimex(kind, &r.o, why, sizeof(why)) == CHECK_FAIL);	/* seen is seen */
		k.adj_unfixed = 0;
		r = simulate(&k);
		EXPECT(r.o.window_samples == 1 && check_adjtimex(kind, &r.o, why, sizeof(why)) == CHECK_NODATA);
		k.lag = 20 * NSEC_PER_MSEC;	/* two: the first came before the step */
		r = simulate(&k);
		EXPECT(r.o.window_samples == 2 && check_adjtimex(kind, &r.o, why, sizeof(why)) == CHECK_PASS);
	}
}

/* The sampler sleeps once the leap is latched, until just before the boundary. */
static void test_rest(void)
{
	int64_t m = SIM_MIDNIGHT * NSEC_PER_SEC;
	struct sample s = { .mono = 1000 * NSEC_PER_SEC, .real = m - 1500 * NSEC_PER_MSEC, .state = ST_OK };

	EXPECT(rest_until(LEAP_INSERT, SIM_MIDNIGHT, &s, 1) == 0);	/* not latched yet */
	s.real = m - 800 * NSEC_PER_MSEC;
	s.state = ST_INS;
	EXPECT(rest_until(LEAP_INSERT, SIM_MIDNIGHT, &s, 1) == s.mono + 800 * NSEC_PER_MSEC - WINDOW_WAKE_NS - 1);
	/* Low resolution, a 10 ms tick: the sleep ends a tick earlier, so that
	 * the tick it ends on comes before the boundary. */
	EXPECT(rest_until(LEAP_INSERT, SIM_MIDNIGHT, &s, 10 * NSEC_PER_MSEC) ==
	       s.mono + 800 * NSEC_PER_MSEC - WINDOW_WAKE_NS - 10 * NSEC_PER_MSEC);
	EXPECT(rest_until(LEAP_DELETE, SIM_MIDNIGHT, &s, 1) == 0);	/* TIME_INS is no deletion's */
	s.real = m - WINDOW_WAKE_NS - REST_MIN_NS;			/* just far enough */
	EXPECT(rest_until(LEAP_INSERT, SIM_MIDNIGHT, &s, 0) == s.mono + REST_MIN_NS);
	s.real++;							/* too close to sleep */
	EXPECT(rest_until(LEAP_INSERT, SIM_MIDNIGHT, &s, 0) == 0);
	s.real = m - NSEC_PER_SEC - 300 * NSEC_PER_MSEC;
	s.state = ST_DEL;						/* boundary 23:59:59 */
	EXPECT(rest_until(LEAP_DELETE, SIM_MIDNIGHT, &s, 1) == s.mono + 300 * NSEC_PER_MSEC - WINDOW_WAKE_NS - 1);
	s.real = m + 2 * NSEC_PER_SEC;					/* past it */
	EXPECT(rest_until(LEAP_DELETE, SIM_MIDNIGHT, &s, 1) == 0);
}

static void test_span(void)
{
	int64_t m = SIM_MIDNIGHT * NSEC_PER_SEC;
	struct span_wait w = { .want_ns = span_length(LEAP_INSERT, SIM_MIDNIGHT, m - 1500 * NSEC_PER_MSEC) };

	EXPECT(w.want_ns == 2800 * NSEC_PER_MSEC);
	EXPECT(span_length(LEAP_DELETE, SIM_MIDNIGHT, m - 2500 * NSEC_PER_MSEC) == 1800 * NSEC_PER_MSEC);

	/* A correct kernel: every wait about its length, absolute ones at their deadline. */
	w.got_ns = w.want_ns + 2 * NSEC_PER_MSEC;
	w.woke_ns = 2 * NSEC_PER_MSEC;
	for (int i = 0; i < NSPAN; i++)
		EXPECT(classify_span(i, &w) == WAIT_ON_TIME);
	/* Inserted, no notification: CLOCK_REALTIME's deadline a second early. */
	w.got_ns = w.want_ns - NSEC_PER_SEC;
	w.woke_ns = -NSEC_PER_SEC;
	EXPECT(classify_span(SP_REALTIME_ABS, &w) == WAIT_EARLY);
	/* Deleted, no notification: a second late by its length. */
	w.got_ns = w.want_ns + NSEC_PER_SEC;
	w.woke_ns = NSEC_PER_SEC;
	EXPECT(classify_span(SP_REALTIME_ABS, &w) == WAIT_LATE);
	/* CLOCK_TAI jumped forward with the deletion: on time by TAI, a second
	 * short by MONOTONIC. */
	w.got_ns = w.want_ns - NSEC_PER_SEC;
	w.woke_ns = 1000;
	EXPECT(classify_span(SP_TAI_ABS, &w) == WAIT_EARLY);
	EXPECT(classify_span(SP_BOOTTIME_ABS, &w) == WAIT_EARLY);
	EXPECT(classify_span(SP_REALTIME_REL, &w) == WAIT_EARLY);
	/* A stalled host: 300 ms late is noise, not a fault. */
	w.got_ns = w.want_ns + 300 * NSEC_PER_MSEC;
	w.woke_ns = 300 * NSEC_PER_MSEC;
	for (int i = 0; i < NSPAN; i++)
		EXPECT(classify_span(i, &w) == WAIT_ON_TIME);
	w.err = EINVAL;		/* CLOCK_TAI before 3.10 */
	EXPECT(classify_span(SP_TAI_ABS, &w) == WAIT_UNSUPPORTED);
	w.err = ETIMEDOUT;	/* the interval timer's signal never came */
	EXPECT(classify_span(SP_ITIMER, &w) == WAIT_ERROR);
}

static void test_edge_delete(void)
{
	struct edge_obs e = { .fired = 1, .after_step = 1, .step_to_fire_ns = 2 * NSEC_PER_MSEC,
			      .real_ns = SIM_MIDNIGHT * NSEC_PER_SEC + 2 * NSEC_PER_MSEC };
	char why[200];

	EXPECT(check_edge(LEAP_DELETE, SIM_MIDNIGHT, &e, &HIRES, why, sizeof(why)) == CHECK_PASS);
	/* Polled before the sampler saw the jump (seen on 6.1 x86_64): the same. */
	e.after_step = 0;
	EXPECT(check_edge(LEAP_DELETE, SIM_MIDNIGHT, &e, &HIRES, why, sizeof(why)) == CHECK_PASS);
	EXPECT(strcmp(why, "fired at 00:00:00 +0.002000 s, after 23:59:59 was skipped") == 0);
	/* Fired while the clock still read 23:59:59: early. */
	e.real_ns -= 10 * NSEC_PER_MSEC;
	EXPECT(check_edge(LEAP_DELETE, SIM_MIDNIGHT, &e, &HIRES, why, sizeof(why)) == CHECK_FAIL);
	e.real_ns += 10 * NSEC_PER_MSEC;
	/* A stale CLOCK_REALTIME base: fired a second after the clock jumped. */
	e.real_ns += NSEC_PER_SEC;
	e.step_to_fire_ns += NSEC_PER_SEC;
	EXPECT(check_edge(LEAP_DELETE, SIM_MIDNIGHT, &e, &HIRES, why, sizeof(why)) == CHECK_FAIL);
	e.fired = 0;
	EXPECT(check_edge(LEAP_DELETE, SIM_MIDNIGHT, &e, &HIRES, why, sizeof(why)) == CHECK_FAIL);
	EXPECT(strstr(why, "had not fired by 00:00:00 +0.750 s") != NULL);
	/* 2.6.32 with NO_HZ: the clock jumped half a second late, the timer with it. */
	e.fired = 1;
	e.real_ns = SIM_MIDNIGHT * NSEC_PER_SEC + 505 * NSEC_PER_MSEC;
	EXPECT(check_edge(LEAP_DELETE, SIM_MIDNIGHT, &e, &HIRES, why, sizeof(why)) == CHECK_PASS);
}

static void test_set_in_leap(void)
{
	struct leap_obs o = { .off_before_ns = 3600 * NSEC_PER_SEC, .off_after_ns = 3600 * NSEC_PER_SEC + 2000 };
	char why[200];

	EXPECT(check_set_in_leap(&o, why, sizeof(why)));
	EXPECT(strstr(why, "moved +0.000 s (want 0)") != NULL);
	o.off_after_ns -= NSEC_PER_SEC;		/* the leap's step applied again */
	EXPECT(!check_set_in_leap(&o, why, sizeof(why)));
	EXPECT(strstr(why, "moved -1.000 s") != NULL);
}

static void test_waits(void)
{
	long per_s;
	char why[200];

	EXPECT(classify_wait(TIMER_WAIT_NS, TIMER_WAIT_NS + 200000, 200000, 0) == WAIT_ON_TIME);
	EXPECT(classify_wait(TIMER_WAIT_NS, TIMER_WAIT_NS + 300 * NSEC_PER_MSEC, 300 * NSEC_PER_MSEC, 0) == WAIT_ON_TIME);
	/* insert bug: woke at once, 99.4 ms before the deadline */
	EXPECT(classify_wait(TIMER_WAIT_NS, 600000, 600000 - TIMER_WAIT_NS, 0) == WAIT_EARLY);
	EXPECT(classify_wait(TIMER_WAIT_NS, 1100 * NSEC_PER_MSEC, NSEC_PER_SEC, 0) == WAIT_LATE);	/* delete bug */
	EXPECT(classify_wait(TIMER_WAIT_NS, TIMER_WAIT_NS, 0, 1) == WAIT_ERROR);
	/* A correct kernel preempted for 20 ms between reading MONOTONIC and the
	 * deadline: the wait looks 20 ms short, but it woke after its deadline. */
	EXPECT(classify_wait(TIMER_WAIT_NS, TIMER_WAIT_NS - 20 * NSEC_PER_MSEC, 50000, 0) == WAIT_ON_TIME);
	EXPECT(check_load(98, 0, NSEC_PER_SEC, &per_s, why, sizeof(why)) == CHECK_PASS && per_s == 98);
	EXPECT(check_load(18000, 0, NSEC_PER_SEC, &per_s, why, sizeof(why)) == CHECK_FAIL && per_s == 18000);
	EXPECT(strstr(why, ": the 2012 spin") != NULL);
	EXPECT(check_load(100, 0, NSEC_PER_SEC + 5 * NSEC_PER_MSEC, &per_s, why, sizeof(why)) == CHECK_PASS &&
	       per_s == 99);
	EXPECT(check_load(LOAD_MAX_PER_S + 1, 0, NSEC_PER_SEC, &per_s, why, sizeof(why)) == CHECK_FAIL);
	EXPECT(check_load(98, 1, NSEC_PER_SEC, &per_s, why, sizeof(why)) == CHECK_FAIL);	/* a wait failed */
	/* A floor too: 10 ms waits on a 10 ms tick (3.14.40 arm64: 50/s) are
	 * late by a tick, no fault; each four times its length is. */
	EXPECT(check_load(50, 0, NSEC_PER_SEC, &per_s, why, sizeof(why)) == CHECK_PASS);
	EXPECT(check_load(LOAD_MIN_PER_S - 1, 0, NSEC_PER_SEC, &per_s, why, sizeof(why)) == CHECK_FAIL);
	EXPECT(strcmp(why, "24 wake-ups/s of 10 ms waits (want 25 to 200), 0 failed: timers running late") == 0);
	/* The loop never woke: nothing seen. */
	EXPECT(check_load(0, 0, 0, &per_s, why, sizeof(why)) == CHECK_NODATA);
}

/* The probe: where the tick falls and how late short sleeps wake. */
static void test_probe(void)
{
	int64_t v[5] = { 9, 1, 7, 3, 5 }, even[4] = { 4, 1, 3, 2 };
	int64_t at[6] = { 0, 4000000, 8000000, 20000000, 24000000, 28000000 };
	struct cpu_probe p = HIRES;
	char buf[200];

	EXPECT(median_ns(v, 5) == 5 && median_ns(even, 4) == 2 && median_ns(v, 0) == 0);
	/* One interval of three ticks (a stalled vCPU) does not move the median. */
	EXPECT(tick_from_steps(at, 6) == 4 * NSEC_PER_MSEC);
	EXPECT(tick_from_steps(at, 1) == 0);	/* one move: no interval */
	/* Tick-bound: half a tick late or more; with no tick seen, 1 ms. */
	EXPECT(!timers_tick_bound(60 * NSEC_PER_USEC, 4 * NSEC_PER_MSEC));
	EXPECT(timers_tick_bound(3700 * NSEC_PER_USEC, 4 * NSEC_PER_MSEC));
	EXPECT(timers_tick_bound(700 * NSEC_PER_USEC, NSEC_PER_MSEC));		/* HZ=1000 */
	EXPECT(!timers_tick_bound(400 * NSEC_PER_USEC, NSEC_PER_MSEC));
	EXPECT(!timers_tick_bound(900 * NSEC_PER_USEC, 0) && timers_tick_bound(NSEC_PER_MSEC, 0));
	/* How early a sleeper sets its alarm; the window an edge timer needs. */
	EXPECT(probe_margin(&HIRES) == 120 * NSEC_PER_USEC);
	EXPECT(probe_margin(&TICKB) == 2 * 9700 * NSEC_PER_USEC + 10 * NSEC_PER_MSEC);
	EXPECT(edge_window_min(&HIRES) == EDGE_WINDOW_MIN_NS);
	p.late_ns = NSEC_PER_MSEC;
	EXPECT(edge_window_min(&p) == 2 * NSEC_PER_MSEC);
	probe_str(&HIRES, buf, sizeof(buf));
	EXPECT(strcmp(buf, "cpu=0 tick_ms=4.000 (8 intervals) sleep_late_ms=0.060 (median of 21 sleeps of 0.3 ms) timers=high-resolution") == 0);
	p = TICKB;
	p.tick_ns = p.ticks = 0;
	probe_str(&p, buf, sizeof(buf));
	EXPECT(strstr(buf, "cpu=0 tick not seen sleep_late_ms=9.700") == buf && strstr(buf, "tick-bound") != NULL);
}

static void test_marker(void)
{
	EXPECT(cmdline_has_marker("console=ttyS0 leaptest.harness=1 panic=-1\n", "leaptest.harness=1"));
	EXPECT(cmdline_has_marker("leaptest.harness=1", "leaptest.harness=1"));
	EXPECT(!cmdline_has_marker("BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet\n", "leaptest.harness=1"));
	EXPECT(!cmdline_has_marker("xleaptest.harness=1", "leaptest.harness=1"));
	EXPECT(!cmdline_has_marker("leaptest.harness=10", "leaptest.harness=1"));
	EXPECT(!cmdline_has_marker("", "leaptest.harness=1"));
}

static void test_armed_in_time(void)
{
	int64_t m = SIM_MIDNIGHT * NSEC_PER_SEC;

	EXPECT(armed_in_time(LEAP_INSERT, SIM_MIDNIGHT, m - LEAD_INSERT_NS));
	EXPECT(armed_in_time(LEAP_INSERT, SIM_MIDNIGHT, m - NSEC_PER_SEC - 1));
	EXPECT(!armed_in_time(LEAP_INSERT, SIM_MIDNIGHT, m - NSEC_PER_SEC));	/* 23:59:59 passed */
	EXPECT(armed_in_time(LEAP_DELETE, SIM_MIDNIGHT, m - LEAD_DELETE_NS));
	EXPECT(!armed_in_time(LEAP_DELETE, SIM_MIDNIGHT, m - 2 * NSEC_PER_SEC + 1));	/* 23:59:58 passed */
	/* The margin a stalled guest has: half a second. */
	EXPECT(LEAD_INSERT_NS - NSEC_PER_SEC == 500 * NSEC_PER_MSEC);
	EXPECT(LEAD_DELETE_NS - 2 * NSEC_PER_SEC == 500 * NSEC_PER_MSEC);
}

static void test_skip_list(void)
{
	char v[64];

	cmdline_value("console=ttyS0 leaptest.skip=leap_edge,tai_offset panic=-1\n", "leaptest.skip=", v, sizeof(v));
	EXPECT(strcmp(v, "leap_edge,tai_offset") == 0);
	EXPECT(list_has(v, "leap_edge") && list_has(v, "tai_offset"));
	EXPECT(!list_has(v, "leap") && !list_has(v, "edge") && !list_has(v, "timers_after_insert"));
	cmdline_value("console=ttyS0 xleaptest.skip=leap_edge", "leaptest.skip=", v, sizeof(v));
	EXPECT(v[0] == '\0');
	cmdline_value("leaptest.skip=leap_edge", "leaptest.skip=", v, 5);	/* truncated, terminated */
	EXPECT(strcmp(v, "leap") == 0);
	EXPECT(!list_has("", "leap_edge"));
}

static void test_parse_count(void)
{
	long v = 7;

	EXPECT(parse_count("8", 1, 1000, &v) == 0 && v == 8);
	EXPECT(parse_count("1000", 1, 1000, &v) == 0 && v == 1000);
	EXPECT(parse_count("1001", 1, 1000, &v) == -1 && v == 1000);	/* out of range: unchanged */
	EXPECT(parse_count("0", 1, 1000, &v) == -1);
	EXPECT(parse_count("", 1, 1000, &v) == -1);
	EXPECT(parse_count("-2", 1, 1000, &v) == -1 && parse_count("+2", 1, 1000, &v) == -1);
	EXPECT(parse_count(" 2", 1, 1000, &v) == -1 && parse_count("2x", 1, 1000, &v) == -1);
	EXPECT(parse_count("99999999999999999999999", 1, 1000, &v) == -1);
}

int main(void)
{
	test_skip_list();
	test_parse_count();
	test_armed_in_time();
	test_good_kernel();
	test_states();
	test_wall_and_tai();
	test_monotonic();
	test_monotonic_vs_raw();
	test_edge();
	test_waits();
	test_probe();
	test_marker();
	test_sampler_insert();
	test_sampler_delete();
	test_sampler_no_leap();
	test_sampler_mono();
	test_sampler_edge();
	test_sampler_state_again();
	test_sampler_mono_steps();
	test_adjtimex_window();
	test_rest();
	test_span();
	test_edge_delete();
	test_set_in_leap();
	printf("logic: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
