// SPDX-License-Identifier: GPL-2.0
/*
 * test_logic.c - host-side unit tests of the leap test's pure logic (logic.c).
 *
 * Feeds the checks what a correct kernel and each broken one would show.
 * Build and run: cc -Wall -Wextra -o test_logic test_logic.c logic.c && ./test_logic
 */
#include <stdio.h>
#include <string.h>

#include "leap.h"

static int passed, failed;

#define EXPECT(cond) do {						\
	if (cond) {							\
		passed++;						\
	} else {							\
		failed++;						\
		printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);	\
	}								\
} while (0)

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
	o.mono_max_gap_ns = 20000;
	o.tai_before = 37;
	o.tai_after = 37 - step;
	o.ctai_before_ns = 37 * NSEC_PER_SEC;
	o.ctai_after_ns = (37 - step) * NSEC_PER_SEC + 1000;
	o.edge_armed = o.edge_fired = o.edge_fired_after_step = kind == LEAP_INSERT;
	o.edge_real_ns = o.midnight * NSEC_PER_SEC + 20000;
	o.edge_step_to_fire_ns = NSEC_PER_SEC;
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

	EXPECT(check_edge(&o, why, sizeof(why)));
	EXPECT(strstr(why, "after the step") != NULL);
}

static void test_states(void)
{
	char why[200];
	struct leap_obs o = good(LEAP_INSERT);

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
	o.nstates = 0;
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_WAIT);			/* TIME_OOP skipped */
	obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_WAIT);
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
	o.nstates = 0;
	obs_add_state(&o, ST_INS);
	obs_add_state(&o, ST_DEL);			/* a state of the other kind */
	obs_add_state(&o, ST_OOP);
	obs_add_state(&o, ST_WAIT);
	EXPECT(!check_states(LEAP_INSERT, &o, why, sizeof(why)));
}

static void test_wall_and_tai(void)
{
	char why[200];
	struct leap_obs o = good(LEAP_INSERT);

	o.off_after_ns = o.off_before_ns;		/* no step: leap not applied */
	EXPECT(!check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));
	o = good(LEAP_INSERT);
	o.in_last_second_ns = NSEC_PER_SEC;		/* 23:59:59 not repeated */
	EXPECT(!check_wall_sequence(LEAP_INSERT, &o, why, sizeof(why)));
	o = good(LEAP_DELETE);
	o.in_last_second_ns = NSEC_PER_SEC;		/* 23:59:59 not skipped */
	EXPECT(!check_wall_sequence(LEAP_DELETE, &o, why, sizeof(why)));

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
}

static void test_monotonic(void)
{
	char why[200];
	struct leap_obs o = good(LEAP_INSERT);

	o.mono_backwards = 1;				/* M6 on insert */
	EXPECT(!check_monotonic(&o, why, sizeof(why)));
	o = good(LEAP_DELETE);
	o.mono_max_gap_ns = NSEC_PER_SEC;		/* M6 on delete */
	EXPECT(!check_monotonic(&o, why, sizeof(why)));
	o.mono_max_gap_ns = MONO_MAX_GAP_NS - 1;
	EXPECT(check_monotonic(&o, why, sizeof(why)));
}

static void test_edge(void)
{
	char why[200];
	struct leap_obs o = good(LEAP_INSERT);

	o.edge_fired_after_step = 0;			/* fired at the old 00:00:00 */
	EXPECT(!check_edge(&o, why, sizeof(why)));
	o = good(LEAP_INSERT);
	o.edge_real_ns = o.midnight * NSEC_PER_SEC - 999 * NSEC_PER_MSEC; /* during 23:59:60 */
	EXPECT(!check_edge(&o, why, sizeof(why)));
	o = good(LEAP_INSERT);
	o.edge_fired = 0;
	EXPECT(!check_edge(&o, why, sizeof(why)));
	EXPECT(strstr(why, "never fired") != NULL);
}

static void test_waits(void)
{
	long per_s;

	EXPECT(classify_wait(TIMER_WAIT_NS, TIMER_WAIT_NS + 200000, 0) == WAIT_ON_TIME);
	EXPECT(classify_wait(TIMER_WAIT_NS, TIMER_WAIT_NS + 300 * NSEC_PER_MSEC, 0) == WAIT_ON_TIME);
	EXPECT(classify_wait(TIMER_WAIT_NS, 600000, 0) == WAIT_EARLY);		/* insert bug */
	EXPECT(classify_wait(TIMER_WAIT_NS, 1100 * NSEC_PER_MSEC, 0) == WAIT_LATE);	/* delete bug */
	EXPECT(classify_wait(TIMER_WAIT_NS, TIMER_WAIT_NS, 1) == WAIT_ERROR);
	EXPECT(!load_too_high(98, NSEC_PER_SEC, &per_s) && per_s == 98);
	EXPECT(load_too_high(18000, NSEC_PER_SEC, &per_s) && per_s == 18000);
	EXPECT(!load_too_high(100, NSEC_PER_SEC + 5 * NSEC_PER_MSEC, &per_s) && per_s == 99);
	EXPECT(load_too_high(LOAD_MAX_PER_S + 1, NSEC_PER_SEC, &per_s));
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

int main(void)
{
	test_skip_list();
	test_good_kernel();
	test_states();
	test_wall_and_tai();
	test_monotonic();
	test_edge();
	test_waits();
	test_marker();
	printf("logic: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
