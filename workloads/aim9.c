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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/wl-int.h"

/*
 * The size of brk_test's and page_test's shrink, sbrk(-4096 * 16).
 *
 * LKP builds AIM9 (s9110) with `-O -std=gnu89` and `-D_POSIX_SOURCE`, under which glibc's
 * <unistd.h> does not declare sbrk() (it is not POSIX). The call is then an implicit
 * declaration, `int sbrk()`: the int -65536 is passed in %edi, whose 32-bit move zero-extends
 * into %rdi, and sbrk(intptr_t) reads +0xffff0000 = 4 GiB - 64 KiB. So LKP's brk_test never
 * shrinks the heap: each iteration grows it by 4 GiB - 64 KiB and 16 pages (brk only expands
 * the VMA, no munmap until the final brk(oldbrk)), and page_test's touched pages land in
 * fresh page tables every iteration. This is what the robot's numbers measure, so it is the
 * default (lkp_compat=1); lkp_compat=0 shrinks by 64 KiB as the source means.
 *
 * The implicit `int sbrk()` also truncates the pointer it returns to 32 bits. LKP's binary is
 * not position-independent (its heap lies below 2 GiB), so page_test's `cp = (char *)sbrk(4096)`
 * writes through the true address mod 4 GiB: each iteration adds exactly 4 GiB net, so all 100
 * iterations write the same 16 pages, 64 KiB below the top of the first MiB (measured with a
 * -no-pie gnu89 build: cp is the same every iteration). Those pages and their page tables are
 * faulted once per call and freed by the final brk(oldbrk). aim9_lkp_page() gives that address
 * here, whatever the heap's position.
 */
intptr_t aim9_brk_shrink(bool lkp_compat)
{
	return lkp_compat ? (intptr_t)(uint32_t)-(4096 * 16) : -(4096 * 16);
}

static intptr_t aim9_shrink = (intptr_t)(uint32_t)-(4096 * 16);

/*
 * brk_test: grow the break by 1 MiB, then @arg times "shrink" it by 64 KiB (see aim9_shrink)
 * and grow it one page at a time: 17 brk calls per iteration, never touching memory.
 */
__attribute__((noipa, used)) int aim9_brk_test(long arg)
{
	void *oldbrk = sbrk(0);
	long i, j;

	if (sbrk(1 << 20) == (void *)-1)
		return -1;
	for (i = 0; i < arg; i++) {
		if (sbrk(aim9_shrink) == (void *)-1)
			return -1;
		for (j = 0; j < 16; j++)
			if (sbrk(4096) == (void *)-1)
				return -1;
	}
	return brk(oldbrk);
}

/* Where LKP's binary writes for the page sbrk() returned at @cp: its address mod 4 GiB. */
static volatile char *aim9_lkp_page(void *oldbrk, void *cp)
{
	return (char *)oldbrk + (((uintptr_t)cp - (uintptr_t)oldbrk) & 0xffffffffULL);
}

/*
 * page_test: brk_test's shape, touching every new page (one anonymous fault per grow); as
 * LKP's binary (lkp_compat=1) the writes go to the truncated pointer's page (above).
 */
__attribute__((noipa, used)) int aim9_page_test(long arg)
{
	void *oldbrk = sbrk(0);
	long i, j, k;

	if (sbrk(1 << 20) == (void *)-1)
		return -1;
	for (i = 0; i < arg; i++) {
		if (sbrk(aim9_shrink) == (void *)-1)
			return -1;
		for (j = 0; j < 16; j++) {
			volatile char *cp = sbrk(4096);

			if (cp == (void *)-1)
				return -1;
			if (aim9_shrink > 0)	/* lkp_compat */
				cp = aim9_lkp_page(oldbrk, (void *)cp);
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
			exit(0);	/* AIM's forked child: exit(0), stdio flushed (nothing pending) */
		wait_all();
	}
	return 0;
}

/*
 * AIM runs "./true", a `#!/bin/sh` script shipped next to singleuser: every exec loads the
 * script, then /bin/sh (load_script, then load_elf_binary). The workload programs have theirs
 * in their directory; in-process (unit tests) /bin/true stands in.
 */
static char aim9_true[4200] = "/bin/true";

/* exec_test: @arg x { fork; the child execs `true`; the parent waits }. */
__attribute__((noipa, used)) int aim9_exec_test(long arg)
{
	long i;

	for (i = 0; i < arg; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -1;
		if (pid == 0) {
			execl(aim9_true, "true", (char *)NULL);
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

	aim9_shrink = aim9_brk_shrink(p->lkp_compat);
	if (wl_runner_bindir())
		snprintf(aim9_true, sizeof(aim9_true), "%s/true", wl_runner_bindir());
	if (w->aim9_test == aim9_exec_test && access(aim9_true, X_OK))
		return err_set(err, errlen, -ENOENT, "exec_test: %s: %s", aim9_true,
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
	if (sigaction(SIGALRM, &old, NULL) && !ret)
		ret = -errno;

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
