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
#include <string.h>
#include <sys/timerfd.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <unistd.h>

#include "logic.h"
#include "sampler.h"
#include "time32.h"

#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

/*
 * The adjtimex system call itself, not the libc function: glibc and musl
 * implement adjtimex() with clock_adjtime(), which on older kernels copies
 * nothing back whenever the result is not TIME_OK (seen on 3.4.4: every
 * field, the TAI offset too, read 0 during TIME_INS/OOP/WAIT).
 */
#ifdef HAVE_TIME32_SYSCALLS
/* A 32-bit arch's adjtimex takes the old 32-bit struct, whatever time_t
 * this build has (every kernel has it; clock_adjtime64 came with 5.1). */
#define TIMEX_FIELDS(X) X(offset) X(freq) X(maxerror) X(esterror) X(status) X(constant) \
	X(precision) X(tolerance) X(tick) X(ppsfreq) X(jitter) X(shift) X(stabil) X(jitcnt) \
	X(calcnt) X(errcnt) X(stbcnt) X(tai)
static int sys_adjtimex(struct timex *tx)
{
	struct timex32 t = { .modes = tx->modes };
	int r;

#define TO32(f) t.f = (int32_t)tx->f;
#define FROM32(f) tx->f = t.f;
	TIMEX_FIELDS(TO32)
	t.time.tv_sec = (int32_t)tx->time.tv_sec;
	t.time.tv_usec = (int32_t)tx->time.tv_usec;
	r = (int)syscall(__NR_adjtimex, &t);
	TIMEX_FIELDS(FROM32)
	tx->time.tv_sec = t.time.tv_sec;
	tx->time.tv_usec = t.time.tv_usec;
	return r;
}
#else
static int sys_adjtimex(struct timex *tx)
{
	return (int)syscall(SYS_adjtimex, tx);
}
#endif

int64_t now_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return ts_ns(&t);
}

/* adjtimex()'s time in ns: tv_usec holds ns under STA_NANO. */
static int64_t timex_time_ns(const struct timex *tx)
{
	return (int64_t)tx->time.tv_sec * NSEC_PER_SEC + tx->time.tv_usec * (tx->status & STA_NANO ? 1 : 1000);
}

int read_adjtimex(int64_t *adj_ns)
{
	struct timex tx = { .modes = 0 };
	int state = sys_adjtimex(&tx);

	*adj_ns = timex_time_ns(&tx);
	return state;
}

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

/*
 * The natural way out of a leap: clear STA_INS/STA_DEL and let the state
 * machine go from TIME_WAIT to TIME_OK at the next second boundary.
 * Returns how long that took (MONOTONIC), or -1 if it did not come within
 * BACK_TO_OK_MAX_NS.
 */
int64_t clear_leap_flags(void)
{
	struct timex off = { .modes = ADJ_STATUS, .status = 0 };
	int64_t start = now_ns(CLOCK_MONOTONIC), adj, took;

	if (sys_adjtimex(&off) < 0)
		return -1;
	for (;;) {
		int state = read_adjtimex(&adj);

		took = now_ns(CLOCK_MONOTONIC) - start;
		if (state == ST_OK)
			return took > 0 ? took : 1;
		if (took > BACK_TO_OK_MAX_NS)
			return -1;
		usleep(1000);
	}
}

int arm_leap(enum leap_kind kind)
{
	/* Clearing STA_UNSYNC and maxerror, else adjtimex reports TIME_ERROR. */
	struct timex tx = {
		.modes = ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR,
		.status = kind == LEAP_INSERT ? STA_INS : STA_DEL,
	};

	return sys_adjtimex(&tx) < 0 ? -1 : 0;
}

int arm_edge_timer(int64_t midnight)
{
	struct itimerspec its = { .it_value = { .tv_sec = midnight } };
	int fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd >= 0 && timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void take(struct sample *s, int clock_tai_ok)
{
	struct timespec t;
	struct timex tx = { .modes = 0 };

	int64_t r1;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	r1 = ts_ns(&t);
	clock_gettime(CLOCK_MONOTONIC, &t);
	s->mono = ts_ns(&t);
	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	s->raw_span = ts_ns(&t) - r1;
	s->raw = r1 + s->raw_span / 2;
	clock_gettime(CLOCK_REALTIME, &t);
	s->real = ts_ns(&t);
	s->state = sys_adjtimex(&tx);
	s->tai_off = tx.tai;
	s->adj_real = timex_time_ns(&tx);
	if (clock_tai_ok) {
		clock_gettime(CLOCK_TAI, &t);
		s->tai = ts_ns(&t);
	}
}

/* What sample_loop() asks of the system, here the guest's. */
struct guest {
	int edge_fd;
	int clock_tai_ok;
};

static void take_op(void *ctx, struct sample *s)
{
	take(s, ((struct guest *)ctx)->clock_tai_ok);
}

/* The clocks read when the 00:00:00 timer has fired (0: not yet). */
static int edge_op(void *ctx, int64_t *real_ns, int64_t *mono_ns)
{
	uint64_t ticks;

	if (read(((struct guest *)ctx)->edge_fd, &ticks, sizeof(ticks)) != sizeof(ticks))
		return 0;
	*real_ns = now_ns(CLOCK_REALTIME);
	*mono_ns = now_ns(CLOCK_MONOTONIC);
	return 1;
}

static int sleep_op(void *ctx, int64_t mono_ns)
{
	(void)ctx;
	return sleep_until(mono_ns);
}

/* Sleep until MONOTONIC @mono_ns; 0: nothing to wait for. */
int sleep_until(int64_t mono_ns)
{
	struct timespec ts = ns_ts(mono_ns);

	if (!mono_ns)
		return 0;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return 1;
}

/*
 * Measure, on the CPU this thread is pinned to, where the tick falls and how
 * late short sleeps wake (struct cpu_probe).  The tick: the MONOTONIC times
 * at which a busy reader sees CLOCK_MONOTONIC_COARSE move (it moves at the
 * timekeeping tick; the reader's busy CPU keeps its tick running).  The
 * sleeps: PROBE_SLEEPS absolute CLOCK_MONOTONIC sleeps of PROBE_SLEEP_NS.
 */
void probe_cpu(struct cpu_probe *p)
{
	int64_t at[PROBE_TICKS + 1], late[PROBE_SLEEPS], c0, c, start, now;
	int n = 0;

	c0 = now_ns(CLOCK_MONOTONIC_COARSE);
	start = now_ns(CLOCK_MONOTONIC);
	do {
		now = now_ns(CLOCK_MONOTONIC);
		c = now_ns(CLOCK_MONOTONIC_COARSE);
		if (c != c0) {
			at[n++] = now;
			c0 = c;
		}
	} while (n <= PROBE_TICKS && now - start < PROBE_TICK_MAX_NS);
	p->ticks = n > 1 ? n - 1 : 0;
	p->tick_ns = tick_from_steps(at, n);
	for (p->sleeps = 0; p->sleeps < PROBE_SLEEPS; p->sleeps++) {
		int64_t deadline = now_ns(CLOCK_MONOTONIC) + PROBE_SLEEP_NS;

		sleep_until(deadline);
		late[p->sleeps] = now_ns(CLOCK_MONOTONIC) - deadline;
	}
	p->late_ns = median_ns(late, p->sleeps);
	p->tick_bound = timers_tick_bound(p->late_ns, p->tick_ns);
}

/*
 * Return half a tick after a tick (@tick_ns, measured by probe_cpu()).  The
 * clock is set then, and the leap's second boundary comes a whole number of
 * ticks later (LEAD_*_NS are multiples of the tick at every HZ), so it falls
 * mid-tick: the window between the boundary and the tick that applies the
 * leap is about half a tick, never a sliver that a timer interrupt or an
 * adjtimex() call cannot fall into (the 2015 edge bug and adjtimex's window
 * show only inside it).  The moment CLOCK_MONOTONIC_COARSE moves is the
 * tick.  Where no tick was seen it returns at once: the checks that need
 * the window count what they saw in it.
 */
static void wait_mid_tick(int64_t tick)
{
	int64_t c0, start, now;

	if (!tick)
		return;
	c0 = now_ns(CLOCK_MONOTONIC_COARSE);
	start = now_ns(CLOCK_MONOTONIC);
	do {
		now = now_ns(CLOCK_MONOTONIC);
		if (now - start > 4 * tick)
			return;
	} while (now_ns(CLOCK_MONOTONIC_COARSE) == c0);
	while (now_ns(CLOCK_MONOTONIC) < now + tick / 2)
		;
}

int arm_scenario(const struct leap_plan *p, struct leap_obs *o, int *edge_fd, char *err, size_t len)
{
	/* Arm STA_INS before 23:59:59 and STA_DEL before 23:59:58: the state
	 * machine moves to TIME_INS/TIME_DEL at the next second boundary. */
	int64_t lead = p->kind == LEAP_INSERT ? LEAD_INSERT_NS : LEAD_DELETE_NS;
	struct timespec start_ts = ns_ts(p->midnight * NSEC_PER_SEC - lead), t;
	int armed;

	memset(o, 0, sizeof(*o));
	o->kind = p->kind;
	o->midnight = p->midnight;
	o->clock_tai_ok = clock_gettime(CLOCK_TAI, &t) == 0;
	*edge_fd = -1;

	armed = !disarm_leap();
	if (armed) {
		wait_mid_tick(p->probe->tick_ns);
		armed = !clock_settime(CLOCK_REALTIME, &start_ts) && !arm_leap(p->kind);
	}
	if (!armed) {
		snprintf(err, len, "cannot set the clock or arm the leap: %s", strerror(errno));
		return -1;
	}
	clock_gettime(CLOCK_REALTIME, &t);
	o->armed_real_ns = ts_ns(&t);
	if (!armed_in_time(p->kind, p->midnight, o->armed_real_ns))
		return 1;
	*edge_fd = arm_edge_timer(p->midnight);
	if (*edge_fd < 0) {
		snprintf(err, len, "cannot arm the 00:00:00 timer: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void sample_leap(struct leap_obs *o, int edge_fd, const struct cpu_probe *p)
{
	struct guest g = { .edge_fd = edge_fd, .clock_tai_ok = o->clock_tai_ok };
	struct sampler_ops ops = { .take = take_op, .edge = edge_op, .sleep_until = sleep_op,
				   .ctx = &g, .late_ns = probe_margin(p), .edge_timer = 1 };
	struct leap_track track;

	sample_loop(o, &track, &ops);
	close(edge_fd);
}
