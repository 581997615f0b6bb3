/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LEAP_TIME32_H
#define LEAP_TIME32_H

#include <stdint.h>
#include <sys/syscall.h>

/*
 * A 32-bit arch has two entry points for each time system call: the 64-bit
 * ones (futex_time64, clock_nanosleep_time64, ...: Linux 5.1 and later),
 * which a build with a 64-bit time_t takes through libc, and the old 32-bit
 * ones, which 2012's programs called and which the test calls itself
 * (timers.c's IF_FUTEX32 and IF_NANOSLEEP32; adjtimex, sampler.c).  A
 * 64-bit arch has one of each.
 */
#if defined(__NR_futex_time64) && defined(__NR_futex) && defined(__NR_clock_nanosleep)
#define HAVE_TIME32_SYSCALLS 1

/* The kernel's old_timespec32. */
struct timespec32 {
	int32_t tv_sec, tv_nsec;
};

static inline struct timespec32 ns_ts32(int64_t ns)
{
	struct timespec32 t = { (int32_t)(ns / 1000000000), (int32_t)(ns % 1000000000) };

	return t;
}

/* The kernel's old_timex32: adjtimex()'s argument on a 32-bit arch. */
struct timex32 {
	uint32_t modes;
	int32_t offset, freq, maxerror, esterror, status, constant, precision, tolerance;
	struct {
		int32_t tv_sec, tv_usec;
	} time;
	int32_t tick, ppsfreq, jitter, shift, stabil, jitcnt, calcnt, errcnt, stbcnt, tai;
	int32_t pad[11];
};
#endif

#endif
