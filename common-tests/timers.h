/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LEAP_TIMERS_H
#define LEAP_TIMERS_H

#include <stdint.h>

enum { IF_FUTEX, IF_COND, IF_NANOSLEEP, IF_TIMERFD, IF_POSIX, NIFACE };
extern const char *const iface_names[NIFACE];

struct cpu_result {
	int cpu, do_load, pin_err;
	int64_t elapsed_ns[NIFACE];	/* CLOCK_MONOTONIC from arming to waking */
	int64_t woke_ns[NIFACE];	/* CLOCK_REALTIME at waking minus the deadline */
	int err[NIFACE];
	int64_t control_ns;
	int control_err;
	long wakeups, load_errors;
	int64_t load_ns;
};

int pin_to_cpu(int cpu);
int run_on_cpus(struct cpu_result *res, int n, int do_load);
void block_timer_signal(void);

#endif
