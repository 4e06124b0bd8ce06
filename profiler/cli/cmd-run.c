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
#include <stdarg.h>
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
#include "profiler/profile/profile.h"
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
	char			*base;		/* owned: .../<workload>/<params>/<release> */
	struct utsname		uts;
	struct run_identity	id;
	char			main_metric[128];
	double			*main_values;	/* main metric of each finished run */
	int			nr_done;
	double			last_duration;
	struct run_comms	comms;		/* of the workload's processes, this run */
	double			outside;	/* % of samples outside the workload; NAN */
	char			bindir[4096];	/* the workload programs (next to kprof) */
	pid_t			parent;		/* the controller, for the workload child */
};

#define MAX_INTERLEAVE		8	/* parameter sets of one --interleave run */

/* Share of samples outside the workload above which a run says the machine is noisy. */
#define NOISE_WARN_PERCENT	10.0

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof run WORKLOAD [k=v...] [--runs N] [-e EVENT] [--no-profile] "
		"[-o RESULTS]\n"
		"                [--name NAME] [--commit SHA] [--note TEXT]\n"
		"                [--interleave 'k=v,...' --interleave 'k=v,...']\n"
		"       kprof run --list\n\n"
		"  k=v             nr_task, unit_size, size, runtime (testtime), seed, thp\n"
		"  -r, --runs N    run the workload N times (default 3)\n"
		"  -e, --event E   sampling event (default: cycles:pp, else cpu-clock)\n"
		"  --no-profile    no perf sampling, only the workload metrics and monitors\n"
		"  -o, --output D  result root (default ./results)\n"
		"  -n, --name NAME the result set's name: its directory and compare label\n"
		"                  (default: the kernel release, uname -r)\n"
		"  --commit SHA    the kernel's commit, kept in meta.json\n"
		"  --note TEXT     a free-form note, kept in meta.json\n"
		"  -I, --interleave SPEC  A/B on one kernel: one parameter set per option (k=v,...\n"
		"                  over the command line's), runs alternating A B A B; each set\n"
		"                  its own result directory\n"
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

/*
 * The workload child: own process group, the log as stdout and stderr, then exec the
 * workload's program (vm-scalability or singleuser), which waits for "go" on @fds[0] and
 * announces phases on @fds[1] (answered on @fds[2]). Nothing of kprof stays in the process.
 */
static void child_main(struct run_ctx *c, const struct wl_env *env, const int fds[3],
		       FILE *log)
{
	char **argv = NULL;

	if (setpgid(0, 0)) {	/* the parent kills the group: the workload must be its own */
		pr_err("%s: setpgid: %s", workload_name(c->w), strerror(errno));
		_exit(1);
	}
	/* dies with kprof, even of SIGKILL (its own process group is not signalled then) */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != c->parent)
		_exit(1);	/* the parent died before the prctl */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (workload_argv(c->w, &c->p, env, c->bindir, fds[0], fds[1], fds[2], &argv))
		_exit(1);
	for (int i = 0; i < 3; i++)
		fcntl(fds[i], F_SETFD, 0);	/* inherited by the program */
	if (dup2(fileno(log), STDOUT_FILENO) < 0 || dup2(fileno(log), STDERR_FILENO) < 0)
		_exit(1);
	execv(argv[0], argv);
	pr_err("%s: %s", argv[0], strerror(errno));	/* into the log: report_log_errors() */
	_exit(1);
}

/* One phase change announced by the workload ('p' pause, 'r' resume), answered at once. */
static void phase_change(int ctl_fd, int ack_fd, struct run_profile *prof)
{
	char what;

	if (read(ctl_fd, &what, 1) != 1)
		return;
	if (what == 'p' || what == 'r')
		run_profile_pause(prof, what == 'p');
	if (write(ack_fd, "k", 1) != 1)
		pr_warn("workload phase: %s", strerror(errno));
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

/*
 * Wait for the child, sampling the monitors every second and answering its phase changes on
 * @ctl (read end) / @ack (write end); kill it on an interrupt.
 */
static int supervise(struct run_ctx *c, pid_t pid, struct monitor *mon, struct run_result *res,
		     int run_no, int ctl, int ack, struct run_profile *prof)
{
	struct timespec t0, next;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), failed = 0;
	pid_t got;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	next = t0;
	for (;;) {
		struct pollfd pfd[2] = { { .fd = pidfd, .events = POLLIN },
					 { .fd = ctl, .events = POLLIN } };
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
		if (elapsed_since(&next) >= 1.0 || !c->comms.nr) {
			if (elapsed_since(&next) >= 1.0) {
				monitor_sample(mon);
				next.tv_sec += 1;
			}
			run_comms_scan(&c->comms, pid);	/* who the workload is, for the noise */
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
		if (poll(pfd, 2, timeout) > 0 && (pfd[1].revents & POLLIN))
			phase_change(ctl, ack, prof);
		else if (pfd[1].revents & (POLLHUP | POLLERR))
			ctl = -1;	/* the workload is done with it */
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
	fputs("{\n", fp);
	run_write_identity(fp, &c->id);
	fputs("  \"workload\": ", fp);
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
	fputs(",\n  \"outside_samples_percent\": ", fp);
	json_write_number(fp, c->outside);
	fputs(",\n  \"event\": ", fp);
	if (c->profile && run_profile_event_used())
		json_write_string(fp, run_profile_event_used());
	else
		fputs("null", fp);
	fputs("\n}\n", fp);
	return 0;
}

/* LKP's dump-stat drops series that are all zero: a run's zero values are not stats. */
static int add_nonzero(struct kv_list *dst, const struct kv_list *src)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < src->nr; i++)
		if (src->items[i].value != 0)
			ret = kv_list_set(dst, src->items[i].key, src->items[i].value);
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
			   struct run_profile *prof, const struct kv_list *counted,
			   double *main_value)
{
	struct kv_list all = { 0 }, part = { 0 };
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
	v = kv_list_get(&all, workload_main_metric(c->w, metric, sizeof(metric)));
	if (!ret && !v) {
		pr_err("%s: no %s in the workload log", logpath, metric);
		ret = -ENODATA;
	}
	if (v)
		*main_value = *v;
	kv_list_release(&part);
	if (!ret)
		ret = wl_time_metrics(workload_family(c->w), &res->ru, res->elapsed, res->status,
				      &part);
	if (!ret)
		ret = monitor_metrics(mon, &part);
	if (!ret)
		ret = run_profile_metrics(prof, &part);
	for (size_t i = 0; !ret && i < counted->nr; i++)
		ret = kv_list_set(&part, counted->items[i].key, counted->items[i].value);
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
	kv_list_release(&part);
	kv_list_release(&all);
	return ret;
}

/* Samples of other processes: the numbers of this run carry their noise. */
static void warn_noise(struct run_ctx *c, const struct run_profile *prof, int run_no)
{
	const char *top;

	c->outside = run_profile_outside(prof, &top);
	if (c->outside >= NOISE_WARN_PERCENT)
		pr_warn("%s run %d: %.0f%% of the samples (idle excluded) were outside the "
			"workload (%s): the machine is noisy, the run's numbers carry it",
			workload_name(c->w), run_no, c->outside, top);
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
static int run_once(struct run_ctx *c)
{
	char *tmpdir, *logpath = NULL, *final = NULL, *stats = NULL, err[512] = "";
	struct run_result res = { 0 };
	struct run_profile *prof = NULL;
	struct stat_session *counters = NULL;
	struct kv_list counted = { 0 };
	struct wl_env *env = NULL;
	struct monitor *mon = NULL;
	double main_value = 0;
	int go[2] = { -1, -1 }, ctl[2] = { -1, -1 }, ack[2] = { -1, -1 }, ret;
	int run_no = c->nr_done;
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
	if (!log || !mon || pipe2(go, O_CLOEXEC) || pipe2(ctl, O_CLOEXEC) ||
	    pipe2(ack, O_CLOEXEC)) {
		ret = -errno;
		pr_err("pipe: %s", strerror(-ret));
		goto out;
	}
	ret = workload_prepare(c->w, &c->p, &env, err, sizeof(err));
	if (ret) {
		pr_err("%s: %s", workload_name(c->w), err);
		goto out;
	}
	if (err[0] && !run_no)
		pr_warn("%s", err);	/* set up differently from LKP: said once */
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
		const int fds[3] = { go[0], ctl[1], ack[0] };

		child_main(c, env, fds, log);
	}
	close(go[0]);
	close(ctl[1]);
	close(ack[0]);
	go[0] = ctl[1] = ack[0] = -1;
	monitor_sample(mon);
	if (c->profile) {
		char *title = flamegraph_format_run_title(workload_name(c->w), c->path_params,
							  c->id.name, c->uts.release,
							  run_next_number(c->base));

		run_profile_set_title(title);
		free(title);
		final = path_of("%s/perf.data", tmpdir);
		ret = final ? run_profile_start(&prof, final, c->event) : -ENOMEM;
		free(final);
		final = NULL;
		if (ret) {
			kill(pid, SIGKILL);
			reap_group(pid);
			goto out;
		}
	}
	run_counters_start(&counters);
	if (write(go[1], "g", 1) != 1) {	/* go */
		ret = -errno;
		pr_err("pipe: %s", strerror(-ret));
		kill(pid, SIGKILL);
		reap_group(pid);
		goto out;
	}
	ret = supervise(c, pid, mon, &res, run_no, ctl[0], ack[1], prof);
	monitor_sample(mon);
	if (run_counters_stop(counters, &counted) && !ret)
		ret = -ENOMEM;
	counters = NULL;
	if (prof && !run_interrupted) {	/* interrupted: the profile is aborted below */
		int r;

		run_profile_set_workload(&c->comms);
		r = run_profile_stop(prof, tmpdir);
		if (!ret)
			ret = r;
		warn_noise(c, prof, run_no);
	}
	run_comms_release(&c->comms);
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
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (ctl[i] >= 0)
			close(ctl[i]);
		if (ack[i] >= 0)
			close(ack[i]);
	}
	run_profile_free(prof);
	run_counters_stop(counters, &counted);	/* when a failure came before the stop */
	kv_list_release(&counted);
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
	if (run_share_kallsyms(c->base, final))
		pr_warn("%s: the run keeps its own kallsyms snapshot", final);
	/* later runs sample what the first one settled on (no repeated fallback notice) */
	if (c->profile && !c->event && run_profile_event_used()) {
		c->event_copy = strdup(run_profile_event_used());
		c->event = c->event_copy;
	}
	c->last_duration = res.elapsed;
	stats = path_of("%s/stats.json", final);
	ret = stats ? run_update_matrix(c->base, stats, err, sizeof(err)) : -ENOMEM;
	if (ret) {
		/* matrix.json lists exactly the run directories: this run goes (a full disk) */
		pr_err("%s/matrix.json: %s; run %s removed", c->base,
		       err[0] ? err : strerror(-ret), final);
		run_remove_tree(final);
		c->nr_done--;
		goto free_paths;
	}
	pr_info("%s: run %d done in %.1fs -> %s", workload_name(c->w), c->nr_done, res.elapsed,
		final);
free_paths:
	free(stats);
	free(final);
	free(logpath);
	free(tmpdir);
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
	run_profile_summary(stdout);
}

/*
 * The result set to ourselves (a second kprof run into it refuses), and whole again after a
 * kprof killed with SIGKILL: its temporary directories, missing matrix columns, and the system
 * changes its workload left (hugetlb setting, loop mount, image; workload_recover()).
 */
static int claim_set(struct run_ctx *c)
{
	char err[512] = "", report[1024];
	int ret, n;

	ret = run_lock_set(c->base, err, sizeof(err));
	if (ret < 0) {
		pr_err("%s", err);
		return ret;
	}
	ret = run_remove_stale(c->base, &n);
	if (n)
		pr_warn("%s: removed %d unfinished run director%s of a kprof that died", c->base,
			n, n == 1 ? "y" : "ies");
	if (ret)
		pr_warn("%s: stale run directory: %s", c->base, strerror(-ret));
	ret = run_reconcile_matrix(c->base, &n, err, sizeof(err));
	if (ret) {
		pr_err("%s/matrix.json: %s", c->base, err[0] ? err : strerror(-ret));
		return ret;
	}
	if (n)
		pr_warn("%s/matrix.json: added %d finished run%s it did not list", c->base, n,
			n == 1 ? "" : "s");
	ret = workload_recover(report, sizeof(report));
	if (report[0])
		pr_warn("undone after a kprof that died: %s", report);
	if (ret)
		pr_warn("could not undo all a killed kprof left: %s (kept for next time)",
			strerror(-ret));
	return 0;
}

static int setup(struct run_ctx *c)
{
	char exe[4096], msg[4096], *abs;
	ssize_t n;
	int ret;

	if (uname(&c->uts))
		return -errno;
	/* the workload programs are next to kprof (build dir), or in ./build of a source tree */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return -errno;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	if (workload_find_programs(exe, c->bindir, sizeof(c->bindir), msg, sizeof(msg))) {
		pr_err("%s", msg);
		return -ENOENT;
	}
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
	run_kernel_identify(&c->id.kernel);
	if (!c->id.name)
		c->id.name = c->uts.release;
	c->id.main_metric = workload_main_metric(c->w, c->main_metric, sizeof(c->main_metric));
	c->base = path_of("%s/%s/%s/%s", abs, workload_name(c->w), c->path_params, c->id.name);
	free(abs);
	if (!c->base)
		return -ENOMEM;
	if (run_check_set_kernel(c->base, &c->id.kernel, msg, sizeof(msg))) {
		pr_err("%s", msg);
		return -EEXIST;
	}
	ret = run_mkdirs(c->base);
	if (ret)
		pr_err("%s: %s", c->base, strerror(-ret));
	return ret ?: claim_set(c);
}

/* One --interleave set: "k=v,k=v" or "k=v k=v" over the command line's parameters. */
static int apply_spec(struct wl_params *p, const char *spec)
{
	char *copy = strdup(spec), *save = NULL, err[256];
	int n = 0, ret = copy ? 0 : -ENOMEM;

	for (char *kv = copy ? strtok_r(copy, ", ", &save) : NULL; kv && !ret;
	     kv = strtok_r(NULL, ", ", &save), n++) {
		ret = wl_params_set(p, kv, err, sizeof(err));
		if (ret)
			pr_err("--interleave '%s': %s", spec, err);
	}
	if (!ret && !n) {
		pr_err("--interleave '%s': no k=v", spec);
		ret = -EINVAL;
	}
	free(copy);
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
		{ "name", required_argument, NULL, 'n' },
		{ "commit", required_argument, NULL, 'C' },
		{ "note", required_argument, NULL, 'N' },
		{ "interleave", required_argument, NULL, 'I' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct run_ctx c = { .results = "results", .profile = true, .nr_runs = 3,
			     .outside = NAN, .parent = getpid() };
	struct sigaction sa = { .sa_handler = on_signal };
	const char *specs[MAX_INTERLEAVE];
	struct run_ctx *sets = NULL;
	size_t nr_specs = 0, nr_sets = 0;
	char err[256], *end, token[64];
	int opt, ret = 0, status = KPROF_EXIT_ERROR;

	wl_params_init(&c.p);
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "r:e:o:n:I:lh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'I':
			if (nr_specs == MAX_INTERLEAVE) {
				pr_err("--interleave: at most %d parameter sets", MAX_INTERLEAVE);
				return KPROF_EXIT_USAGE;
			}
			specs[nr_specs++] = optarg;
			break;
		case 'n':
			if (!run_name_valid(optarg)) {
				pr_err("--name '%s': one directory name of letters, digits and ._+- "
				       "(up to 64, not starting with '.' or '-')", optarg);
				return KPROF_EXIT_USAGE;
			}
			c.id.name = optarg;
			break;
		case 'C':
			c.id.commit = optarg;
			break;
		case 'N':
			c.id.note = optarg;
			break;
		case 'r':
			c.nr_runs = (int)strtol(optarg, &end, 10);
			if (*end || c.nr_runs < 1 || c.nr_runs > 1000)
				return cli_bad_value("run", "--runs", optarg, "1 to 1000");
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
			return cli_bad_option("run", argv, "r:e:o:lh", longopts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("run", "no WORKLOAD given");
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
	if (c.event && c.profile && (opt = cmd_check_events("run", &c.event, 1)) >= 0)
		return opt;
	if (nr_specs == 1) {
		pr_err("--interleave: give two parameter sets or more (A and B)");
		return KPROF_EXIT_USAGE;
	}
	nr_sets = nr_specs ? nr_specs : 1;
	if (nr_specs) {
		snprintf(token, sizeof(token), "%lld-%d", (long long)time(NULL), (int)getpid());
		c.id.interleave = token;
	}
	sets = calloc(nr_sets, sizeof(*sets));
	if (!sets)
		return KPROF_EXIT_ERROR;
	for (size_t i = 0; i < nr_sets; i++) {
		sets[i] = c;
		if (nr_specs && apply_spec(&sets[i].p, specs[i])) {
			free(sets);
			return KPROF_EXIT_USAGE;
		}
		if (workload_resolve(c.w, &sets[i].p, err, sizeof(err))) {
			pr_err("%s", err);
			free(sets);
			return KPROF_EXIT_USAGE;
		}
	}
	if (workload_needs_root(c.w) && geteuid()) {
		pr_err("%s: needs root (hugetlb reservation or loop mount)", workload_name(c.w));
		free(sets);
		return KPROF_EXIT_ERROR;
	}
	for (size_t i = 0; i < nr_sets && !ret; i++) {
		sets[i].main_values = calloc((size_t)c.nr_runs, sizeof(double));
		if (!sets[i].main_values || setup(&sets[i]))
			ret = -1;
		for (size_t j = 0; j < i && !ret; j++) {
			if (!strcmp(sets[i].base, sets[j].base)) {
				pr_err("--interleave '%s' and '%s': the same parameters (%s)",
				       specs[j], specs[i], sets[i].path_params);
				ret = -1;
			}
		}
	}
	if (ret)
		goto release;

	/* interrupts end a run cleanly; as subreaper we reap what the workload leaves behind */
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL) ||
	    sigaction(SIGHUP, &sa, NULL) || prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		pr_err("run: signal setup: %s", strerror(errno));
		ret = -1;
		goto release;
	}

	/* interleaved: A B A B ..., so that a drift of the machine hits every set alike */
	for (int i = 0; i < c.nr_runs && !ret && !run_interrupted; i++)
		for (size_t s = 0; s < nr_sets && !ret && !run_interrupted; s++)
			ret = run_once(&sets[s]);
	if (run_interrupted) {
		for (size_t s = 0; s < nr_sets; s++)
			pr_err("interrupted: %d finished run%s kept in %s", sets[s].nr_done,
			       sets[s].nr_done == 1 ? "" : "s", sets[s].base);
		status = 128 + run_interrupted;
	} else {
		for (size_t s = 0; s < nr_sets; s++)
			summary(&sets[s]);
		if (nr_sets > 1 && !ret)
			printf("interleaved %zu parameter sets, %d runs each: kprof compare %s %s\n",
			       nr_sets, c.nr_runs, sets[0].base, sets[1].base);
		status = ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
	}
	run_profile_exit();
release:
	for (size_t s = 0; s < nr_sets; s++) {
		free(sets[s].event_copy);
		free(sets[s].main_values);
		free(sets[s].base);
	}
	free(sets);
	return ret && !run_interrupted ? KPROF_EXIT_ERROR : status;
}
