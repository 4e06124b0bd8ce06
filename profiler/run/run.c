// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - one run of a workload for `kprof run` (see run.h): a forked child started through a
 * pipe once the monitors (and the profiler) are in place, supervised, its results written into
 * a temporary directory that gets its run number only when complete; and the result root.
 *
 * Interrupts: the CLI's handler (run_on_signal) only sets run_interrupted. The workload runs in
 * its own process group, which is killed; the system state the workload changed is restored
 * and the unfinished run's temporary directory removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/lib/lib.h"
#include "profiler/record/record.h"
#include "profiler/run/run.h"

volatile sig_atomic_t run_interrupted;

void run_on_signal(int sig)
{
	run_interrupted = sig;
}

static double elapsed_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* The workload child: own process group, wait for "go", run, exit 0 / 1. */
static void child_main(struct run_ctx *c, const struct wl_env *env, int go_fd, FILE *log)
{
	char err[512] = "", go;
	int ret;

	if (setpgid(0, 0)) {	/* the parent kills the group: the workload must be its own */
		pr_err("%s: setpgid: %s", workload_name(c->w), strerror(errno));
		_exit(1);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	while (read(go_fd, &go, 1) < 0 && errno == EINTR)
		;
	close(go_fd);
	ret = workload_run(c->w, &c->p, env, log, err, sizeof(err));
	fflush(log);
	if (ret)
		pr_err("%s: %s", workload_name(c->w), err[0] ? err : strerror(-ret));
	_exit(ret ? 1 : 0);
}

/* Kill what is left of the workload's process group and reap it (we are its subreaper). */
static void reap_group(pid_t pgid)
{
	kill(-pgid, SIGKILL);
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
}

struct run_result {
	int		status;
	struct rusage	ru;
	double		elapsed;
};

/* Wait for the child, sampling the monitors every second; kill it on an interrupt. */
static int supervise(struct run_ctx *c, pid_t pid, struct monitor *mon, struct run_result *res,
		     int run_no)
{
	struct timespec t0, next;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), failed = 0;
	pid_t got;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	next = t0;
	for (;;) {
		struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
		double el = elapsed_since(&t0);
		int timeout;

		if (run_interrupted || failed) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		got = wait4(pid, &res->status, WNOHANG, &res->ru);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR) {
			if (pidfd >= 0)
				close(pidfd);
			return -errno;
		}
		if (elapsed_since(&next) >= 1.0 && !failed) {
			failed = monitor_sample(mon);
			if (failed)
				pr_err("monitors: %s: stopping the run", strerror(-failed));
			next.tv_sec += 1;
		}
		if (c->last_duration > 0)
			progress_update("kprof run: %s run %d/%d: %.0fs elapsed, ~%.0fs remaining",
					workload_name(c->w), run_no + 1, c->nr_runs, el,
					fmax(0, c->last_duration - el) + c->last_duration *
					(c->nr_runs - run_no - 1));
		else
			progress_update("kprof run: %s run %d/%d: %.0fs elapsed",
					workload_name(c->w), run_no + 1, c->nr_runs, el);
		timeout = 1000 - (int)(elapsed_since(&next) * 1000);
		if (timeout > 100 || timeout < 0)
			timeout = 100;	/* progress, and a fallback without pidfd */
		poll(&pfd, pidfd >= 0 ? 1 : 0, timeout);
	}
	res->elapsed = elapsed_since(&t0);
	if (pidfd >= 0)
		close(pidfd);
	reap_group(pid);
	return failed;
}

static int write_meta(FILE *fp, void *arg)
{
	const struct run_ctx *c = arg;
	char date[64];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs("{\n  \"workload\": ", fp);
	json_write_string(fp, workload_name(c->w));
	fputs(",\n  \"family\": ", fp);
	json_write_string(fp, workload_family(c->w));
	fputs(",\n  \"params\": ", fp);
	workload_params_json(c->w, &c->p, fp);
	fputs(",\n  \"path_params\": ", fp);
	json_write_string(fp, c->path_params);
	fputs(",\n  \"kernel\": ", fp);
	json_write_string(fp, c->uts.release);
	fputs(",\n  \"kernel_version\": ", fp);
	json_write_string(fp, c->uts.version);
	fputs(",\n  \"kprof_version\": ", fp);
	json_write_string(fp, KPROF_VERSION);
	fputs(",\n  \"machine\": {\"hostname\": ", fp);
	json_write_string(fp, c->uts.nodename);
	fputs(", \"arch\": ", fp);
	json_write_string(fp, c->uts.machine);
	fprintf(fp, ", \"nr_cpus\": %ld, \"mem_total_kB\": %ld}", sysconf(_SC_NPROCESSORS_ONLN),
		(long)(sysconf(_SC_PHYS_PAGES) * (sysconf(_SC_PAGESIZE) / 1024)));
	fputs(",\n  \"date\": ", fp);
	json_write_string(fp, date);
	fputs(",\n  \"event\": ", fp);
	if (c->profile && run_profile_event_used(&c->hist))
		json_write_string(fp, run_profile_event_used(&c->hist));
	else
		fputs("null", fp);
	fputs("\n}\n", fp);
	return 0;
}

/* LKP's dump-stat drops series that are all zero: a run's zero values are not stats. */
static int add_nonzero(struct wl_metrics *dst, const struct wl_metrics *src)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < src->nr; i++)
		if (src->v[i].value != 0)
			ret = wl_metrics_set(dst, src->v[i].key, src->v[i].value);
	return ret;
}

static char *read_file(const char *path, size_t *len)
{
	char *buf;
	int ret = read_whole_file(path, 0, &buf, len);

	if (ret) {
		errno = -ret;
		return NULL;
	}
	return buf;
}

/* A failed run's log is removed with its directory: show the workers' own error lines. */
static void report_log_errors(const char *logpath)
{
	char line[512];
	int shown = 0;
	FILE *fp = fopen(logpath, "re");

	if (!fp)
		return;
	while (shown < 5 && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "failed") || strstr(line, "Skipping") || strstr(line, "wrong")) {
			pr_err("%s", line);
			shown++;
		}
	}
	fclose(fp);
}

/* Everything of one finished run into stats.json and meta.json in @dir. */
static int write_run_stats(struct run_ctx *c, const char *dir, const char *logpath,
			   const struct run_result *res, const struct monitor *mon,
			   struct run_profile *prof, const struct wl_metrics *counted,
			   double *main_value)
{
	struct wl_metrics all = { 0 }, part = { 0 };
	char *path = NULL, metric[128];
	const double *v;
	size_t len = 0;
	char *log = read_file(logpath, &len);
	int ret;

	if (!log) {
		ret = -errno;
		pr_err("%s: %s", logpath, strerror(-ret));
		return ret;
	}
	ret = workload_parse_log(c->w, log, len, &part);
	free(log);
	if (!ret)
		ret = add_nonzero(&all, &part);
	v = wl_metrics_get(&all, workload_main_metric(c->w, metric, sizeof(metric)));
	if (!ret && !v) {
		pr_err("%s: no %s in the workload log", logpath, metric);
		ret = -ENODATA;
	}
	if (v)
		*main_value = *v;
	wl_metrics_release(&part);
	if (!ret)
		ret = wl_time_metrics(workload_family(c->w), &res->ru, res->elapsed, res->status,
				      &part);
	if (!ret)
		ret = monitor_metrics(mon, &part);
	if (!ret)
		ret = run_profile_metrics(prof, &part);
	for (size_t i = 0; !ret && i < counted->nr; i++)
		ret = wl_metrics_set(&part, counted->v[i].key, counted->v[i].value);
	if (!ret)
		ret = add_nonzero(&all, &part);
	if (!ret && asprintf(&path, "%s/stats.json", dir) < 0)
		ret = -ENOMEM, path = NULL;
	if (!ret && (ret = run_write_stats(path, &all)))
		pr_err("%s: %s", path, strerror(-ret));
	free(path);
	path = NULL;
	if (!ret && asprintf(&path, "%s/meta.json", dir) < 0)
		ret = -ENOMEM, path = NULL;
	if (!ret && (ret = write_file_atomic(path, write_meta, c)))
		pr_err("%s: %s", path, strerror(-ret));
	free(path);
	wl_metrics_release(&part);
	wl_metrics_release(&all);
	return ret;
}

/* malloc'd "fmt...", or NULL (ENOMEM): paths have no fixed limit, the kernel says when too long */
static char *path_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *path_of(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

/*
 * Give the complete run in @tmpdir its number: the next free one under c->base, retried when a
 * concurrent run took it. The final directory in *@final, or -errno (printed).
 */
static int claim_number(struct run_ctx *c, const char *tmpdir, char **final)
{
	int ret;

	for (int tries = 0; tries < 100; tries++) {
		*final = path_of("%s/%d", c->base, run_next_number(c->base));
		if (!*final)
			return -ENOMEM;
		if (!rename(tmpdir, *final))
			return 0;
		ret = -errno;
		if (ret != -EEXIST && ret != -ENOTEMPTY) {
			pr_err("%s: %s", *final, strerror(-ret));
			free(*final);
			*final = NULL;
			return ret;
		}
		free(*final);
		*final = NULL;
	}
	pr_err("%s: no free run number after 100 tries", c->base);
	return -EEXIST;
}

/* One run: 0, -EINTR when interrupted, or another -errno (the reason already printed). */
int run_once(struct run_ctx *c)
{
	char *tmpdir, *logpath = NULL, *final = NULL, *stats = NULL, err[512] = "";
	struct run_result res = { 0 };
	struct run_profile *prof = NULL;
	struct stat_session *counters = NULL;
	struct wl_metrics counted = { 0 };
	struct wl_env *env = NULL;
	struct monitor *mon = NULL;
	double main_value = 0;
	int go[2] = { -1, -1 }, ret, run_no = c->nr_done;
	FILE *log = NULL;
	pid_t pid;

	tmpdir = path_of("%s/.run-%d.tmp", c->base, (int)getpid());
	if (!tmpdir)
		return -ENOMEM;
	run_remove_tree(tmpdir);
	ret = run_mkdirs(tmpdir);
	if (ret) {
		pr_err("%s: %s", tmpdir, strerror(-ret));
		free(tmpdir);
		return ret;
	}
	logpath = path_of("%s/%s.log", tmpdir, workload_name(c->w));
	log = logpath ? fopen(logpath, "we") : NULL;
	if (!log) {
		ret = -errno;
		pr_err("%s: %s", logpath ? logpath : tmpdir, strerror(-ret));
		goto out;
	}
	mon = monitor_new();
	if (!mon) {
		ret = -ENOMEM;
		pr_err("monitors: %s", strerror(-ret));
		goto out;
	}
	if (pipe2(go, O_CLOEXEC)) {
		ret = -errno;
		pr_err("pipe: %s", strerror(-ret));
		goto out;
	}
	ret = workload_prepare(c->w, &c->p, &env, err, sizeof(err));
	if (ret) {
		pr_err("%s: %s", workload_name(c->w), err);
		goto out;
	}
	if (run_interrupted) {
		ret = -EINTR;
		goto out;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		pr_err("fork: %s", strerror(-ret));
		goto out;
	}
	if (pid == 0) {
		close(go[1]);
		child_main(c, env, go[0], log);
	}
	close(go[0]);
	go[0] = -1;
	/* the child does the same; whichever is first, the group exists before "go" */
	ret = setpgid(pid, pid) && errno != EACCES ? -errno : 0;
	if (ret)
		pr_err("%s: setpgid: %s", workload_name(c->w), strerror(-ret));
	if (!ret && (ret = monitor_sample(mon)))
		pr_err("monitors: %s", strerror(-ret));
	if (!ret && c->profile) {
		final = path_of("%s/perf.data", tmpdir);
		ret = final ? run_profile_start(&prof, final, c->event) : -ENOMEM;
		free(final);
		final = NULL;
	}
	if (ret) {
		kill(pid, SIGKILL);
		reap_group(pid);
		goto out;
	}
	run_counters_start(&c->hist, &counters);
	if (write(go[1], "g", 1) != 1) {	/* go */
		ret = -errno;
		pr_err("pipe: %s", strerror(-ret));
		kill(pid, SIGKILL);
		reap_group(pid);
		goto out;
	}
	ret = supervise(c, pid, mon, &res, run_no);
	if (!ret && (ret = monitor_sample(mon)))
		pr_err("monitors: %s", strerror(-ret));
	if (run_counters_stop(counters, &counted) && !ret)
		ret = -ENOMEM;
	counters = NULL;
	if (prof && !run_interrupted) {	/* interrupted: the profile is aborted below */
		int r = run_profile_stop(prof, tmpdir, &c->hist);

		if (!ret)
			ret = r;
	}
	progress_done();
	if (!ret && run_interrupted)
		ret = -EINTR;
	fclose(log);
	log = NULL;
	if (!ret && (!WIFEXITED(res.status) || WEXITSTATUS(res.status))) {
		report_log_errors(logpath);
		if (WIFSIGNALED(res.status))
			pr_err("%s: run %d killed by signal %d", workload_name(c->w), run_no,
			       WTERMSIG(res.status));
		else
			pr_err("%s: run %d failed", workload_name(c->w), run_no);
		ret = -EIO;
	}
	if (!ret)
		ret = write_run_stats(c, tmpdir, logpath, &res, mon, prof, &counted, &main_value);
out:
	if (log)
		fclose(log);
	if (go[0] >= 0)
		close(go[0]);
	if (go[1] >= 0)
		close(go[1]);
	run_profile_free(prof);
	run_counters_stop(counters, &counted);	/* when a failure came before the stop */
	wl_metrics_release(&counted);
	monitor_free(mon);
	if (workload_cleanup(env, err, sizeof(err))) {
		pr_err("restoring the system after %s: %s", workload_name(c->w), err);
		if (!ret)
			ret = -EIO;
	}
	/* the run is complete: give it its number */
	if (!ret)
		ret = claim_number(c, tmpdir, &final);
	if (ret) {
		run_remove_tree(tmpdir);
		goto free_paths;
	}
	c->main_values[c->nr_done++] = main_value;
	/* later runs sample what the first one settled on (no repeated fallback notice) */
	if (c->profile && !c->event && run_profile_event_used(&c->hist)) {
		c->event_copy = strdup(run_profile_event_used(&c->hist));
		c->event = c->event_copy;
	}
	c->last_duration = res.elapsed;
	stats = path_of("%s/stats.json", final);
	ret = stats ? run_update_matrix(c->base, stats, err, sizeof(err)) : -ENOMEM;
	if (ret)
		pr_err("%s/matrix.json: %s", c->base, err[0] ? err : strerror(-ret));
	pr_info("%s: run %d done in %.1fs -> %s", workload_name(c->w), c->nr_done, res.elapsed,
		final);
free_paths:
	free(stats);
	free(final);
	free(logpath);
	free(tmpdir);
	return ret;
}

int run_setup(struct run_ctx *c)
{
	char *abs;
	int ret;

	if (uname(&c->uts))
		return -errno;
	ret = workload_path_params(c->w, &c->p, c->path_params, sizeof(c->path_params));
	if (ret)
		return ret;
	ret = run_mkdirs(c->results);
	if (ret) {
		pr_err("%s: %s", c->results, strerror(-ret));
		return ret;
	}
	abs = realpath(c->results, NULL);
	if (!abs) {
		ret = -errno;
		pr_err("%s: %s", c->results, strerror(-ret));
		return ret;
	}
	c->base = path_of("%s/%s/%s/%s", abs, workload_name(c->w), c->path_params,
			  c->uts.release);
	free(abs);
	if (!c->base)
		return -ENOMEM;
	ret = run_mkdirs(c->base);
	if (ret)
		pr_err("%s: %s", c->base, strerror(-ret));
	return ret;
}
