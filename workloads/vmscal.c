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

/* hw_vars' PTE_LIMIT: "limit pagetable pages to half available memory" (MemAvailable << 8). */
static uint64_t pte_limit(void)
{
	return (wl_meminfo_kb("MemAvailable") << 10) << 8;
}

/* The size argument the case script gives usemem (unit_size given: @unit replaces the memory). */
static uint64_t case_bytes(const struct workload *w, const struct wl_params *p, uint64_t unit,
			   long n)
{
	uint64_t v, rotate;

	if (wl_sized_from_memory(w) && !(p->set & WL_P_UNIT_SIZE)) {
		rotate = pte_limit() < WL_ROTATE_MAX ? pte_limit() : WL_ROTATE_MAX;
		switch (w->sizing) {
		case WL_SZ_PTE_PER_TASK:	/* case-anon-r-seq */
			v = pte_limit() / (uint64_t)n;
			return v > WL_AS_LIMIT ? WL_AS_LIMIT : v;
		case WL_SZ_PTE_MT:		/* case-anon-r-seq-mt */
			v = pte_limit();
			return (v > WL_AS_LIMIT ? WL_AS_LIMIT : v) / (uint64_t)n;
		case WL_SZ_ROTATE_ALL:
			return rotate;
		default:
			return rotate / (uint64_t)n;
		}
	}
	switch (w->sizing) {
	case WL_SZ_ROTATE_ALL:
		return unit;
	case WL_SZ_PTE_PER_TASK:
	case WL_SZ_PTE_MT:
	case WL_SZ_ROTATE_PER_TASK:
		return unit / (uint64_t)n;
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
		return wl_loopfs_setup(env, p->unit_size, p->fs, err, errlen);
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

/* fork + exec @argv with its output in the log (a workload never prints to the terminal) */
static pid_t spawn(char *const argv[], FILE *log)
{
	pid_t pid;

	fflush(log);
	pid = fork();
	if (pid == 0) {
		wl_die_with_parent();
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

/* The usemem program from the runner's directory, as the case script runs ./usemem. */
static int exec_usemem(const char *args, FILE *log, char *err, size_t errlen)
{
	char path[4200], *copy = strdup(args), *argv[32], *save = NULL;
	size_t n = 0;
	int ret;

	if (!copy)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/usemem", wl_runner_bindir());
	argv[n++] = path;
	for (char *t = strtok_r(copy, " ", &save); t && n < 31; t = strtok_r(NULL, " ", &save))
		argv[n++] = t;
	argv[n] = NULL;
	ret = spawn(argv, log) < 0 ? -errno : wait_children(1);
	free(copy);
	if (ret)
		return err_set(err, errlen, ret, "usemem %s failed", args);
	return 0;
}

static int run_usemem_case(const struct workload *w, const struct wl_params *p, uint64_t unit,
			   FILE *log, char *err, size_t errlen)
{
	const unsigned int f = w->um_flags;
	struct usemem_opts o = {
		.bytes = case_bytes(w, p, unit, p->nr_task),
		.flags = f,
		.runtime = p->runtime,
		.thp = p->thp,
		.seed_set = p->set & WL_P_SEED,
		.seed = p->seed,
	};
	char args[512];
	int ret;

	if (f & WL_UM_THREADS)
		o.nr_thread = (unsigned int)p->nr_task;
	else
		o.nr_task = (unsigned int)p->nr_task;
	ret = usemem_format_args(&o, args, sizeof(args));
	if (ret)
		return ret;
	wl_log_test(log, "./usemem %s", args);
	if (wl_runner_bindir())
		return exec_usemem(args, log, err, errlen);
	return usemem_run(&o, log, err, errlen);
}

static void realtime_str(char *buf, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, len, "%lld.%09ld", (long long)ts.tv_sec, ts.tv_nsec);
}

/* create_sparse_file + cat: a hole-only file whose reads fill the page cache without I/O. */
static int create_and_read_here(const char *path, uint64_t bytes)
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

/*
 * The same with the case script's tools, so the processes are LKP's: `truncate NAME -s SIZE`
 * then `cat NAME > /dev/null` (coreutils).
 */
static int create_and_read(const char *path, uint64_t bytes, FILE *log)
{
	char size[32];
	char *trunc[] = { "truncate", (char *)path, "-s", size, NULL };
	char *cat[] = { "sh", "-c", "exec cat \"$0\" > /dev/null", (char *)path, NULL };
	int ret;

	if (!wl_runner_bindir())
		return create_and_read_here(path, bytes);
	snprintf(size, sizeof(size), "%llu", (unsigned long long)bytes);
	ret = spawn(trunc, log) < 0 ? -errno : wait_children(1);
	if (!ret)
		ret = spawn(cat, log) < 0 ? -errno : wait_children(1);
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

	/*
	 * case-truncate's reads are setup, not timed: the profile pauses over them (its kernel
	 * time would otherwise dwarf the truncation on a small machine). truncate-seq times them.
	 */
	if (!ret && !w->truncate_seq)
		ret = wl_phase('p');
	realtime_str(t0, sizeof(t0));
	for (i = 0; i < n && !ret; i++)
		ret = create_and_read(argv[1 + i], unit / (uint64_t)n, log);
	if (!ret && !w->truncate_seq)
		ret = wl_phase('r');
	if (ret) {
		err_set(err, errlen, ret, "%s: %s: %s", w->name, i ? argv[i] : "profile control",
			strerror(-ret));
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
