// SPDX-License-Identifier: GPL-2.0
/*
 * timers.c - absolute CLOCK_REALTIME waits through every interface, per CPU.
 *
 * The hrtimer clock bases are per CPU, so threads pinned to each online CPU
 * wait 100 ms through each interface, all at once.  Earliness is judged as upstream's
 * tests do, by CLOCK_REALTIME read on waking against the deadline (a
 * preemption can only make that later); the wait's CLOCK_MONOTONIC length
 * is kept for lateness and as a metric.
 * A stale CLOCK_REALTIME base offset (the 2012 bug) makes the waits end early
 * after an inserted second and about a second late after a deleted one.
 * The load loop repeats 10 ms futex waits for a second: the 2012 load spike.
 * Waits armed before the leap for a moment after it, through every clock,
 * must keep their length (only CLOCK_REALTIME's deadline sees the leap).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "logic.h"
#include "sampler.h"
#include "timers.h"

/* From <linux/futex.h>, which musl's compiler wrapper does not see. */
#ifndef FUTEX_WAIT_BITSET
#define FUTEX_WAIT_BITSET	9
#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_BITSET_MATCH_ANY	0xffffffffU
#endif
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif
#ifndef TFD_TIMER_CANCEL_ON_SET
#define TFD_TIMER_CANCEL_ON_SET	(1 << 1)
#endif
#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif
#define TIMER_SIGNAL SIGUSR1

const char *const iface_names[NIFACE] = {
	"futex", "pthread_cond", "clock_nanosleep", "timerfd", "posix_timer",
#ifdef HAVE_TIME32_SYSCALLS
	"futex_time32", "clock_nanosleep_time32",
#endif
};

#define FUTEX_OP (FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME | FUTEX_PRIVATE_FLAG)

#ifdef HAVE_TIME32_SYSCALLS
/* The old 32-bit entry points, with the kernel's old_timespec32. */
static int wait_futex32(int64_t deadline)
{
	static __thread uint32_t word;
	struct timespec32 ts = ns_ts32(deadline);
	long r;

	do {
		r = syscall(__NR_futex, &word, FUTEX_OP, 0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
	} while (r == -1 && errno == EINTR);
	return r == -1 && errno == ETIMEDOUT ? 0 : -1;
}

static int wait_nanosleep32(int64_t deadline)
{
	struct timespec32 ts = ns_ts32(deadline);
	long r;

	while ((r = syscall(__NR_clock_nanosleep, CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL)) == -1 &&
	       errno == EINTR)
		;
	return r ? -1 : 0;
}
#endif

static int wait_futex(int64_t deadline)
{
	static __thread uint32_t word;
	struct timespec ts = ns_ts(deadline);
	long nr = SYS_futex, r;

#ifdef HAVE_TIME32_SYSCALLS
	/* This build's struct timespec is the 64-bit one: futex_time64 takes
	 * it; a kernel before 5.1 has only the old call. */
	if (sizeof(ts.tv_sec) == 8)
		nr = __NR_futex_time64;
#endif
	do {
		r = syscall(nr, &word, FUTEX_OP, 0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
	} while (r == -1 && errno == EINTR);
#ifdef HAVE_TIME32_SYSCALLS
	if (r == -1 && errno == ENOSYS && nr != SYS_futex)
		return wait_futex32(deadline);
#endif
	return r == -1 && errno == ETIMEDOUT ? 0 : -1;
}

static int wait_cond(int64_t deadline)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;	/* CLOCK_REALTIME */
	struct timespec ts = ns_ts(deadline);
	int r;

	pthread_mutex_lock(&m);
	do {
		r = pthread_cond_timedwait(&c, &m, &ts);
	} while (r == 0 || r == EINTR);
	pthread_mutex_unlock(&m);
	return r == ETIMEDOUT ? 0 : -1;
}

static int wait_nanosleep(int64_t deadline)
{
	struct timespec ts = ns_ts(deadline);
	int r;

	while ((r = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL)) == EINTR)
		;
	return r ? -1 : 0;
}

static int wait_timerfd(int64_t deadline)
{
	struct itimerspec its = { .it_value = ns_ts(deadline) };
	uint64_t ticks;
	int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC);
	ssize_t n = -1;

	if (fd < 0)
		return -1;
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME, &its, NULL) == 0)
		n = read(fd, &ticks, sizeof(ticks));
	close(fd);
	return n == sizeof(ticks) ? 0 : -1;
}

static int wait_posix_timer(int64_t deadline)
{
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = TIMER_SIGNAL };
	struct itimerspec its = { .it_value = ns_ts(deadline) };
	struct timespec limit = { .tv_sec = 3 };
	sigset_t set;
	timer_t t;
	int r = -1;

	sev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
	sigemptyset(&set);
	sigaddset(&set, TIMER_SIGNAL);
	if (timer_create(CLOCK_REALTIME, &sev, &t))
		return -1;
	if (timer_settime(t, TIMER_ABSTIME, &its, NULL) == 0)
		r = sigtimedwait(&set, NULL, &limit) == TIMER_SIGNAL ? 0 : -1;
	timer_delete(t);
	return r;
}

static int (*const waiters[NIFACE])(int64_t) = {
	wait_futex, wait_cond, wait_nanosleep, wait_timerfd, wait_posix_timer,
#ifdef HAVE_TIME32_SYSCALLS
	wait_futex32, wait_nanosleep32,
#endif
};

/*
 * Waits until CLOCK_REALTIME now + @ns through @iface; returns MONOTONIC
 * elapsed, and in @woke (unless NULL) CLOCK_REALTIME on waking minus the
 * deadline.
 */
static int64_t timed_wait(int iface, int64_t ns, int *err, int64_t *woke)
{
	int64_t start = now_ns(CLOCK_MONOTONIC);
	int64_t deadline = now_ns(CLOCK_REALTIME) + ns;

	*err = waiters[iface](deadline);
	if (woke)
		*woke = now_ns(CLOCK_REALTIME) - deadline;
	return now_ns(CLOCK_MONOTONIC) - start;
}

int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Start @fn on @job (copied: the thread reads its own copy). */
static void spawn(struct threads *t, void *(*fn)(void *), struct job job)
{
	pthread_attr_t attr;
	struct job *j;

	if (t->n == MAX_THREADS) {
		t->failed = 1;
		return;
	}
	j = &t->jobs[t->n];
	*j = job;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&t->th[t->n], &attr, fn, j))
		t->failed = 1;
	else
		t->n++;
	pthread_attr_destroy(&attr);
}

int join_all(struct threads *t)
{
	int failed = t->failed;

	for (int i = 0; i < t->n; i++)
		pthread_join(t->th[i], NULL);
	t->n = t->failed = 0;
	return failed ? -1 : 0;
}

/* --- after the leap: 100 ms waits through each interface, per CPU ---------- */

static void *after_wait(void *arg)
{
	struct job *j = arg;
	struct cpu_result *r = j->res;
	int i = j->idx;

	if (pin_to_cpu(r->cpu)) {
		r->err[i] = -1;
		return NULL;
	}
	r->elapsed_ns[i] = timed_wait(i, TIMER_WAIT_NS, &r->err[i], &r->woke_ns[i]);
	return NULL;
}

static void *control_wait(void *arg)
{
	struct cpu_result *r = ((struct job *)arg)->res;
	struct timespec rel = ns_ts(TIMER_WAIT_NS);
	int64_t start;

	if (pin_to_cpu(r->cpu)) {
		r->control_err = -1;
		return NULL;
	}
	start = now_ns(CLOCK_MONOTONIC);
	r->control_err = clock_nanosleep(CLOCK_MONOTONIC, 0, &rel, NULL);
	r->control_ns = now_ns(CLOCK_MONOTONIC) - start;
	return NULL;
}

/* A second of 10 ms absolute futex waits: the 2012 load spike. */
static void *load_loop(void *arg)
{
	struct cpu_result *r = ((struct job *)arg)->res;
	int64_t start, end;

	if (pin_to_cpu(r->cpu)) {
		r->load_errors = 1;
		return NULL;
	}
	start = now_ns(CLOCK_MONOTONIC);
	end = start + NSEC_PER_SEC;
	do {
		int err;

		timed_wait(IF_FUTEX, LOAD_WAIT_NS, &err, NULL);
		r->wakeups++;
		r->load_errors += err != 0;
	} while (now_ns(CLOCK_MONOTONIC) < end);
	r->load_ns = now_ns(CLOCK_MONOTONIC) - start;
	return NULL;
}

void start_after_waits(struct threads *t, struct cpu_result *r, int n, int do_load)
{
	for (int c = 0; c < n; c++) {
		for (int i = 0; i < NIFACE; i++)
			spawn(t, after_wait, (struct job){ .res = &r[c], .idx = i });
		spawn(t, control_wait, (struct job){ .res = &r[c] });
		if (do_load)
			spawn(t, load_loop, (struct job){ .res = &r[c] });
	}
}

/* --- across the leap: armed before it, due 300 ms past its midnight --------- */

static int sleep_abs(clockid_t clk, int64_t deadline, int64_t *woke)
{
	struct timespec ts = ns_ts(deadline);
	int r;

	while ((r = clock_nanosleep(clk, TIMER_ABSTIME, &ts, NULL)) == EINTR)
		;
	*woke = now_ns(clk) - deadline;
	return r;
}

static int sleep_rel(clockid_t clk, int64_t ns)
{
	struct timespec ts = ns_ts(ns), rem;
	int r;

	while ((r = clock_nanosleep(clk, 0, &ts, &rem)) == EINTR)
		ts = rem;
	return r;
}

static int itimer_wait(int64_t ns)
{
	struct itimerval it = { .it_value = { .tv_sec = ns / NSEC_PER_SEC,
					      .tv_usec = ns % NSEC_PER_SEC / 1000 } };
	struct timespec limit = ns_ts(ns + 3 * NSEC_PER_SEC);
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	if (setitimer(ITIMER_REAL, &it, NULL))
		return errno;
	return sigtimedwait(&set, NULL, &limit) == SIGALRM ? 0 : ETIMEDOUT;
}

/* Its deadline on @clk: as far from now as @want_ns of MONOTONIC. */
static int sleep_abs_for(clockid_t clk, int64_t want_ns, int64_t *woke)
{
	struct timespec t;

	if (clock_gettime(clk, &t))
		return errno;
	return sleep_abs(clk, ts_ns(&t) + want_ns, woke);
}

static void *span_wait(void *arg)
{
	struct job *j = arg;
	struct span_result *s = j->res;
	struct span_wait *w = &s->w[j->idx];
	int64_t start;

	if (pin_to_cpu(s->cpu)) {
		w->err = errno ? errno : -1;
		return NULL;
	}
	start = now_ns(CLOCK_MONOTONIC);
	w->want_ns = span_length(j->kind, j->midnight, now_ns(CLOCK_REALTIME));
	switch (j->idx) {
	case SP_REALTIME_ABS:
		w->err = sleep_abs(CLOCK_REALTIME, j->midnight * NSEC_PER_SEC + SPAN_PAST_NS, &w->woke_ns);
		break;
	case SP_TAI_ABS:
		w->err = sleep_abs_for(CLOCK_TAI, w->want_ns, &w->woke_ns);
		break;
	case SP_BOOTTIME_ABS:
		w->err = sleep_abs_for(CLOCK_BOOTTIME, w->want_ns, &w->woke_ns);
		break;
	case SP_REALTIME_REL:
		w->err = sleep_rel(CLOCK_REALTIME, w->want_ns);
		break;
	case SP_MONOTONIC_REL:
		w->err = sleep_rel(CLOCK_MONOTONIC, w->want_ns);
		break;
	case SP_ITIMER:
		w->err = itimer_wait(w->want_ns);
		break;
	}
	w->got_ns = now_ns(CLOCK_MONOTONIC) - start;
	return NULL;
}

void start_span_waits(struct threads *t, struct span_result *s, int n, enum leap_kind kind,
		      int64_t midnight)
{
	for (int c = 0; c < n; c++)
		for (int i = 0; i < NSPAN; i++)
			if (i != SP_ITIMER || c == 0)	/* one per process */
				spawn(t, span_wait, (struct job){ .res = &s[c], .idx = i,
								  .kind = kind, .midnight = midnight });
}

/* --- the other CPU during an insertion (leapcrash.c's lesson) --------------- */

/*
 * Busy (so its tick runs across the edge) until its own 00:00:00 timer has
 * fired, rewriting STA_INS through adjtimex() all the while: the kernel must
 * neither hang nor splat, and the timer must not fire during 23:59:60.
 */
static void *other_cpu_loop(void *arg)
{
	struct other_cpu *o = ((struct job *)arg)->res;
	int64_t start, off0, step_mono = 0;
	int fd, stepped = 0;

	if (pin_to_cpu(o->cpu) || (fd = arm_edge_timer(o->midnight)) < 0) {
		o->err = errno ? errno : -1;
		return NULL;
	}
	start = now_ns(CLOCK_MONOTONIC);
	off0 = now_ns(CLOCK_REALTIME) - start;
	for (;;) {
		uint64_t ticks;
		ssize_t n;
		int64_t real, mono;

		if (arm_leap(LEAP_INSERT))
			o->write_errors++;
		else
			o->writes++;
		n = read(fd, &ticks, sizeof(ticks));
		real = now_ns(CLOCK_REALTIME);
		mono = now_ns(CLOCK_MONOTONIC);
		if (!stepped && llabs(real - mono - off0) > WALL_STEP_MIN_NS) {
			stepped = 1;
			step_mono = mono;
		}
		/* Past 00:00:00, not yet stepped: the window an early timer fires in. */
		if (!stepped && real - o->midnight * NSEC_PER_SEC > o->edge.window_ns)
			o->edge.window_ns = real - o->midnight * NSEC_PER_SEC;
		if (n == sizeof(ticks)) {
			edge_fired(&o->edge, stepped, step_mono, real, mono);
			break;
		}
		if ((stepped && real >= o->midnight * NSEC_PER_SEC + EDGE_WAIT_MAX_NS) ||
		    mono - start > SAMPLE_LIMIT_NS)
			break;
	}
	close(fd);
	return NULL;
}

/*
 * The deletion's window is short (up to a tick); a loop of adjtimex() reads
 * alone, on the other CPU, sees it more often than the sampler does.  Stops
 * once adjtimex says the leap is behind it (CPU idle again for the waits).
 */
static void *other_cpu_poll(void *arg)
{
	struct other_cpu *o = ((struct job *)arg)->res;
	int64_t boundary = leap_boundary(LEAP_DELETE, o->midnight), start, adj;

	if (pin_to_cpu(o->cpu)) {
		o->err = errno ? errno : -1;
		return NULL;
	}
	start = now_ns(CLOCK_MONOTONIC);
	/* Asleep until just before the boundary (see WINDOW_WAKE_NS). */
	sleep_until(start + wake_before(LEAP_DELETE, o->midnight, probe_margin(o->probe)) - now_ns(CLOCK_REALTIME));
	while (now_ns(CLOCK_MONOTONIC) - start < SAMPLE_LIMIT_NS) {
		int state = read_adjtimex(&adj);

		if (adj < boundary)
			continue;
		o->window++;
		if (adjtimex_pending(LEAP_DELETE, o->midnight, state, adj)) {
			if (!o->pending++)
				o->pending_adj_ns = adj;
		} else if (state == ST_WAIT || state == ST_OK) {
			break;
		}
	}
	return NULL;
}

void start_other_cpu(struct threads *t, struct other_cpu *o)
{
	spawn(t, o->kind == LEAP_INSERT ? other_cpu_loop : other_cpu_poll, (struct job){ .res = o });
}

int arm_cancel_on_set(int64_t midnight)
{
	struct itimerspec its = { .it_value = { .tv_sec = midnight + 3600 } };
	int fd = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);

	if (fd >= 0 && timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &its, NULL)) {
		int e = errno;

		close(fd);
		errno = e;
		fd = -1;
	}
	return fd;
}

void block_timer_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, TIMER_SIGNAL);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}
