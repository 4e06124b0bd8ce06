// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - profile_load(): replay a perf.data file the way `perf report` does and
 * aggregate its samples into one call graph per event.
 *
 * This is the reading side (see pipeline-int.h): records arrive in perf's order
 * (perf-read-data.c); samples are decoded and summed by raw stack, and before any record that
 * changes how a stack resolves or is named (MMAP, MMAP2, COMM, FORK) the stacks it concerns are
 * sent to the resolving side, then the record itself. Everything that can be wrong with a
 * record is found here, so that errors name the first bad record whatever the other thread does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profiler/perfdata/perfdata.h"
#include "profiler/lib/lib.h"
#include "profiler/profile/pipeline-int.h"
#include "profiler/profile/profile.h"
#include "symbolize/symbolize.h"

struct loader {
	const struct profile_load_opts	*o;
	struct pd_reader		*r;
	struct profile			*p;
	uint64_t			*nr_samples;	/* per attr */
	struct agg_table		agg;		/* raw samples not yet sent */
	struct pipe_batch		batch;		/* being filled */
	struct pipe_queue		queue;
	bool				queue_started;
	struct resolver			res;		/* the other side: after the queue only */
	struct kernel_side		kernel;		/* the kernel's symbols, for the other side */
	char				*kallsyms;	/* owned */
	bool				unwind_arch_ok;	/* the unwinder knows the ARCH */
	/* the sample being added when it is to be DWARF-unwound, else NULL */
	const struct pd_evattr		*unwind_ev;
	const struct pd_sample		*unwind_sample;
	struct read_ids			read_ids;	/* PERF_SAMPLE_READ counters */
	uint64_t			*lbr_chain;	/* an LBR sample's chain as perf sees it */
	size_t				lbr_alloc;
	uint64_t			nr_read_unknown;	/* read values of no known id */
	struct pd_build_id		kernel_mmap_id;	/* the kernel MMAP2's build-id */
	struct kernel_order		korder;		/* the first kernel samples in order */
};

/* agg_fn: one distinct raw stack into the batch. */
static int send_stack(const struct agg_entry *e, const uint64_t *chain, void *arg)
{
	struct loader *l = arg;
	size_t words = sizeof(struct pipe_stack) / 8 + e->nr;
	uint64_t *w = pipe_batch_room(&l->batch, words);

	if (!w)
		return -ENOMEM;
	*(struct pipe_stack *)w = (struct pipe_stack){
		.type = PIPE_STACK, .event = e->event, .pid = e->pid, .tid = e->tid, .nr = e->nr,
		.misc = e->misc, .ip = e->ip, .period = e->period, .samples = e->samples,
	};
	if (e->nr)
		memcpy(w + sizeof(struct pipe_stack) / 8, chain, (size_t)e->nr * 8);
	l->batch.nr += words;
	/*
	 * A full flush of the table is ~20% of a large file's stacks: sent on in batches as it
	 * goes, the resolving side starts on them at once (and its threads on each other's).
	 */
	return pipe_queue_push(&l->queue, &l->batch, PIPE_BATCH_WORDS);
}

/* The batch to the resolving side once it holds @min_words. */
static int send_batch(struct loader *l, size_t min_words, char *err, size_t errlen)
{
	int ret;

	/* checked here too: it is asked after every record, and the batch is rarely full */
	if (l->batch.nr < min_words)
		return 0;
	/* what the resolving side's error was is said by finish(), after it stopped */
	ret = pipe_queue_push(&l->queue, &l->batch, min_words);
	return ret ? err_set(err, errlen, ret, "%s", strerror(-ret)) : 0;
}

/*
 * Send what has been gathered before an address space or a name changes: the samples of
 * process @pid, of thread @tid, or (both -1) all of them.
 */
static int flush_samples(struct loader *l, int32_t pid, int32_t tid, char *err, size_t errlen)
{
	int ret;

	if (pid < 0 && tid < 0)
		ret = agg_flush(&l->agg, send_stack, l);
	else
		ret = agg_flush_task(&l->agg, pid, tid, send_stack, l);
	return ret ? err_set(err, errlen, ret, "%s", strerror(-ret)) : 0;
}

/* Which samples a record can change the meaning of (see flush_samples()). */
static int flush_for(struct loader *l, const struct pd_record *rec, char *err, size_t errlen)
{
	int32_t ids[3] = { -1, -1, -1 };	/* pid, tid (MMAP, COMM) / pid, ppid, tid (FORK) */

	if (rec->body_len < sizeof(ids))
		return flush_samples(l, -1, -1, err, errlen);
	memcpy(ids, rec->body, sizeof(ids));
	switch (rec->hdr.type) {
	case PERF_RECORD_COMM:
		return flush_samples(l, -1, ids[1], err, errlen);
	case PERF_RECORD_FORK:
		/* A new thread of the same process changes no address space, only its name. */
		if (ids[0] == ids[1])
			return flush_samples(l, -1, ids[2], err, errlen);
		return flush_samples(l, ids[0], ids[2], err, errlen);
	default:	/* MMAP, MMAP2: a kernel map (pid -1) concerns every process */
		return flush_samples(l, ids[0], -1, err, errlen);
	}
}

static int corrupt(const struct pd_record *rec, char *err, size_t errlen)
{
	return err_set(err, errlen, -EINVAL, "corrupt record at offset %llu (type %u, size %u)",
		       (unsigned long long)rec->offset, rec->hdr.type, rec->hdr.size);
}

/* True when the body of an MMAP, MMAP2, COMM or FORK record holds what it must. */
static bool record_ok(const struct pd_record *rec)
{
	size_t name_at;

	switch (rec->hdr.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
		name_at = rec->hdr.type == PERF_RECORD_MMAP ? 32 :
			  rec->hdr.type == PERF_RECORD_MMAP2 ? 64 : 8;
		return rec->body_len > name_at &&
		       memchr((const char *)rec->body + name_at, '\0', rec->body_len - name_at);
	case PERF_RECORD_FORK:
		return rec->body_len >= 4 * sizeof(int32_t);	/* pid, ppid, tid, ptid */
	default:
		return false;
	}
}

/*
 * A process's file, to its prefetch thread as soon as it is read here: the resolving side gets
 * to the MMAP only after the kernel's symbols and the batches before it, by which time the file
 * is usually loaded. (Without memory it is loaded when needed, as without announcing.)
 */
static int announce(struct loader *l, const struct pd_record *rec)
{
	struct pipe_record pr = {
		.type = PIPE_RECORD, .rec_type = rec->hdr.type, .misc = rec->hdr.misc,
		.body_len = (uint32_t)rec->body_len,
	};
	struct pipe_map m;

	if (!pipe_exec_map(&pr, rec->body, &m))
		return 0;
	if (m.pid == -1)
		return kernel_order_map(&l->korder, &m);
	(void)sym_session_announce_build_id(l->res.sym, m.filename, m.build_id, m.build_id_len);
	return 0;
}

/* An MMAP, MMAP2, COMM or FORK record: the samples before it, then itself, to be resolved. */
static int send_record(struct loader *l, const struct pd_record *rec, char *err,
		       size_t errlen)
{
	size_t words = sizeof(struct pipe_record) / 8 + (rec->body_len + 7) / 8;
	uint64_t *w;
	int ret;

	if (!record_ok(rec))
		return corrupt(rec, err, errlen);
	if (announce(l, rec))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	ret = flush_for(l, rec, err, errlen);
	if (ret)
		return ret;
	w = pipe_batch_room(&l->batch, words);
	if (!w)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	w[words - 1] = 0;	/* the padding */
	*(struct pipe_record *)w = (struct pipe_record){
		.type = PIPE_RECORD, .rec_type = rec->hdr.type, .misc = rec->hdr.misc,
		.body_len = (uint32_t)rec->body_len,
	};
	memcpy(w + sizeof(struct pipe_record) / 8, rec->body, rec->body_len);
	l->batch.nr += words;
	return 0;
}

/* One stream of a sample to DWARF-unwind: passed on alone, in order (pipeline-unwind.c). */
static int add_unwind_stream(struct loader *l, const struct agg_key *k, uint64_t period,
			     char *err, size_t errlen)
{
	struct pipe_stack st = {
		.event = k->event, .pid = k->pid, .tid = k->tid, .nr = k->nr, .misc = k->misc,
		.ip = k->ip, .period = period, .samples = 1,
	};

	/* sent in order anyway: only whether it closes the window matters */
	(void)kernel_order_sample(&l->korder, k);
	if (unwind_put(&l->batch, &st, k->chain, &l->unwind_ev->attr, l->unwind_sample))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->nr_samples[k->event]++;
	l->p->nr_samples++;
	return 0;
}

/* One stream of a sample, of event @event with @period, into the table. */
static int add_stream(struct loader *l, const struct agg_key *k, uint64_t period, char *err,
		      size_t errlen)
{
	bool in_order;

	if (l->unwind_sample)
		return add_unwind_stream(l, k, period, err, errlen);
	if (agg_add(&l->agg, k, period))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->nr_samples[k->event]++;
	l->p->nr_samples++;
	/* the recording's first kernel samples go on in order (pipeline-kernel-order.c); the
	 * test here spares every later sample a call */
	in_order = !l->korder.kernel_met && kernel_order_sample(&l->korder, k);
	return in_order || agg_full(&l->agg) ? flush_samples(l, -1, -1, err, errlen) : 0;
}

/* A PERF_SAMPLE_READ sample: one stream per counter read (see pipeline-sample.c). */
static int add_read_streams(struct loader *l, const struct pd_evattr *ev,
			    const struct pd_sample *s, struct agg_key *k, char *err,
			    size_t errlen)
{
	bool group = ev->attr.read_format & PERF_FORMAT_GROUP;
	uint64_t nr = group ? s->read.nr : 1;
	int ret = 0;

	for (uint64_t i = 0; i < nr && !ret; i++) {
		uint64_t value = s->read.value, id = s->read.id, period;

		if (group) {
			value = pd_u64_at(s->read.values, i * (s->read.value_size / 8));
			id = ev->attr.read_format & PERF_FORMAT_ID ?
			     pd_u64_at(s->read.values, i * (s->read.value_size / 8) + 1) : 0;
		} else if (!(ev->attr.read_format & PERF_FORMAT_ID)) {
			id = 0;
		}
		period = read_ids_period(&l->read_ids, id, value, &k->event);
		if (k->event == UINT32_MAX)
			l->nr_read_unknown++;
		else if (period)
			ret = add_stream(l, k, period, err, errlen);
	}
	return ret;
}

/*
 * The chain of a --call-graph dwarf sample that cannot be unwound (no registers, or an empty
 * stack copy: a user-mode sample in a process whose stack the kernel could not copy) when the
 * kernel recorded no frames either: perf's thread__resolve_callchain_unwind() bails out and the
 * sample has no call chain at all, as one with an unknown context marker (pipeline-resolve.c):
 * Self to the ip's symbol, no calltrace line, the comm alone in perf script. Not the ip as a
 * one-frame chain, which LKP would see as a calltrace key of its own.
 */
static const uint64_t no_user_chain[1] = { (uint64_t)PERF_CONTEXT_MAX };

static int add_sample(struct loader *l, const struct pd_record *rec, char *err,
		      size_t errlen)
{
	const uint64_t dwarf = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	const struct pd_evattr *ev = rec->attr;
	enum unwind_want want;
	struct pd_sample s;
	struct agg_key k;
	const void *chain;
	uint64_t nr;
	int ret;

	if (pd_sample_decode(rec->body, rec->body_len, &ev->attr, &s))
		return err_set(err, errlen, -EINVAL, "corrupt sample at offset %llu (size %u)",
			       (unsigned long long)rec->offset, rec->hdr.size);
	chain = s.callchain;
	nr = s.callchain_nr;
	if (sample_has_lbr_stack(&ev->attr) &&
	    sample_lbr_chain(&s, &l->lbr_chain, &l->lbr_alloc, &chain, &nr))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	if (nr > UINT32_MAX)
		return err_set(err, errlen, -EINVAL, "corrupt sample at offset %llu (size %u)",
			       (unsigned long long)rec->offset, rec->hdr.size);
	/* perf's --max-stack, except for an LBR call stack (pipeline-sample.c) */
	if (chain == s.callchain && nr > RESOLVE_MAX_STACK)
		nr = chain_cut(chain, nr);
	k = (struct agg_key){
		.event = (uint32_t)ev->idx, .pid = s.pid, .tid = s.tid, .ip = s.ip,
		.misc = rec->hdr.misc & PERF_RECORD_MISC_CPUMODE_MASK,
		.chain = chain, .nr = (uint32_t)nr,
	};
	want = unwind_wanted(&ev->attr, &s, l->unwind_arch_ok);
	l->p->nr_not_unwound[want]++;
	if (want == UNWIND_NONE && !k.nr && (ev->attr.sample_type & dwarf) == dwarf &&
	    (ev->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		k.chain = no_user_chain;
		k.nr = 1;
	}
	/* a sample to unwind goes on alone, once per stream (add_stream) */
	l->unwind_ev = want == UNWIND_YES ? ev : NULL;
	l->unwind_sample = want == UNWIND_YES ? &s : NULL;
	if (ev->attr.sample_type & PERF_SAMPLE_READ)
		ret = add_read_streams(l, ev, &s, &k, err, errlen);
	else
		ret = add_stream(l, &k, s.period, err, errlen);
	l->unwind_ev = NULL;
	l->unwind_sample = NULL;
	return ret;
}

static int process(struct loader *l, const struct pd_record *rec, char *err, size_t errlen)
{
	int ret = 0;

	switch (rec->hdr.type) {
	case PERF_RECORD_SAMPLE:
		ret = add_sample(l, rec, err, errlen);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
		ret = send_record(l, rec, err, errlen);
		break;
	case PERF_RECORD_LOST:		/* u64 id, lost */
		if (rec->body_len < 16)
			return corrupt(rec, err, errlen);
		l->p->nr_lost += pd_u64_at(rec->body, 1);
		l->p->nr_lost_records++;
		break;
	case PERF_RECORD_LOST_SAMPLES:	/* u64 lost */
		if (rec->body_len < 8)
			return corrupt(rec, err, errlen);
		l->p->nr_lost_samples += pd_u64_at(rec->body, 0);
		break;
	case PERF_RECORD_THROTTLE:
		l->p->nr_throttle++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		l->p->nr_unthrottle++;
		break;
	default:
		break;
	}
	return ret ? ret : send_batch(l, PIPE_BATCH_WORDS, err, errlen);
}

/* The kallsyms snapshot `kprof record` leaves next to the file, if there is one. */
static char *default_kallsyms(const char *path)
{
	char *snap;

	if (asprintf(&snap, "%s.kallsyms", path) < 0)
		return NULL;
	if (access(snap, R_OK) == 0)
		return snap;
	free(snap);
	return NULL;
}

static int setup(struct loader *l, const char *path, char *err, size_t errlen)
{
	const struct pd_file_info *in = pd_reader_info(l->r);
	size_t nr = pd_reader_nr_attrs(l->r);
	struct resolver *res = &l->res;
	int ret;

	l->unwind_arch_ok = unwind_arch_ok(in->arch);
	res->o = l->o;
	res->nr_attrs = nr;
	/* a DWARF recording: every map to the unwinder too (symbolize.h sym_session_add_perf_map) */
	for (size_t i = 0; i < nr; i++)
		if ((pd_reader_attr(l->r, i)->attr.sample_type & UNWIND_SAMPLE_BITS) ==
		    UNWIND_SAMPLE_BITS)
			res->perf_maps = true;
	res->build_ids = in->build_ids;
	res->nr_build_ids = in->nr_build_ids;
	res->sym_opts = (struct sym_opts){ .vmlinux = l->o->vmlinux, .kallsyms = l->o->kallsyms,
					   .kallsyms_required = l->o->kallsyms != NULL };
	if (!res->sym_opts.kallsyms)
		res->sym_opts.kallsyms = l->kallsyms = default_kallsyms(path);
	/* A kallsyms of the recording is more to the point than a vmlinux found lying around. */
	res->sym_opts.no_vmlinux_search = res->sym_opts.kallsyms != NULL;
	/* The kernel's build-id: its symbols only from what has it (the kernel side's session). */
	kernel_build_id_opts(&res->sym_opts, in, path, &l->kernel_mmap_id);
	l->p = calloc(1, sizeof(*l->p));
	res->cgs = calloc(nr, sizeof(*res->cgs));
	l->nr_samples = calloc(nr, sizeof(*l->nr_samples));
	if (!l->p || !res->cgs || !l->nr_samples || read_ids_init(&l->read_ids, l->r))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->p->nr_cpus = in->nr_cpus_online;
	if ((in->hostname && !(l->p->hostname = strdup(in->hostname))) ||
	    (in->osrelease && !(l->p->osrelease = strdup(in->osrelease))) ||
	    (in->cmdline && !(l->p->cmdline = strdup(in->cmdline))))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	/* The kernel symbols load in a thread of their own while this one starts reading. */
	ret = kernel_side_start(&l->kernel, &res->sym_opts, in->build_ids, in->nr_build_ids);
	res->kernel = &l->kernel;
	/* a DWARF recording's stacks are unwound in the address space of their time */
	res->prename = !res->perf_maps;
	if (!ret)
		ret = resolver_open_session(res);
	if (!ret)
		ret = pipe_queue_init(&l->queue, "kprof-name", resolver_start, resolver_consume, NULL, res);
	if (ret)
		return err_set(err, errlen, ret, "%s", strerror(-ret));
	l->queue_started = true;
	return 0;
}

/* The recording's build-ids, kept for export (pprof's Mapping.build_id). */
static int copy_build_ids(struct profile *p, const struct pd_file_info *in, char *err,
			  size_t errlen)
{
	if (!in->nr_build_ids)
		return 0;
	p->build_ids = calloc(in->nr_build_ids, sizeof(*p->build_ids));
	if (!p->build_ids)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < in->nr_build_ids; i++) {
		p->build_ids[i] = in->build_ids[i];
		p->build_ids[i].filename = NULL;
		p->nr_build_ids++;
		if (in->build_ids[i].filename &&
		    !(p->build_ids[i].filename = strdup(in->build_ids[i].filename)))
			return err_set(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

/* Hand the call graphs of the events that have samples to the profile, in attr order. */
static int collect_events(struct loader *l, char *err, size_t errlen)
{
	size_t nr = pd_reader_nr_attrs(l->r);
	struct callgraph **cgs = l->res.cgs;
	struct inl_maps_said said;
	struct sym_stats st;
	int ret;

	memset(&st, 0, sizeof(st));
	if (l->kernel.sym) {
		sym_session_stats(l->kernel.sym, &st);
		kernel_build_id_missing(l->kernel.sym, &l->res.sym_opts,
					l->p->kernel_build_id_missing);
	}
	l->p->nr_stale_modules = st.modules_stale;
	l->p->nr_early_modules = st.modules_early;
	if ((st.first_stale_module &&
	     !(l->p->first_stale_module = strdup(st.first_stale_module))) ||
	    (st.first_early_module &&
	     !(l->p->first_early_module = strdup(st.first_early_module))) ||
	    (st.first_early_symbol &&
	     !(l->p->first_early_symbol = strdup(st.first_early_symbol))))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	sym_session_stats(l->res.sym, &st);
	l->p->nr_plt_shadowed = st.plt_shadowed;
	if (st.plt_shadowed && (!(l->p->first_plt_stub = strdup(st.first_plt_stub)) ||
				!(l->p->first_plt_shadow = strdup(st.first_plt_shadow)) ||
				!(l->p->first_plt_file = strdup(st.first_plt_file))))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->p->nr_stale_files = st.files_stale;
	l->p->nr_names_unread = st.names_unread;
	if (st.names_unread && !(l->p->first_names_unread = strdup(st.first_names_unread)))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->p->nr_files_from_cache = st.files_from_cache;
	l->p->nr_unwound = l->res.unwound_samples;
	l->p->nr_unwind_short = l->res.unwind_short;
	l->p->nr_unwind_guessed = l->res.unwind_guessed;
	l->p->nr_unwind_unplaced = l->res.unwind_unplaced;
	if (l->res.unwind_unplaced && !(l->p->first_unplaced = strdup(l->res.first_unplaced)))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	if (inl_maps_result(&l->res.inl_maps, &said))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->p->nr_inline_multimap = said.samples;
	l->p->nr_inline_multimap_funcs = said.nr_funcs;
	l->p->inline_multimap_funcs = said.funcs;
	l->p->inline_multimap_excess = said.excess;
	l->p->inline_multimap_files = said.files;
	l->p->events = calloc(nr, sizeof(*l->p->events));
	l->p->kernel_source = strdup(kernel_side_source(&l->kernel));
	if (st.first_stale)
		l->p->first_stale = strdup(st.first_stale);
	if (!l->p->events || !l->p->kernel_source || (st.first_stale && !l->p->first_stale))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < nr; i++) {
		struct profile_event *e = &l->p->events[l->p->nr_events];

		if (!cgs[i])
			continue;
		ret = callgraph_settle(cgs[i]);
		if (ret)
			return err_set(err, errlen, ret, "%s", strerror(-ret));
		e->name = strdup(pd_reader_attr(l->r, i)->name);
		if (!e->name)
			return err_set(err, errlen, -ENOMEM, "out of memory");
		e->cg = cgs[i];
		/* the session's strings go with the resolver: later adds must not rely on them */
		callgraph_stable_strings(e->cg, false);
		e->nr_samples = l->nr_samples[i];
		if (pd_reader_attr(l->r, i)->attr.freq)
			e->freq = pd_reader_attr(l->r, i)->attr.sample_freq;
		else
			e->period = pd_reader_attr(l->r, i)->attr.sample_period;
		cgs[i] = NULL;
		l->p->nr_events++;
	}
	l->p->nr_unknown_id = pd_reader_stats(l->r)->unknown_id + l->nr_read_unknown;
	l->p->nr_auxtrace = pd_reader_stats(l->r)->auxtrace;
	l->p->auxtrace_bytes = pd_reader_stats(l->r)->auxtrace_bytes;
	l->p->auxtrace_type = pd_reader_stats(l->r)->auxtrace_type;
	l->p->nr_late_headers = pd_reader_stats(l->r)->late_headers;
	l->p->nr_self_elsewhere = l->res.nr_self_elsewhere;
	return copy_build_ids(l->p, pd_reader_info(l->r), err, errlen);
}

/*
 * The last stacks to the resolving side, and wait for it. The failure of the kernel side or the
 * resolving side wins over one found here: it is what went wrong first (the kernel symbols
 * cannot be loaded, say).
 */
static int finish(struct loader *l, int ret, char *err, size_t errlen)
{
	int res_ret, k_ret, add_ret;

	if (!ret)
		ret = flush_samples(l, -1, -1, err, errlen);
	/* the batches kept for the kernel's symbols go at resolver_finish(), even if this is empty */
	if (!ret)
		ret = send_batch(l, 1, err, errlen);
	if (!l->queue_started)
		return ret;
	l->queue_started = false;
	k_ret = kernel_side_wait(&l->kernel, err, errlen);
	res_ret = pipe_queue_finish(&l->queue);
	/* the adding thread's error is the first (the naming thread only passes it on) */
	add_ret = resolver_finish(&l->res);
	if (k_ret)
		return k_ret;
	if (add_ret)
		res_ret = add_ret;
	if (res_ret)
		return err_set(err, errlen, res_ret, "%s", l->res.err[0] ? l->res.err :
			       l->res.err_early[0] ? l->res.err_early : strerror(-res_ret));
	return ret;
}

static void loader_release(struct loader *l)
{
	resolver_release(&l->res);
	kernel_side_release(&l->kernel);
	free(l->nr_samples);
	free(l->kallsyms);
	free(l->lbr_chain);
	read_ids_release(&l->read_ids);
	kernel_order_release(&l->korder);
	agg_release(&l->agg);
	pipe_batch_release(&l->batch);
	pd_reader_close(l->r);
}

int profile_load(const char *path, const struct profile_load_opts *o, struct profile **out,
		 char *err, size_t errlen)
{
	static const struct profile_load_opts defaults;
	struct loader l = { .o = o ? o : &defaults };
	struct pd_record rec;
	int ret;

	*out = NULL;
	ret = pd_reader_open(path, &l.r, err, errlen);
	if (ret)
		return ret;
	ret = setup(&l, path, err, errlen);
	while (!ret && (ret = pd_reader_next(l.r, &rec, err, errlen)) > 0)
		ret = process(&l, &rec, err, errlen);
	ret = finish(&l, ret, err, errlen);
	if (!ret)
		ret = collect_events(&l, err, errlen);
	loader_release(&l);
	if (ret) {
		profile_free(l.p);
		return ret;
	}
	*out = l.p;
	return 0;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_events; i++) {
		free(p->events[i].name);
		callgraph_free(p->events[i].cg);
	}
	free(p->events);
	free(p->hostname);
	free(p->osrelease);
	free(p->cmdline);
	free(p->kernel_source);
	free(p->first_stale);
	free(p->first_names_unread);
	free(p->first_stale_module);
	free(p->first_early_module);
	free(p->first_early_symbol);
	free(p->first_plt_stub);
	free(p->first_plt_shadow);
	free(p->first_plt_file);
	free(p->inline_multimap_funcs);
	free(p->inline_multimap_excess);
	free(p->inline_multimap_files);
	free(p->first_unplaced);
	for (size_t i = 0; i < p->nr_build_ids; i++)
		free(p->build_ids[i].filename);
	free(p->build_ids);
	free(p);
}
