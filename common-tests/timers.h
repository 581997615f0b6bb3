/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LEAP_TIMERS_H
#define LEAP_TIMERS_H

#include <pthread.h>
#include <stdint.h>
#include "logic.h"
#include "time32.h"

enum {
	IF_FUTEX, IF_COND, IF_NANOSLEEP, IF_TIMERFD, IF_POSIX,
#ifdef HAVE_TIME32_SYSCALLS
	IF_FUTEX32, IF_NANOSLEEP32,
#endif
	NIFACE
};
extern const char *const iface_names[NIFACE];

/* The waits after a leap on one CPU. */
struct cpu_result {
	int cpu;
	int64_t elapsed_ns[NIFACE];	/* CLOCK_MONOTONIC from arming to waking */
	int64_t woke_ns[NIFACE];	/* CLOCK_REALTIME at waking minus the deadline */
	int err[NIFACE];
	int64_t control_ns;
	int control_err;
	long wakeups, load_errors;
	int64_t load_ns;
};

/* The waits across a leap on one CPU (the interval timer: the first CPU only). */
struct span_result {
	int cpu;
	struct span_wait w[NSPAN];
};

/*
 * The other CPU during a leap.  Insertion: its own 00:00:00 timer, adjtimex
 * writes meanwhile.  Deletion: adjtimex() read in a tight loop across the
 * boundary, until it reports the leap applied.
 */
struct other_cpu {
	int cpu, err;
	enum leap_kind kind;
	int64_t midnight;
	const struct cpu_probe *probe;	/* this CPU's: how early to wake */
	struct edge_obs edge;
	long writes, write_errors;
	int window, pending;		/* reads past the boundary; of them, saying "still to come" */
	int64_t pending_adj_ns;		/* the first such read's time */
};

/* Every thread of a scenario, each with its job; joined at once. */
#define MAX_THREADS	(MAX_CPUS * (NIFACE + NSPAN + 2) + 1)
struct job {
	void *res;
	int idx;
	enum leap_kind kind;
	int64_t midnight;
};
struct threads {
	pthread_t th[MAX_THREADS];
	struct job jobs[MAX_THREADS];
	int n, failed;
};

int pin_to_cpu(int cpu);
void start_span_waits(struct threads *t, struct span_result *s, int n, enum leap_kind kind,
		      int64_t midnight);
void start_after_waits(struct threads *t, struct cpu_result *r, int n, int do_load);
void start_other_cpu(struct threads *t, struct other_cpu *o);
/* Join every thread started; -1 when one could not be started. */
int join_all(struct threads *t);
/* A CLOCK_REALTIME timerfd cancelled by a clock change, or -1 (errno set). */
int arm_cancel_on_set(int64_t midnight);
void block_timer_signals(void);

#endif
