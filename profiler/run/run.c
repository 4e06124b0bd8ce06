// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - the runs of a `kprof run` batch (run.h): one forked child per run that execs the
 * workload's program, the monitors and the profiler around its measured phase, and the run's
 * directory completed and numbered.
 *
 * Interrupts: the CLI's signal handler only sets *stop. The workload runs in its own process
 * group, which is killed; the system state the workload changed is restored and the unfinished
 * run's temporary directory removed. Finished runs are complete on disk before the next starts.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
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
#include "profiler/profile/profile.h"
#include "profiler/run/run-int.h"

/* Share of samples outside the workload above which a run says the machine is noisy. */
#define NOISE_WARN_PERCENT	10.0
/* Runs that find their number taken by a concurrent kprof before giving up. */
#define CLAIM_TRIES		100

struct run_set {
	struct run_batch	*b;
	struct wl_params	p;
	char			path_params[256];
	char			*base;		/* owned: .../<workload>/<params>/<name> */
	struct run_identity	id;
	char			main_metric[128];
	double			*main_values;	/* main metric of each finished run */
	int			nr_done;
	double			outside;	/* % of samples outside the workload; NAN */
};

struct run_batch {
	struct run_request		rq;
	struct run_set			*sets;
	size_t				nr_sets;
	struct utsname			uts;
	char				interleave_token[64];
	char				*event;		/* owned: what to sample (-e, else what
							 * the first profile settled on); NULL */
	char				*event_used;	/* owned: of the latest profile */
	struct kv_list			latest_keys;	/* of the latest profile, for the summary */
	double				last_duration;	/* of the latest run, for the progress */
	bool				counters_said;	/* perf-stat's notices: first run only */
	const volatile sig_atomic_t	*stop;
	pid_t				parent;		/* this process, for the workload child */
};

static bool stopped(const struct run_batch *b)
{
	return b->stop && *b->stop;
}

static double elapsed_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
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
 * The workload child: own process group, the log as stdout and stderr, then exec the
 * workload's program (vm-scalability or singleuser), which waits for "go" on @fds[0] and
 * announces phases on @fds[1] (answered on @fds[2]). Nothing of kprof stays in the process.
 * What fails here is written to the log, which the parent shows (report_log_errors()).
 */
static void child_main(const struct run_set *s, const struct wl_env *env, const int fds[3],
		       FILE *log)
{
	const struct run_batch *b = s->b;
	const char *name = workload_name(b->rq.w);
	char **argv = NULL;

	if (dup2(fileno(log), STDOUT_FILENO) < 0 || dup2(fileno(log), STDERR_FILENO) < 0)
		_exit(1);
	/* the parent kills the group: the workload must be its own */
	if (setpgid(0, 0) ||
	    /* dies with kprof, even of SIGKILL (its own process group is not signalled then) */
	    prctl(PR_SET_PDEATHSIG, SIGKILL)) {
		dprintf(STDERR_FILENO, "%s: the workload's process setup failed: %s\n", name,
			strerror(errno));
		_exit(1);
	}
	if (getppid() != b->parent)
		_exit(1);	/* the parent died before the prctl */
	if (signal(SIGINT, SIG_DFL) == SIG_ERR || signal(SIGTERM, SIG_DFL) == SIG_ERR ||
	    signal(SIGHUP, SIG_DFL) == SIG_ERR)
		_exit(1);
	if (workload_argv(b->rq.w, &s->p, env, b->rq.bindir, fds[0], fds[1], fds[2], &argv)) {
		dprintf(STDERR_FILENO, "%s: the program's arguments failed\n", name);
		_exit(1);
	}
	for (int i = 0; i < 3; i++)
		if (fcntl(fds[i], F_SETFD, 0))	/* inherited by the program */
			_exit(1);
	/* the program and its helpers hold the state file's flock too (a recovery waits) */
	if (workload_state_inherit(env)) {
		dprintf(STDERR_FILENO, "%s: the state file: %s\n", name, strerror(errno));
		_exit(1);
	}
	execv(argv[0], argv);
	dprintf(STDERR_FILENO, "%s: exec failed: %s\n", argv[0], strerror(errno));
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

static void show_progress(const struct run_set *s, int run_no, double el)
{
	const struct run_batch *b = s->b;
	const char *name = workload_name(b->rq.w);

	if (b->last_duration > 0)
		progress_update("kprof run: %s run %d/%d: %.0fs elapsed, ~%.0fs remaining", name,
				run_no + 1, b->rq.nr_runs, el, fmax(0, b->last_duration - el) +
				b->last_duration * (b->rq.nr_runs - run_no - 1));
	else
		progress_update("kprof run: %s run %d/%d: %.0fs elapsed", name, run_no + 1,
				b->rq.nr_runs, el);
}

/*
 * Wait for the child, sampling the monitors every second and answering its phase changes on
 * @ctl (read end) / @ack (write end); kill it when stopped. 0 / -errno.
 */
static int supervise(struct run_set *s, pid_t pid, struct monitor *mon, struct run_result *res,
		     int run_no, int ctl, int ack, struct run_profile *prof)
{
	struct timespec t0, next;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0), ret = 0;
	pid_t got;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	next = t0;
	for (;;) {
		struct pollfd pfd[2] = { { .fd = pidfd, .events = POLLIN },
					 { .fd = ctl, .events = POLLIN } };
		int timeout;

		if (stopped(s->b)) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		got = wait4(pid, &res->status, WNOHANG, &res->ru);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR) {
			ret = -errno;
			kill(-pid, SIGKILL);
			break;
		}
		if (elapsed_since(&next) >= 1.0) {
			int r = monitor_sample(mon);

			if (r && !ret)
				ret = r;	/* a monitor that stops reading: the run is not whole */
			next.tv_sec += 1;
		}
		show_progress(s, run_no, elapsed_since(&t0));
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
	return ret;
}

static int write_meta(FILE *fp, void *arg)
{
	const struct run_set *s = arg;
	const struct run_batch *b = s->b;
	char date[64];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs("{\n", fp);
	run_write_identity(fp, &s->id);
	fputs("  \"workload\": ", fp);
	json_write_string(fp, workload_name(b->rq.w));
	fputs(",\n  \"family\": ", fp);
	json_write_string(fp, workload_family(b->rq.w));
	fputs(",\n  \"params\": ", fp);
	workload_params_json(b->rq.w, &s->p, fp);
	fputs(",\n  \"path_params\": ", fp);
	json_write_string(fp, s->path_params);
	fputs(",\n  \"kernel\": ", fp);
	json_write_string(fp, b->uts.release);
	fputs(",\n  \"kernel_version\": ", fp);
	json_write_string(fp, b->uts.version);
	fputs(",\n  \"kprof_version\": ", fp);
	json_write_string(fp, KPROF_VERSION);
	fputs(",\n  \"machine\": {\"hostname\": ", fp);
	json_write_string(fp, b->uts.nodename);
	fputs(", \"arch\": ", fp);
	json_write_string(fp, b->uts.machine);
	fprintf(fp, ", \"nr_cpus\": %ld, \"mem_total_kB\": %ld}", sysconf(_SC_NPROCESSORS_ONLN),
		(long)(sysconf(_SC_PHYS_PAGES) * (sysconf(_SC_PAGESIZE) / 1024)));
	fputs(",\n  \"date\": ", fp);
	json_write_string(fp, date);
	fputs(",\n  \"outside_samples_percent\": ", fp);
	json_write_number(fp, s->outside);
	fputs(",\n  \"event\": ", fp);
	if (b->rq.profile && b->event_used)
		json_write_string(fp, b->event_used);
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

/*
 * A failed run's log is removed with its directory: its first error lines (the workers' own,
 * and what child_main() could not do) into @err after @what.
 */
static int log_errors(const char *logpath, int ret, char *err, size_t errlen, const char *what)
{
	char line[512];
	size_t used;
	int shown = 0;
	FILE *fp = fopen(logpath, "re");

	err_set(err, errlen, ret, "%s", what);
	used = strlen(err);
	while (fp && shown < 3 && used + 3 < errlen && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "failed") || strstr(line, "Skipping") || strstr(line, "wrong")) {
			used += (size_t)snprintf(err + used, errlen - used, "%s%s", shown ? "; " : ": ",
						 line);
			used = used < errlen ? used : errlen - 1;
			shown++;
		}
	}
	if (fp)
		fclose(fp);
	return ret;
}

/* Everything of one finished run into stats.json and meta.json in @dir. 0 / -errno + @err. */
static int write_run_stats(struct run_set *s, const char *dir, const char *logpath,
			   const struct run_result *res, const struct monitor *mon,
			   const struct run_profile *prof, const struct kv_list *counted,
			   double *main_value, char *err, size_t errlen)
{
	const struct workload *w = s->b->rq.w;
	struct kv_list all = { 0 }, part = { 0 };
	char *path = NULL, *log = NULL;
	const double *v;
	size_t len = 0;
	int ret;

	ret = read_whole_file(logpath, 0, &log, &len);
	if (ret)
		return err_set(err, errlen, ret, "%s: %s", logpath, strerror(-ret));
	ret = workload_parse_log(w, log, len, &part);
	free(log);
	if (ret)
		return err_set(err, errlen, ret, "%s: %s", logpath, strerror(-ret));
	ret = add_nonzero(&all, &part);
	v = kv_list_get(&all, s->main_metric);
	if (!ret && !v)
		ret = err_set(err, errlen, -ENODATA, "%s: no %s in the workload log", logpath,
			      s->main_metric);
	if (v)
		*main_value = *v;
	kv_list_release(&part);
	if (!ret)
		ret = wl_time_metrics(workload_family(w), &res->ru, res->elapsed, res->status,
				      &part);
	if (!ret)
		ret = monitor_metrics(mon, &part);
	if (!ret)
		ret = run_profile_metrics(prof, &part);
	for (size_t i = 0; !ret && i < counted->nr; i++)
		ret = kv_list_set(&part, counted->items[i].key, counted->items[i].value);
	if (!ret)
		ret = add_nonzero(&all, &part);
	if (!ret && !(path = path_of("%s/stats.json", dir)))
		ret = -ENOMEM;
	if (!ret && (ret = run_write_stats(path, &all)))
		err_set(err, errlen, ret, "%s: %s", path, strerror(-ret));
	free(path);
	path = NULL;
	if (!ret && !(path = path_of("%s/meta.json", dir)))
		ret = -ENOMEM;
	if (!ret && (ret = write_file_atomic(path, write_meta, s)))
		err_set(err, errlen, ret, "%s: %s", path, strerror(-ret));
	free(path);
	kv_list_release(&part);
	kv_list_release(&all);
	if (ret == -ENOMEM && !err[0])
		err_set(err, errlen, ret, "%s: out of memory", dir);
	return ret;
}

/* Samples of other processes: the numbers of this run carry their noise. */
static void warn_noise(struct run_set *s, const struct run_profile *prof, int run_no)
{
	const char *top;

	s->outside = run_profile_outside(prof, &top);
	if (s->outside >= NOISE_WARN_PERCENT)
		pr_warn("%s run %d: %.0f%% of the samples (idle excluded) were outside the "
			"workload (%s): the machine is noisy, the run's numbers carry it",
			workload_name(s->b->rq.w), run_no, s->outside, top);
}

/* The rename loop of a finished run (run-int.h) */
int run_claim_number(const char *base, const char *tmpdir, char **final,
		     int (*try_rename)(const char *from, const char *to), char *err,
		     size_t errlen)
{
	int ret;

	*final = NULL;
	for (int tries = 0; tries < CLAIM_TRIES; tries++) {
		*final = path_of("%s/%d", base, run_next_number(base));
		if (!*final)
			return err_set(err, errlen, -ENOMEM, "%s: out of memory", base);
		if (!try_rename(tmpdir, *final))
			return 0;
		ret = -errno;	/* before free() can change it */
		if (ret != -EEXIST && ret != -ENOTEMPTY) {
			err_set(err, errlen, ret, "%s: %s", *final, strerror(-ret));
			free(*final);
			*final = NULL;
			return ret;
		}
		free(*final);
		*final = NULL;
	}
	return err_set(err, errlen, -EEXIST, "%s: no free run number after %d tries", base,
		       CLAIM_TRIES);
}

/* The pipes between controller and workload: go (c -> w), ctl (w -> c), ack (c -> w). */
struct run_pipes {
	int	go[2], ctl[2], ack[2];
};

static void pipes_close(struct run_pipes *p)
{
	int *fds[] = { p->go, p->ctl, p->ack };

	for (size_t i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++)
			if (fds[i][j] >= 0) {
				close(fds[i][j]);
				fds[i][j] = -1;
			}
}

/* Start the workload child and the profiler; the child waits for "go". 0 / -errno + @err. */
static int start_child(struct run_set *s, const char *tmpdir, const struct wl_env *env,
		       struct run_pipes *p, FILE *log, pid_t *pid, struct monitor *mon,
		       struct run_profile **prof, char *err, size_t errlen)
{
	struct run_batch *b = s->b;
	int ret;

	fflush(NULL);
	*pid = fork();
	if (*pid < 0)
		return err_set(err, errlen, -errno, "fork: %s", strerror(errno));
	if (*pid == 0) {
		const int fds[3] = { p->go[0], p->ctl[1], p->ack[0] };

		child_main(s, env, fds, log);
	}
	close(p->go[0]);
	close(p->ctl[1]);
	close(p->ack[0]);
	p->go[0] = p->ctl[1] = p->ack[0] = -1;
	ret = monitor_sample(mon);
	if (ret)
		return err_set(err, errlen, ret, "monitors: /proc: %s", strerror(-ret));
	if (b->rq.profile) {
		char *title = flamegraph_format_run_title(workload_name(b->rq.w), s->path_params,
							  s->id.name, b->uts.release,
							  run_next_number(s->base));
		char *perf_data = path_of("%s/perf.data", tmpdir);

		ret = perf_data ? run_profile_start(prof, perf_data, b->event,
							 b->rq.call_graph, title, err, errlen) :
				  err_set(err, errlen, -ENOMEM, "%s: out of memory", tmpdir);
		free(perf_data);
		free(title);
	}
	return ret;
}

/* The finished run's profile: stopped, read back, its share outside the workload. */
static int finish_profile(struct run_set *s, struct run_profile *prof, const char *tmpdir,
			  pid_t pid, int run_no, char *err, size_t errlen)
{
	struct run_batch *b = s->b;
	const struct kv_list *keys;
	int ret;

	ret = run_profile_stop(prof, tmpdir, pid, err, errlen);
	if (ret)
		return ret;
	warn_noise(s, prof, run_no);
	if (run_profile_event(prof)) {
		free(b->event_used);
		b->event_used = strdup(run_profile_event(prof));
		/* later runs sample what the first one settled on (no repeated fallback notice) */
		if (!b->event && b->event_used)
			b->event = strdup(b->event_used);
		if (!b->event_used || !b->event)
			return err_set(err, errlen, -ENOMEM, "out of memory");
	}
	keys = run_profile_keys(prof);
	if (!keys->nr)
		return 0;
	kv_list_release(&b->latest_keys);
	for (size_t i = 0; !ret && i < keys->nr; i++)
		ret = kv_list_add(&b->latest_keys, keys->items[i].key, keys->items[i].value);
	return ret ? err_set(err, errlen, ret, "out of memory") : 0;
}

/*
 * Measure one run into @tmpdir (complete, not yet numbered): 0, -EINTR when stopped, or
 * another -errno with the reason in @err.
 */
static int measure(struct run_set *s, const char *tmpdir, double *main_value,
		   struct run_result *res, char *err, size_t errlen)
{
	struct run_batch *b = s->b;
	const char *name = workload_name(b->rq.w);
	struct run_pipes p = { { -1, -1 }, { -1, -1 }, { -1, -1 } };
	struct run_profile *prof = NULL;
	struct stat_session *counters = NULL;
	struct run_sched *sched = NULL;
	struct kv_list counted = { 0 };
	struct wl_env *env = NULL;
	struct monitor *mon = NULL;
	char *logpath, note[512] = "";
	int run_no = s->nr_done, ret, r;
	FILE *log = NULL;
	pid_t pid = -1;

	logpath = path_of("%s/%s.log", tmpdir, name);
	if (!logpath)
		return err_set(err, errlen, -ENOMEM, "%s: out of memory", tmpdir);
	log = fopen(logpath, "we");
	if (!log) {
		ret = err_set(err, errlen, -errno, "%s: %s", logpath, strerror(errno));
		goto out;
	}
	mon = monitor_new();
	if (!mon) {
		ret = err_set(err, errlen, -errno, "monitors: %s", strerror(errno));
		goto out;
	}
	if (pipe2(p.go, O_CLOEXEC) || pipe2(p.ctl, O_CLOEXEC) || pipe2(p.ack, O_CLOEXEC)) {
		ret = err_set(err, errlen, -errno, "pipe: %s", strerror(errno));
		goto out;
	}
	ret = workload_prepare(b->rq.w, &s->p, &env, note, sizeof(note));
	if (ret) {
		err_set(err, errlen, ret, "%s: %s", name, note);
		goto out;
	}
	if (note[0] && !run_no)
		pr_warn("%s", note);	/* set up differently from LKP: said once */
	if (stopped(b)) {
		ret = -EINTR;
		goto out;
	}
	ret = start_child(s, tmpdir, env, &p, log, &pid, mon, &prof, err, errlen);
	if (!ret) {
		run_counters_start(&counters, b->counters_said);
		b->counters_said = true;
		/* perf-sched: said once when it cannot start, then off for the batch */
		if (b->rq.sched && run_sched_start(&sched, tmpdir, b->rq.keep_sched))
			b->rq.sched = false;
		if (write(p.go[1], "g", 1) != 1)
			ret = err_set(err, errlen, -errno, "%s: the start pipe: %s", name,
				      strerror(errno));
	}
	if (ret) {
		if (pid > 0) {
			kill(pid, SIGKILL);
			reap_group(pid);
		}
		goto out;
	}
	ret = supervise(s, pid, mon, res, run_no, p.ctl[0], p.ack[1], prof);
	if (ret)
		err_set(err, errlen, ret, "%s run %d: %s", name, run_no, strerror(-ret));
	r = monitor_sample(mon);
	if (r && !ret)
		ret = err_set(err, errlen, r, "monitors: /proc: %s", strerror(-r));
	r = run_counters_stop(counters, &counted);
	counters = NULL;
	if (r && !ret)
		ret = err_set(err, errlen, r, "perf-stat: %s", strerror(-r));
	if (!ret && !stopped(b)) {	/* the perf-sched.* keys join perf-stat's */
		r = run_sched_stop(sched, &counted);
		sched = NULL;
		if (r)
			ret = err_set(err, errlen, r, "perf-sched: %s", strerror(-r));
	}
	progress_done();
	if (!ret && stopped(b))
		ret = -EINTR;
	if (!ret && prof)	/* stopped: the profile is aborted below */
		ret = finish_profile(s, prof, tmpdir, pid, run_no, err, errlen);
	fclose(log);
	log = NULL;
	if (!ret && WIFSIGNALED(res->status)) {
		snprintf(note, sizeof(note), "%s: run %d killed by signal %d", name, run_no,
			 WTERMSIG(res->status));
		ret = log_errors(logpath, -EIO, err, errlen, note);
	} else if (!ret && (!WIFEXITED(res->status) || WEXITSTATUS(res->status))) {
		snprintf(note, sizeof(note), "%s: run %d failed", name, run_no);
		ret = log_errors(logpath, -EIO, err, errlen, note);
	}
	if (!ret)
		ret = write_run_stats(s, tmpdir, logpath, res, mon, prof, &counted, main_value,
				      err, errlen);
out:
	if (log)
		fclose(log);
	pipes_close(&p);
	run_profile_free(prof);
	run_counters_stop(counters, &counted);	/* when a failure came before the stop */
	run_sched_free(sched);
	kv_list_release(&counted);
	monitor_free(mon);
	if (workload_cleanup(env, note, sizeof(note))) {
		if (!ret)
			ret = err_set(err, errlen, -EIO, "restoring the system after %s: %s", name,
				      note);
		else	/* the first error stays the run's; this one must be said too */
			pr_warn("restoring the system after %s: %s", name, note);
	}
	free(logpath);
	return ret;
}

/* One run, complete and numbered: 0, -EINTR when stopped, or another -errno with @err. */
static int run_once(struct run_set *s, char *err, size_t errlen)
{
	struct run_batch *b = s->b;
	struct run_result res = { 0 };
	char *tmpdir, *final = NULL, *stats = NULL, why[512] = "";
	double main_value = 0;
	int ret;

	tmpdir = path_of("%s/.run-%d.tmp", s->base, (int)getpid());
	if (!tmpdir)
		return err_set(err, errlen, -ENOMEM, "%s: out of memory", s->base);
	run_remove_tree(tmpdir);
	ret = run_mkdirs(tmpdir);
	if (ret) {
		err_set(err, errlen, ret, "%s: %s", tmpdir, strerror(-ret));
		goto out;
	}
	ret = measure(s, tmpdir, &main_value, &res, err, errlen);
	if (!ret)	/* the run is complete: give it its number */
		ret = run_claim_number(s->base, tmpdir, &final, rename, err, errlen);
	if (ret) {
		run_remove_tree(tmpdir);
		goto out;
	}
	s->main_values[s->nr_done++] = main_value;
	if (run_share_kallsyms(s->base, final))
		pr_warn("%s: the run keeps its own kallsyms snapshot", final);
	b->last_duration = res.elapsed;
	stats = path_of("%s/stats.json", final);
	ret = stats ? run_update_matrix(s->base, stats, why, sizeof(why)) : -ENOMEM;
	if (ret) {
		/* matrix.json lists exactly the run directories: this run goes (a full disk) */
		err_set(err, errlen, ret, "%s/matrix.json: %s; run %s removed", s->base,
			why[0] ? why : strerror(-ret), final);
		run_remove_tree(final);
		s->nr_done--;
		goto out;
	}
	pr_info("%s: run %d done in %.1fs -> %s", workload_name(b->rq.w), s->nr_done,
		res.elapsed, final);
out:
	free(stats);
	free(final);
	free(tmpdir);
	return ret;
}

/* One --interleave set: "k=v,k=v" or "k=v k=v" over the command line's parameters. */
static int apply_spec(struct wl_params *p, const char *spec, char *err, size_t errlen)
{
	char *copy = strdup(spec), *save = NULL, why[256];
	int n = 0, ret = copy ? 0 : -ENOMEM;

	for (char *kv = copy ? strtok_r(copy, ", ", &save) : NULL; kv && !ret;
	     kv = strtok_r(NULL, ", ", &save), n++) {
		ret = wl_params_set(p, kv, why, sizeof(why));
		if (ret)
			err_set(err, errlen, -EINVAL, "--interleave '%s': %s", spec, why);
	}
	if (!ret && !n)
		ret = err_set(err, errlen, -EINVAL, "--interleave '%s': no k=v", spec);
	free(copy);
	return ret ? -EINVAL : 0;
}

int run_batch_new(const struct run_request *rq, struct run_batch **out, char *err,
		  size_t errlen)
{
	struct run_batch *b;
	int ret = 0;

	*out = NULL;
	if (rq->nr_interleave == 1 || rq->nr_interleave > RUN_MAX_INTERLEAVE)
		return err_set(err, errlen, -EINVAL, "--interleave: give two parameter sets or more "
			       "(A and B), at most %d", RUN_MAX_INTERLEAVE);
	if (rq->name && !run_name_valid(rq->name))
		return err_set(err, errlen, -EINVAL, "--name '%s': one directory name of letters, "
			       "digits and ._+- (up to 64, not starting with '.' or '-')", rq->name);
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->rq = *rq;
	b->parent = getpid();
	if (rq->event && !(b->event = strdup(rq->event))) {
		free(b);
		return -ENOMEM;
	}
	b->nr_sets = rq->nr_interleave ? rq->nr_interleave : 1;
	b->sets = calloc(b->nr_sets, sizeof(*b->sets));
	if (!b->sets || uname(&b->uts)) {
		run_batch_free(b);
		return -ENOMEM;
	}
	if (rq->nr_interleave)
		snprintf(b->interleave_token, sizeof(b->interleave_token), "%lld-%d",
			 (long long)time(NULL), (int)getpid());
	for (size_t i = 0; i < b->nr_sets && !ret; i++) {
		struct run_set *s = &b->sets[i];

		*s = (struct run_set){ .b = b, .p = rq->p, .outside = NAN };
		if (rq->nr_interleave)
			ret = apply_spec(&s->p, rq->interleave[i], err, errlen);
		if (!ret && workload_resolve(rq->w, &s->p, err, errlen))
			ret = -EINVAL;
		if (!ret)
			ret = workload_path_params(rq->w, &s->p, s->path_params,
						   sizeof(s->path_params));
		for (size_t j = 0; j < i && !ret; j++)
			if (!strcmp(b->sets[j].path_params, s->path_params))
				ret = err_set(err, errlen, -EINVAL, "--interleave '%s' and '%s': the "
					      "same parameters (%s)", rq->interleave[j],
					      rq->interleave[i], s->path_params);
	}
	if (!ret && workload_needs_root(rq->w) && geteuid())
		ret = err_set(err, errlen, -EPERM, "%s: needs root (hugetlb reservation or loop "
			      "mount)", workload_name(rq->w));
	if (ret) {
		run_batch_free(b);
		return ret;
	}
	*out = b;
	return 0;
}

/*
 * The result set to ourselves (a second kprof run into it refuses), and whole again after a
 * kprof killed with SIGKILL: its temporary directories, missing matrix columns, and the system
 * changes its workload left (hugetlb setting, loop mount, image; workload_recover()).
 */
static int claim_set(struct run_set *s, char *err, size_t errlen)
{
	char why[512] = "", report[1024];
	int ret, n;

	ret = run_lock_set(s->base, err, errlen);
	if (ret < 0)
		return ret;
	ret = run_remove_stale(s->base, &n);
	if (n)
		pr_warn("%s: removed %d unfinished run director%s of a kprof that died", s->base,
			n, n == 1 ? "y" : "ies");
	if (ret)
		pr_warn("%s: stale run directory: %s", s->base, strerror(-ret));
	ret = run_reconcile_matrix(s->base, &n, why, sizeof(why));
	if (ret)
		return err_set(err, errlen, ret, "%s/matrix.json: %s", s->base,
			       why[0] ? why : strerror(-ret));
	if (n)
		pr_warn("%s/matrix.json: added %d finished run%s it did not list", s->base, n,
			n == 1 ? "" : "s");
	ret = workload_recover(report, sizeof(report));
	if (report[0])
		pr_warn("undone after a kprof that died: %s", report);
	if (ret)
		pr_warn("could not undo all a killed kprof left: %s (kept for next time)",
			strerror(-ret));
	return 0;
}

static int prepare_set(struct run_set *s, char *err, size_t errlen)
{
	const struct run_request *rq = &s->b->rq;
	char *abs;
	int ret;

	ret = run_mkdirs(rq->results);
	if (ret)
		return err_set(err, errlen, ret, "%s: %s", rq->results, strerror(-ret));
	abs = realpath(rq->results, NULL);
	if (!abs)
		return err_set(err, errlen, -errno, "%s: %s", rq->results, strerror(errno));
	s->id = (struct run_identity){
		.name = rq->name ? rq->name : s->b->uts.release,
		.commit = rq->commit,
		.note = rq->note,
		.interleave = rq->nr_interleave ? s->b->interleave_token : NULL,
		.main_metric = workload_main_metric(rq->w, s->main_metric, sizeof(s->main_metric)),
	};
	run_kernel_identify(&s->id.kernel);
	s->base = path_of("%s/%s/%s/%s", abs, workload_name(rq->w), s->path_params, s->id.name);
	free(abs);
	s->main_values = calloc((size_t)rq->nr_runs, sizeof(double));
	if (!s->base || !s->main_values)
		return err_set(err, errlen, -ENOMEM, "%s: out of memory", rq->results);
	ret = run_check_set_kernel(s->base, &s->id.kernel, err, errlen);
	if (ret)
		return ret;
	ret = run_mkdirs(s->base);
	if (ret)
		return err_set(err, errlen, ret, "%s: %s", s->base, strerror(-ret));
	return claim_set(s, err, errlen);
}

int run_batch_prepare(struct run_batch *b, char *err, size_t errlen)
{
	int ret = 0;

	for (size_t i = 0; i < b->nr_sets && !ret; i++)
		ret = prepare_set(&b->sets[i], err, errlen);
	return ret;
}

int run_batch_run(struct run_batch *b, const volatile sig_atomic_t *stop, char *err,
		  size_t errlen)
{
	int ret = 0;

	b->stop = stop;
	/* what the workload leaves behind (daemonized helpers) is ours to reap and kill */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		return err_set(err, errlen, -errno, "run: subreaper: %s", strerror(errno));
	for (int i = 0; i < b->rq.nr_runs && !ret && !stopped(b); i++)
		for (size_t s = 0; s < b->nr_sets && !ret && !stopped(b); s++)
			ret = run_once(&b->sets[s], err, errlen);
	return stopped(b) && (!ret || ret == -EINTR) ? -EINTR : ret;
}

size_t run_batch_nr_sets(const struct run_batch *b)
{
	return b ? b->nr_sets : 0;
}

void run_batch_result(const struct run_batch *b, size_t i, struct run_set_result *out)
{
	const struct run_set *s = &b->sets[i];

	*out = (struct run_set_result){
		.workload = workload_name(b->rq.w),
		.base = s->base,
		.path_params = s->path_params,
		.main_metric = s->main_metric,
		.main_values = s->main_values,
		.nr_done = s->nr_done,
	};
}

void run_batch_write_top_rows(const struct run_batch *b, FILE *fp)
{
	run_profile_summary(fp, b->event_used, &b->latest_keys);
}

void run_batch_free(struct run_batch *b)
{
	if (!b)
		return;
	for (size_t i = 0; b->sets && i < b->nr_sets; i++) {
		free(b->sets[i].base);
		free(b->sets[i].main_values);
	}
	free(b->sets);
	free(b->event);
	free(b->event_used);
	kv_list_release(&b->latest_keys);
	free(b);
}
