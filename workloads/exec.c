// SPDX-License-Identifier: GPL-2.0
/*
 * exec.c - workloads run as their own small programs, as LKP runs them: `kprof run` execs
 * `vm-scalability CASE k=v...` (LKP's run loop and case scripts, which exec `usemem` per
 * repeat) or `singleuser TEST k=v...` (AIM9), so the profile's processes are the benchmark's
 * own, with its comm and its frames, and fork_test forks a process as small as AIM's.
 *
 * The controller and the program talk through inherited descriptors given on the command line:
 *   --go FD        the program blocks until one byte arrives (kprof starts the profile first)
 *   --ctl W,R      phase changes: write 'p' (pause the profile) or 'r' (resume), then wait for
 *                  the controller's one-byte answer on R; truncate's untimed read is paused
 * The program finds its helpers (usemem, the `true` script) in its own directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workloads/wl-int.h"

/* This process's runner settings (a workload program has exactly one). */
static struct {
	char	bindir[4096];	/* "" in-process (unit tests): usemem runs as a function */
	int	go_fd, ctl_fd, ack_fd;
} runner = { .go_fd = -1, .ctl_fd = -1, .ack_fd = -1 };

const char *wl_runner_bindir(void)
{
	return runner.bindir[0] ? runner.bindir : NULL;
}

int wl_runner_set_bindir(const char *dir)
{
	if (!dir) {
		runner.bindir[0] = '\0';
		return 0;
	}
	if (strlen(dir) >= sizeof(runner.bindir))
		return -ENAMETOOLONG;
	strcpy(runner.bindir, dir);
	return 0;
}

/* One byte over @fd (EINTR retried). */
static int put(int fd, char c)
{
	return wl_write_all(fd, &c, 1);
}

static int get(int fd)
{
	char c;
	ssize_t n;

	while ((n = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	return n == 1 ? 0 : n < 0 ? -errno : -EPIPE;
}

int wl_phase(char what)
{
	int ret;

	if (runner.ctl_fd < 0)
		return 0;
	ret = put(runner.ctl_fd, what);
	return ret ? ret : get(runner.ack_fd);
}

/* --go FD / --ctl W,R / --bindir DIR; the index of the first other argument, or -EINVAL. */
static int runner_opts(int argc, char **argv, char *err, size_t errlen)
{
	int i;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		char *end;

		if (i + 1 >= argc)
			return err_set(err, errlen, -EINVAL, "%s: needs a value", argv[i]);
		if (!strcmp(argv[i], "--go")) {
			runner.go_fd = (int)strtol(argv[++i], &end, 10);
		} else if (!strcmp(argv[i], "--ctl")) {
			runner.ctl_fd = (int)strtol(argv[++i], &end, 10);
			if (*end == ',')
				runner.ack_fd = (int)strtol(end + 1, &end, 10);
			if (runner.ack_fd < 0)
				*end = 'x';
		} else if (!strcmp(argv[i], "--bindir")) {
			if (wl_runner_set_bindir(argv[++i]))
				return err_set(err, errlen, -EINVAL, "--bindir: too long");
			end = "";
		} else {
			return err_set(err, errlen, -EINVAL, "unknown option %s", argv[i]);
		}
		if (*end)
			return err_set(err, errlen, -EINVAL, "%s '%s': not a descriptor",
				       argv[i - 1], argv[i]);
	}
	/* not for the programs this one runs (usemem, rm, ...) */
	for (int *fd = &runner.go_fd; fd <= &runner.ack_fd; fd++)
		if (*fd >= 0 && fcntl(*fd, F_SETFD, FD_CLOEXEC))
			return err_set(err, errlen, -EBADF, "descriptor %d: %s", *fd,
				       strerror(errno));
	return i;
}

/* The directory of /proc/self/exe into the runner's bindir (unless --bindir said). */
static int self_dir(void)
{
	char path[4096];
	ssize_t n;

	if (runner.bindir[0])
		return 0;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n < 0)
		return -errno;
	path[n] = '\0';
	return wl_runner_set_bindir(dirname(path));
}

int wl_runner_main(const char *family, int argc, char **argv)
{
	const struct workload *w;
	struct wl_params p;
	struct wl_env env = { .hp_lock = -1 };
	const struct wl_env *envp = NULL;
	char err[512] = "";
	int i, ret;

	i = runner_opts(argc, argv, err, sizeof(err));
	if (i >= 0 && i >= argc)
		i = err_set(err, sizeof(err), -EINVAL, "usage: %s [--go FD] [--ctl W,R] "
			    "[--bindir DIR] WORKLOAD [k=v...] [dir=MOUNT]", family);
	if (i < 0)
		goto usage;
	w = workload_find(argv[i]);
	if (!w || strcmp(workload_family(w), family)) {
		err_set(err, sizeof(err), -EINVAL, "'%s' is not a %s workload", argv[i], family);
		goto usage;
	}
	wl_params_init(&p);
	for (i++; i < argc; i++) {
		if (!strncmp(argv[i], "dir=", 4)) {	/* the prepared filesystem (truncate) */
			snprintf(env.mnt, sizeof(env.mnt), "%s", argv[i] + 4);
			env.mounted = true;
			envp = &env;
		} else if (wl_params_set(&p, argv[i], err, sizeof(err))) {
			goto usage;
		}
	}
	if (workload_resolve(w, &p, err, sizeof(err)))
		goto usage;
	ret = self_dir();
	if (ret) {
		fprintf(stderr, "%s: /proc/self/exe: %s\n", family, strerror(-ret));
		return 1;
	}
	if (runner.go_fd >= 0) {	/* the controller's profile is on: go */
		ret = get(runner.go_fd);
		close(runner.go_fd);
		if (ret)
			return 1;	/* the controller went away */
	}
	ret = workload_run(w, &p, envp, stdout, err, sizeof(err));
	fflush(stdout);
	if (ret) {
		fprintf(stderr, "%s: %s\n", argv[0], err[0] ? err : strerror(-ret));
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "%s: %s\n", family, err);
	return 2;
}

/* ---- the controller's side ---------------------------------------------------------------- */

static const char *program_of(const struct workload *w)
{
	return w->kind == WL_AIM9 ? "singleuser" : "vm-scalability";
}

int workload_find_programs(const char *exe_dir, char *bindir, size_t len, char *err,
			   size_t errlen)
{
	static const char *const programs[] = { "vm-scalability", "usemem", "singleuser",
						"true" };
	static const char *const subdirs[] = { "", "/build" };
	char path[4200];

	for (size_t d = 0; d < sizeof(subdirs) / sizeof(subdirs[0]); d++) {
		size_t p;

		for (p = 0; p < sizeof(programs) / sizeof(programs[0]); p++) {
			snprintf(path, sizeof(path), "%s%s/%s", exe_dir, subdirs[d], programs[p]);
			if (access(path, X_OK))
				break;
		}
		if (p == sizeof(programs) / sizeof(programs[0])) {
			if ((size_t)snprintf(bindir, len, "%s%s", exe_dir, subdirs[d]) >= len)
				return err_set(err, errlen, -ENAMETOOLONG, "%s: too long", exe_dir);
			return 0;
		}
	}
	return err_set(err, errlen, -ENOENT, "the workload programs (vm-scalability, usemem, "
		       "singleuser, true) are neither in %s nor in %s/build: run make", exe_dir,
		       exe_dir);
}

void workload_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int workload_argv(const struct workload *w, const struct wl_params *p,
		  const struct wl_env *env, const char *bindir, int go_fd, int ctl_fd,
		  int ack_fd, char ***out)
{
	char **argv = calloc(24, sizeof(*argv));
	size_t n = 0;
	int ret = 0;

	*out = NULL;
	if (!argv)
		return -ENOMEM;
#define ADD(...) do { if (!ret && asprintf(&argv[n++], __VA_ARGS__) < 0) { argv[--n] = NULL; \
		ret = -ENOMEM; } } while (0)
	ADD("%s/%s", bindir, program_of(w));
	ADD("--go");
	ADD("%d", go_fd);
	if (ctl_fd >= 0) {
		ADD("--ctl");
		ADD("%d,%d", ctl_fd, ack_fd);
	}
	ADD("%s", workload_name(w));
	/* every parameter explicitly, so the program cannot resolve another default */
	if (w->kind == WL_AIM9) {
		ADD("testtime=%u", p->runtime);
		if (w->aim9_test == aim9_brk_test || w->aim9_test == aim9_page_test)
			ADD("lkp_compat=%d", p->lkp_compat);
	} else {
		ADD("nr_task=%ld", p->nr_task);
		ADD("runtime=%u", p->runtime);
		ADD("size=%llu", (unsigned long long)p->size);	/* 0: once */
		if (!wl_sized_from_memory(w) || (p->set & WL_P_UNIT_SIZE))
			ADD("unit_size=%llu", (unsigned long long)p->unit_size);
		if (p->set & WL_P_SEED)
			ADD("seed=%llu", (unsigned long long)p->seed);
		if (p->set & WL_P_THP)
			ADD("thp=%s", wl_thp_name(p->thp));
		if (p->set & WL_P_FS)
			ADD("fs=%s", wl_fs_name(p->fs));
		if (env && env->mounted)
			ADD("dir=%s", env->mnt);
	}
#undef ADD
	if (ret) {
		workload_argv_free(argv);
		return ret;
	}
	*out = argv;
	return 0;
}
