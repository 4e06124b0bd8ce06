// SPDX-License-Identifier: GPL-2.0
/*
 * stat.c - counting sessions for `kprof stat` and `kprof run`: LKP's default event set, each
 * group kept only when all its counters open here (as programs/perf-stat/monitor does), -I
 * intervals closed by a ticker thread, and LKP's perf-stat keys at the end.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profiler/record/event-int.h"
#include "profiler/lib/lib.h"
#include "profiler/record/record.h"
#include "profiler/record/session-int.h"

/* programs/perf-stat/monitor's groups; a group counts only if every member is supported. */
static const char *const lkp_groups[] = {
	"cpu-cycles,instructions,cache-references,cache-misses,branch-instructions,branch-misses",
	"dTLB-loads,dTLB-load-misses", "dTLB-stores,dTLB-store-misses",
	"iTLB-loads,iTLB-load-misses", "node-loads,node-load-misses",
	"node-stores,node-store-misses",
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults",
};

struct stat_session {
	struct session		*sess;
	struct event_list	events;		/* counted events */
	struct perf_event_attr	*attrs;
	unsigned int		interval_ms;
	bool			started;	/* counting: enabled or command released */
	bool			task_target;	/* pids or a command, not system-wide */
	bool			user_only;	/* kernel off limits: exclude_kernel */
	double			t0;		/* CLOCK_MONOTONIC seconds at start */

	pthread_mutex_t		lock;		/* the series below */
	double			*prev;		/* counts at the last interval end */
	double			*t_end, *counts;	/* closed intervals */
	size_t			nr_intervals, alloc;

	pthread_t		ticker;
	bool			ticking;
	pthread_mutex_t		tick_lock;
	pthread_cond_t		tick_cond;
	bool			stop;		/* under tick_lock */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* LKP and perf stat call the cycles event "cpu-cycles". */
static const char *key_name(const struct event_spec *e)
{
	return strcmp(e->name, "cycles") ? e->name : "cpu-cycles";
}

static void counting_attr(const struct stat_session *s, const struct event_spec *e,
			  struct perf_event_attr *a)
{
	*a = e->attr;
	a->size = sizeof(*a);
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	if (s->user_only)
		a->exclude_kernel = a->exclude_hv = 1;
}

/*
 * Can this group be counted on the target? (It is opened and closed again.) Like record, a
 * task target falls back to user space only, once, when the kernel is off limits.
 */
static bool group_opens(struct stat_session *s, const struct event_list *g)
{
	struct perf_event_attr *attrs = calloc(g->nr, sizeof(*attrs));
	char reason[128];
	int ret;

	if (!attrs)
		return false;
	for (;;) {
		for (size_t i = 0; i < g->nr; i++)
			counting_attr(s, &g->v[i], &attrs[i]);
		ret = session_open(s->sess, attrs, g->nr, NULL, reason, sizeof(reason));
		session_close(s->sess);
		if (!(ret == -EACCES || ret == -EPERM) || !s->task_target || s->user_only)
			break;
		pr_warn("kernel counting not allowed (not root, perf_event_paranoid >= 2): "
			"counting user space only");
		s->user_only = true;
	}
	free(attrs);
	return !ret;
}

/* Move the events of @g into the counted list, or name them in @unsupported. */
static int take_group(struct stat_session *s, struct event_list *g, char *unsupported,
		      size_t len)
{
	int ret = 0;

	if (group_opens(s, g)) {
		for (size_t i = 0; i < g->nr && !ret; i++) {
			ret = event_list_push(&s->events, &g->v[i]);
			if (!ret)
				g->v[i].name = g->v[i].tp_system = g->v[i].tp_event = NULL;
		}
	} else {
		for (size_t i = 0; i < g->nr; i++) {
			size_t n = strlen(unsupported);

			snprintf(unsupported + n, len - n, "%s%s", n ? ", " : "",
				 key_name(&g->v[i]));
		}
	}
	event_list_release(g);
	return ret;
}

static int choose_events(struct stat_session *s, const struct stat_opts *o, char *err,
			 size_t errlen)
{
	size_t nr = o->nr_events ? o->nr_events : sizeof(lkp_groups) / sizeof(lkp_groups[0]);
	char unsupported[1024] = "";
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		struct event_list g = { 0 };

		ret = event_parse(o->nr_events ? o->events[i] : lkp_groups[i], &g, err, errlen);
		/* Events given with -e are kept or dropped one by one. */
		for (size_t j = 0; !ret && o->nr_events && j < g.nr; j++) {
			struct event_list one = { 0 };

			ret = event_list_push(&one, &g.v[j]);
			if (!ret) {
				g.v[j].name = g.v[j].tp_system = g.v[j].tp_event = NULL;
				ret = take_group(s, &one, unsupported, sizeof(unsupported));
			}
		}
		if (!ret && !o->nr_events)
			ret = take_group(s, &g, unsupported, sizeof(unsupported));
		else
			event_list_release(&g);
	}
	if (!ret && unsupported[0])
		pr_info("not supported here (left out): %s", unsupported);
	if (!ret && !s->events.nr) {
		snprintf(err, errlen, "no event can be counted here");
		ret = -ENOENT;
	}
	return ret;
}

/* Cumulative, multiplexing-scaled count of every event (NAN: not counted at all). */
static int read_all(struct stat_session *s, double *out)
{
	for (size_t e = 0; e < s->events.nr; e++) {
		struct session_count c;
		int ret = session_read(s->sess, e, &c);

		if (ret)
			return ret;
		if (!c.run)
			out[e] = c.ena ? NAN : 0;
		else
			out[e] = c.run < c.ena ? (double)c.val * c.ena / c.run : (double)c.val;
	}
	return 0;
}

static int close_interval(struct stat_session *s)
{
	size_t n = s->events.nr;
	double *cur = calloc(n, sizeof(*cur)), t = now_s() - s->t0;
	int ret = cur ? read_all(s, cur) : -ENOMEM;

	pthread_mutex_lock(&s->lock);
	if (!ret && s->nr_intervals == s->alloc) {
		size_t alloc = s->alloc ? s->alloc * 2 : 16;
		double *te = realloc(s->t_end, alloc * sizeof(*te));

		if (te)
			s->t_end = te;
		double *c = te ? realloc(s->counts, alloc * n * sizeof(*c)) : NULL;

		if (c) {
			s->counts = c;
			s->alloc = alloc;
		} else {
			ret = -ENOMEM;
		}
	}
	if (!ret) {
		for (size_t e = 0; e < n; e++) {
			s->counts[s->nr_intervals * n + e] = cur[e] - s->prev[e];
			s->prev[e] = cur[e];
		}
		s->t_end[s->nr_intervals++] = t;
	}
	pthread_mutex_unlock(&s->lock);
	free(cur);
	return ret;
}

static void *ticker(void *arg)
{
	struct stat_session *s = arg;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&s->tick_lock);
	for (;;) {
		next.tv_nsec += (long)(s->interval_ms % 1000) * 1000000L;
		next.tv_sec += s->interval_ms / 1000 + next.tv_nsec / 1000000000L;
		next.tv_nsec %= 1000000000L;
		while (!s->stop && pthread_cond_timedwait(&s->tick_cond, &s->tick_lock, &next) == 0)
			;
		if (s->stop)
			break;
		close_interval(s);
	}
	pthread_mutex_unlock(&s->tick_lock);
	return NULL;
}

static int begin_counting(struct stat_session *s)
{
	pthread_condattr_t ca;
	int ret;

	s->t0 = now_s();
	s->started = true;
	if (!s->interval_ms)
		return 0;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->tick_cond, &ca);
	pthread_condattr_destroy(&ca);
	ret = -pthread_create(&s->ticker, NULL, ticker, s);
	s->ticking = !ret;
	return ret;
}

static void stop_ticker(struct stat_session *s)
{
	if (!s->ticking)
		return;
	pthread_mutex_lock(&s->tick_lock);
	s->stop = true;
	pthread_cond_signal(&s->tick_cond);
	pthread_mutex_unlock(&s->tick_lock);
	pthread_join(s->ticker, NULL);
	pthread_cond_destroy(&s->tick_cond);
	s->ticking = false;
}

static void stat_free(struct stat_session *s)
{
	stop_ticker(s);
	session_free(s->sess);
	event_list_release(&s->events);
	free(s->attrs);
	free(s->prev);
	free(s->t_end);
	free(s->counts);
	pthread_mutex_destroy(&s->lock);
	pthread_mutex_destroy(&s->tick_lock);
	free(s);
}

static int start(const struct stat_opts *o, char *const *argv, struct stat_session **out,
		 char *err, size_t errlen)
{
	struct stat_session *s = calloc(1, sizeof(*s));
	struct session_target t = {
		.system_wide = o->system_wide, .cpus = o->cpus, .pids = o->pids,
		.nr_pids = o->nr_pids, .argv = argv, .counting = true,
	};
	size_t failed = 0;
	int ret;

	if (!s)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	pthread_mutex_init(&s->tick_lock, NULL);
	s->interval_ms = o->interval_ms;
	s->task_target = !o->system_wide && !o->cpus && (argv || o->nr_pids);
	*err = '\0';
	ret = session_new(&t, &s->sess, err, errlen);
	if (!ret)
		ret = choose_events(s, o, err, errlen);
	if (ret)
		goto fail;
	s->attrs = calloc(s->events.nr, sizeof(*s->attrs));
	s->prev = calloc(s->events.nr, sizeof(*s->prev));
	if (!s->attrs || !s->prev) {
		ret = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < s->events.nr; i++)
		counting_attr(s, &s->events.v[i], &s->attrs[i]);
	ret = session_open(s->sess, s->attrs, s->events.nr, &failed, err, errlen);
	if (ret)
		goto fail;
	if (!argv || o->system_wide || o->cpus) {
		session_enable(s->sess);
		ret = begin_counting(s);
		if (ret)
			goto fail;
	}
	*out = s;
	return 0;
fail:
	if (!*err)
		snprintf(err, errlen, "%s", strerror(-ret));
	stat_free(s);
	return ret;
}

int stat_session_start(const struct stat_opts *o, struct stat_session **out, char *err,
		       size_t errlen)
{
	return start(o, NULL, out, err, errlen);
}

int stat_session_start_cmd(const struct stat_opts *o, char *const *argv,
			   struct stat_session **out, char *err, size_t errlen)
{
	return start(o, argv, out, err, errlen);
}

int stat_session_go(struct stat_session *s, char *err, size_t errlen)
{
	int ret = session_go(s->sess, err, errlen);

	return ret || s->started ? ret : begin_counting(s);
}

pid_t stat_session_child(const struct stat_session *s)
{
	return session_child(s->sess);
}

/* Appends to a kv_list (the output.h layout). */
static int kv_emit(void *arg, const char *key, double value)
{
	return kv_list_add(arg, key, value);
}

int stat_session_stop(struct stat_session *s, struct kv_list *keys, struct kv_list *totals)
{
	const char **names = calloc(s->events.nr, sizeof(*names));
	int ret = names ? 0 : -ENOMEM;

	stop_ticker(s);
	if (!ret && s->started)
		ret = close_interval(s);
	session_stop(s->sess);
	for (size_t e = 0; names && e < s->events.nr; e++)
		names[e] = key_name(&s->events.v[e]);
	if (!ret && keys) {
		struct perf_stat_series series = {
			.events = names, .nr_events = s->events.nr,
			.nr_intervals = s->nr_intervals, .t_end = s->t_end, .counts = s->counts,
			.drop_last = s->interval_ms > 0,
		};

		ret = perf_stat_keys(&series, kv_emit, keys);
	}
	for (size_t e = 0; !ret && totals && e < s->events.nr; e++) {
		double sum = 0;

		for (size_t i = 0; i < s->nr_intervals; i++)
			sum += s->counts[i * s->events.nr + e];
		ret = kv_list_add(totals, names[e], sum);
	}
	free(names);
	stat_free(s);
	return ret;
}
