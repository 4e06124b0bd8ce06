// SPDX-License-Identifier: GPL-2.0
/*
 * record-wait.c - the main thread of `kprof record`/`kprof stat` while events run: waits for
 * the command, the --duration or Ctrl-C/SIGTERM with sigtimedwait() (signals are
 * blocked, so nothing is interrupted halfway and no handler races with the drain thread).
 */
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "profiler/record/record.h"

void record_block_signals(void)
{
	sigset_t set;

	/* A shell's background job starts with SIGINT ignored; kprof and its command want it. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct timespec to_ts(double s)
{
	struct timespec ts;

	if (s < 0)
		s = 0;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - ts.tv_sec) * 1e9);
	return ts;
}

/* Reap @child if it has exited; true then. */
static bool reaped(pid_t child, int *status)
{
	return child > 0 && waitpid(child, status, WNOHANG) == child;
}

int record_wait(const struct record_wait_opts *w, int *status)
{
	double start = now_s();
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	*status = 0;
	for (;;) {
		double t = now_s(), wake = 1e18;
		struct timespec ts;
		int got;

		if (reaped(w->child, status))
			return 0;
		if (w->duration_s > 0 && t >= start + w->duration_s) {
			sig = SIGALRM;	/* the duration is over */
			break;
		}
		if (w->duration_s > 0)
			wake = start + w->duration_s;
		ts = to_ts(wake - t);
		got = sigtimedwait(&set, NULL, wake < 1e17 ? &ts : NULL);
		if (got == SIGINT || got == SIGTERM) {
			sig = got;
			break;
		}
		if (got < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
	}
	if (w->child > 0) {
		/* Ctrl-C reached the command too (same process group); SIGTERM may not have. */
		kill(w->child, sig == SIGALRM ? SIGTERM : sig);
		waitpid(w->child, status, 0);
	}
	return sig;
}
