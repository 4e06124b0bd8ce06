// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-run.c - `kprof run WORKLOAD [k=v...] [--runs N] [-e EVENT] [--no-profile] [-o RESULTS]`:
 * run a built-in workload N times the way LKP does, each run in a forked child started through
 * a pipe once the monitors (and the profiler) are in place, and write a result set: per run
 * stats.json, the raw log and meta.json; per kernel a matrix.json. See docs/run.md.
 *
 * Interrupts: SIGINT/SIGTERM/SIGHUP only set a flag here. The workload runs in its own process
 * group, which is killed; the system state the workload changed is restored and the unfinished
 * run's temporary directory removed. Finished runs are complete on disk before the next starts.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/lib/lib.h"
#include "profiler/cli/cmd-int.h"
#include "profiler/run/run.h"

static volatile sig_atomic_t run_interrupted;

static void on_signal(int sig)
{
	run_interrupted = sig;
}

struct run_ctx {
	const struct workload	*w;
	struct wl_params	p;
	const char		*results;
	const char		*event;		/* -e, or NULL for the default */
	char			*event_copy;	/* owned: the first run's event */
	bool			profile;
	int			nr_runs;
	char			path_params[256];
	char			base[3000];	/* .../<workload>/<params>/<release> */
	struct utsname		uts;
	double			*main_values;	/* main metric of each finished run */
	int			nr_done;
	double			last_duration;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof run WORKLOAD [k=v...] [--runs N] [-e EVENT] [--no-profile] "
		"[-o RESULTS]\n"
		"       kprof run --list\n\n"
		"  k=v             nr_task, unit_size, size, runtime (testtime), seed, thp\n"
		"  -r, --runs N    run the workload N times (default 3)\n"
		"  -e, --event E   sampling event (default: cycles:pp, else cpu-clock)\n"
		"  --no-profile    no perf sampling, only the workload metrics and monitors\n"
		"  -o, --output D  result root (default ./results)\n"
		"  -l, --list      list the workloads\n");
}

static int list_workloads(void)
{
	char metric[128];

	printf("%-22s %-15s %-30s %s\n", "WORKLOAD", "FAMILY", "MAIN METRIC", "WHAT");
	for (const struct workload *w = workload_next(NULL); w; w = workload_next(w))
		printf("%-22s %-15s %-30s %s%s\n", workload_name(w), workload_family(w),
		       workload_main_metric(w, metric, sizeof(metric)), workload_summary(w),
		       workload_needs_root(w) ? " [root]" : "");
	return KPROF_EXIT_OK;
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

	setpgid(0, 0);
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
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	pid_t got;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	next = t0;
	for (;;) {
		struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
		double el = elapsed_since(&t0);
		int timeout;

		if (run_interrupted) {
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
		if (elapsed_since(&next) >= 1.0) {
			monitor_sample(mon);
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
	return 0;
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
	if (c->profile && run_profile_event_used())
		json_write_string(fp, run_profile_event_used());
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
	char path[3400], metric[128];
	const double *v;
	size_t len = 0;
	char *log = read_file(logpath, &len);
	int ret;

	if (!log)
		return -errno;
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
	snprintf(path, sizeof(path), "%s/stats.json", dir);
	if (!ret)
		ret = run_write_stats(path, &all);
	snprintf(path, sizeof(path), "%s/meta.json", dir);
	if (!ret)
		ret = write_file_atomic(path, write_meta, c);
	wl_metrics_release(&part);
	wl_metrics_release(&all);
	return ret;
}

/* One run: 0, -EINTR when interrupted, or another -errno (the reason already printed). */
static int run_once(struct run_ctx *c)
{
	char tmpdir[3100], logpath[3400], final[3400], err[512] = "";
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

	snprintf(tmpdir, sizeof(tmpdir), "%s/.run-%d.tmp", c->base, (int)getpid());
	run_remove_tree(tmpdir);
	ret = run_mkdirs(tmpdir);
	if (ret) {
		pr_err("%s: %s", tmpdir, strerror(-ret));
		return ret;
	}
	snprintf(logpath, sizeof(logpath), "%s/%s.log", tmpdir, workload_name(c->w));
	log = fopen(logpath, "we");
	mon = monitor_new();
	if (!log || !mon || pipe2(go, O_CLOEXEC)) {
		ret = -errno;
		pr_err("%s: %s", logpath, strerror(errno));
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
		pr_err("fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		close(go[1]);
		child_main(c, env, go[0], log);
	}
	setpgid(pid, pid);
	close(go[0]);
	go[0] = -1;
	monitor_sample(mon);
	if (c->profile) {
		snprintf(final, sizeof(final), "%s/perf.data", tmpdir);
		ret = run_profile_start(&prof, final, c->event);
		if (ret) {
			kill(pid, SIGKILL);
			reap_group(pid);
			goto out;
		}
	}
	run_counters_start(&counters);
	if (write(go[1], "g", 1) != 1) {	/* go */
		ret = -errno;
		kill(pid, SIGKILL);
		reap_group(pid);
		goto out;
	}
	ret = supervise(c, pid, mon, &res, run_no);
	monitor_sample(mon);
	if (run_counters_stop(counters, &counted) && !ret)
		ret = -ENOMEM;
	counters = NULL;
	if (prof && !run_interrupted) {	/* interrupted: the profile is aborted below */
		int r = run_profile_stop(prof, tmpdir);

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
	if (ret) {
		run_remove_tree(tmpdir);
		return ret;
	}
	/* the run is complete: give it its number (retry if a concurrent run took it) */
	for (int tries = 0; tries < 100; tries++) {
		snprintf(final, sizeof(final), "%s/%d", c->base, run_next_number(c->base));
		if (!rename(tmpdir, final))
			break;
		if (errno != EEXIST && errno != ENOTEMPTY) {
			pr_err("%s: %s", final, strerror(errno));
			run_remove_tree(tmpdir);
			return -errno;
		}
	}
	c->main_values[c->nr_done++] = main_value;
	/* later runs sample what the first one settled on (no repeated fallback notice) */
	if (c->profile && !c->event && run_profile_event_used()) {
		c->event_copy = strdup(run_profile_event_used());
		c->event = c->event_copy;
	}
	c->last_duration = res.elapsed;
	snprintf(logpath, sizeof(logpath), "%.3380s/stats.json", final);
	ret = run_update_matrix(c->base, logpath, err, sizeof(err));
	if (ret)
		pr_err("%s/matrix.json: %s", c->base, err[0] ? err : strerror(-ret));
	pr_info("%s: run %d done in %.1fs -> %s", workload_name(c->w), c->nr_done, res.elapsed,
		final);
	return ret;
}

static void summary(const struct run_ctx *c)
{
	char metric[128];
	double mean = 0, sd = 0;
	int n = c->nr_done;

	if (!n)
		return;
	for (int i = 0; i < n; i++)
		mean += c->main_values[i];
	mean /= n;
	for (int i = 0; i < n; i++)
		sd += (c->main_values[i] - mean) * (c->main_values[i] - mean);
	sd = sqrt(sd / n);	/* population, as LKP's stddev */
	printf("%s: %d run%s, results in %s\n", workload_name(c->w), n, n == 1 ? "" : "s",
	       c->base);
	printf("  %s: %.2f ± %.2f (%.1f%%)\n", workload_main_metric(c->w, metric, sizeof(metric)),
	       mean, sd, mean ? 100 * sd / mean : 0);
	run_profile_summary(c->base, stdout);
}

static int setup(struct run_ctx *c)
{
	char dir[4096], *abs;
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
	if (!abs)
		return -errno;
	snprintf(dir, sizeof(dir), "%s/%s/%s/%s", abs, workload_name(c->w), c->path_params,
		 c->uts.release);
	free(abs);
	memcpy(c->base, dir, sizeof(c->base));
	ret = run_mkdirs(c->base);
	if (ret)
		pr_err("%s: %s", c->base, strerror(-ret));
	return ret;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "runs", required_argument, NULL, 'r' },
		{ "event", required_argument, NULL, 'e' },
		{ "no-profile", no_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_ctx c = { .results = "results", .profile = true, .nr_runs = 3 };
	struct sigaction sa = { .sa_handler = on_signal };
	char err[256], *end;
	int opt, ret = 0, status;

	wl_params_init(&c.p);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "r:e:o:lh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			c.nr_runs = (int)strtol(optarg, &end, 10);
			if (*end || c.nr_runs < 1 || c.nr_runs > 1000) {
				pr_err("--runs '%s': expected 1..1000", optarg);
				return KPROF_EXIT_USAGE;
			}
			break;
		case 'e':
			c.event = optarg;
			break;
		case 'P':
			c.profile = false;
			break;
		case 'o':
			c.results = optarg;
			break;
		case 'l':
			return list_workloads();
		case 'h':
			usage(stdout);
			return KPROF_EXIT_OK;
		default:
			usage(stderr);
			return KPROF_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return KPROF_EXIT_USAGE;
	}
	c.w = workload_find(argv[optind]);
	if (!c.w) {
		pr_err("'%s' is not a workload (see 'kprof run --list')", argv[optind]);
		return KPROF_EXIT_USAGE;
	}
	for (int i = optind + 1; i < argc; i++) {
		if (wl_params_set(&c.p, argv[i], err, sizeof(err))) {
			pr_err("%s", err);
			return KPROF_EXIT_USAGE;
		}
	}
	if (workload_resolve(c.w, &c.p, err, sizeof(err))) {
		pr_err("%s", err);
		return KPROF_EXIT_USAGE;
	}
	if (workload_needs_root(c.w) && geteuid()) {
		pr_err("%s: needs root (hugetlb reservation or loop mount)", workload_name(c.w));
		return KPROF_EXIT_ERROR;
	}
	c.main_values = calloc((size_t)c.nr_runs, sizeof(double));
	if (!c.main_values || setup(&c)) {
		free(c.main_values);
		return KPROF_EXIT_ERROR;
	}

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	for (int i = 0; i < c.nr_runs && !ret && !run_interrupted; i++)
		ret = run_once(&c);
	if (run_interrupted) {
		pr_err("interrupted: %d finished run%s kept in %s", c.nr_done,
		       c.nr_done == 1 ? "" : "s", c.base);
		status = 128 + run_interrupted;
	} else {
		summary(&c);
		status = ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
	}
	run_profile_exit();
	free(c.event_copy);
	free(c.main_values);
	return status;
}
