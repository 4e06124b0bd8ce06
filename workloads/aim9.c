// SPDX-License-Identifier: GPL-2.0
/*
 * aim9.c - AIM Suite IX tests as LKP runs them (one test, one process, `testtime` seconds):
 * singleuser's timing loop (SIGALRM ends it, the call in flight still counts, elapsed time
 * from times() at 1/HZ resolution), ops/sec = loops/sec x the test's factor, and its result
 * row, which LKP's aim9 parser reads. The test bodies follow creat-clo.c; see
 * ../shared/spec/workloads.md §5.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/wl-int.h"

#define AIM9_TRUE	"/bin/true"	/* AIM ships its own tiny ./true */

/*
 * brk_test: grow the break by 1 MiB, then @arg times shrink it by 64 KiB and grow it back one
 * page at a time: 17 brk calls per iteration, never touching memory (VMA work only).
 */
__attribute__((noipa, used)) int aim9_brk_test(long arg)
{
	void *oldbrk = sbrk(0);
	long i, j;

	if (sbrk(1 << 20) == (void *)-1)
		return -1;
	for (i = 0; i < arg; i++) {
		if (sbrk(-(64 << 10)) == (void *)-1)
			return -1;
		for (j = 0; j < 16; j++)
			if (sbrk(4096) == (void *)-1)
				return -1;
	}
	return brk(oldbrk);
}

/* page_test: brk_test's shape, touching every new page (one anonymous fault per grow). */
__attribute__((noipa, used)) int aim9_page_test(long arg)
{
	void *oldbrk = sbrk(0);
	long i, j, k;

	if (sbrk(1 << 20) == (void *)-1)
		return -1;
	for (i = 0; i < arg; i++) {
		if (sbrk(-(64 << 10)) == (void *)-1)
			return -1;
		for (j = 0; j < 16; j++) {
			volatile char *cp = sbrk(4096);

			if (cp == (void *)-1)
				return -1;
			for (k = 0; k < 4096; k += 128)
				cp[k] = ' ';
		}
	}
	return brk(oldbrk);
}

/* Reap until wait() says there is nobody left (ECHILD), as AIM does. */
static int wait_all(void)
{
	int status, bad = 0;

	for (;;) {
		if (wait(&status) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad = 1;
	}
	return bad ? -1 : 0;
}

/* fork_test: @arg x { fork; the child exits; the parent waits }. */
__attribute__((noipa, used)) int aim9_fork_test(long arg)
{
	long i;

	for (i = 0; i < arg; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(0);
		wait_all();
	}
	return 0;
}

/* exec_test: @arg x { fork; the child execs a tiny program; the parent waits }. */
__attribute__((noipa, used)) int aim9_exec_test(long arg)
{
	long i;

	for (i = 0; i < arg; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0) {
			execl(AIM9_TRUE, "true", (char *)NULL);
			_exit(127);
		}
		if (wait_all()) {
			errno = ENOEXEC;
			return -1;
		}
	}
	return 0;
}

static volatile sig_atomic_t aim9_running;

static void on_alarm(int sig)
{
	(void)sig;
	aim9_running = 0;
}

/* rtmsec(): milliseconds from times(), at the clock tick's resolution. */
static long long rtmsec(void)
{
	struct tms t;
	long hz = sysconf(_SC_CLK_TCK);

	return (long long)times(&t) * 1000 / (hz > 0 ? hz : 100);
}

int aim9_run(const struct workload *w, const struct wl_params *p, FILE *log, char *err,
	     size_t errlen)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	long long begin, delta;
	long count = 0;
	double rate;
	int ret = 0;

	if (w->aim9_test == aim9_exec_test && access(AIM9_TRUE, X_OK))
		return err_set(err, errlen, -ENOENT, "exec_test: %s: %s", AIM9_TRUE,
			       strerror(errno));
	sync();				/* singleuser: system("sync;sync;sync") */
	fflush(log);			/* nothing buffered may be duplicated by fork_test */
	sigemptyset(&sa.sa_mask);	/* no SA_RESTART: the alarm must end a blocking wait */
	if (sigaction(SIGALRM, &sa, &old))
		return err_set(err, errlen, -errno, "sigaction: %s", strerror(errno));

	aim9_running = 1;
	alarm(p->runtime);
	begin = rtmsec();
	while (aim9_running) {
		if (w->aim9_test(w->aim9_arg) < 0) {
			ret = errno ? -errno : -EIO;
			break;
		}
		count++;
	}
	delta = rtmsec() - begin;
	alarm(0);
	sigaction(SIGALRM, &old, NULL);

	if (ret) {
		wl_log_line(log, "%6d %-14s  Skipping to next test.", 1, w->name);
		return err_set(err, errlen, ret, "%s: %s", w->name, strerror(-ret));
	}
	if (delta <= 0)
		delta = 1;
	rate = 1000.0 * (double)count / (double)delta;
	return wl_log_line(log, "%6d %-14s %10.2f %10ld %10.5f %15.2f %s/second", 1, w->name,
			   (double)delta / 1000.0, count, rate, rate * (double)w->aim9_factor,
			   w->aim9_units);
}
