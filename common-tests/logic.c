// SPDX-License-Identifier: GPL-2.0
/*
 * logic.c - the leap test's verdict logic, free of system calls.
 *
 * Each check_*() takes what the sampler observed and returns 1 (as a correct
 * kernel behaves) or 0 with the reason in @why.  Host-side unit tests in
 * test_logic.c feed them the observations of correct and broken kernels.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logic.h"

const char *state_name(int state)
{
	static const char *const names[] = { "TIME_OK", "TIME_INS", "TIME_DEL",
					     "TIME_OOP", "TIME_WAIT", "TIME_ERROR" };

	return state >= 0 && state <= ST_ERROR ? names[state] : "TIME_?";
}

const char *wait_class_name(enum wait_class c)
{
	switch (c) {
	case WAIT_ON_TIME: return "on-time";
	case WAIT_EARLY: return "early";
	case WAIT_LATE: return "late";
	case WAIT_UNSUPPORTED: return "unsupported";
	default: return "error";
	}
}

const char *const span_names[NSPAN] = {
	"realtime_abs", "tai_abs", "boottime_abs", "realtime_rel", "monotonic_rel", "itimer_real",
};

void obs_add_state(struct leap_obs *o, int state)
{
	if (o->nstates && o->states[o->nstates - 1] == state)
		return;
	if (o->nstates < MAX_STATES)
		o->states[o->nstates++] = state;
	else
		o->states_lost++;
}

/* Record @s's state, and its tai when the state is new. */
static void note_state(struct leap_obs *o, const struct sample *s)
{
	int n = o->nstates;

	obs_add_state(o, s->state);
	if (o->nstates != n)
		o->state_tai[o->nstates - 1] = s->tai_off;
}

/* CLOCK_REALTIME - CLOCK_MONOTONIC: moves only when the wall clock is set. */
static int64_t wall_offset(const struct sample *s)
{
	return s->real - s->mono;
}

/* The leap's second boundary, CLOCK_REALTIME: 00:00:00, or 23:59:59 (the
 * second a deletion skips). */
int64_t leap_boundary(enum leap_kind kind, int64_t midnight)
{
	return (midnight - (kind == LEAP_INSERT ? 0 : 1)) * NSEC_PER_SEC;
}

/*
 * adjtimex() said the leap is still to come (TIME_INS, TIME_DEL) with a
 * time at or past its second boundary.
 */
int adjtimex_pending(enum leap_kind kind, int64_t midnight, int state, int64_t adj_ns)
{
	return state == (kind == LEAP_INSERT ? ST_INS : ST_DEL) &&
	       adj_ns >= leap_boundary(kind, midnight);
}

/*
 * When a reader that slept should be back, CLOCK_REALTIME: WINDOW_WAKE_NS
 * and @late_ns, how late the probe saw sleeps wake (a tick where timers are
 * tick-bound), before the leap's boundary.
 */
int64_t wake_before(enum leap_kind kind, int64_t midnight, int64_t late_ns)
{
	return leap_boundary(kind, midnight) - WINDOW_WAKE_NS - late_ns;
}

/*
 * The MONOTONIC time to sleep until (wake_before()), once @cur shows the
 * leap latched (TIME_INS, TIME_DEL) and that moment is REST_MIN_NS or more
 * away; 0: read on.  The wall clock does not step before the boundary, so
 * its distance is MONOTONIC's.
 */
int64_t rest_until(enum leap_kind kind, int64_t midnight, const struct sample *cur, int64_t late_ns)
{
	int64_t left = wake_before(kind, midnight, late_ns) - cur->real;

	if (cur->state != (kind == LEAP_INSERT ? ST_INS : ST_DEL) || left < REST_MIN_NS)
		return 0;
	return cur->mono + left;
}

static int cmp_ns(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The median of @n values (sorted in place); 0 for none. */
int64_t median_ns(int64_t *v, int n)
{
	if (n <= 0)
		return 0;
	qsort(v, (size_t)n, sizeof(*v), cmp_ns);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The tick, from the MONOTONIC times @at of @n moves of
 * CLOCK_MONOTONIC_COARSE seen by a busy reader: the median interval (a
 * missed tick or a stalled vCPU makes one interval long, not the median);
 * 0 with fewer than two moves.
 */
int64_t tick_from_steps(const int64_t *at, int n)
{
	int64_t d[PROBE_TICKS];
	int m = 0;

	for (int i = 1; i < n && m < PROBE_TICKS; i++)
		d[m++] = at[i] - at[i - 1];
	return median_ns(d, m);
}

/*
 * Timers are tick-bound when a short sleep wakes half a tick late or more
 * (hrtimers in low resolution, or never switched to high resolution: a
 * sleep ends on the next tick); where no tick was seen, when it wakes
 * TICK_BOUND_MIN_NS late or more.
 */
int timers_tick_bound(int64_t late_ns, int64_t tick_ns)
{
	return tick_ns ? 2 * late_ns >= tick_ns : late_ns >= TICK_BOUND_MIN_NS;
}

/* How long before the moment it must be back a sleeper sets its alarm:
 * twice the sleeps' median lateness, and a tick where timers are tick-bound. */
int64_t probe_margin(const struct cpu_probe *p)
{
	return 2 * p->late_ns + (p->tick_bound ? p->tick_ns : 0);
}

/* The window past 00:00:00 an early edge timer needs to be seen in: twice
 * the sleeps' median lateness, EDGE_WINDOW_MIN_NS at least. */
int64_t edge_window_min(const struct cpu_probe *p)
{
	return 2 * p->late_ns > EDGE_WINDOW_MIN_NS ? 2 * p->late_ns : EDGE_WINDOW_MIN_NS;
}

/* The probe's KTAP diagnostic, after "# leaptest: probe ". */
void probe_str(const struct cpu_probe *p, char *buf, size_t len)
{
	char tick[48] = "tick not seen";

	if (p->tick_ns)
		snprintf(tick, sizeof(tick), "tick_ms=%.3f (%d intervals)", p->tick_ns / 1e6, p->ticks);
	snprintf(buf, len, "cpu=%d %s sleep_late_ms=%.3f (median of %d sleeps of %.1f ms) timers=%s",
		 p->cpu, tick, p->late_ns / 1e6, p->sleeps, PROBE_SLEEP_NS / 1e6,
		 p->tick_bound ? "tick-bound" : "high-resolution");
}

/* The first sample; @o has been zeroed and given its midnight and clock_tai_ok. */
void obs_begin(struct leap_obs *o, struct leap_track *t, const struct sample *first, int edge_timer)
{
	memset(t, 0, sizeof(*t));
	t->midnight_ns = o->midnight * NSEC_PER_SEC;
	t->start_mono = first->mono;
	t->edge_timer = edge_timer;
	o->samples = 1;
	note_state(o, first);
	o->off_before_ns = wall_offset(first);
	o->tai_before = first->tai_off;
	o->ctai_before_ns = first->tai - first->real;
}

/* Each further sample @cur, taken after @prev. */
void obs_step(struct leap_obs *o, struct leap_track *t, const struct sample *prev,
	      const struct sample *cur)
{
	int64_t gap = cur->mono - prev->mono;
	int64_t last_start = t->midnight_ns - NSEC_PER_SEC;
	int64_t boundary = leap_boundary(o->kind, o->midnight);
	int64_t dev = llabs(gap - (cur->raw - prev->raw)) - (cur->raw_span + prev->raw_span) / 2;

	o->samples++;
	note_state(o, cur);

	if (gap < 0)
		o->mono_backwards++;
	else if (gap > o->mono_max_gap_ns && !t->rested)	/* the rest is no stall */
		o->mono_max_gap_ns = gap;
	t->rested = 0;
	/* A stalled guest moves both clocks alike; a kernel that steps
	 * MONOTONIC at the leap moves it alone. */
	if (dev > o->mono_max_dev_ns)
		o->mono_max_dev_ns = dev;
	if (llabs((cur->real - cur->raw) - (prev->real - prev->raw)) > WALL_STEP_MIN_NS)
		t->raw_stepped = 1;
	if (!t->stepped && llabs(wall_offset(cur) - wall_offset(prev)) > WALL_STEP_MIN_NS) {
		t->stepped = 1;
		t->step_mono = cur->mono;
		o->step_wall_ns = cur->real - (wall_offset(cur) - wall_offset(prev));
		o->step_lo_ns = prev->real;
		o->step_hi_ns = cur->real + (o->kind == LEAP_INSERT ? NSEC_PER_SEC : -NSEC_PER_SEC);
	}
	/*
	 * Between the leap's second boundary and the tick that applies it,
	 * adjtimex() must already report the leap as applied (upstream
	 * 833f32d76302: TIME_OOP and 23:59:60, or TIME_WAIT past a deletion),
	 * never as still to come with a time past the boundary.
	 */
	if (!t->stepped && cur->real >= boundary) {
		o->window_samples++;
		if (cur->real - boundary > o->edge.window_ns)
			o->edge.window_ns = cur->real - boundary;
	}
	if (adjtimex_pending(o->kind, o->midnight, cur->state, cur->adj_real)) {
		if (!o->pending)
			o->pending_adj_ns = cur->adj_real;
		o->pending++;
	}
	/* After the step, 23:59:59 read again is the inserted second, 23:59:60. */
	if (t->stepped && cur->real >= last_start && cur->real < t->midnight_ns) {
		if (!o->oop_samples || cur->tai_off < o->oop_tai_min)
			o->oop_tai_min = cur->tai_off;
		if (!o->oop_samples || cur->tai_off > o->oop_tai_max)
			o->oop_tai_max = cur->tai_off;
		o->oop_samples++;
	}
	/* The wall clock read 23:59:59 from @prev until @cur. */
	if (gap > 0 && prev->real >= last_start && prev->real < t->midnight_ns)
		o->in_last_second_ns += gap;
}

/*
 * How long past 00:00:00 a timer for it may fire.  Inserted: 00:00:00 comes
 * a second after the step, at most EDGE_WAIT_MAX_NS late.  Deleted: the
 * clock jumps to 00:00:00 when the leap is applied, up to STEP_LATE_MAX_NS
 * late (2.6.32 with NO_HZ: half a second); a stale base fires a second later.
 */
int64_t edge_deadline(enum leap_kind kind)
{
	return kind == LEAP_INSERT ? EDGE_WAIT_MAX_NS : STEP_LATE_MAX_NS;
}

/* A 00:00:00 timer fired; the clocks were read right after, REALTIME first. */
void edge_fired(struct edge_obs *e, int stepped, int64_t step_mono, int64_t real_ns, int64_t mono_ns)
{
	e->real_ns = real_ns;
	e->fired = 1;
	e->after_step = stepped;
	e->step_to_fire_ns = stepped ? mono_ns - step_mono : 0;
}

/*
 * Over once the leap is over by the wall clock itself: stepped, back at
 * 00:00:00 (plus SETTLE_NS) or later, and this sample in TIME_WAIT (one seen
 * earlier is not enough: one kernel reported it for a sample inside 23:59:60).
 * With an edge timer armed, wait for it too, though not for long past
 * 00:00:00.  Timed out when no leap showed in time: the checks will say so.
 */
enum leap_progress leap_done(const struct leap_obs *o, const struct leap_track *t,
			     const struct sample *cur)
{
	int edge_ok = !t->edge_timer || o->edge.fired ||
		      cur->real >= t->midnight_ns + edge_deadline(o->kind);

	/* A leap that stepped MONOTONIC too ends the sampling as well: the
	 * checks say what is wrong with it, the sampler need not wait. */
	if ((t->stepped || t->raw_stepped) && cur->state == ST_WAIT &&
	    cur->real >= t->midnight_ns + SETTLE_NS && edge_ok)
		return LEAP_OVER;
	if (cur->mono - t->start_mono > SAMPLE_LIMIT_NS)
		return LEAP_TIMED_OUT;
	return LEAP_RUNNING;
}

/* The last sample taken. */
void obs_end(struct leap_obs *o, const struct sample *last)
{
	o->off_after_ns = wall_offset(last);
	o->tai_after = last->tai_off;
	o->ctai_after_ns = last->tai - last->real;
}

/*
 * Watch an armed leap from a busy loop: a sample, then the next, until
 * leap_done() says the leap is over (or never came).  Before each sample, the
 * 00:00:00 timer is polled until it fires; after the leap is latched the
 * loop sleeps once (rest_until()), and that gap is no stall.
 */
enum leap_progress sample_loop(struct leap_obs *o, struct leap_track *t, const struct sampler_ops *ops)
{
	struct sample prev = { 0 }, cur = { 0 };	/* .tai stays 0 without CLOCK_TAI */
	enum leap_progress end;
	int64_t real, mono;
	int rested = 0;

	ops->take(ops->ctx, &prev);
	obs_begin(o, t, &prev, ops->edge_timer);
	do {
		if (ops->edge_timer && !o->edge.fired && ops->edge(ops->ctx, &real, &mono))
			edge_fired(&o->edge, t->stepped, t->step_mono, real, mono);
		ops->take(ops->ctx, &cur);
		obs_step(o, t, &prev, &cur);
		prev = cur;
		if (!rested && (rested = ops->sleep_until(ops->ctx, rest_until(o->kind, o->midnight, &cur,
									      ops->late_ns))))
			t->rested = 1;
		end = leap_done(o, t, &cur);
	} while (end == LEAP_RUNNING);
	obs_end(o, &prev);
	return end;
}

/*
 * The state machine moves to TIME_INS (TIME_DEL) at the first second
 * boundary after the flag is set, and must be there before 00:00:00
 * (23:59:59): a flag set after 23:59:59 (23:59:58) means no leap tonight,
 * through no fault of the kernel.
 */
int armed_in_time(enum leap_kind kind, int64_t midnight, int64_t armed_real_ns)
{
	return armed_real_ns < leap_boundary(kind, midnight) - NSEC_PER_SEC;
}

static void states_str(const struct leap_obs *o, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < o->nstates && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s(tai %d)", i ? ">" : "",
				 state_name(o->states[i]), o->state_tai[i]);
}

/*
 * Insert: [TIME_OK] TIME_INS TIME_OOP TIME_WAIT.  Delete: [TIME_OK] TIME_DEL
 * TIME_WAIT.  Each wanted state must appear, in order, and the last one seen
 * must be TIME_WAIT; no other state may appear.  A step back to a state
 * already passed is tolerated and named: 7.2 once reported TIME_WAIT for one
 * sample at the start of 23:59:60 (adjtimex() compares a wall time read
 * before the leap was published), then TIME_OOP again.  Not tolerated: the
 * sequence starting again (TIME_INS or TIME_DEL once a later state was
 * seen: a second leap in one night; no glitch of adjtimex() shows it), and
 * a history too long to keep.
 */
int check_states(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len)
{
	static const int ins[] = { ST_INS, ST_OOP, ST_WAIT };
	static const int del[] = { ST_DEL, ST_WAIT };
	const int *want = kind == LEAP_INSERT ? ins : del;
	int nwant = kind == LEAP_INSERT ? 3 : 2;
	int next = 0, back = 0, bad = 0, again = 0;
	char seen[256];
	size_t used;

	for (int i = 0; i < o->nstates; i++) {
		int st = o->states[i], known = 0, ahead = 0;

		if (st == ST_OK && next == 0)
			continue;
		if (next > 0 && st == want[0]) {
			again++;
			continue;
		}
		if (next < nwant && st == want[next]) {
			next++;
			continue;
		}
		/*
		 * A later state seen once, then the expected one: do_adjtimex()
		 * reads the time before it takes the timekeeper lock, so when
		 * the tick applies the leap in between it judges the new state
		 * by the old time (seen on 6.1: TIME_WAIT between TIME_INS and
		 * TIME_OOP, one sample).
		 */
		for (int j = next + 1; j < nwant; j++)
			ahead |= st == want[j];
		if (ahead && i + 1 < o->nstates && o->states[i + 1] == want[next]) {
			back++;
			continue;
		}
		for (int j = 0; j < next; j++)
			known |= st == want[j];
		if (known)
			back++;
		else
			bad++;
	}
	states_str(o, seen, sizeof(seen));
	/* Said first: a long history fills the line. */
	used = o->states_lost ? snprintf(why, len, "more than %d states, %d not kept: ", MAX_STATES,
					 o->states_lost) : 0;
	if (used < len)
		used += snprintf(why + used, len - used, "states %s%s%s", seen,
				 back && !again ? " (a state seen again: tolerated)" : "",
				 again ? " (the sequence started again: a second leap)" : "");
	/* Flags cleared after the leap: TIME_OK at the next second boundary. */
	if (o->back_to_ok_ns && used < len)
		snprintf(why + used, len - used, o->back_to_ok_ns > 0 ?
			 "; TIME_OK %.3f s after the flag was cleared" :
			 "; still TIME_WAIT %.1f s after the flag was cleared",
			 (o->back_to_ok_ns > 0 ? o->back_to_ok_ns : BACK_TO_OK_MAX_NS) / 1e9);
	return !bad && !again && !o->states_lost && next == nwant && o->nstates &&
	       o->states[o->nstates - 1] == ST_WAIT && o->back_to_ok_ns >= 0;
}

/*
 * The wall clock steps by the leap (back for an insertion, forward for a
 * deletion), once, at its second boundary (00:00:00; 23:59:59 for a
 * deletion) or up to STEP_LATE_MAX_NS after it: then 23:59:59 is read about
 * twice as long (insertion) or hardly at all (deletion).
 */
int check_wall_sequence(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len)
{
	int64_t step = o->off_after_ns - o->off_before_ns;
	int64_t want = kind == LEAP_INSERT ? -NSEC_PER_SEC : NSEC_PER_SEC;
	int64_t boundary = leap_boundary(kind, o->midnight);
	int64_t late = o->step_wall_ns - boundary;
	int step_ok = llabs(step - want) <= STEP_TOLERANCE_NS;
	/*
	 * Judged by the bounds, not the estimate: a tick that applies the
	 * leap between one sample's MONOTONIC and REALTIME reads puts the
	 * estimate before the boundary (seen: -2 ms on 6.1 x86_64).
	 */
	int when_ok = o->step_wall_ns && o->step_hi_ns >= boundary &&
		      o->step_lo_ns - boundary < STEP_LATE_MAX_NS;
	char when[96] = "no step seen";
	size_t used;

	if (o->step_wall_ns) {
		used = snprintf(when, sizeof(when), "applied %.3f s after %s", late / 1e9,
				kind == LEAP_INSERT ? "00:00:00" : "23:59:59");
		if (o->step_lo_ns != o->step_hi_ns && used < sizeof(when))
			snprintf(when + used, sizeof(when) - used, " (between %+.3f and %+.3f s)",
				 (o->step_lo_ns - boundary) / 1e9, (o->step_hi_ns - boundary) / 1e9);
	}
	snprintf(why, len, "wall step %+.3f s (want %+d), %s, %.3f s spent in 23:59:59",
		 step / 1e9, kind == LEAP_INSERT ? -1 : 1, when, o->in_last_second_ns / 1e9);
	return step_ok && when_ok;
}

/*
 * adjtimex's tai and CLOCK_TAI - CLOCK_REALTIME move by the leap, and for an
 * insertion already during 23:59:60 (upstream dd48d708ff3e: UTC 23:59:60 is
 * TAI's next second, so the offset grows when the second begins, not when
 * it ends).
 */
int check_tai(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len)
{
	int want = kind == LEAP_INSERT ? 1 : -1;
	int adj = o->tai_after - o->tai_before;
	int64_t cdiff = o->ctai_after_ns - o->ctai_before_ns;
	int clk = o->clock_tai_ok ? (int)((cdiff + (cdiff < 0 ? -1 : 1) * NSEC_PER_SEC / 2) / NSEC_PER_SEC) : want;
	int during_ok = 1;
	size_t used;

	if (o->clock_tai_ok)
		used = snprintf(why, len, "adjtimex tai %d -> %d, CLOCK_TAI-REALTIME moved %+d s (want %+d)",
				o->tai_before, o->tai_after, clk, want);
	else
		used = snprintf(why, len, "adjtimex tai %d -> %d (want %+d), no CLOCK_TAI on this kernel",
				o->tai_before, o->tai_after, want);
	if (kind == LEAP_INSERT) {
		during_ok = o->oop_samples && o->oop_tai_min == o->tai_before + 1 &&
			    o->oop_tai_max == o->tai_before + 1;
		if (used < len && !o->oop_samples)
			snprintf(why + used, len - used, "; no sample during 23:59:60");
		else if (used < len)
			snprintf(why + used, len - used, "; tai %d..%d during 23:59:60 (want %d)",
				 o->oop_tai_min, o->oop_tai_max, o->tai_before + 1);
	}
	return adj == want && clk == want && during_ok;
}

/*
 * CLOCK_MONOTONIC must neither go back nor move apart from
 * CLOCK_MONOTONIC_RAW, which no leap touches.  A gap between samples is no
 * fault: a stalled host makes both clocks advance alike.
 */
int check_monotonic(const struct leap_obs *o, char *why, size_t len)
{
	snprintf(why, len, "%d samples, %d went back, largest gap %.3f s, MONOTONIC moved %.3f s apart from MONOTONIC_RAW",
		 o->samples, o->mono_backwards, o->mono_max_gap_ns / 1e9, o->mono_max_dev_ns / 1e9);
	return o->samples > 1 && !o->mono_backwards && o->mono_max_dev_ns < MONO_MAX_DEV_NS;
}

/*
 * A timer for 00:00:00 must fire once the wall clock reads 00:00:00 after
 * the leap, within EDGE_WAIT_MAX_NS.  Inserted: not during 23:59:60 (the
 * 2015 bug): the wall clock must have stepped back by then and be at
 * 00:00:00 again.  Deleted: when the clock jumps from 23:59:59 to 00:00:00,
 * not a second later (a stale CLOCK_REALTIME base); 00:00:00 is read only
 * after that jump, so the wall clock read on firing says it all (the
 * sampler may not have seen the jump yet when it polls the timer).
 *
 * An inserted second's timer that fired after the step proves something
 * only where it could have fired before it: the CPU @p watching it read the
 * wall clock past 00:00:00 before the step (edge_window_min()), and its
 * timers are not tick-bound (a tick-bound timer fires on the tick, which
 * applies the leap first).  Else there is no evidence (CHECK_NODATA).
 */
enum check_res check_edge(enum leap_kind kind, int64_t midnight, const struct edge_obs *e,
			  const struct cpu_probe *p, char *why, size_t len)
{
	int64_t rel = e->real_ns - midnight * NSEC_PER_SEC;
	size_t used;

	if (!e->fired) {
		snprintf(why, len, "timer for 00:00:00 had not fired by 00:00:00 %+.3f s",
			 edge_deadline(kind) / 1e9);
		return CHECK_FAIL;
	}
	if (kind == LEAP_DELETE) {
		snprintf(why, len, "fired at 00:00:00 %+.6f s, after 23:59:59 was skipped", rel / 1e9);
		return rel >= 0 && rel <= edge_deadline(kind) ? CHECK_PASS : CHECK_FAIL;
	}
	used = snprintf(why, len, "fired %s the wall-clock step, at 00:00:00 %+.6f s, %.3f s after the step",
			e->after_step ? "after" : "before", rel / 1e9,
			e->after_step ? e->step_to_fire_ns / 1e9 : 0.0);
	if (e->round && used < len)
		used += snprintf(why + used, len - used, ", at round %d's insertion", e->round);
	if (!e->after_step || rel < 0 || rel > EDGE_WAIT_MAX_NS)
		return CHECK_FAIL;
	if (used < len && p->tick_bound) {
		snprintf(why + used, len - used, "; timers tick-bound on cpu %d: measured %.3f ms late (tick %.3f ms)",
			 p->cpu, p->late_ns / 1e6, p->tick_ns / 1e6);
		return CHECK_NODATA;
	}
	if (used < len && e->window_ns < edge_window_min(p)) {
		snprintf(why + used, len - used, "; wall clock read %.3f ms past 00:00:00 before the step (want %.3f)",
			 e->window_ns > 0 ? e->window_ns / 1e6 : 0.0, edge_window_min(p) / 1e6);
		return CHECK_NODATA;
	}
	if (used < len)
		snprintf(why + used, len - used, "; window seen %.3f ms", e->window_ns / 1e6);
	return CHECK_PASS;
}

/*
 * The clock set during 23:59:60: from then on the wall clock runs with
 * MONOTONIC (off_before: REALTIME - MONOTONIC right after the set; off_after:
 * over a second later, past the end of the inserted second).  A kernel that
 * applied the leap's step again, or late, on top of the set time moves it.
 */
int check_set_in_leap(const struct leap_obs *o, char *why, size_t len)
{
	int64_t moved = o->off_after_ns - o->off_before_ns;

	snprintf(why, len, "clock set an hour ahead during 23:59:60; REALTIME - MONOTONIC then moved %+.3f s (want 0)",
		 moved / 1e9);
	return llabs(moved) <= STEP_TOLERANCE_NS;
}

/*
 * adjtimex() between the leap's second boundary and the tick that applies
 * it (upstream 833f32d76302, its ntp.c half): TIME_OOP with 23:59:59 for an
 * insertion, TIME_WAIT with 00:00:00 for a deletion; without it, TIME_INS
 * with 00:00:00 (TIME_DEL with 23:59:59), a time the leap contradicts.  One
 * such reading fails it (the other CPU's count too); a pass needs
 * ADJ_WINDOW_MIN of the sampler's samples in the window: a sample reads
 * the wall clock, then adjtimex(), so with two the first one's adjtimex()
 * came before the step, whatever the timing.
 */
enum check_res check_adjtimex(enum leap_kind kind, const struct leap_obs *o, char *why, size_t len)
{
	size_t used = snprintf(why, len, "%d samples between %s and the step (want %d), adjtimex said the leap was still to come in %d",
			       o->window_samples, kind == LEAP_INSERT ? "00:00:00" : "23:59:59", ADJ_WINDOW_MIN,
			       o->pending);

	if (o->pending && used < len)
		used += snprintf(why + used, len - used, " (first: %s at 00:00:00 %+.6f s)",
				 state_name(kind == LEAP_INSERT ? ST_INS : ST_DEL),
				 (o->pending_adj_ns - o->midnight * NSEC_PER_SEC) / 1e9);
	if (o->window_round && used < len)
		snprintf(why + used, len - used, ", at round %d's %s", o->window_round,
			 kind == LEAP_INSERT ? "insertion" : "deletion");
	if (o->pending)
		return CHECK_FAIL;
	return o->window_samples >= ADJ_WINDOW_MIN ? CHECK_PASS : CHECK_NODATA;
}

/*
 * A wait of @want_ns that lasted @got_ns and woke @woke_ns after its
 * deadline (negative: before it).  Early only by the deadline's own clock,
 * which noise cannot move back; late by the wait's length.
 */
enum wait_class classify_wait(int64_t want_ns, int64_t got_ns, int64_t woke_ns, int err)
{
	if (err)
		return WAIT_ERROR;
	if (woke_ns < -TIMER_EARLY_SLACK_NS)
		return WAIT_EARLY;
	if (got_ns > want_ns + TIMER_LATE_SLACK_NS)
		return WAIT_LATE;
	return WAIT_ON_TIME;
}

/*
 * The MONOTONIC length of a wait armed at @real_now for 300 ms past the
 * leap's midnight: the leap adds (insertion) or takes (deletion) a second.
 */
int64_t span_length(enum leap_kind kind, int64_t midnight, int64_t real_now)
{
	return midnight * NSEC_PER_SEC + SPAN_PAST_NS - real_now +
	       (kind == LEAP_INSERT ? NSEC_PER_SEC : -NSEC_PER_SEC);
}

/*
 * A wait across the leap.  Its length must not move: only an absolute
 * CLOCK_REALTIME wait sees the leap, and ends when that clock reads its
 * deadline (early: by that clock; late: by its length).  TAI, BOOTTIME and
 * the relative waits run at MONOTONIC's pace: early by their length too.
 */
enum wait_class classify_span(int sp, const struct span_wait *w)
{
	if (w->err == EINVAL)
		return WAIT_UNSUPPORTED;
	if (w->err)
		return WAIT_ERROR;
	if ((sp == SP_REALTIME_ABS || sp == SP_TAI_ABS || sp == SP_BOOTTIME_ABS) &&
	    w->woke_ns < -TIMER_EARLY_SLACK_NS)
		return WAIT_EARLY;
	if (sp != SP_REALTIME_ABS && w->got_ns < w->want_ns - TIMER_EARLY_SLACK_NS)
		return WAIT_EARLY;
	if (w->got_ns > w->want_ns + TIMER_LATE_SLACK_NS)
		return WAIT_LATE;
	return WAIT_ON_TIME;
}

/*
 * A second of LOAD_WAIT_NS waits after the insertion: over LOAD_MAX_PER_S
 * wake-ups a second is the 2012 spin; under LOAD_MIN_PER_S, timers that run
 * late (each wait four times its length); no wake-up at all, nothing seen.
 */
enum check_res check_load(long wakeups, long errors, int64_t elapsed_ns, long *per_s, char *why, size_t len)
{
	*per_s = elapsed_ns > 0 ? (long)(wakeups * NSEC_PER_SEC / elapsed_ns) : wakeups;
	snprintf(why, len, "%ld wake-ups/s of %lld ms waits (want %d to %d), %ld failed%s", *per_s,
		 LOAD_WAIT_NS / NSEC_PER_MSEC, LOAD_MIN_PER_S, LOAD_MAX_PER_S, errors,
		 *per_s > LOAD_MAX_PER_S ? ": the 2012 spin" :
		 *per_s < LOAD_MIN_PER_S && wakeups ? ": timers running late" : "");
	if (!wakeups || elapsed_ns <= 0)
		return CHECK_NODATA;
	return errors || *per_s > LOAD_MAX_PER_S || *per_s < LOAD_MIN_PER_S ? CHECK_FAIL : CHECK_PASS;
}

/* True when @marker appears in @cmdline as a whole space-separated word. */
int cmdline_has_marker(const char *cmdline, const char *marker)
{
	size_t n = strlen(marker);
	const char *p = cmdline;

	while ((p = strstr(p, marker))) {
		int start = p == cmdline || p[-1] == ' ';
		int end = p[n] == '\0' || p[n] == ' ' || p[n] == '\n';

		if (start && end)
			return 1;
		p += n;
	}
	return 0;
}

/*
 * The value of "key=value" in @cmdline, copied to @buf ("" when absent).
 * @key includes the '=' (e.g. "leaptest.skip=").
 */
void cmdline_value(const char *cmdline, const char *key, char *buf, size_t len)
{
	size_t n = strlen(key), i = 0;
	const char *p = cmdline;

	buf[0] = '\0';
	while ((p = strstr(p, key))) {
		if (p == cmdline || p[-1] == ' ') {
			p += n;
			while (p[i] && p[i] != ' ' && p[i] != '\n' && i + 1 < len) {
				buf[i] = p[i];
				i++;
			}
			buf[i] = '\0';
			return;
		}
		p += n;
	}
}

/* @s as a whole decimal number from @min to @max (0), else -1: no sign
 * games, no trailing text, no overflow. */
int parse_count(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s[0] || s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

/* True when @name is one of the comma-separated words of @list. */
int list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p; p++) {
		if ((p == list || p[-1] == ',') && !strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
	}
	return 0;
}
