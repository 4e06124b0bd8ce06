// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - the only user of libperf (see session-int.h). libperf 6.1 API: the cpu-map
 * constructors are perf_cpu_map__new(NULL) (online CPUs) and perf_cpu_map__dummy_new();
 * mainline renamed them, which is why nothing else may include <perf/...>.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perf/core.h>
#include <perf/cpumap.h>
#include <perf/evlist.h>
#include <perf/evsel.h>
#include <perf/mmap.h>
#include <perf/threadmap.h>
#include <perf/event.h>

#include "profiler/lib/lib.h"
#include "profiler/record/session-int.h"

/* libperf 6.1 keeps these internal (include/internal/evsel.h); they are in libperf.a. */
int perf_evsel__apply_filter(struct perf_evsel *evsel, const char *filter);
void perf_evsel__free_id(struct perf_evsel *evsel);

#define DRAIN_POLL_MS	100	/* poll() timeout: bounds the latency of session_stop() */

struct session {
	struct perf_cpu_map	*cpus;
	struct perf_thread_map	*threads;
	struct perf_evlist	*evlist;	/* NULL until session_open() */
	struct perf_evsel	**evsels;	/* nr_evsels, in attr order; owned by evlist */
	size_t			nr_evsels;
	bool			task_target;	/* pids or a command: inherit */
	bool			mmapped;
	bool			opened;		/* every evsel open */

	pid_t			child;		/* held command, or -1 */
	int			go_fd;		/* go-pipe write end; -1 once used */
	int			exec_err_fd;	/* exec errno of the child (CLOEXEC) */

	pthread_t		thread;
	bool			thread_running;
	atomic_bool		stop;
	session_record_fn	fn;
	session_round_fn	round;
	void			*arg;
};

static int libperf_print(enum libperf_print_level level, const char *fmt, va_list ap)
{
	char buf[512];
	size_t n;

	(void)level;	/* libperf's own levels: all of it is debug output for kprof */
	if (log_verbosity < LOG_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	n = strlen(buf);
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	pr_debug("libperf: %s", buf);
	return 0;
}

static void libperf_init_print(void)
{
	libperf_init(libperf_print);
}

static void libperf_init_once(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	/* Must come first: it sets libperf's page_size, without which mmap() fails (EINVAL). */
	pthread_once(&once, libperf_init_print);
}

/* Every thread of @pid, from /proc/PID/task, appended to *@tids. */
static int add_threads(pid_t pid, pid_t **tids, size_t *nr)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		pid_t *n = realloc(*tids, (*nr + 1) * sizeof(**tids));

		if (!n) {
			closedir(d);
			return -ENOMEM;
		}
		*tids = n;
		(*tids)[(*nr)++] = atoi(de->d_name);
	}
	closedir(d);
	return 0;
}

static int fork_held(struct session *s, char *const *argv, char *err, size_t errlen)
{
	int go[2], exec_err[2];
	sigset_t none;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(exec_err, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	s->child = fork();
	if (s->child < 0) {
		int e = errno;

		snprintf(err, errlen, "fork: %s", strerror(e));
		close(go[0]), close(go[1]), close(exec_err[0]), close(exec_err[1]);
		return -e;
	}
	if (!s->child) {
		char c;
		int e;

		/* The parent may block signals for sigtimedwait(); the command gets them. */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(go[1]);
		close(exec_err[0]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);	/* the parent gave up before go */
		execvp(argv[0], argv);
		e = errno;
		if (write(exec_err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(exec_err[1]);
	s->go_fd = go[1];
	s->exec_err_fd = exec_err[0];
	return 0;
}

int session_new(const struct session_target *t, struct session **out, char *err, size_t errlen)
{
	struct session *s = calloc(1, sizeof(*s));
	struct rlimit rl;
	pid_t *tids = NULL;
	size_t nr_tids = 0;
	int ret = 0;

	if (!s)
		return -ENOMEM;
	libperf_init_once();
	/* One fd per event x CPU x thread: `-e 'syscalls:*'` needs thousands. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	s->child = -1;
	s->go_fd = s->exec_err_fd = -1;
	if (t->counting && !t->system_wide && !t->cpus && (t->argv || t->nr_pids))
		s->cpus = perf_cpu_map__dummy_new();
	else
		s->cpus = perf_cpu_map__new(t->cpus);	/* NULL list: every online CPU */
	if (!s->cpus) {
		snprintf(err, errlen, "bad CPU list '%s'", t->cpus ? t->cpus : "(online)");
		ret = -EINVAL;
		goto fail;
	}
	if (t->argv) {
		ret = fork_held(s, t->argv, err, errlen);
		if (ret)
			goto fail;
	}
	if (t->system_wide || t->cpus) {
		s->threads = perf_thread_map__new_dummy();	/* pid -1: every task */
	} else if (t->argv) {
		s->threads = perf_thread_map__new_array(1, &s->child);
		s->task_target = true;
	} else if (t->nr_pids) {
		for (size_t i = 0; i < t->nr_pids && !ret; i++) {
			ret = add_threads(t->pids[i], &tids, &nr_tids);
			if (ret)
				snprintf(err, errlen, "pid %d: %s", (int)t->pids[i],
					 strerror(-ret));
		}
		if (ret)
			goto fail;
		s->threads = perf_thread_map__new_array(nr_tids, tids);
		s->task_target = true;
	} else {
		s->threads = perf_thread_map__new_dummy();	/* pid -1: every task */
	}
	free(tids);
	tids = NULL;
	if (!s->threads) {
		ret = -ENOMEM;
		goto fail;
	}
	*out = s;
	return 0;
fail:
	free(tids);
	session_free(s);
	return ret;
}

void session_close(struct session *s)
{
	if (!s->evlist)
		return;
	session_stop(s);
	perf_evlist__munmap(s->evlist);
	perf_evlist__close(s->evlist);
	/*
	 * libperf 6.1's perf_evsel__delete() only frees the struct: the ids and the map
	 * references taken when the evlist propagated its maps are the caller's to drop.
	 */
	for (size_t i = 0; i < s->nr_evsels; i++) {
		struct perf_evsel *evsel = s->evsels[i];

		perf_evlist__remove(s->evlist, evsel);
		perf_evsel__free_id(evsel);
		perf_cpu_map__put(perf_evsel__cpus(evsel));
		perf_thread_map__put(perf_evsel__threads(evsel));
		perf_evsel__delete(evsel);
	}
	perf_evlist__delete(s->evlist);
	s->evlist = NULL;
	free(s->evsels);
	s->evsels = NULL;
	s->nr_evsels = 0;
	s->mmapped = s->opened = false;
}

int session_open(struct session *s, const struct perf_event_attr *attrs, size_t nr,
		 size_t *failed, char *err, size_t errlen)
{
	session_close(s);
	s->evlist = perf_evlist__new();
	s->evsels = calloc(nr, sizeof(*s->evsels));
	if (!s->evlist || !s->evsels)
		goto nomem;
	perf_evlist__set_maps(s->evlist, s->cpus, s->threads);
	for (size_t i = 0; i < nr; i++) {
		struct perf_event_attr attr = attrs[i];
		struct perf_evsel *evsel;

		attr.disabled = 1;
		attr.inherit = s->task_target;
		attr.enable_on_exec = s->task_target && s->child > 0;
		evsel = perf_evsel__new(&attr);
		if (!evsel)
			goto nomem;
		perf_evlist__add(s->evlist, evsel);
		s->evsels[s->nr_evsels++] = evsel;
	}
	for (size_t i = 0; i < nr; i++) {
		struct perf_evsel *evsel = s->evsels[i];
		int ret = perf_evsel__open(evsel, perf_evsel__cpus(evsel),
					   perf_evsel__threads(evsel));

		if (ret) {
			ret = ret < 0 ? ret : -EINVAL;
			if (failed)
				*failed = i;
			snprintf(err, errlen, "%s", strerror(-ret));
			session_close(s);
			return ret;
		}
	}
	s->opened = true;
	return 0;
nomem:
	session_close(s);
	return -ENOMEM;
}

int session_event_ids(struct session *s, size_t idx, uint64_t **ids, size_t *nr)
{
	struct perf_evsel *evsel = s->evsels[idx];
	int nr_cpus = perf_cpu_map__nr(perf_evsel__cpus(evsel));
	int nr_threads = perf_thread_map__nr(perf_evsel__threads(evsel));
	uint64_t *v = calloc((size_t)nr_cpus * nr_threads, sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (int c = 0; c < nr_cpus; c++) {
		for (int t = 0; t < nr_threads; t++) {
			struct perf_counts_values cv = { 0 };

			if (perf_evsel__read(evsel, c, t, &cv) == 0)
				v[n++] = cv.id;
		}
	}
	*ids = v;
	*nr = n;
	return 0;
}

int session_set_filter(struct session *s, size_t idx, const char *filter)
{
	int ret = perf_evsel__apply_filter(s->evsels[idx], filter);

	return ret ? (errno ? -errno : -EINVAL) : 0;
}

int session_mmap(struct session *s, unsigned int pages)
{
	if (perf_evlist__mmap(s->evlist, (int)pages))
		return errno ? -errno : -ENOMEM;
	s->mmapped = true;
	return 0;
}

/* One pass over every ring; true when any record was delivered. */
static bool drain_rings(struct session *s)
{
	struct perf_mmap *map;
	bool any = false;

	perf_evlist__for_each_mmap(s->evlist, map, false) {
		union perf_event *ev;

		if (perf_mmap__read_init(map) < 0)
			continue;
		while ((ev = perf_mmap__read_event(map))) {
			s->fn(&ev->header, s->arg);
			perf_mmap__consume(map);
			any = true;
		}
		perf_mmap__read_done(map);
	}
	if (any && s->round)
		s->round(s->arg);
	return any;
}

static void *drain_thread(void *arg)
{
	struct session *s = arg;

	while (!atomic_load(&s->stop)) {
		/*
		 * Hung-up fds (their task exited) are dropped so poll() cannot spin; with none
		 * left, poll() on an empty set just sleeps the timeout.
		 */
		if (perf_evlist__poll(s->evlist, DRAIN_POLL_MS) > 0)
			perf_evlist__filter_pollfd(s->evlist, POLLERR | POLLHUP);
		drain_rings(s);
	}
	while (drain_rings(s))
		;
	return NULL;
}

int session_drain_start(struct session *s, session_record_fn fn, session_round_fn round,
			void *arg)
{
	sigset_t all, old;
	int ret;

	s->fn = fn;
	s->round = round;
	s->arg = arg;
	atomic_store(&s->stop, false);
	/* Signals are for the main thread (Ctrl-C handling); the drain thread takes none. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = -pthread_create(&s->thread, NULL, drain_thread, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	s->thread_running = !ret;
	return ret;
}

int session_enable(struct session *s)
{
	perf_evlist__enable(s->evlist);
	return 0;
}

int session_go(struct session *s, char *err, size_t errlen)
{
	int child_errno = 0;
	ssize_t n;

	if (s->go_fd < 0)
		return -EINVAL;
	n = write(s->go_fd, "g", 1);
	close(s->go_fd);
	s->go_fd = -1;
	if (n != 1)
		return -errno;
	/* EOF: exec succeeded (CLOEXEC closed the pipe); an int: it failed with that errno. */
	n = read(s->exec_err_fd, &child_errno, sizeof(child_errno));
	close(s->exec_err_fd);
	s->exec_err_fd = -1;
	if (n == sizeof(child_errno)) {
		snprintf(err, errlen, "cannot run the command: %s", strerror(child_errno));
		return -child_errno;
	}
	return 0;
}

pid_t session_child(const struct session *s)
{
	return s->child;
}

void session_stop(struct session *s)
{
	if (s->opened)
		perf_evlist__disable(s->evlist);
	if (s->thread_running) {
		atomic_store(&s->stop, true);
		pthread_join(s->thread, NULL);
		s->thread_running = false;
	}
}

int session_read(struct session *s, size_t idx, struct session_count *c)
{
	struct perf_evsel *evsel = s->evsels[idx];
	int nr_cpus = perf_cpu_map__nr(perf_evsel__cpus(evsel));
	int nr_threads = perf_thread_map__nr(perf_evsel__threads(evsel));

	memset(c, 0, sizeof(*c));
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		for (int t = 0; t < nr_threads; t++) {
			struct perf_counts_values cv = { 0 };
			int ret = perf_evsel__read(evsel, cpu, t, &cv);

			if (ret)
				return ret < 0 ? ret : -EIO;
			c->val += cv.val;
			c->ena += cv.ena;
			c->run += cv.run;
		}
	}
	return 0;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	session_close(s);
	if (s->go_fd >= 0) {
		/* The command never ran: closing the go-pipe makes it exit. */
		close(s->go_fd);
		waitpid(s->child, NULL, 0);
	}
	if (s->exec_err_fd >= 0)
		close(s->exec_err_fd);
	perf_thread_map__put(s->threads);
	perf_cpu_map__put(s->cpus);
	free(s);
}
