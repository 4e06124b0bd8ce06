// SPDX-License-Identifier: GPL-2.0
/*
 * sched-timehist.c - `perf sched timehist` (perf 6.1 builtin-sched.c) over a perf.data: one line
 * per sched_switch sample with the wait, scheduling delay and run time of the task switched out.
 *
 * The accounting (timehist_update_runtime_stats), per task (by tid; a CPU's idle task apart):
 *
 *   t          this sched_switch (the task leaves the CPU)
 *   tprev      the previous sched_switch on this CPU (the task came on): 0 if none yet
 *   last_time  the task's own previous sched_switch (it left the CPU then)
 *   ready      its first wake-up since then (sched_waking if the file has that event, else
 *              sched_wakeup; sched_wakeup_new always), keyed by the woken tid
 *
 *   run = t - tprev;  delay = tprev - ready;  wait = tprev - last_time
 *
 * each 0 when one of its ends is unknown or the times are out of order. A FORK record gives the
 * tid a fresh thread (perf removes the old one), so a reused tid starts over. Records come in
 * perf's delivery order (pd_reader_next: time order), so this is one pass.
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/pipeline-int.h"
#include "profiler/profile/profile.h"
#include "profiler/profile/sched-int.h"
#include "profiler/record/record.h"

#define MAX_STACK	5	/* timehist's --max-stack default */
#define MAX_CPUS	65536	/* a sample naming a CPU beyond this is corrupt */

enum tp_kind { TP_NONE, TP_SWITCH, TP_WAKEUP, TP_WAKING, TP_WAKEUP_NEW };

struct tp {
	enum tp_kind		kind;
	struct tep_format_field	*field;		/* prev_pid (switch), pid (wake-ups) */
};

struct runtime {
	int32_t		tid;		/* INT32_MIN: free slot */
	uint64_t	last_time, ready;
	/*
	 * The pid of perf's thread object for @tid (thread_findnew), which is what timehist
	 * prints, not the sample's: @known once perf would have made the object.
	 */
	int32_t		pid;
	bool		known;
};

struct th {
	struct pd_reader	*r;
	struct tep_handle	*tep;
	struct sym_session	*sym;
	struct comm_table	comms;
	struct tp		*tps;
	size_t			nr_attrs;
	bool			ignore_wakeup;	/* the file has sched_waking: perf prefers it */
	struct runtime		*rt;		/* open addressing by tid */
	size_t			nr_rt, alloc_rt;
	uint64_t		*tprev;		/* per CPU, the last sched_switch time */
	struct runtime		*idle;		/* per CPU */
	size_t			nr_cpus;
	char			*kallsyms;	/* owned default "<file>.kallsyms" */
	struct pd_build_id	kernel_mmap_id;	/* the kernel MMAP2's build-id (sym_setup) */
	struct sym_opts		so;		/* the symbol options (sym_setup): its build-id */
	bool			kernel_mmap_seen;	/* a kernel MMAP (not MMAP2) record */
	char			chain[4096];
	sched_line_fn		fn;
	void			*arg;
	struct sched_stats	*st;
};

static size_t rt_slot(const struct th *h, int32_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (h->alloc_rt - 1);

	while (h->rt[i].tid != INT32_MIN && h->rt[i].tid != tid)
		i = (i + 1) & (h->alloc_rt - 1);
	return i;
}

static int rt_grow(struct th *h)
{
	size_t alloc = h->alloc_rt ? h->alloc_rt * 2 : 1024;
	struct runtime *old = h->rt, *rt = malloc(alloc * sizeof(*rt));
	size_t old_alloc = h->alloc_rt;

	if (!rt)
		return -ENOMEM;
	for (size_t i = 0; i < alloc; i++)
		rt[i].tid = INT32_MIN;
	h->rt = rt;
	h->alloc_rt = alloc;
	for (size_t i = 0; i < old_alloc; i++)
		if (old[i].tid != INT32_MIN)
			h->rt[rt_slot(h, old[i].tid)] = old[i];
	free(old);
	return 0;
}

/* The task's runtime, made (zeroed) when new; NULL on ENOMEM. */
static struct runtime *rt_get(struct th *h, int32_t tid)
{
	size_t i;

	if ((h->nr_rt + 1) * 2 > h->alloc_rt && rt_grow(h))
		return NULL;
	i = rt_slot(h, tid);
	if (h->rt[i].tid == INT32_MIN) {
		h->rt[i] = (struct runtime){ .tid = tid };
		h->nr_rt++;
	}
	return &h->rt[i];
}

/* A new thread under @tid: its old runtime is forgotten (zeroed in place). */
static void rt_reset(struct th *h, int32_t tid)
{
	size_t i;

	if (!h->alloc_rt)
		return;
	i = rt_slot(h, tid);
	if (h->rt[i].tid == tid)
		h->rt[i] = (struct runtime){ .tid = tid };
}

/*
 * perf's machine__findnew_thread(pid, tid): threads are found by tid, and one keeps the pid it
 * was made with unless that was -1 (machine__update_thread_pid). So an exiting task's samples
 * (tid -1 once its pid is gone, perf_event_pid_type) print the pid of the first tid -1 perf met,
 * and a task first met by a wakeup (made with pid 0) prints as its comm alone. @create false:
 * machine__find_thread (an EXIT record), which only updates.
 */
static struct runtime *thread_findnew(struct th *h, int32_t pid, int32_t tid, bool create)
{
	struct runtime *r = NULL;

	if (create) {
		r = rt_get(h, tid);
	} else if (h->alloc_rt) {
		size_t i = rt_slot(h, tid);

		if (h->rt[i].tid == tid && h->rt[i].known)
			r = &h->rt[i];
	}
	if (!r)
		return NULL;
	if (!r->known) {
		r->known = true;
		r->pid = pid;
	} else if (r->pid == -1 && pid != -1) {
		r->pid = pid;
	}
	return r;
}

static int cpu_state(struct th *h, int cpu)
{
	size_t n;

	if (cpu < 0 || cpu >= MAX_CPUS)
		return -EINVAL;
	if ((size_t)cpu < h->nr_cpus)
		return 0;
	n = (size_t)cpu + 1;
	uint64_t *tp = realloc(h->tprev, n * sizeof(*tp));

	if (!tp)
		return -ENOMEM;
	h->tprev = tp;
	struct runtime *idle = realloc(h->idle, n * sizeof(*idle));

	if (!idle)
		return -ENOMEM;
	h->idle = idle;
	memset(tp + h->nr_cpus, 0, (n - h->nr_cpus) * sizeof(*tp));
	memset(idle + h->nr_cpus, 0, (n - h->nr_cpus) * sizeof(*idle));
	h->nr_cpus = n;
	return 0;
}

/* A numeric field of a sample, if it lies inside the sample's raw data. */
static int field_value(const struct tep_format_field *f, const struct pd_sample *s,
		       unsigned long long *v)
{
	if (!f || !s->raw || (uint64_t)f->offset + f->size > s->raw_size ||
	    (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)))
		return -EINVAL;
	return tep_read_number_field((struct tep_format_field *)f, s->raw, v) ? -EINVAL : 0;
}

static int on_wakeup(struct th *h, const struct tp *tp, const struct pd_sample *s)
{
	unsigned long long pid;
	struct runtime *r;

	if (tp->kind == TP_WAKEUP && h->ignore_wakeup)
		return 0;
	if (field_value(tp->field, s, &pid))
		return -EINVAL;
	/* timehist_sched_wakeup_event: machine__findnew_thread(machine, 0, pid) */
	r = thread_findnew(h, 0, (int32_t)pid, true);
	if (!r)
		return -ENOMEM;
	h->st->wakeups++;
	if (!r->ready)
		r->ready = s->time;
	return 0;
}

static int on_switch(struct th *h, const struct tp *tp, const struct pd_sample *s)
{
	unsigned long long prev_pid;
	struct runtime *r;
	struct sched_line l = { .time = s->time, .cpu = s->cpu };
	uint64_t tprev;
	int ret;

	if (field_value(tp->field, s, &prev_pid))
		return -EINVAL;
	ret = cpu_state(h, s->cpu);
	if (ret)
		return ret;
	if (prev_pid == 0) {	/* the idle task: one per CPU */
		r = &h->idle[s->cpu];
		l.comm = "<idle>";
	} else {
		l.tid = s->tid ? s->tid : s->pid;
		r = thread_findnew(h, s->pid, l.tid, true);
		if (!r)
			return -ENOMEM;
		l.pid = r->pid;
		l.comm = comm_table_name(&h->comms, l.tid);
		if (!l.comm)
			return -ENOMEM;
	}
	h->st->switches++;
	tprev = h->tprev[s->cpu];
	if (tprev) {
		l.run_ns = s->time - tprev;
		if (r->ready && r->ready <= tprev)
			l.delay_ns = tprev - r->ready;
		if (r->last_time && r->last_time <= tprev)
			l.wait_ns = tprev - r->last_time;
	}
	h->chain[0] = '\0';
	if (prev_pid != 0) {
		if (s->callchain_nr)
			sched_chain_format(h->sym, s->pid, s->callchain, s->callchain_nr,
					   MAX_STACK + 2, h->chain, sizeof(h->chain));
		else
			h->st->no_chain++;
	}
	l.chain = h->chain;
	r->last_time = s->time;
	r->ready = 0;
	h->tprev[s->cpu] = s->time;
	return h->fn(&l, h->arg);
}

static int on_record(struct th *h, const struct pd_record *rec, char *err, size_t errlen)
{
	const char *body = rec->body;
	int32_t f[4];	/* FORK: pid, ppid, tid, ptid; COMM: pid, tid */
	struct pd_sample s;
	const struct tp *tp;

	switch (rec->hdr.type) {
	case PERF_RECORD_MMAP: {
		/*
		 * timehist handles MMAP records only (its tool has no mmap2 callback), so a
		 * user frame named through an MMAP2 mapping -- every one perf record writes --
		 * is "[unknown]" in its output, as here.
		 */
		struct pipe_record pr = { .rec_type = rec->hdr.type, .misc = rec->hdr.misc,
					  .body_len = (uint32_t)rec->body_len };
		struct pipe_map m;
		const size_t name_at = 32;
		unsigned int cpumode = rec->hdr.misc & PERF_RECORD_MISC_CPUMODE_MASK;

		if (rec->body_len <= name_at || !memchr(body + name_at, '\0',
							 rec->body_len - name_at))
			return err_set(err, errlen, -EINVAL, "truncated MMAP record at offset %"
				       PRIu64, rec->offset);
		/* machine__process_mmap_event: a user mapping's thread is found or made */
		memcpy(f, body, 8);
		if (cpumode != PERF_RECORD_MISC_KERNEL && cpumode != PERF_RECORD_MISC_GUEST_KERNEL &&
		    !thread_findnew(h, f[0], f[1], true))
			return -ENOMEM;
		if (!pipe_exec_map(&pr, body, &m))
			return 0;
		if (m.pid == -1 && !strncmp(m.filename, "[kernel.kallsyms]", 17))
			h->kernel_mmap_seen = true;
		return sym_session_add_map(h->sym, m.pid, m.start, m.len, m.pgoff, m.filename) ==
		       -ENOMEM ? -ENOMEM : 0;
	}
	case PERF_RECORD_COMM:
		if (rec->body_len <= 8 || !memchr(body + 8, '\0', rec->body_len - 8))
			return err_set(err, errlen, -EINVAL, "truncated COMM record at offset %"
				       PRIu64, rec->offset);
		memcpy(f, body, 8);
		if (!thread_findnew(h, f[0], f[1], true))
			return -ENOMEM;
		return comm_table_set(&h->comms, f[1], body + 8) ? -ENOMEM : 0;
	case PERF_RECORD_FORK:
		if (rec->body_len < sizeof(f))
			return err_set(err, errlen, -EINVAL, "truncated FORK record at offset %"
				       PRIu64, rec->offset);
		memcpy(f, body, sizeof(f));
		if (f[0] != f[1] && sym_session_fork(h->sym, f[1], f[0]) == -ENOMEM)
			return -ENOMEM;
		/* the child's old thread is removed, a new one made with the child's pid */
		rt_reset(h, f[2]);
		if (!thread_findnew(h, f[0], f[2], true))
			return -ENOMEM;
		return comm_table_fork(&h->comms, f[3], f[2]) ? -ENOMEM : 0;
	case PERF_RECORD_EXIT:	/* pid, ppid, tid, ptid: machine__find_thread */
		if (rec->body_len < sizeof(f))
			return err_set(err, errlen, -EINVAL, "truncated EXIT record at offset %"
				       PRIu64, rec->offset);
		memcpy(f, body, sizeof(f));
		(void)thread_findnew(h, f[0], f[2], false);
		return 0;
	case PERF_RECORD_LOST:
		h->st->lost++;
		return 0;
	case PERF_RECORD_SAMPLE:
		break;
	default:
		return 0;
	}
	tp = rec->attr->idx < h->nr_attrs ? &h->tps[rec->attr->idx] : NULL;
	if (!tp || tp->kind == TP_NONE)
		return 0;
	if (pd_sample_decode(rec->body, rec->body_len, &rec->attr->attr, &s))
		return err_set(err, errlen, -EINVAL, "malformed sample at offset %" PRIu64,
			       rec->offset);
	if (tp->kind == TP_SWITCH) {
		int ret = on_switch(h, tp, &s);

		if (ret == -EINVAL)
			return err_set(err, errlen, ret, "sched_switch sample at offset %" PRIu64
				       " is not as its format says (cpu %d)", rec->offset, s.cpu);
		return ret;
	}
	if (on_wakeup(h, tp, &s) == -EINVAL)
		return err_set(err, errlen, -EINVAL, "wake-up sample at offset %" PRIu64
			       " is not as its format says", rec->offset);
	return 0;
}

static enum tp_kind kind_of(const struct tep_event *e)
{
	static const struct { const char *name; enum tp_kind kind; } names[] = {
		{ "sched_switch", TP_SWITCH }, { "sched_wakeup", TP_WAKEUP },
		{ "sched_waking", TP_WAKING }, { "sched_wakeup_new", TP_WAKEUP_NEW },
	};

	if (!e || !e->system || strcmp(e->system, "sched"))
		return TP_NONE;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(e->name, names[i].name))
			return names[i].kind;
	return TP_NONE;
}

/* Which attrs are the sched events, and whether they were recorded as timehist needs. */
static int find_events(struct th *h, char *err, size_t errlen)
{
	const uint64_t need = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_RAW;
	bool has_switch = false;

	h->nr_attrs = pd_reader_nr_attrs(h->r);
	h->tps = calloc(h->nr_attrs + 1, sizeof(*h->tps));
	if (!h->tps)
		return -ENOMEM;
	for (size_t i = 0; i < h->nr_attrs; i++) {
		const struct pd_evattr *ea = pd_reader_attr(h->r, i);
		struct tep_event *e;
		struct tp *tp = &h->tps[i];

		if (ea->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		e = tep_find_event(h->tep, (int)ea->attr.config);
		tp->kind = kind_of(e);
		if (tp->kind == TP_NONE)
			continue;
		tp->field = tep_find_field(e, tp->kind == TP_SWITCH ? "prev_pid" : "pid");
		if (!tp->field)
			return err_set(err, errlen, -EINVAL, "%s's format has no %s field", ea->name,
				       tp->kind == TP_SWITCH ? "prev_pid" : "pid");
		if ((ea->attr.sample_type & need) != need)
			return err_set(err, errlen, -EINVAL, "%s was recorded without time, cpu, "
				       "tid or raw data in its samples (record with "
				       "`perf sched record -g`)", ea->name);
		if (tp->kind == TP_WAKING)
			h->ignore_wakeup = true;
		if (tp->kind != TP_SWITCH)
			continue;
		if (!(ea->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
			return err_set(err, errlen, -EINVAL, "sched:sched_switch was recorded "
				       "without call chains (record with `perf sched record -g`)");
		has_switch = true;
	}
	if (!has_switch)
		return err_set(err, errlen, -ENOENT, "no sched:sched_switch event (record with "
			       "`perf sched record -g`)");
	return 0;
}

/* Kernel and user names as profile_load finds them (pipeline.c setup). */
static int sym_setup(struct th *h, const char *path, const struct sched_opts *o, char *err,
		     size_t errlen)
{
	const struct pd_file_info *in = pd_reader_info(h->r);
	struct sym_opts so = { .vmlinux = o->vmlinux, .kallsyms = o->kallsyms,
			       .kallsyms_required = o->kallsyms != NULL };

	if (!so.kallsyms) {
		if (asprintf(&h->kallsyms, "%s.kallsyms", path) < 0)
			return -ENOMEM;
		if (access(h->kallsyms, R_OK) == 0)
			so.kallsyms = h->kallsyms;
	}
	so.no_vmlinux_search = so.kallsyms != NULL;
	kernel_build_id_opts(&so, in, path, &h->kernel_mmap_id);
	h->so = so;
	h->sym = sym_session_new(&so);
	if (!h->sym) {
		int e = errno ? errno : ENOMEM;
		const char *what = so.vmlinux ? so.vmlinux : so.kallsyms ? so.kallsyms :
				   "kernel symbols";

		return err_set(err, errlen, -e, "%s: %s", what, e == ENODATA ?
			       "no kernel symbols in it (empty, or not a kallsyms text)" :
			       strerror(e));
	}
	if (kernel_module_build_ids(h->sym, in->build_ids, in->nr_build_ids) ||
	    user_build_ids(h->sym, in->build_ids, in->nr_build_ids))
		return -ENOMEM;
	return 0;
}

int sched_timehist(const char *path, const struct sched_opts *o, sched_line_fn fn, void *arg,
		   struct sched_stats *st, char *err, size_t errlen)
{
	static const struct sched_opts none;
	struct sched_stats dummy;
	struct th h = { .fn = fn, .arg = arg, .st = st ? st : &dummy };
	struct pd_record rec;
	int ret;

	memset(h.st, 0, sizeof(*h.st));
	if (errlen)
		err[0] = '\0';
	ret = pd_reader_open(path, &h.r, err, errlen);
	if (!ret) {
		h.tep = tep_alloc();
		ret = h.tep ? tracing_data_load(path, h.tep, err, errlen) : -ENOMEM;
		if (ret == -ENOENT)
			err_set(err, errlen, ret, "no tracepoint formats in the file (no "
				"TRACING_DATA; record with `perf sched record -g`)");
	}
	if (!ret)
		ret = find_events(&h, err, errlen);
	if (!ret)
		ret = sym_setup(&h, path, o ? o : &none, err, errlen);
	while (!ret && (ret = pd_reader_next(h.r, &rec, err, errlen)) == 1)
		ret = on_record(&h, &rec, err, errlen);
	if (ret == -ENOMEM && !err[0])
		err_set(err, errlen, ret, "out of memory");
	if (h.sym)
		kernel_build_id_missing(h.sym, &h.so, h.st->kernel_build_id_missing);
	/* perf names kernel frames only through a kernel map from an MMAP record */
	h.st->kernel_mmap2_only = h.kernel_mmap_id.size && !h.kernel_mmap_seen &&
				  !h.st->kernel_build_id_missing[0];
	sym_session_free(h.sym);
	comm_table_release(&h.comms);
	free(h.kallsyms);
	free(h.rt);
	free(h.tprev);
	free(h.idle);
	free(h.tps);
	if (h.tep)
		tep_free(h.tep);
	pd_reader_close(h.r);
	return ret;
}

void sched_line_format(const struct sched_line *l, char *buf, size_t len)
{
	char task[32], tstr[48];	/* timehist_get_commstr's buffer: 31 characters at most */

	if (l->pid == 0)	/* timehist_get_commstr: the idle task, or a thread made with pid 0 */
		snprintf(task, sizeof(task), "%s", l->comm);
	else if (l->tid != l->pid)
		snprintf(task, sizeof(task), "%s[%d/%d]", l->comm, l->tid, l->pid);
	else
		snprintf(task, sizeof(task), "%s[%d]", l->comm, l->tid);
	snprintf(tstr, sizeof(tstr), "%" PRIu64 ".%06" PRIu64, l->time / 1000000000,
		 l->time % 1000000000 / 1000);
	/* print_sched_time: milliseconds and microseconds, truncated, each followed by a space */
	snprintf(buf, len, "%15s [%04d]  %-30s %6" PRIu64 ".%03" PRIu64 " %6" PRIu64 ".%03" PRIu64
		 " %6" PRIu64 ".%03" PRIu64 " %s%s", tstr, l->cpu, task,
		 l->wait_ns / 1000000, l->wait_ns % 1000000 / 1000,
		 l->delay_ns / 1000000, l->delay_ns % 1000000 / 1000,
		 l->run_ns / 1000000, l->run_ns % 1000000 / 1000,
		 l->chain[0] ? "   " : "", l->chain);
}
