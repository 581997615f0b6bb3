// SPDX-License-Identifier: GPL-2.0
/*
 * sampler.c - set the clock just before a UTC midnight, arm a leap second and
 * watch it happen from a busy loop: adjtimex state, wall clock, TAI, monotonic.
 *
 * The loop keeps its CPU busy on purpose.  With NO_HZ idle, a CPU sleeping
 * until the 00:00:00 timer updates wall time when it wakes, which applies the
 * leap before the timer expires and hides the leap-edge bug (fixed upstream by
 * 833f32d76302 "time: Prevent early expiry of hrtimers[CLOCK_REALTIME] at the
 * leap second edge"); a busy CPU keeps its tick running across the edge.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <unistd.h>

#include "leap.h"
#include "sampler.h"

#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

#define SAMPLE_LIMIT_NS	(6 * NSEC_PER_SEC)

/*
 * The adjtimex system call itself, not the libc function: glibc and musl
 * implement adjtimex() with clock_adjtime(), which on older kernels copies
 * nothing back whenever the result is not TIME_OK (seen on 3.4.4: every
 * field, the TAI offset too, read 0 during TIME_INS/OOP/WAIT).
 */
static int sys_adjtimex(struct timex *tx)
{
	return (int)syscall(SYS_adjtimex, tx);
}
#define SETTLE_NS	(30 * NSEC_PER_MSEC)

int set_tai_offset(int tai)
{
	struct timex tx = { .modes = ADJ_TAI, .constant = tai };

	return sys_adjtimex(&tx) < 0 ? -1 : 0;
}

/*
 * Clear STA_INS/STA_DEL and return the state machine to TIME_OK at once.
 * Clearing the flags alone leaves TIME_WAIT until the next second boundary;
 * clearing STA_PLL resets time_state to TIME_OK immediately (ntp.c's
 * process_adj_status(), since 2.6), which kselftest's leap-a-day uses too.
 */
int disarm_leap(void)
{
	struct timex pll = { .modes = ADJ_STATUS, .status = STA_PLL };
	struct timex off = { .modes = ADJ_STATUS, .status = 0 };

	return sys_adjtimex(&pll) < 0 || sys_adjtimex(&off) < 0 ? -1 : 0;
}

static int arm_leap(enum leap_kind kind)
{
	/* Clearing STA_UNSYNC and maxerror, else adjtimex reports TIME_ERROR. */
	struct timex tx = {
		.modes = ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR,
		.status = kind == LEAP_INSERT ? STA_INS : STA_DEL,
	};

	return sys_adjtimex(&tx) < 0 ? -1 : 0;
}

static int arm_edge_timer(int64_t midnight)
{
	struct itimerspec its = { .it_value = { .tv_sec = midnight } };
	int fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd >= 0 && timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

struct sample {
	int64_t mono, real, tai;
	int state, tai_off;
};

static void take(struct sample *s, int clock_tai_ok)
{
	struct timespec t;
	struct timex tx = { .modes = 0 };

	clock_gettime(CLOCK_MONOTONIC, &t);
	s->mono = ts_ns(&t);
	clock_gettime(CLOCK_REALTIME, &t);
	s->real = ts_ns(&t);
	s->state = sys_adjtimex(&tx);
	s->tai_off = tx.tai;
	if (clock_tai_ok) {
		clock_gettime(CLOCK_TAI, &t);
		s->tai = ts_ns(&t);
	}
}

int run_leap(const struct leap_plan *p, struct leap_obs *o, char *err, size_t len)
{
	/* Arm STA_INS before 23:59:59 and STA_DEL before 23:59:58: the state
	 * machine moves to TIME_INS/TIME_DEL at the next second boundary. */
	int64_t lead = p->kind == LEAP_INSERT ? 1050 * NSEC_PER_MSEC : 2050 * NSEC_PER_MSEC;
	struct timespec start_ts = ns_ts(p->midnight * NSEC_PER_SEC - lead), t;
	int64_t midnight_ns = p->midnight * NSEC_PER_SEC, last_start = midnight_ns - NSEC_PER_SEC;
	int64_t step_mono = 0, wait_mono = 0, t0;
	struct sample prev, cur;
	int fd = -1, n;

	memset(o, 0, sizeof(*o));
	o->midnight = p->midnight;
	o->clock_tai_ok = clock_gettime(CLOCK_TAI, &t) == 0;

	if (disarm_leap() || clock_settime(CLOCK_REALTIME, &start_ts) || arm_leap(p->kind)) {
		snprintf(err, len, "cannot set the clock or arm the leap: %s", strerror(errno));
		return -1;
	}
	if (p->arm_edge) {
		fd = arm_edge_timer(p->midnight);
		if (fd < 0) {
			snprintf(err, len, "cannot arm the 00:00:00 timer: %s", strerror(errno));
			return -1;
		}
		o->edge_armed = 1;
	}

	take(&prev, o->clock_tai_ok);
	o->samples = 1;
	obs_add_state(o, prev.state);
	o->state_tai[0] = prev.tai_off;
	o->off_before_ns = prev.real - prev.mono;
	o->tai_before = prev.tai_off;
	o->ctai_before_ns = prev.tai - prev.real;
	t0 = prev.mono;
	for (;;) {
		uint64_t ticks;
		int64_t gap;

		if (fd >= 0 && !o->edge_fired && read(fd, &ticks, sizeof(ticks)) == sizeof(ticks)) {
			clock_gettime(CLOCK_REALTIME, &t);
			o->edge_real_ns = ts_ns(&t);
			o->edge_fired = 1;
			o->edge_fired_after_step = step_mono != 0;
			clock_gettime(CLOCK_MONOTONIC, &t);
			o->edge_step_to_fire_ns = step_mono ? ts_ns(&t) - step_mono : 0;
		}
		take(&cur, o->clock_tai_ok);
		o->samples++;
		n = o->nstates;
		obs_add_state(o, cur.state);
		if (o->nstates != n)
			o->state_tai[o->nstates - 1] = cur.tai_off;
		gap = cur.mono - prev.mono;
		if (gap < 0)
			o->mono_backwards++;
		else if (gap > o->mono_max_gap_ns)
			o->mono_max_gap_ns = gap;
		if (!step_mono && llabs((cur.real - cur.mono) - (prev.real - prev.mono)) > NSEC_PER_SEC / 2)
			step_mono = cur.mono;
		if (gap > 0 && prev.real >= last_start && prev.real < midnight_ns)
			o->in_last_second_ns += gap;
		if (cur.state == ST_WAIT && !wait_mono)
			wait_mono = cur.mono;
		prev = cur;
		/*
		 * Done once the leap is over by the wall clock itself: stepped, back
		 * at 00:00:00 or later, and TIME_WAIT (not on the first TIME_WAIT:
		 * one kernel reported it for a sample inside 23:59:60).
		 */
		if (step_mono && wait_mono && cur.state == ST_WAIT &&
		    cur.real >= midnight_ns + SETTLE_NS &&
		    (fd < 0 || o->edge_fired || cur.real >= midnight_ns + 500 * NSEC_PER_MSEC))
			break;
		if (cur.mono - t0 > SAMPLE_LIMIT_NS)
			break;	/* no leap seen: the checks will say so */
	}
	if (fd >= 0)
		close(fd);
	o->off_after_ns = prev.real - prev.mono;
	o->tai_after = prev.tai_off;
	o->ctai_after_ns = prev.tai - prev.real;
	return 0;
}
