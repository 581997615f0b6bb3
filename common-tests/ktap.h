/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - the few KTAP v1 lines the leap test prints (cf. kselftest.h).
 *
 * Top-level tests may hold subtests: ktap_sub_begin() prints the indented
 * header, ktap_sub_result() one indented result line, and the parent's
 * ktap_result() closes it.  Exit codes follow kselftest: 0 pass, 1 fail, 4 skip.
 */
#ifndef LEAP_KTAP_H
#define LEAP_KTAP_H

#include <stdarg.h>
#include <stdio.h>

#define KSFT_PASS 0
#define KSFT_FAIL 1
#define KSFT_SKIP 4

enum ktap_res { KTAP_PASS, KTAP_FAIL, KTAP_SKIP };

struct ktap {
	FILE *out;
	int next, pass, fail, skip;
	int sub_next;
};

static inline void ktap_line(struct ktap *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void ktap_line(struct ktap *k, const char *fmt, ...)
{
	va_list ap;

	if (!k->out)		/* a silent report: results counted, nothing printed */
		return;
	va_start(ap, fmt);
	vfprintf(k->out, fmt, ap);
	va_end(ap);
	fputc('\n', k->out);
	fflush(k->out);
}

static inline void ktap_header(struct ktap *k, int plan)
{
	k->next = 1;
	ktap_line(k, "KTAP version 1");
	ktap_line(k, "1..%d", plan);
}

static inline void ktap_sub_begin(struct ktap *k, const char *name, int plan)
{
	k->sub_next = 1;
	ktap_line(k, "    KTAP version 1");
	ktap_line(k, "    # Subtest: %s", name);
	ktap_line(k, "    1..%d", plan);
}

static inline const char *ktap_word(enum ktap_res r)
{
	return r == KTAP_FAIL ? "not ok" : "ok";
}

static inline void ktap_sub_result(struct ktap *k, enum ktap_res r,
				   const char *name, const char *why)
{
	ktap_line(k, "    %s %d %s%s%s", ktap_word(r), k->sub_next++, name,
		  r == KTAP_SKIP ? " # SKIP " : "", r == KTAP_SKIP ? why : "");
}

static inline void ktap_result(struct ktap *k, enum ktap_res r,
			       const char *name, const char *why)
{
	if (r == KTAP_PASS)
		k->pass++;
	else if (r == KTAP_FAIL)
		k->fail++;
	else
		k->skip++;
	ktap_line(k, "%s %d %s%s%s", ktap_word(r), k->next++, name,
		  r == KTAP_SKIP ? " # SKIP " : "", r == KTAP_SKIP ? why : "");
}

/* Worst of two results: FAIL over PASS over SKIP (a skipped part proves nothing). */
static inline enum ktap_res ktap_worst(enum ktap_res a, enum ktap_res b)
{
	if (a == KTAP_FAIL || b == KTAP_FAIL)
		return KTAP_FAIL;
	if (a == KTAP_PASS || b == KTAP_PASS)
		return KTAP_PASS;
	return KTAP_SKIP;
}

/*
 * The last line, found by the host even when kernel messages interleave with
 * the KTAP output: it starts on a fresh line and carries the counts, and
 * the tests a PASS does not prove (@unproven, comma-separated; "" for none).
 */
static inline int ktap_finish(struct ktap *k, const char *unproven)
{
	int code = k->fail ? KSFT_FAIL : (k->pass ? KSFT_PASS : KSFT_SKIP);

	ktap_line(k, "# Totals: pass:%d fail:%d skip:%d", k->pass, k->fail, k->skip);
	ktap_line(k, "\nLEAPTEST RESULT: %s pass=%d fail=%d skip=%d%s%s",
		  code == KSFT_FAIL ? "FAIL" : code == KSFT_PASS ? "PASS" : "SKIP",
		  k->pass, k->fail, k->skip, unproven[0] ? " unproven=" : "", unproven);
	return code;
}

#endif
