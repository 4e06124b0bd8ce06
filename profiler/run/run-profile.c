// SPDX-License-Identifier: GPL-2.0
/*
 * run-profile.c - profiling for `kprof run`: sample every CPU with call chains during the
 * measured phase (LKP's perf-profile monitor: -a -g, --count=1000003, cycles:pp with the
 * record engine's cpu-clock fallback), then read the perf.data back into the LKP
 * perf-profile.* keys (perf report --children -g folded,0.5,callee, keys >= 0.05%) and the
 * stackcollapse-style profile.folded next to it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/profile/profile.h"
#include "profiler/lib/lib.h"
#include "profiler/record/record.h"
#include "profiler/run/run-int.h"

#define LKP_PERIOD		1000003
#define LKP_MMAP_PAGES		256
#define LKP_CALLTRACE_MIN	0.5
#define LKP_PRINT_MIN		0.05
#define SUMMARY_ROWS		8

struct run_profile {
	struct record_session	*rec;
	char			*perf_data;
	char			*title;		/* of flamegraph.svg; NULL: the default */
	char			*event;		/* what was sampled, after the stop */
	struct kv_list		keys;		/* perf-profile.* of this run */
	double			outside;	/* % of samples outside the workload; NAN */
	char			outside_top[160];
};

double run_profile_outside(const struct run_profile *rp, const char **top)
{
	if (top)
		*top = rp ? rp->outside_top : "";
	return rp ? rp->outside : NAN;
}

/*
 * The derive child's share outside the process tree of @root, as "<percent> <top>\n" in
 * @path. Nothing when it cannot be known: the warning it feeds is a nicety.
 */
static void write_outside(const struct profile *p, const char *perf_data, pid_t root,
			  const char *path)
{
	struct run_comms comms = { 0 };
	char top[160], err[256];
	double pct;
	FILE *fp;
	int ret;

	if (!p->nr_events)
		return;
	ret = run_comms_from_perf_data(perf_data, root, &comms, err, sizeof(err));
	if (!ret)
		ret = comms.nr ? run_outside_share(p->events[0].cg, &comms, &pct, top, sizeof(top)) :
				 -ENOENT;
	run_comms_release(&comms);
	if (ret)
		return;
	fp = fopen(path, "we");
	if (fp) {
		fprintf(fp, "%.3f %s\n", pct, top);
		fclose(fp);
	}
}

static void read_outside(struct run_profile *rp, const char *path)
{
	FILE *fp = fopen(path, "re");
	char line[256];

	rp->outside = NAN;
	if (!fp)
		return;
	if (fgets(line, sizeof(line), fp)) {
		char *end;

		line[strcspn(line, "\n")] = 0;
		rp->outside = strtod(line, &end);
		if (end == line)
			rp->outside = NAN;
		snprintf(rp->outside_top, sizeof(rp->outside_top), "%s", *end ? end + 1 : "");
	}
	fclose(fp);
	unlink(path);
}

int run_profile_start(struct run_profile **out, const char *perf_data, const char *event,
		      const char *call_graph, const char *title, char *err, size_t errlen)
{
	const char *events[1] = { event };
	struct record_opts o = {
		.system_wide = true,
		.events = event ? events : NULL,
		.nr_events = event ? 1 : 0,
		.period = LKP_PERIOD,
		.callgraph = true,
		.mmap_pages = LKP_MMAP_PAGES,
		.output = perf_data,
		.exclude_pid = getpid(),
	};
	struct run_profile *rp = calloc(1, sizeof(*rp));
	char why[512] = "";
	int ret;

	*out = NULL;
	if (call_graph && record_parse_callgraph(call_graph, &o)) {
		free(rp);
		return err_set(err, errlen, -EINVAL, "profiling: --call-graph '%s': fp or "
			       "dwarf[,SIZE]", call_graph);
	}
	if (!rp || !(rp->perf_data = strdup(perf_data)) || (title && !(rp->title = strdup(title)))) {
		run_profile_free(rp);
		return err_set(err, errlen, -ENOMEM, "profiling: out of memory");
	}
	rp->outside = NAN;
	ret = record_session_start(&o, &rp->rec, why, sizeof(why));
	if (ret) {
		err_set(err, errlen, ret, "profiling: %s%s", why[0] ? why : strerror(-ret),
			ret == -EACCES || ret == -EPERM ?
			" (or run without the profile: kprof run --no-profile)" : "");
		run_profile_free(rp);
		return ret;
	}
	*out = rp;
	return 0;
}

static int write_folded(FILE *fp, void *arg)
{
	const struct profile *p = arg;

	for (size_t i = 0; i < p->nr_events; i++) {
		int ret = folded_write(fp, p->events[i].cg, FOLDED_KERNEL);

		if (ret)
			return ret;
	}
	return 0;
}

static int write_keys(FILE *fp, void *arg)
{
	return kv_list_write_json(fp, arg);
}

/*
 * In a child: perf.data -> profile.folded, flamegraph.svg and the perf-profile keys in
 * @keys_path. 0, or 1 with the reason written to @err_fd.
 */
static int derive_child(const struct run_profile *rp, const char *dir, pid_t root,
			const char *keys_path, int err_fd)
{
	const char *perf_data = rp->perf_data;
	struct profile_load_opts lo = { 0 };
	struct profile *p = NULL;
	const struct callgraph **cgs;
	struct kv_list keys = { 0 };
	char err[512] = "", *path = NULL;
	int ret;

	ret = profile_load(perf_data, &lo, &p, err, sizeof(err));
	if (ret) {
		dprintf(err_fd, "%s: %s", perf_data, err[0] ? err : strerror(-ret));
		return 1;
	}
	if (!p->nr_events)
		pr_warn("%s: no samples: no perf-profile keys for this run", perf_data);
	if (asprintf(&path, "%s/.outside", dir) >= 0) {
		write_outside(p, perf_data, root, path);
		free(path);
	}
	path = NULL;
	cgs = calloc(p->nr_events + 1, sizeof(*cgs));
	if (!cgs) {
		profile_free(p);
		return 1;
	}
	for (size_t i = 0; i < p->nr_events; i++)
		cgs[i] = p->events[i].cg;
	if (p->nr_events) {
		struct lkp_profile_opts o = {
			/* LKP names every section after the first event */
			.event = p->events[0].name,
			.calltrace_min = LKP_CALLTRACE_MIN,
			.print_min = LKP_PRINT_MIN,
		};

		ret = lkp_profile_keys_multi(cgs, p->nr_events, &o, &keys);
	}
	free(cgs);
	if (!ret && asprintf(&path, "%s/profile.folded", dir) < 0) {
		path = NULL;
		ret = -ENOMEM;
	}
	if (!ret && (ret = write_file_atomic(path, write_folded, p)))
		dprintf(err_fd, "%s: %s", path, strerror(-ret));
	else if (!ret && (ret = write_file_atomic(keys_path, write_keys, &keys)))
		dprintf(err_fd, "%s: %s", keys_path, strerror(-ret));
	else if (ret)
		dprintf(err_fd, "%s: %s", perf_data, strerror(-ret));
	free(path);
	/* flamegraph.svg beside it; failing costs only the picture */
	if (!ret && p->nr_events)
		flamegraph_write_run_svg(dir, p->events[0].cg, p->events[0].name, rp->title);
	kv_list_release(&keys);
	profile_free(p);
	return ret ? 1 : 0;
}

/* What the derive child wrote to @fd (its one-line reason), into @err. */
static void read_reason(int fd, char *err, size_t errlen)
{
	ssize_t n = read(fd, err, errlen - 1);

	err[n > 0 ? n : 0] = '\0';
}

/*
 * perf-profile.* keys and profile.folded from the finished perf.data. The file is read in a
 * child process: whatever happens while reading it, the runs already on disk and the
 * system state this process restores are safe. 0 / -errno with the reason in @err.
 */
static int derive(struct run_profile *rp, const char *dir, pid_t root, char *err,
		  size_t errlen)
{
	struct json_object keys = { 0 };
	char *keys_path, *outside_path, why[512] = "";
	int status, ret, fds[2];
	pid_t pid;

	if (asprintf(&keys_path, "%s/.perf-profile.json", dir) < 0)
		return err_set(err, errlen, -ENOMEM, "%s: out of memory", dir);
	if (pipe2(fds, O_CLOEXEC)) {
		ret = err_set(err, errlen, -errno, "pipe: %s", strerror(errno));
		free(keys_path);
		return ret;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		_exit(derive_child(rp, dir, root, keys_path, fds[1]));
	}
	close(fds[1]);
	if (pid < 0) {
		ret = err_set(err, errlen, -errno, "fork: %s", strerror(errno));
		goto out;
	}
	read_reason(fds[0], why, sizeof(why));	/* until the child's end closes */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ret = err_set(err, errlen, -errno, "waitpid: %s", strerror(errno));
			goto out;
		}
	if (WIFSIGNALED(status)) {
		ret = err_set(err, errlen, -EIO, "%s: reading it died of signal %d", rp->perf_data,
			      WTERMSIG(status));
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ret = err_set(err, errlen, -EIO, "%s", why[0] ? why : "reading the profile failed");
		goto out;
	}
	if (asprintf(&outside_path, "%s/.outside", dir) >= 0) {
		read_outside(rp, outside_path);
		free(outside_path);
	}
	ret = json_read_file(keys_path, &keys, why, sizeof(why));
	if (ret)
		err_set(err, errlen, ret, "%s: %s", keys_path, why);
	for (size_t i = 0; !ret && i < keys.nr; i++)
		if (keys.members[i].type == JSON_NUMBER)
			ret = kv_list_add(&rp->keys, keys.members[i].key, keys.members[i].num);
	json_object_release(&keys);
out:
	close(fds[0]);
	unlink(keys_path);
	free(keys_path);
	return ret;
}

void run_profile_pause(struct run_profile *rp, bool pause)
{
	if (rp && rp->rec)
		record_session_pause(rp->rec, pause);
}

int run_profile_stop(struct run_profile *rp, const char *dir, pid_t root, char *err,
		     size_t errlen)
{
	struct record_stats st = { 0 };
	char why[512] = "";
	int ret;

	ret = record_session_stop(rp->rec, &st);
	rp->rec = NULL;
	if (ret) {
		free(st.event_used);
		return err_set(err, errlen, ret, "%s: %s", rp->perf_data, strerror(-ret));
	}
	free(rp->event);
	rp->event = st.event_used;
	if (st.lost)
		pr_warn("profiling: %llu samples lost", (unsigned long long)st.lost);
	pr_debug("profiling: %llu samples of kprof itself left out",
		 (unsigned long long)st.excluded);
	/* the perf.data stays; a run is not lost because it could not be read back */
	if (derive(rp, dir, root, why, sizeof(why)))
		pr_warn("%s: no perf-profile keys for this run", why);
	return 0;
}

int run_profile_metrics(const struct run_profile *rp, struct kv_list *out)
{
	int ret = 0;

	for (size_t i = 0; rp && !ret && i < rp->keys.nr; i++)
		ret = kv_list_set(out, rp->keys.items[i].key, rp->keys.items[i].value);
	return ret;
}

const char *run_profile_event(const struct run_profile *rp)
{
	return rp ? rp->event : NULL;
}

const struct kv_list *run_profile_keys(const struct run_profile *rp)
{
	return &rp->keys;
}

static int by_value_desc(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? 1 : -1;
	return strcmp(x->key, y->key);
}

void run_profile_summary(FILE *fp, const char *event_used, const struct kv_list *keys)
{
	static const char *const kinds[] = { "self", "children" };
	char event[64];

	/* the keys' spelling of the event: "cycles:pp" is "cycles-pp", a group its first */
	snprintf(event, sizeof(event), "%s", event_used ? event_used : "");
	for (char *e = event; *e; e++)
		if (*e == ':' || *e == ',')
			*e = *e == ':' ? '-' : '\0';
	for (size_t k = 0; k < 2; k++) {
		struct kv_list rows = { 0 };
		char prefix[128];
		size_t plen;

		snprintf(prefix, sizeof(prefix), "perf-profile.%s.%s.", kinds[k], event);
		plen = strlen(prefix);
		for (size_t i = 0; i < keys->nr; i++)
			if (!strncmp(keys->items[i].key, prefix, plen) &&
			    kv_list_add(&rows, keys->items[i].key, keys->items[i].value))
				break;
		if (rows.nr) {
			qsort(rows.items, rows.nr, sizeof(*rows.items), by_value_desc);
			fprintf(fp, "  top perf-profile.%s.%s rows (last run):\n", kinds[k], event);
			for (size_t i = 0; i < rows.nr && i < SUMMARY_ROWS; i++)
				fprintf(fp, "    %6.2f%%  %s\n", rows.items[i].value,
					rows.items[i].key + plen);
		}
		kv_list_release(&rows);
	}
}

int run_counters_start(struct stat_session **out, bool quiet)
{
	struct stat_opts o = { .system_wide = true };	/* LKP's default perf-stat set */
	enum log_level saved = log_verbosity;
	char err[512] = "";
	int ret;

	*out = NULL;
	/* what cannot be counted here is said by the first run only */
	if (quiet && log_verbosity > LOG_WARN)
		log_verbosity = LOG_WARN;
	ret = stat_session_start(&o, out, err, sizeof(err));
	log_verbosity = saved;
	if (ret)
		pr_warn("perf-stat: %s: no perf-stat keys", err[0] ? err : strerror(-ret));
	return ret;
}

int run_counters_stop(struct stat_session *s, struct kv_list *out)
{
	struct kv_list keys = { 0 };
	int ret;

	if (!s)
		return 0;
	ret = stat_session_stop(s, &keys, NULL);
	for (size_t i = 0; !ret && i < keys.nr; i++)
		ret = kv_list_set(out, keys.items[i].key, keys.items[i].value);
	kv_list_release(&keys);
	return ret;
}

void run_profile_free(struct run_profile *rp)
{
	if (!rp)
		return;
	if (rp->rec)
		record_session_abort(rp->rec);
	kv_list_release(&rp->keys);
	free(rp->perf_data);
	free(rp->title);
	free(rp->event);
	free(rp);
}
