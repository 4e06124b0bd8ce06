// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline.c - profile_load(): replay a perf.data file the way `perf report` does and
 * aggregate its samples into one call graph per event.
 *
 * Records arrive in perf's order (perf-read-data.c). MMAP/MMAP2 and FORK records build the
 * address spaces in the symbolizer, COMM/FORK name the threads; each SAMPLE's call chain is
 * resolved frame by frame: context markers switch between kernel and user space (perf's
 * thread__resolve_callchain_sample), addresses are looked up as given, an unknown marker
 * discards the chain like perf does, at most 127 frames (perf's --max-stack default) are kept.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profiler/perf-read-local.h"
#include "profiler/log-local.h"
#include "profiler/pipeline-local.h"
#include "profiler/profile-local.h"
#include "symbolize/symbolize.h"

#define MAX_STACK	127	/* perf report's default --max-stack */

struct loader {
	const struct profile_load_opts	*o;
	struct perf_reader		*r;
	struct sym_session		*sym;
	struct profile			*p;
	struct callgraph		**cgs;		/* per attr, from its 1st sample */
	uint64_t			*nr_samples;	/* per attr */
	struct comm_table		comms;
	struct agg_table		agg;		/* raw samples not yet symbolized */
	struct frame_cache		frames_seen;
	uint32_t			gen, kgen;	/* of the stack being resolved */
	struct cg_frame			frames[MAX_STACK + 1];
};

/* Fill @f for @addr resolved in @pid's address space or the kernel's. */
static void resolve(struct loader *l, int32_t pid, uint64_t addr, unsigned int cpumode,
		    struct cg_frame *f)
{
	struct sym_result res = { .dso = "[unknown]" };
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL;
	struct frame_cache_entry *c;

	f->flags = kernel ? CG_FRAME_KERNEL : 0;
	/* Hypervisor and guest addresses have no maps here: unresolved, as in perf. */
	if (!kernel && cpumode != PERF_RECORD_MISC_USER) {
		f->sym = NULL;
		f->dso = res.dso;
		f->addr = l->o->keep_addrs ? addr : 0;
		f->sym_start = 0;
		return;
	}
	if (kernel)
		pid = -1;
	c = frame_cache_slot(&l->frames_seen, pid, addr);
	if (c->addr != addr || c->pid != pid || c->kgen != l->kgen ||
	    c->gen != (kernel ? l->kgen : l->gen)) {
		sym_session_resolve(l->sym, pid, addr, kernel, &res);
		*c = (struct frame_cache_entry){
			.addr = addr, .pid = pid, .gen = kernel ? l->kgen : l->gen, .kgen = l->kgen,
			.sym = res.sym, .dso = res.dso ? res.dso : "[unknown]",
			/*
			 * perf keeps same-named symbols of a module apart by their start. A
			 * library's runtime start differs between the processes mapping it, so
			 * the frame carries symbolize's per-module identity instead.
			 */
			.sym_start = res.sym ? res.sym_id : 0,
		};
	}
	f->sym = c->sym;
	f->dso = c->dso;
	f->sym_start = c->sym_start;
	f->addr = !c->sym && l->o->keep_addrs ? addr : 0;
}

/*
 * The frames of a sample, leaf first: the call chain without its markers. The leaf must be the
 * sample's own ip (perf resolves it with the record's cpumode for Self and -U); chains start
 * there, and when one does not (or there is no chain) the ip is put in front.
 */
static size_t sample_frames(struct loader *l, const struct agg_entry *e, const uint64_t *chain)
{
	unsigned int cpumode = PERF_RECORD_MISC_USER;
	uint64_t first_ip = 0;
	size_t n = 0;

	for (uint32_t i = 0; i < e->nr && n < MAX_STACK; i++) {
		uint64_t ip = chain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			if (ip == (uint64_t)PERF_CONTEXT_HV) {
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
			} else if (ip == (uint64_t)PERF_CONTEXT_KERNEL) {
				cpumode = PERF_RECORD_MISC_KERNEL;
			} else if (ip == (uint64_t)PERF_CONTEXT_USER) {
				cpumode = PERF_RECORD_MISC_USER;
			} else {
				/* perf: "invalid callchain context", the chain is discarded. */
				n = 0;
				break;
			}
			continue;
		}
		if (!n)
			first_ip = ip;
		resolve(l, e->pid, ip, cpumode, &l->frames[1 + n++]);
	}
	if (n && first_ip == e->ip) {
		memmove(&l->frames[0], &l->frames[1], n * sizeof(l->frames[0]));
		return n;
	}
	resolve(l, e->pid, e->ip, e->misc, &l->frames[0]);
	return n + 1;
}

/*
 * Symbolize one distinct raw stack and add it (with all its samples) to its graph. The frames go
 * straight in: with stable strings the graph maps a frame with one probe, and a table of
 * symbolized stacks in between (summing raw stacks that symbolize alike) saved fewer
 * instructions than its copy of every stack cost in memory and page faults.
 */
static int add_stack(const struct agg_entry *e, const uint64_t *chain, void *arg)
{
	struct loader *l = arg;
	struct cg_task task;
	size_t n;

	l->gen = frame_cache_gen(&l->frames_seen, e->pid);
	l->kgen = frame_cache_gen(&l->frames_seen, -1);
	n = sample_frames(l, e, chain);
	task.comm = comm_table_name(&l->comms, e->tid);
	task.pid = l->o->keep_pid || l->o->keep_tid ? e->pid : -1;
	task.tid = l->o->keep_tid ? e->tid : -1;
	if (!task.comm)
		return -ENOMEM;
	return callgraph_add(l->cgs[e->event], &task, l->frames, n, e->period, e->samples);
}

/*
 * Symbolize what has been gathered before an address space or a name changes: the samples of
 * process @pid, of thread @tid, or (both -1) all of them.
 */
static int flush_samples(struct loader *l, int32_t pid, int32_t tid, char *err, size_t errlen)
{
	int ret;

	if (pid < 0 && tid < 0)
		ret = agg_flush(&l->agg, add_stack, l);
	else
		ret = agg_flush_task(&l->agg, pid, tid, add_stack, l);
	return ret ? err_set(err, errlen, ret, "%s", strerror(-ret)) : 0;
}

/* Which samples a record can change the meaning of (see flush_samples()). */
static int flush_for(struct loader *l, const struct perf_record *rec, char *err, size_t errlen)
{
	int32_t ids[3] = { -1, -1, -1 };	/* pid, tid (MMAP, COMM) / pid, ppid, tid (FORK) */
	int ret;

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
		ret = flush_samples(l, ids[0], ids[2], err, errlen);
		break;
	default:	/* MMAP, MMAP2: a kernel map (pid -1) concerns every process */
		ret = flush_samples(l, ids[0], -1, err, errlen);
		break;
	}
	if (!ret && frame_cache_invalidate(&l->frames_seen, ids[0]))
		ret = err_set(err, errlen, -ENOMEM, "out of memory");
	return ret;
}

static int add_sample(struct loader *l, const struct perf_record *rec, char *err,
		      size_t errlen)
{
	const struct perf_evattr *ev = rec->attr;
	struct perf_sample s;
	struct agg_key k;

	if (perf_sample_decode(rec->body, rec->body_len, &ev->attr, &s))
		return err_set(err, errlen, -EINVAL, "corrupt sample at offset %llu (size %u)",
			    (unsigned long long)rec->offset, rec->hdr.size);
	if (!l->cgs[ev->idx]) {
		l->cgs[ev->idx] = callgraph_new();
		if (!l->cgs[ev->idx])
			return err_set(err, errlen, -ENOMEM, "out of memory");
		/*
		 * Frame names are the sym_session's and comms the comm_table's: pooled and
		 * unchanged until the loader is released, after the last add. The graph can then
		 * map each distinct frame once instead of hashing its text for every stack.
		 */
		callgraph_stable_strings(l->cgs[ev->idx], true);
	}
	if (s.callchain_nr > UINT32_MAX)
		return err_set(err, errlen, -EINVAL, "corrupt sample at offset %llu (size %u)",
			    (unsigned long long)rec->offset, rec->hdr.size);
	k = (struct agg_key){
		.event = (uint32_t)ev->idx, .pid = s.pid, .tid = s.tid, .ip = s.ip,
		.misc = rec->hdr.misc & PERF_RECORD_MISC_CPUMODE_MASK,
		.chain = s.callchain, .nr = (uint32_t)s.callchain_nr,
	};
	if (agg_add(&l->agg, &k, s.period))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->nr_samples[ev->idx]++;
	l->p->nr_samples++;
	return agg_full(&l->agg) ? flush_samples(l, -1, -1, err, errlen) : 0;
}

/*
 * MMAP and MMAP2 share pid, tid, start, len, pgoff; the filename follows at a fixed offset.
 * Only executable mappings go to the symbolizer (it takes anonymous ones for JIT code): MMAP2
 * says so in prot, MMAP marks data mappings (perf record -d) in misc.
 */
static int add_map(struct loader *l, const struct perf_record *rec, size_t name_at)
{
	const char *body = rec->body, *name = body + name_at;
	uint32_t pid, prot;
	uint64_t v[3];

	if (rec->body_len <= name_at || !memchr(name, '\0', rec->body_len - name_at))
		return -EINVAL;
	if (rec->hdr.type == PERF_RECORD_MMAP2) {
		memcpy(&prot, body + 56, 4);
		if (!(prot & PROT_EXEC))
			return 0;
	} else if (rec->hdr.misc & PERF_RECORD_MISC_MMAP_DATA) {
		return 0;
	}
	memcpy(&pid, body, 4);
	memcpy(v, body + 8, sizeof(v));
	sym_session_add_map(l->sym, (pid_t)(int32_t)pid, v[0], v[1], v[2], name);
	return 0;
}

static int add_comm(struct loader *l, const struct perf_record *rec)
{
	const char *name = (const char *)rec->body + 8;
	int32_t tid;

	if (rec->body_len <= 8 || !memchr(name, '\0', rec->body_len - 8))
		return -EINVAL;
	memcpy(&tid, (const char *)rec->body + 4, 4);
	return comm_table_set(&l->comms, tid, name) ? -ENOMEM : 0;
}

static int add_fork(struct loader *l, const struct perf_record *rec)
{
	int32_t f[4];	/* pid, ppid, tid, ptid */

	if (rec->body_len < sizeof(f))
		return -EINVAL;
	memcpy(f, rec->body, sizeof(f));
	if (f[0] != f[1])
		sym_session_fork(l->sym, f[1], f[0]);
	return comm_table_fork(&l->comms, f[3], f[2]) ? -ENOMEM : 0;
}

static int process(struct loader *l, const struct perf_record *rec, char *err, size_t errlen)
{
	int ret = 0;

	switch (rec->hdr.type) {
	case PERF_RECORD_SAMPLE:
		return add_sample(l, rec, err, errlen);
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
		/* Samples so far resolve and are named as things were before this record. */
		ret = flush_for(l, rec, err, errlen);
		if (ret)
			return ret;
		break;
	default:
		break;
	}
	switch (rec->hdr.type) {
	case PERF_RECORD_MMAP:
		ret = add_map(l, rec, 32);
		break;
	case PERF_RECORD_MMAP2:
		ret = add_map(l, rec, 64);
		break;
	case PERF_RECORD_COMM:
		ret = add_comm(l, rec);
		break;
	case PERF_RECORD_FORK:
		ret = add_fork(l, rec);
		break;
	case PERF_RECORD_LOST:		/* u64 id, lost */
		ret = rec->body_len < 16 ? -EINVAL : 0;
		if (!ret) {
			l->p->nr_lost += perf_u64_at(rec->body, 1);
			l->p->nr_lost_records++;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:	/* u64 lost */
		ret = rec->body_len < 8 ? -EINVAL : 0;
		if (!ret)
			l->p->nr_lost_samples += perf_u64_at(rec->body, 0);
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
	if (ret == -ENOMEM)
		return err_set(err, errlen, ret, "out of memory");
	if (ret)
		return err_set(err, errlen, ret, "corrupt record at offset %llu (type %u, size %u)",
			    (unsigned long long)rec->offset, rec->hdr.type, rec->hdr.size);
	return 0;
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
	const struct perf_file_info *in = perf_reader_info(l->r);
	size_t nr = perf_reader_nr_attrs(l->r);
	struct sym_opts so = { .vmlinux = l->o->vmlinux, .kallsyms = l->o->kallsyms };
	char *snap = NULL;

	if (!so.kallsyms)
		so.kallsyms = snap = default_kallsyms(path);
	/* A kallsyms of the recording is more to the point than a vmlinux found lying around. */
	so.no_vmlinux_search = so.kallsyms != NULL;
	l->sym = sym_session_new(&so);
	if (!l->sym) {
		int e = errno;

		err_set(err, errlen, -e, "cannot use the kernel symbols of %s: %s",
		     so.vmlinux ? so.vmlinux : so.kallsyms ? so.kallsyms : "this machine",
		     strerror(e));
		free(snap);
		return -e;
	}
	free(snap);
	if (frame_cache_init(&l->frames_seen))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->p = calloc(1, sizeof(*l->p));
	l->cgs = calloc(nr, sizeof(*l->cgs));
	l->nr_samples = calloc(nr, sizeof(*l->nr_samples));
	if (!l->p || !l->cgs || !l->nr_samples)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	l->p->nr_cpus = in->nr_cpus_online;
	if ((in->hostname && !(l->p->hostname = strdup(in->hostname))) ||
	    (in->osrelease && !(l->p->osrelease = strdup(in->osrelease))) ||
	    (in->cmdline && !(l->p->cmdline = strdup(in->cmdline))) ||
	    !(l->p->kernel_source = strdup(sym_session_kernel_source(l->sym))))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

/* Hand the call graphs of the events that have samples to the profile, in attr order. */
static int collect_events(struct loader *l, char *err, size_t errlen)
{
	size_t nr = perf_reader_nr_attrs(l->r);

	l->p->events = calloc(nr, sizeof(*l->p->events));
	if (!l->p->events)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < nr; i++) {
		struct profile_event *e = &l->p->events[l->p->nr_events];

		if (!l->cgs[i])
			continue;
		e->name = strdup(perf_reader_attr(l->r, i)->name);
		if (!e->name)
			return err_set(err, errlen, -ENOMEM, "out of memory");
		e->cg = l->cgs[i];
		/* the session's strings go with the loader: later adds must not rely on them */
		callgraph_stable_strings(e->cg, false);
		e->nr_samples = l->nr_samples[i];
		l->cgs[i] = NULL;
		l->p->nr_events++;
	}
	l->p->nr_unknown_id = perf_reader_stats(l->r)->unknown_id;
	return 0;
}

static void loader_release(struct loader *l)
{
	for (size_t i = 0; l->cgs && i < perf_reader_nr_attrs(l->r); i++)
		callgraph_free(l->cgs[i]);
	free(l->cgs);
	free(l->nr_samples);
	comm_table_release(&l->comms);
	agg_release(&l->agg);
	frame_cache_release(&l->frames_seen);
	sym_session_free(l->sym);
	perf_reader_close(l->r);
}

int profile_load(const char *path, const struct profile_load_opts *o, struct profile **out,
		 char *err, size_t errlen)
{
	static const struct profile_load_opts defaults;
	struct loader l = { .o = o ? o : &defaults };
	struct perf_record rec;
	int ret;

	*out = NULL;
	ret = perf_reader_open(path, &l.r, err, errlen);
	if (ret)
		return ret;
	ret = setup(&l, path, err, errlen);
	while (!ret && (ret = perf_reader_next(l.r, &rec, err, errlen)) > 0)
		ret = process(&l, &rec, err, errlen);
	if (!ret)
		ret = flush_samples(&l, -1, -1, err, errlen);
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
	free(p);
}

bool profile_is_perf_data(const void *head, size_t len)
{
	return perf_file_magic_ok(head, len);
}
