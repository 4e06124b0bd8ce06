// SPDX-License-Identifier: GPL-2.0
/*
 * vmscal.c - the vm-scalability family: LKP's run loop (programs/vm-scalability/run: repeat the
 * case size / unit_size times within the runtime, a "./case-<name>" marker before each) and
 * the case-* scripts: how each turns unit_size and nr_task into a usemem command line, the
 * hugetlb reservation of setup_hugetlb, and case-truncate / case-truncate-seq.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "workloads/wl-int.h"

static long nr_nodes(void)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	long n = 0;

	if (!d)
		return 1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) && de->d_name[4] >= '0' && de->d_name[4] <= '9')
			n++;
	closedir(d);
	return n ? n : 1;
}

/* The size argument the case script gives usemem. */
static uint64_t case_bytes(const struct workload *w, uint64_t unit, long n)
{
	switch (w->sizing) {
	case WL_SZ_PER_TASK_COW:
		return unit / (uint64_t)(n + 1);
	case WL_SZ_SHARED_ALL:
		return unit;
	case WL_SZ_PER_TASK:
	case WL_SZ_SHARED_PER_TASK:
		break;
	}
	return unit / (uint64_t)n;
}

int vmscal_prepare(const struct workload *w, const struct wl_params *p, struct wl_env *env,
		   char *err, size_t errlen)
{
	uint64_t hp_kb;

	if (w->kind == WL_TRUNCATE)
		return wl_loopfs_setup(env, p->unit_size, err, errlen);
	if (!(w->um_flags & WL_UM_HUGETLB))
		return 0;
	/* setup_hugetlb: the huge pages in unit_size, plus one per task and one spare */
	hp_kb = wl_meminfo_kb("Hugepagesize");
	if (!hp_kb)
		return err_set(err, errlen, -EOPNOTSUPP, "%s: this kernel has no hugetlb pages",
			       w->name);
	return wl_hugetlb_reserve(env, (long)(p->unit_size / hp_kb / 1024) + p->nr_task + 1,
				  err, errlen);
}

static int run_usemem_case(const struct workload *w, const struct wl_params *p, uint64_t unit,
			   FILE *log, char *err, size_t errlen)
{
	const unsigned int f = w->um_flags;
	struct usemem_opts o = {
		.bytes = case_bytes(w, unit, p->nr_task),
		.flags = f,
		.runtime = p->runtime,
		.thp = p->thp,
		.seed_set = p->set & WL_P_SEED,
		.seed = p->seed,
	};

	if (f & WL_UM_THREADS)
		o.nr_thread = (unsigned int)p->nr_task;
	else
		o.nr_task = (unsigned int)p->nr_task;
	wl_log_test(log, "./usemem --runtime %u %s %ld%s%s%s%s%s %llu", p->runtime,
		    (f & WL_UM_THREADS) ? "-t" : "-n", p->nr_task,
		    (f & WL_UM_PREALLOC) ? " --prealloc" : "",
		    (f & WL_UM_PREFAULT) ? " --prefault" : "",
		    (f & WL_UM_RANDOM) ? " --random" : "",
		    (f & WL_UM_READONLY) ? " --readonly" : "",
		    (f & WL_UM_HUGETLB) ? " -O -U" : "", (unsigned long long)o.bytes);
	return usemem_run(&o, log, err, errlen);
}

static void realtime_str(char *buf, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, len, "%lld.%09ld", (long long)ts.tv_sec, ts.tv_nsec);
}

/* fork + exec @argv with its output in the log (a workload never prints to the terminal) */
static pid_t spawn(char *const argv[], FILE *log)
{
	pid_t pid;

	fflush(log);
	pid = fork();
	if (pid == 0) {
		dup2(fileno(log), STDOUT_FILENO);
		dup2(fileno(log), STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Wait for @n spawned children; -EIO when one of them failed. */
static int wait_children(long n)
{
	int status, ret = 0;

	while (n > 0) {
		if (wait(&status) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		n--;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = -EIO;
	}
	return ret;
}

/* create_sparse_file + cat: a hole-only file whose reads fill the page cache without I/O. */
static int create_and_read(const char *path, uint64_t bytes)
{
	static char buf[128 << 10];	/* cat's buffer size for regular files */
	int ret = 0, fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)bytes))
		ret = -errno;
	while (!ret && (n = read(fd, buf, sizeof(buf))) != 0)
		if (n < 0 && errno != EINTR)
			ret = -errno;
	close(fd);
	return ret;
}

static int run_truncate_case(const struct workload *w, const struct wl_params *p,
			     uint64_t unit, const struct wl_env *env, FILE *log, char *err,
			     size_t errlen)
{
	const long n = p->nr_task;
	char t0[40], t1[40];
	char **argv;
	long i;
	int ret = 0;

	if (!env || !env->mounted)
		return err_set(err, errlen, -EINVAL, "%s: no filesystem prepared", w->name);
	/* argv for the single "rm file..." of truncate-seq; argv[1 + i] is file i */
	argv = calloc((size_t)n + 2, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	argv[0] = "rm";
	for (i = 0; i < n && !ret; i++)
		if (asprintf(&argv[1 + i], "%s/sparse-%s-%ld", env->mnt, w->name, i + 1) < 0)
			ret = -ENOMEM;

	realtime_str(t0, sizeof(t0));
	for (i = 0; i < n && !ret; i++)
		ret = create_and_read(argv[1 + i], unit / (uint64_t)n);
	if (ret) {
		err_set(err, errlen, ret, "%s: %s: %s", w->name, argv[i], strerror(-ret));
		goto out;
	}
	realtime_str(t1, sizeof(t1));
	if (w->truncate_seq)
		wl_log_line(log, "%llu bytes faulted in %s-%s seconds", (unsigned long long)unit,
			    t1, t0);

	realtime_str(t0, sizeof(t0));
	if (w->truncate_seq) {
		ret = spawn(argv, log) < 0 ? -errno : wait_children(1);
	} else {
		long started = 0;

		for (i = 0; i < n; i++) {
			char *one[] = { "rm", argv[1 + i], NULL };

			if (spawn(one, log) < 0)
				break;
			started++;
		}
		ret = wait_children(started);
		if (!ret && started < n)
			ret = -EAGAIN;
	}
	realtime_str(t1, sizeof(t1));
	if (ret) {
		err_set(err, errlen, ret, "%s: rm failed", w->name);
		goto out;
	}
	wl_log_line(log, "%llu bytes truncated in %s-%s seconds", (unsigned long long)unit, t1, t0);
out:
	for (i = 0; i < n; i++)
		free(argv[1 + i]);
	free(argv);
	return ret;
}

int vmscal_run(const struct workload *w, const struct wl_params *p, const struct wl_env *env,
	       FILE *log, char *err, size_t errlen)
{
	uint64_t unit = p->unit_size, start = wl_now_us();
	uint64_t size, repeat = 1, i;
	int ret = 0;

	if (p->size) {
		size = p->size * (uint64_t)nr_nodes();
		if (unit > size)
			unit = size;
		repeat = size / unit;
	}
	for (i = 1; i <= repeat && !ret; i++) {
		wl_log_test(log, "./case-%s", w->name);
		if (w->kind == WL_TRUNCATE)
			ret = run_truncate_case(w, p, unit, env, log, err, errlen);
		else
			ret = run_usemem_case(w, p, unit, log, err, errlen);
		if (!ret && i < repeat && (wl_now_us() - start) / 1000000 > p->runtime) {
			wl_log_line(log, "runtime exceeded, stop after %llu of %llu iterations",
				    (unsigned long long)i, (unsigned long long)repeat);
			break;
		}
	}
	return ret;
}
