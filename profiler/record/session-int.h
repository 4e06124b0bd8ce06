/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session-int.h - perf_event sessions through libperf, without exposing libperf: session.c
 * is the only file that includes <perf/...> (its API differs between kernel versions).
 *
 * A session is a target (CPUs x threads) plus a set of events opened on it:
 *   session_new()  -> session_open() [retry with other attrs on failure] -> session_mmap()
 *   -> session_drain_start() -> session_enable() / session_go() -> ... -> session_stop()
 *   -> session_free().
 * Counting sessions (kprof stat) skip the mmap and drain steps and use session_read().
 *
 * Targets: system-wide (every online CPU, or a CPU list), existing processes (every thread
 * of each PID, on every CPU), or a command forked by session_new() that waits on a pipe until
 * session_go() lets it exec (events opened with enable_on_exec and inherit in between). A
 * command with system_wide or cpus is run, but the events cover every task (perf record -a --
 * CMD): call session_enable() before session_go().
 */
#ifndef KPROF_SESSION_INT_H
#define KPROF_SESSION_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/perf_event.h>

struct session;

struct session_target {
	bool		system_wide;	/* -a */
	const char	*cpus;		/* -C list (system-wide on them), or NULL */
	const pid_t	*pids;		/* -p: all threads of each */
	size_t		nr_pids;
	char *const	*argv;		/* command held until session_go(), or NULL */
	bool		counting;	/* no rings: tasks are counted per thread on any CPU
					 * (cpu -1), so time running/enabled scale correctly */
};

/* Prepare the target (fork the held command if any). 0 / -errno with a reason in @err. */
int session_new(const struct session_target *t, struct session **out, char *err, size_t errlen);

/*
 * Open one event per attr (copied) on every CPU x thread of the target. On failure nothing
 * stays open and -errno is returned with @err naming event @attrs[*failed]: -ENOENT or
 * -EOPNOTSUPP (not supported here), -EACCES/-EPERM (privilege), others.
 */
int session_open(struct session *s, const struct perf_event_attr *attrs, size_t nr,
		 size_t *failed, char *err, size_t errlen);
void session_close(struct session *s);		/* close the events; the target stays */

/* Kernel ids of event @idx, one per CPU x thread (PERF_FORMAT_ID); malloc'd into *@ids. */
int session_event_ids(struct session *s, size_t idx, uint64_t **ids, size_t *nr);
/* PERF_EVENT_IOC_SET_FILTER on every fd of event @idx. */
int session_set_filter(struct session *s, size_t idx, const char *filter);

/* One ring buffer per CPU of @pages data pages (a power of two). */
int session_mmap(struct session *s, unsigned int pages);

/* Called from the drain thread, once per record, in ring order; @ev is valid during the call. */
typedef void (*session_record_fn)(const struct perf_event_header *ev, void *arg);
/* Called after each pass over all rings that delivered records (perf's FINISHED_ROUND). */
typedef void (*session_round_fn)(void *arg);
/* Start the background thread: poll() the ring fds, drain them through @fn. */
int session_drain_start(struct session *s, session_record_fn fn, session_round_fn round,
			void *arg);

int session_enable(struct session *s);
/* Let the held command exec; -errno (with @err) when it could not (e.g. not found). */
int session_go(struct session *s, char *err, size_t errlen);
pid_t session_child(const struct session *s);	/* the forked command, or -1 */

/* Disable the events, stop the drain thread after a last full drain. Idempotent. */
void session_stop(struct session *s);

struct session_count {
	uint64_t	val, ena, run;	/* summed over CPUs x threads */
};
/* Current count of event @idx (counting sessions). */
int session_read(struct session *s, size_t idx, struct session_count *c);

/* Stop everything, kill a held command that never ran, free. NULL-safe. */
void session_free(struct session *s);

#endif
