// SPDX-License-Identifier: GPL-2.0
/*
 * timers.c - absolute CLOCK_REALTIME waits through every interface, per CPU.
 *
 * The hrtimer clock bases are per CPU, so one thread pinned to each online CPU
 * waits 100 ms through each interface.  Earliness is judged as upstream's
 * tests do, by CLOCK_REALTIME read on waking against the deadline (a
 * preemption can only make that later); the wait's CLOCK_MONOTONIC length
 * is kept for lateness and as a metric.
 * A stale CLOCK_REALTIME base offset (the 2012 bug) makes the waits end early
 * after an inserted second and about a second late after a deleted one.
 * The load loop repeats 10 ms futex waits for a second: the 2012 load spike.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "logic.h"
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
#define TIMER_SIGNAL SIGUSR1

const char *const iface_names[NIFACE] = {
	"futex", "pthread_cond", "clock_nanosleep", "timerfd", "posix_timer",
};

static int64_t now_ns(clockid_t clk)
{
	struct timespec t;

	clock_gettime(clk, &t);
	return ts_ns(&t);
}

static int wait_futex(int64_t deadline)
{
	static __thread uint32_t word;
	struct timespec ts = ns_ts(deadline);
	long r;

	do {
		r = syscall(SYS_futex, &word,
			    FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME | FUTEX_PRIVATE_FLAG,
			    0, &ts, NULL, FUTEX_BITSET_MATCH_ANY);
	} while (r == -1 && errno == EINTR);
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

static void *cpu_thread(void *arg)
{
	struct cpu_result *r = arg;
	struct timespec rel = ns_ts(TIMER_WAIT_NS);
	int64_t start, end;

	r->pin_err = pin_to_cpu(r->cpu);
	for (int i = 0; i < NIFACE; i++)
		r->elapsed_ns[i] = timed_wait(i, TIMER_WAIT_NS, &r->err[i], &r->woke_ns[i]);

	start = now_ns(CLOCK_MONOTONIC);
	r->control_err = clock_nanosleep(CLOCK_MONOTONIC, 0, &rel, NULL);
	r->control_ns = now_ns(CLOCK_MONOTONIC) - start;

	if (r->do_load) {
		start = now_ns(CLOCK_MONOTONIC);
		end = start + NSEC_PER_SEC;
		do {
			int err;

			timed_wait(0, LOAD_WAIT_NS, &err, NULL);
			r->wakeups++;
			r->load_errors += err != 0;
		} while (now_ns(CLOCK_MONOTONIC) < end);
		r->load_ns = now_ns(CLOCK_MONOTONIC) - start;
	}
	return NULL;
}

int run_on_cpus(struct cpu_result *res, int n, int do_load)
{
	pthread_t th[MAX_CPUS];
	int started = 0, rc = 0;

	for (int i = 0; i < n; i++) {
		res[i].do_load = do_load;
		if (pthread_create(&th[i], NULL, cpu_thread, &res[i]))
			break;
		started++;
	}
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	if (started != n)
		rc = -1;
	return rc;
}

void block_timer_signal(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, TIMER_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
}
