// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - a recording: events chosen (with perf's cycles -> cpu-clock fallback), opened
 * through session.c, existing tasks synthesized, rings drained into a perf.data writer.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/record/event-int.h"
#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/record/record.h"
#include "profiler/record/session-int.h"

#define DEFAULT_EVENT		"cycles:pp"	/* LKP's, via perf's fallback chain */
#define DEFAULT_CYCLES_PERIOD	1000003ULL	/* LKP's --count for cycles */
#define DEFAULT_FREQ		4000ULL		/* perf's default -F for other events */
#define DEFAULT_MMAP_PAGES	128U		/* perf's default for root: 512 KiB per CPU */
#if defined(__x86_64__)
/* perf's arch__user_reg_mask() on x86_64: AX..R15 and the flags, without DS, ES, FS, GS */
#define DWARF_USER_REGS		(((1ULL << 24) - 1) & ~(0xfULL << 12))
#elif defined(__aarch64__)
#define DWARF_USER_REGS		((1ULL << 33) - 1)	/* X0..X30, SP, PC */
#else
#define DWARF_USER_REGS		0ULL	/* unknown: the kernel refuses, the error says so */
#endif

struct record_session {
	struct session		*sess;
	struct event_list	events;
	struct perf_event_attr	*attrs;
	struct pd_writer	*w;
	char			*output;
	bool			system_wide;
	int			argc;
	char *const		*argv;
	void			*tracing_data;
	size_t			tracing_len;
	pid_t			exclude_pid;
	int			write_error_signal;	/* record_opts' */
	/* Written by the drain thread only; read after it is joined. */
	uint64_t		samples, lost, throttled, excluded;
	bool			write_failed;
};

static const char *const default_cmdline[] = { "record", NULL };

static void build_attr(const struct record_opts *o, const struct event_spec *e, bool first,
		       bool user_only, struct perf_event_attr *a)
{
	*a = e->attr;
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	if (o->callgraph)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->callgraph_dwarf) {
		/* as perf: kernel chains, the user part unwound later from registers and stack */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = DWARF_USER_REGS;
		a->sample_stack_user = o->stack_dump ? o->stack_dump : 8192;
		a->exclude_callchain_user = 1;
	}
	if (o->callgraph_lbr) {
		/* as perf: the user call stack from the LBR, the kernel part from the callchain */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS |
					PERF_SAMPLE_BRANCH_HW_INDEX;
	}
	if (e->tracepoint)
		a->sample_type |= PERF_SAMPLE_RAW;
	a->read_format = PERF_FORMAT_ID;
	a->sample_id_all = 1;
	if (first) {
		/* The tracking event: side-band records for maps, comms and tasks. */
		a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
		/* DWARF unwinding reads .eh_frame_hdr in the non-executable segments: perf's
		 * unwinder finds no map for them without the data mmaps (as perf records them) */
		a->mmap_data = o->callgraph_dwarf;
	}
	if (user_only)
		a->exclude_kernel = a->exclude_hv = 1;
	if (o->period || e->tracepoint) {
		a->freq = 0;
		a->sample_period = o->period ? o->period : 1;
	} else if (o->freq) {
		a->freq = 1;
		a->sample_freq = o->freq;
	} else if (event_is_cycles(e)) {
		a->sample_period = DEFAULT_CYCLES_PERIOD;
	} else {
		a->freq = 1;
		a->sample_freq = DEFAULT_FREQ;
	}
}

static int paranoid_level(void)
{
	FILE *fp = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 2;

	if (fp) {
		if (fscanf(fp, "%d", &level) != 1)
			level = 2;
		fclose(fp);
	}
	return level;
}

/*
 * Open the events, falling back like perf: cycles:ppp .. cycles .. cpu-clock when the PMU
 * lacks them, and user-only (exclude_kernel) for tasks when the kernel is off limits.
 */
static int open_events(struct record_session *rs, const struct record_opts *o, bool task,
		       char *err, size_t errlen)
{
	char *first_choice = NULL, reason[128];
	bool user_only = false;
	size_t failed = 0, fell_back = 0;
	int ret;

	for (;;) {
		for (size_t i = 0; i < rs->events.nr; i++)
			build_attr(o, &rs->events.v[i], i == 0, user_only, &rs->attrs[i]);
		ret = session_open(rs->sess, rs->attrs, rs->events.nr, &failed, reason,
				   sizeof(reason));
		if (!ret)
			break;
		struct event_spec *e = &rs->events.v[failed];

		if (o->callgraph_lbr && ret != -EACCES && ret != -EPERM) {
			/* no fallback: every event fails the same way without LBR */
			snprintf(err, errlen, "--call-graph lbr: %s: %s: LBR call stacks need a "
				 "hardware PMU with Intel's last branch records; this machine has "
				 "none (use --call-graph fp or dwarf)", e->name, reason);
			break;
		}
		if ((ret == -EACCES || ret == -EPERM) && task && !user_only) {
			pr_warn("kernel profiling not allowed (perf_event_paranoid is %d, "
				"not root): recording user space only", paranoid_level());
			user_only = true;
			continue;
		}
		if (ret == -EACCES || ret == -EPERM) {
			snprintf(err, errlen, "%s: %s: system-wide recording needs root or "
				 "kernel.perf_event_paranoid <= 0 (it is %d)", e->name, reason,
				 paranoid_level());
			break;
		}
		if (!first_choice) {
			first_choice = strdup(e->name);
			fell_back = failed;
		}
		if (event_fallback(e)) {
			snprintf(err, errlen, "event %s: %s", e->name,
				 ret == -ENOENT || ret == -EOPNOTSUPP ? "not supported here" :
				 reason);
			break;
		}
	}
	if (!ret && first_choice)
		pr_info("%s is not supported here, using %s", first_choice,
			rs->events.v[fell_back].name);
	free(first_choice);
	return ret;
}

static void on_record(const struct perf_event_header *h, void *arg)
{
	struct record_session *rs = arg;

	if (h->type == PERF_RECORD_SAMPLE && rs->exclude_pid > 0) {
		/* sample_type starts IDENTIFIER, IP, TID (build_attr): pid at byte 16 */
		uint32_t pid = 0;

		if (h->size >= sizeof(*h) + 24)
			memcpy(&pid, (const char *)(h + 1) + 16, sizeof(pid));
		if ((pid_t)pid == rs->exclude_pid) {
			rs->excluded++;
			return;
		}
	}
	if (h->type == PERF_RECORD_SAMPLE)
		rs->samples++;
	else if (h->type == PERF_RECORD_LOST)
		rs->lost += ((const uint64_t *)(h + 1))[1];	/* { id, lost } */
	else if (h->type == PERF_RECORD_THROTTLE)
		rs->throttled++;
	pd_writer_add(rs->w, h);
	if (!rs->write_failed && pd_writer_error(rs->w)) {
		rs->write_failed = true;	/* the error itself is reported by stop */
		if (rs->write_error_signal)
			kill(getpid(), rs->write_error_signal);
	}
}

static void on_round(void *arg)
{
	struct record_session *rs = arg;
	struct perf_event_header fin = { .type = PERF_RECORD_FINISHED_ROUND, .size = sizeof(fin) };

	pd_writer_add(rs->w, &fin);
}

static int open_writer(struct record_session *rs)
{
	struct pd_write_event *evs = calloc(rs->events.nr, sizeof(*evs));
	uint64_t **ids = calloc(rs->events.nr, sizeof(*ids));
	int ret = evs && ids ? 0 : -ENOMEM;

	for (size_t i = 0; i < rs->events.nr && !ret; i++) {
		evs[i].name = rs->events.v[i].name;
		evs[i].attr = &rs->attrs[i];
		ret = session_event_ids(rs->sess, i, &ids[i], &evs[i].nr_ids);
		evs[i].ids = ids[i];
	}
	if (!ret)
		ret = pd_writer_open(rs->output, evs, rs->events.nr, &rs->w);
	for (size_t i = 0; ids && i < rs->events.nr; i++)
		free(ids[i]);
	free(ids);
	free(evs);
	return ret;
}

static int setup_tracepoints(struct record_session *rs, const struct record_opts *o,
			     char *err, size_t errlen)
{
	char **sys = calloc(rs->events.nr, sizeof(*sys)), **ev = calloc(rs->events.nr, sizeof(*ev));
	size_t nr = 0;
	int ret = sys && ev ? 0 : -ENOMEM;

	for (size_t i = 0; i < rs->events.nr && !ret; i++) {
		if (!rs->events.v[i].tracepoint)
			continue;
		sys[nr] = rs->events.v[i].tp_system;
		ev[nr++] = rs->events.v[i].tp_event;
		if (o->filter && (ret = session_set_filter(rs->sess, i, o->filter)))
			snprintf(err, errlen, "filter '%s' rejected for %s: %s", o->filter,
				 rs->events.v[i].name, strerror(-ret));
	}
	if (!ret && o->filter && !nr) {
		snprintf(err, errlen, "--filter needs a tracepoint event (-e subsys:name)");
		ret = -EINVAL;
	}
	if (!ret && nr) {
		ret = synth_tracing_data(sys, ev, nr, &rs->tracing_data, &rs->tracing_len);
		if (ret)
			snprintf(err, errlen, "%s: tracepoint formats for TRACING_DATA: %s",
				 tracefs_dir() ? tracefs_dir() : "tracefs", strerror(-ret));
	}
	free(sys);
	free(ev);
	return ret;
}

/*
 * -o names a device or a pipe (/dev/null): written in place (atomic_tmp_create), and with no
 * kallsyms snapshot next to it, which would be a file in /dev.
 */
static bool output_is_special(const struct record_session *rs)
{
	struct stat st;

	return !stat(rs->output, &st) && !S_ISREG(st.st_mode);
}

/* Kernel map and kallsyms snapshot, then the tasks that already exist. */
static void synthesize(struct record_session *rs, const struct record_opts *o)
{
	size_t id_hdr = synth_id_hdr_size(rs->attrs[0].sample_type);
	char *ksyms;
	int ret;

	if (rs->attrs[0].exclude_kernel)
		goto tasks;	/* user space only: no kernel frames to resolve */
	if (output_is_special(rs))
		ksyms = strdup("/proc/kallsyms");
	else if (asprintf(&ksyms, "%s.kallsyms", rs->output) < 0)
		ksyms = NULL;
	if (!ksyms)
		return;
	ret = strcmp(ksyms, "/proc/kallsyms") ? synth_kallsyms_snapshot(ksyms) : 0;
	if (ret)
		pr_warn("%s: cannot save the kallsyms snapshot: %s", ksyms, strerror(-ret));
	else if ((ret = synth_kernel_mmap(rs->w, id_hdr, ksyms)))
		pr_warn("/proc/kallsyms: no kernel text addresses (kptr_restrict?): kernel frames "
			"will not resolve");
	free(ksyms);
tasks:
	if (rs->system_wide)
		synth_all_tasks(rs->w, id_hdr, o->callgraph_dwarf);
	for (size_t i = 0; i < o->nr_pids; i++)
		synth_task(rs->w, id_hdr, o->pids[i], o->callgraph_dwarf);
	for (size_t i = 0; i < o->nr_tids; i++)
		synth_task(rs->w, id_hdr, o->tids[i], o->callgraph_dwarf);
}

static void record_free(struct record_session *rs)
{
	pd_writer_abort(rs->w);
	session_free(rs->sess);
	event_list_release(&rs->events);
	free(rs->attrs);
	free(rs->tracing_data);
	free(rs->output);
	free(rs);
}

static int parse_events(struct record_session *rs, const struct record_opts *o, char *err,
			size_t errlen)
{
	int ret = 0;

	if (!o->nr_events)
		return event_parse(DEFAULT_EVENT, &rs->events, err, errlen);
	for (size_t i = 0; i < o->nr_events && !ret; i++)
		ret = event_parse(o->events[i], &rs->events, err, errlen);
	return ret;
}

static int start(const struct record_opts *o, char *const *argv, struct record_session **out,
		 char *err, size_t errlen)
{
	struct record_session *rs = calloc(1, sizeof(*rs));
	struct session_target t = {
		.system_wide = o->system_wide, .cpus = o->cpus, .pids = o->pids,
		.nr_pids = o->nr_pids, .tids = o->tids, .nr_tids = o->nr_tids, .argv = argv,
	};
	int ret;

	if (!rs)
		return -ENOMEM;
	rs->output = strdup(o->output ? o->output : "perf.data");
	rs->exclude_pid = o->exclude_pid;
	rs->write_error_signal = o->write_error_signal;
	rs->system_wide = o->system_wide || o->cpus || (!argv && !o->nr_pids && !o->nr_tids);
	rs->argc = 1;
	rs->argv = (char *const *)default_cmdline;
	if (!rs->output) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = parse_events(rs, o, err, errlen);
	if (ret)
		goto fail;
	rs->attrs = calloc(rs->events.nr, sizeof(*rs->attrs));
	if (!rs->attrs) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = session_new(&t, &rs->sess, err, errlen);
	if (ret)
		goto fail;
	ret = open_events(rs, o, !rs->system_wide, err, errlen);
	if (ret)
		goto fail;
	ret = setup_tracepoints(rs, o, err, errlen);
	if (ret)
		goto fail_msg;
	ret = session_mmap(rs->sess, o->mmap_pages ? o->mmap_pages : DEFAULT_MMAP_PAGES);
	if (ret) {
		snprintf(err, errlen, "mmap of %u pages per CPU: %s (try a smaller -m)",
			 o->mmap_pages ? o->mmap_pages : DEFAULT_MMAP_PAGES, strerror(-ret));
		goto fail;
	}
	ret = open_writer(rs);
	if (ret) {
		snprintf(err, errlen, "%s: %s", rs->output, strerror(-ret));
		goto fail;
	}
	/*
	 * Synthesize before enabling, as perf record does: the rings are not drained yet, and
	 * a /proc scan on a busy machine is long enough to overflow them. (A task started in
	 * between is named later by its first COMM/MMAP2 record, or not at all.)
	 */
	synthesize(rs, o);
	ret = session_drain_start(rs->sess, on_record, on_round, rs);
	if (ret)
		goto fail_msg;
	if (!argv || rs->system_wide)	/* else enable_on_exec starts them */
		session_enable(rs->sess);
	*out = rs;
	return 0;
fail_msg:
	if (!*err)
		snprintf(err, errlen, "%s", strerror(-ret));
fail:
	if (!*err)
		snprintf(err, errlen, "%s", strerror(-ret));
	record_free(rs);
	return ret;
}

int record_session_start(const struct record_opts *o, struct record_session **out,
			 char *err, size_t errlen)
{
	if (err && errlen)
		*err = '\0';
	return start(o, NULL, out, err, errlen);
}

int record_session_start_cmd(const struct record_opts *o, char *const *argv,
			     struct record_session **out, char *err, size_t errlen)
{
	if (err && errlen)
		*err = '\0';
	return start(o, argv, out, err, errlen);
}

int record_session_go(struct record_session *rs, char *err, size_t errlen)
{
	return session_go(rs->sess, err, errlen);
}

pid_t record_session_child(const struct record_session *rs)
{
	return session_child(rs->sess);
}

void record_session_set_cmdline(struct record_session *rs, int argc, char *const *argv)
{
	rs->argc = argc;
	rs->argv = argv;
}

static void unlink_kallsyms(const struct record_session *rs)
{
	char *ksyms;

	if (!output_is_special(rs) && asprintf(&ksyms, "%s.kallsyms", rs->output) >= 0) {
		unlink(ksyms);
		free(ksyms);
	}
}

void record_session_abort(struct record_session *rs)
{
	if (!rs)
		return;
	session_stop(rs->sess);
	unlink_kallsyms(rs);
	record_free(rs);
}

void record_session_pause(struct record_session *rs, bool pause)
{
	if (pause)
		session_disable(rs->sess);
	else
		session_enable(rs->sess);
}

int record_session_stop(struct record_session *rs, struct record_stats *st)
{
	struct pd_write_meta m = {
		.argc = rs->argc, .argv = rs->argv,
		.tracing_data = rs->tracing_data, .tracing_data_len = rs->tracing_len,
	};
	int ret;

	session_stop(rs->sess);
	ret = pd_writer_close(rs->w, &m);
	rs->w = NULL;
	if (ret)	/* no perf.data: no orphan FILE.kallsyms either */
		unlink_kallsyms(rs);
	if (st) {
		memset(st, 0, sizeof(*st));
		st->samples = rs->samples;
		st->lost = rs->lost;
		st->throttled = rs->throttled;
		st->excluded = rs->excluded;
		st->event_used = strdup(rs->events.v[0].name);
		for (size_t i = 1; i < rs->events.nr && st->event_used; i++) {
			char *more;

			if (asprintf(&more, "%s,%s", st->event_used, rs->events.v[i].name) < 0)
				more = NULL;
			free(st->event_used);
			st->event_used = more;
		}
	}
	record_free(rs);
	return ret;
}
