/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - a tiny Test Anything Protocol emitter for kprof's C unit tests.
 *
 * Each unit test is one executable that prints TAP on stdout and is run by prove. Plans may be
 * declared up front (plan()) or at the end (done_testing()). Skips are real TAP skips, so a test
 * that needs something this machine lacks is reported as skipped, never as passed or failed.
 */
#ifndef KPROF_TAP_H
#define KPROF_TAP_H

#include <stdint.h>
#include <stdbool.h>

void plan(int n);
/* Print "1..0 # SKIP why" and exit(0): the whole file is skipped. */
void skip_all(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Emit n "ok N # skip why" lines. */
void skip(int n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the plan if none was given; return the exit status (non-zero when a test failed). */
int done_testing(void);

bool ok_at(bool cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool is_int_at(long long got, long long want, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
bool is_u64_at(uint64_t got, uint64_t want, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
bool is_str_at(const char *got, const char *want, const char *file, int line,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
bool is_double_at(double got, double want, double eps, const char *file, int line,
		  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

#define ok(cond, ...)		ok_at(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(g, w, ...)	is_int_at((g), (w), __FILE__, __LINE__, __VA_ARGS__)
#define is_u64(g, w, ...)	is_u64_at((g), (w), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(g, w, ...)	is_str_at((g), (w), __FILE__, __LINE__, __VA_ARGS__)
#define is_double(g, w, e, ...)	is_double_at((g), (w), (e), __FILE__, __LINE__, __VA_ARGS__)

#endif
