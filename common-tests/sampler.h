/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LEAP_SAMPLER_H
#define LEAP_SAMPLER_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "logic.h"

struct leap_plan {
	enum leap_kind kind;
	int64_t midnight;	/* UTC midnight (seconds) at which the leap happens */
	const struct cpu_probe *probe;	/* the arming CPU's, for its tick */
};

/* @clk read now, in ns. */
int64_t now_ns(clockid_t clk);
int sleep_until(int64_t mono_ns);
/* Measure the CPU this thread runs on (struct cpu_probe; ->cpu is the caller's). */
void probe_cpu(struct cpu_probe *p);
int set_tai_offset(int tai);
/* adjtimex()'s state, and its time in @adj_ns. */
int read_adjtimex(int64_t *adj_ns);
int arm_leap(enum leap_kind kind);
int disarm_leap(void);
int64_t clear_leap_flags(void);
/* A non-blocking timerfd that fires at @midnight by CLOCK_REALTIME, or -1. */
int arm_edge_timer(int64_t midnight);
/*
 * Set the clock before @p's midnight and arm the leap and a 00:00:00 timer
 * (*edge_fd).  0: armed; 1: armed too late (the guest stalled), try again;
 * -1: error, in @err.
 */
int arm_scenario(const struct leap_plan *p, struct leap_obs *o, int *edge_fd, char *err, size_t len);
/* Watch the armed leap happen from a busy loop, resting once until @p's
 * margin before the boundary; closes @edge_fd. */
void sample_leap(struct leap_obs *o, int edge_fd, const struct cpu_probe *p);

#endif
