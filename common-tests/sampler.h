/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LEAP_SAMPLER_H
#define LEAP_SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "logic.h"

struct leap_plan {
	enum leap_kind kind;
	int64_t midnight;	/* UTC midnight (seconds) at which the leap happens */
	int arm_edge;		/* arm a CLOCK_REALTIME timer for 00:00:00 */
};

int set_tai_offset(int tai);
int disarm_leap(void);
/* 0: sampled; 1: armed too late (the guest stalled), try again; -1: error. */
int run_leap(const struct leap_plan *p, struct leap_obs *o, char *err, size_t len);

#endif
