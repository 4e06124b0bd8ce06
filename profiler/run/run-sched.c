// SPDX-License-Identifier: GPL-2.0
/*
 * run-sched.c - LKP's perf-sched monitor for `kprof run`: what `perf sched record -g` records
 * (every CPU, period 1, call chains), over the measured phase, into a private temporary
 * directory (as LKP's $TMP/perf-sched.data, removed once read: a full results disk stays
 * the workload's), or with --keep-sched-data into the run directory; then the perf-sched.* keys
 * of `perf sched timehist` + LKP's parse (profile/sched-*.c, docs/sched.md).
 *
 * Of perf sched record's events only those timehist uses are recorded: sched_switch,
 * sched_waking (sched_wakeup on kernels without it) and sched_wakeup_new. LKP records a 5-s
 * window starting at a quarter of the runtime; kprof's runs are seconds long, so the whole
 * measured phase (docs/run.md). Failing to start is not fatal: one line, no keys.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/profile/profile.h"
#include "profiler/record/record.h"
#include "profiler/run/run.h"

#define SCHED_MMAP_PAGES	1024	/* perf sched record's -m 1024: few lost events */

struct run_sched {
	struct record_session	*rec;
	char			*path;
	char			*tmpdir;	/* ours, removed at the end; NULL: keep */
};

/* Remove @path + @suffix (NULL-safe path). */
static void unlink_with(const char *path, const char *suffix)
{
	char *p;

	if (path && asprintf(&p, "%s%s", path, suffix) >= 0) {
		unlink(p);
		free(p);
	}
}

void run_sched_free(struct run_sched *rs)
{
	if (!rs)
		return;
	record_session_abort(rs->rec);
	if (rs->tmpdir) {
		unlink_with(rs->path, "");
		unlink_with(rs->path, ".kallsyms");
		rmdir(rs->tmpdir);
	}
	free(rs->tmpdir);
	free(rs->path);
	free(rs);
}

/*
 * The private directories of kprof runs that died without cleaning up (SIGKILL), named
 * kprof-sched-PID.XXXXXX: removed when PID is gone and the directory is ours and private (mode
 * 0700, as mkdtemp makes it). Only the entries of the directory go, unlinked (never followed).
 */
static void sweep_stale(const char *tmp)
{
	DIR *d = opendir(tmp);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct stat st;
		long pid;
		char *end;
		int fd;

		if (strncmp(de->d_name, "kprof-sched-", 12))
			continue;
		pid = strtol(de->d_name + 12, &end, 10);
		if (end == de->d_name + 12 || *end != '.' || pid <= 0 || pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && st.st_uid == geteuid() && (st.st_mode & 07777) == 0700) {
			DIR *sub = fdopendir(fd);
			struct dirent *e;

			while (sub && (e = readdir(sub)))
				if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
					unlinkat(fd, e->d_name, 0);
			if (sub)
				closedir(sub);	/* closes fd */
			else
				close(fd);
			unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
		} else {
			close(fd);
		}
	}
	closedir(d);
}

/* Where to record: @dir/perf-sched.data, or a new private directory under $TMPDIR or /tmp. */
static int sched_path(struct run_sched *rs, const char *dir, bool keep)
{
	const char *tmp = getenv("TMPDIR");

	if (keep)
		return asprintf(&rs->path, "%s/perf-sched.data", dir) < 0 ? -ENOMEM : 0;
	tmp = tmp && *tmp ? tmp : "/tmp";
	sweep_stale(tmp);
	if (asprintf(&rs->tmpdir, "%s/kprof-sched-%d.XXXXXX", tmp, (int)getpid()) < 0) {
		rs->tmpdir = NULL;
		return -ENOMEM;
	}
	if (!mkdtemp(rs->tmpdir)) {	/* mode 0700 */
		int ret = -errno;

		free(rs->tmpdir);
		rs->tmpdir = NULL;
		return ret;
	}
	return asprintf(&rs->path, "%s/perf-sched.data", rs->tmpdir) < 0 ? -ENOMEM : 0;
}

int run_sched_start(struct run_sched **out, const char *dir, bool keep)
{
	const char *events[3] = { "sched:sched_switch", "sched:sched_waking",
				  "sched:sched_wakeup_new" };
	struct record_opts o = {
		.system_wide = true,
		.events = events,
		.nr_events = 3,
		.period = 1,
		.callgraph = true,
		.mmap_pages = SCHED_MMAP_PAGES,
	};
	struct run_sched *rs = calloc(1, sizeof(*rs));
	char err[512] = "";
	int ret;

	*out = NULL;
	ret = rs ? sched_path(rs, dir, keep) : -ENOMEM;
	if (ret) {
		pr_warn("perf-sched monitor: %s: %s: no perf-sched keys", keep ? dir : "$TMPDIR",
			strerror(-ret));
		run_sched_free(rs);
		return ret;
	}
	o.output = rs->path;
	/* kernels before 4.3 have no sched_waking: timehist then uses sched_wakeup */
	if (record_check_events(&events[1], 1, err, sizeof(err)) == -EINVAL)
		events[1] = "sched:sched_wakeup";
	err[0] = '\0';
	ret = record_check_events(events, 3, err, sizeof(err));
	if (!ret)
		ret = record_session_start(&o, &rs->rec, err, sizeof(err));
	if (ret) {
		pr_warn("perf-sched monitor: %s: no perf-sched keys", err[0] ? err : strerror(-ret));
		run_sched_free(rs);
		return ret;
	}
	*out = rs;
	return 0;
}

int run_sched_stop(struct run_sched *rs, struct kv_list *out)
{
	struct sched_stats st;
	struct record_stats rst = { 0 };
	char err[512] = "";
	int ret;

	if (!rs)
		return 0;
	ret = record_session_stop(rs->rec, &rst);
	rs->rec = NULL;
	free(rst.event_used);
	if (ret) {
		pr_warn("perf-sched monitor: %s: %s: no perf-sched keys", rs->path, strerror(-ret));
		run_sched_free(rs);
		return 0;
	}
	ret = sched_lkp_file(rs->path, NULL, "perf-sched.", out, &st, err, sizeof(err));
	if (ret == -ENOMEM) {
		run_sched_free(rs);
		return ret;
	}
	if (ret)
		pr_warn("perf-sched monitor: %s: %s: no perf-sched keys", rs->path,
			err[0] ? err : strerror(-ret));
	else if (st.lost)
		pr_warn("perf-sched monitor: %s: %llu LOST records: the keys miss those events, "
			"as perf's would", rs->path, (unsigned long long)st.lost);
	/* the keys are made; a kept file is read again with the running kernel's symbols */
	unlink_with(rs->path, ".kallsyms");
	run_sched_free(rs);
	return 0;
}
