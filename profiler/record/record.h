/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - recording and counting sessions, for `kprof record`, `kprof stat` and
 * `kprof run` (record.c, stat.c): public header of profiler/record/, the only module that sees
 * libperf (session.c) and, with the CLI, libtraceevent. Uses perfdata/ (the writer), output/
 * (the keys) and lib/. Sessions are owned by the caller, used from one thread (record.c drains
 * in a thread of its own, internally); errors are -errno with a reason in the caller's buffer.
 */
#ifndef KPROF_RECORD_H
#define KPROF_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "output/output.h"
#include "profiler/perfdata/perfdata.h"

struct record_opts {
	bool		system_wide;	/* -a */
	const char	*cpus;		/* -C list, or NULL */
	pid_t		*pids; size_t nr_pids;	/* -p */
	const char	**events; size_t nr_events;	/* -e; none: cycles:pp…cpu-clock */
	uint64_t	freq, period;	/* -F / -c; 0 = default */
	bool		callgraph;	/* -g: kernel and user call chains (frame pointers) */
	bool		callgraph_dwarf;	/* --call-graph dwarf: kernel chains, and the user
					 * registers and stack (REGS_USER, STACK_USER) */
	uint32_t	stack_dump;	/* dwarf: user stack bytes per sample (8192) */
	bool		callgraph_lbr;	/* --call-graph lbr: user chains from the LBR */
	pid_t		*tids; size_t nr_tids;	/* -t: these threads only */
	unsigned int	mmap_pages;	/* -m */
	const char	*output;	/* -o, default "perf.data" */
	const char	*filter;	/* --filter for tracepoints */
	pid_t		exclude_pid;	/* > 0: drop this process's samples (kprof run's own) */
	/*
	 * 0, or the signal (blocked, see record_block_signals()) the drain thread sends the
	 * process when a write to the file first fails (a full disk): record_wait() then stops
	 * at once instead of at the end of --duration or of the command.
	 */
	int		write_error_signal;
};
struct record_stats {
	uint64_t	samples, lost, throttled;
	uint64_t	excluded;	/* samples of exclude_pid, not written */
	char		*event_used;	/* owned */
};
struct record_session;

/*
 * Open events, synthesize existing tasks, start draining in a thread. 0 / -errno (with a
 * one-line reason in @err). Prints the fallback notice ("cycles:pp not supported, using
 * cpu-clock") once on stderr. With neither -a, -C nor -p it records system-wide.
 */
int record_session_start(const struct record_opts *o, struct record_session **out,
			 char *err, size_t errlen);
/*
 * The same for a command (argv, NULL-terminated) that is forked, held, and profiled from
 * its exec with its children and threads; record_session_go() lets it run.
 */
int record_session_start_cmd(const struct record_opts *o, char *const *argv,
			     struct record_session **out, char *err, size_t errlen);
int record_session_go(struct record_session *s, char *err, size_t errlen);
pid_t record_session_child(const struct record_session *s);	/* -1 without a command */
/* Stop, drain, write the feature sections, rename the file into place, free. 0 / -errno. */
int record_session_stop(struct record_session *s, struct record_stats *st);
/* Stop without writing anything (e.g. the command could not run); NULL-safe. */
void record_session_abort(struct record_session *s);
/* Stop sampling for a while (@pause) or start again; the file stays open. */
void record_session_pause(struct record_session *s, bool pause);
/* CMDLINE feature content (default: "kprof record"); call before stop. Borrowed. */
void record_session_set_cmdline(struct record_session *s, int argc, char *const *argv);

/* ---- command-line values (record-args.c) --------------------------------------------------- */

/* A non-negative decimal; -EINVAL otherwise. */
int record_parse_u64(const char *arg, uint64_t *v);

/* ---- what -e accepts (event-list.c) ------------------------------------------------------- */

struct record_known_event {
	char		*name;		/* "cpu-clock", "sched:sched_switch" (owned) */
	const char	*kind;		/* "software", "hardware", "hw-cache", "tracepoint" */
	bool		supported;	/* can be opened here (tracepoints: present) */
};
/*
 * The named events and every tracepoint, matching @glob (fnmatch; NULL: all; "sys:name" globs
 * tracepoints). 0, or -errno with @err when tracefs cannot be read and nothing else matched;
 * 0 with a non-empty @err when the named events matched but tracefs could not be read.
 */
int record_known_events(const char *glob, struct record_known_event **out, size_t *nr,
			char *err, size_t errlen);
void record_known_events_free(struct record_known_event *v, size_t nr);
/*
 * Parse every -e before anything starts: -EINVAL for a name that is not an event here (unknown
 * name, bad modifier, no such tracepoint: a usage error), other -errno when tracefs cannot be
 * read (the reason names its mode); one line in @err.
 */
int record_check_events(const char *const *events, size_t nr, char *err, size_t errlen);

/* The target and event options `record` and `stat` share: -a -C -p -e --duration. */
struct target_args {
	bool		system_wide;
	const char	*cpus;		/* borrowed from argv */
	pid_t		*pids;		/* owned */
	size_t		nr_pids;
	pid_t		*tids;		/* owned (-t, record only) */
	size_t		nr_tids;
	const char	**events;	/* owned array of borrowed strings */
	size_t		nr_events;
	double		duration;	/* seconds; 0: none */
};
#define TARGET_OPT_DURATION 256		/* getopt code of --duration */
/* One getopt result: 1 handled, 0 not a target option, -errno bad value (*@what says why). */
int target_opt(int c, const char *arg, struct target_args *t, const char **what);
/*
 * NULL when the combination is valid, else what is wrong. With -p or -t a command only times
 * the recording (perf's `-p PID -- sleep N`): it runs, unprofiled, until it exits.
 */
const char *target_check(const struct target_args *t, bool has_cmd);
/*
 * perf's --call-graph value: "fp", "dwarf[,SIZE]" or "lbr" into @o (SIZE: 8..65528, a multiple
 * of 8; default 8192). -EINVAL otherwise.
 */
int record_parse_callgraph(const char *arg, struct record_opts *o);
void target_release(struct target_args *t);

/* ---- waiting while events run (record-wait.c) ----------------------------------------------- */

/* Block SIGINT, SIGTERM and SIGCHLD: call before starting a session (forked commands unblock). */
void record_block_signals(void);
/* What record_block_signals() blocks besides SIGINT/SIGTERM/SIGCHLD: a failed write's alarm. */
#define RECORD_WRITE_ERROR_SIGNAL	SIGUSR1

struct record_wait_opts {
	pid_t		child;		/* the command, or -1 */
	double		duration_s;	/* 0: no limit */
};
/*
 * Wait until the command exits (its wait status in *@status), the duration passes (the command
 * then gets SIGTERM and is reaped), or SIGINT/SIGTERM arrives (forwarded to the command, which
 * is reaped), or a write to the file fails (RECORD_WRITE_ERROR_SIGNAL; the command gets SIGTERM).
 * Returns 0 when the command ended by itself, SIGALRM for the duration, the signal number for a
 * signal, or -errno.
 */
int record_wait(const struct record_wait_opts *w, int *status);

/* ---- counting (stat.c) ------------------------------------------------------------------- */

struct stat_opts {
	bool		system_wide;	/* -a (also when no pids and no command) */
	const char	*cpus;
	pid_t		*pids; size_t nr_pids;
	const char	**events; size_t nr_events;	/* none: LKP's default set */
	unsigned int	interval_ms;	/* -I: a thread closes intervals this often; 0:
					 * one interval, the whole run (kept, not dropped) */
};
struct stat_session;

/*
 * Open the counters and start counting (unsupported ones are reported once on stderr and left
 * out, their keys absent). Without -p and a command it counts system-wide. 0 / -errno.
 */
int stat_session_start(const struct stat_opts *o, struct stat_session **out,
		       char *err, size_t errlen);
int stat_session_start_cmd(const struct stat_opts *o, char *const *argv,
			   struct stat_session **out, char *err, size_t errlen);
int stat_session_go(struct stat_session *s, char *err, size_t errlen);
pid_t stat_session_child(const struct stat_session *s);
/*
 * Stop counting, compute LKP's perf-stat keys (output/perf-stat.c) into @keys, free.
 * @totals (optional) receives "<event>" -> whole-run count for every counted event.
 */
int stat_session_stop(struct stat_session *s, struct kv_list *keys, struct kv_list *totals);


/*
 * Tracepoint formats of a recording, for decoding PERF_SAMPLE_RAW with
 * libtraceevent. kprof record stores them in perf.data's TRACING_DATA feature (perf's own
 * format, so perf script decodes the fields too); this reads them back.
 */

#include <stddef.h>

struct tep_handle;

/*
 * Parse every event format in the TRACING_DATA feature of the perf.data at @path into @tep.
 * 0; -ENOENT when the file has no TRACING_DATA; -EINVAL (with @err) when it is malformed.
 */
int tracing_data_load(const char *path, struct tep_handle *tep, char *err, size_t errlen);

/* ---- synthesized records (synth.c) -------------------------------------------------------- */

/* Bytes of the sample_id trailer that sample_id_all appends for @sample_type. */
size_t synth_id_hdr_size(uint64_t sample_type);
/* "[kernel.kallsyms]_text" MMAP for pid -1 spanning _text.._etext of @kallsyms. */
int synth_kernel_mmap(struct pd_writer *w, size_t id_hdr, const char *kallsyms);
/*
 * COMM for every thread, FORK for non-leader threads, MMAP2 for executable maps of @pid, and
 * with @data (--call-graph dwarf) for its other readable maps too, as perf record does.
 */
int synth_task(struct pd_writer *w, size_t id_hdr, pid_t pid, bool data);
/* synth_task() for every process in /proc (system-wide recording). */
int synth_all_tasks(struct pd_writer *w, size_t id_hdr, bool data);
/* Copy /proc/kallsyms to @dst (via @dst.tmp + rename). 0 / -errno. */
int synth_kallsyms_snapshot(const char *dst);

/* TRACING_DATA payload (perf's trace-event-info.c format, v0.6) for these tracepoints. */
int synth_tracing_data(char *const *systems, char *const *events, size_t nr, void **out,
		       size_t *len);

#endif
