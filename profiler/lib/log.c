// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "profiler/lib/lib.h"

enum log_level log_verbosity = LOG_INFO;

static const char *const level_prefix[] = {
	[LOG_ERR] = "error: ",
	[LOG_WARN] = "warning: ",
	[LOG_INFO] = "",
	[LOG_DEBUG] = "debug: ",
};

static int progress_state = -1;	/* -1 unknown, 0 off, 1 on */
static bool progress_shown;

static void log_vmsg(enum log_level level, const char *fmt, va_list ap)
{
	if (level > log_verbosity)
		return;
	progress_done();
	fprintf(stderr, "kprof: %s", level_prefix[level]);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(level, fmt, ap);
	va_end(ap);
}

int err_set(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static bool progress_enabled(void)
{
	if (progress_state < 0)
		progress_state = isatty(STDERR_FILENO) && log_verbosity >= LOG_INFO;
	return progress_state;
}

void progress_update(const char *fmt, ...)
{
	static struct timespec last;
	struct timespec now;
	va_list ap;

	if (!progress_enabled())
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (progress_shown && (now.tv_sec - last.tv_sec) * 1000000000L +
			      (now.tv_nsec - last.tv_nsec) < 100000000L)
		return;
	last = now;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	progress_shown = true;
}

void progress_done(void)
{
	if (!progress_shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress_shown = false;
}
