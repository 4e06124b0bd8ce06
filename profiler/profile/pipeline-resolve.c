// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-resolve.c - the resolving side of profile_load() (see pipeline-int.h): distinct
 * raw stacks in, call graphs out, with the address spaces and thread names replayed from the
 * records in between exactly as they were when each stack was sampled.
 *
 * A call chain is resolved frame by frame the way perf's thread__resolve_callchain_sample does:
 * context markers switch between kernel and user space, addresses are looked up as given, an
 * unknown marker discards the chain. The reading side has cut it at RESOLVE_MAX_STACK frames
 * already (chain_cut(); an LBR call stack is not cut, as perf does not cut it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/pipeline-int.h"

/* An unresolved frame: hypervisor and guest addresses, which have no maps here (as in perf). */
static int unresolved_id(struct resolver *r, struct callgraph *cg, uint64_t addr, uint32_t *id)
{
	struct cg_frame f = {
		.dso = "[unknown]", .addr = r->o->keep_addrs ? addr : 0,
	};

	return callgraph_frame_id(cg, &f, id);
}

/* The cache slot of a user frame; NULL when it does not go through the cache. */
static struct frame_cache_entry *frame_slot(struct resolver *r, int32_t pid, uint64_t addr,
					    unsigned int cpumode)
{
	if (cpumode == PERF_RECORD_MISC_USER)
		return frame_cache_slot(&r->frames_seen, pid, addr);
	return NULL;
}

/*
 * The call graph id of a named frame (struct nframe: a kernel one per (address, kernel maps), a
 * user one per symbolize result), kept in it: a kernel frame needs no frame cache probe, and a
 * user frame's id serves every process that resolves to it.
 */
static int named_id(struct resolver *r, struct callgraph *cg, uint32_t event, struct nframe *nf,
		    unsigned int flags, uint32_t *id)
{
	struct cg_frame f;
	int ret;

	if (nf->cg_event == event + 1) {
		*id = nf->cg_id;
		return 0;
	}
	/*
	 * perf keeps same-named symbols of a module apart by their start. A library's runtime
	 * start differs between the processes mapping it, so the frame carries symbolize's
	 * per-module identity (sym_id) instead. An unresolved frame keeps the address perf
	 * script shows (collapse --addrs).
	 */
	f = (struct cg_frame){
		.sym = nf->sym, .dso = nf->dso ? nf->dso : "[unknown]",
		.sym_start = nf->sym ? nf->sym_id : 0, .flags = flags,
		.addr = !nf->sym && r->o->keep_addrs ? nf->addr : 0,
	};
	ret = callgraph_frame_id(cg, &f, id);
	if (!ret) {
		nf->cg_event = event + 1;
		nf->cg_id = *id;
	}
	return ret;
}

struct nframe *resolver_user_nframe(struct resolver *r, int32_t pid, uint64_t addr)
{
	struct frame_cache_entry *c = frame_cache_slot(&r->frames_seen, pid, addr);

	if (!c->f || c->addr != addr || c->pid != pid || c->kgen != r->kgen || c->gen != r->gen) {
		struct sym_result res = { .dso = "[unknown]" };
		struct nframe *f;

		uint64_t unresolved_at;

		sym_session_resolve(r->sym, pid, addr, false, &res);
		/* unresolved frames of a module are one frame, unless their addresses are shown */
		unresolved_at = !res.sym && r->o->keep_addrs ? res.dso_addr : 0;
		/*
		 * The nframe of this answer, kept with it by the symbolizer: most misses here are
		 * an address new in its process whose answer an earlier process got (make -B: of
		 * 572K misses, 455K are answered from the symbolizer's cache), and interning again
		 * cost a probe of a large table and a read of the nframe it finds, two cache misses.
		 * Not for an unresolved frame shown by its address: one answer, many frames.
		 */
		f = res.owner && !unresolved_at ? *res.owner : NULL;
		if (!f) {
			f = nframe_intern(&r->names, res.sym, res.dso ? res.dso : "[unknown]",
					  res.sym ? res.sym_id : unresolved_at, unresolved_at);
			if (!f)
				return NULL;
			if (res.owner && !unresolved_at)
				*res.owner = f;
		}
		*c = (struct frame_cache_entry){
			.addr = addr, .pid = pid, .gen = r->gen, .kgen = r->kgen, .f = f,
		};
	}
	return c->f;
}

/*
 * The call graph id of @addr resolved in @pid's address space, or of the frame @addr points to
 * (struct nframe: kernel frames, and user frames when named ahead, r->prenamed), for the graph
 * @cg of event @event. A hit in the frame cache costs one probe; a miss asks the symbolizer, and
 * the graph only for a frame no process resolved to before.
 */
static int resolve(struct resolver *r, struct callgraph *cg, uint32_t event, int32_t pid,
		   uint64_t addr, unsigned int cpumode, uint32_t *id)
{
	struct nframe *f;

	if (cpumode == PERF_RECORD_MISC_KERNEL)
		return named_id(r, cg, event, (struct nframe *)(uintptr_t)addr, CG_FRAME_KERNEL, id);
	if (cpumode != PERF_RECORD_MISC_USER)
		return unresolved_id(r, cg, addr, id);
	f = r->prenamed ? (struct nframe *)(uintptr_t)addr : resolver_user_nframe(r, pid, addr);
	if (!f)
		return -ENOMEM;
	return named_id(r, cg, event, f, 0, id);
}

/*
 * The frames of a stack as call graph ids in r->ids, leaf first: the call chain as recorded,
 * without its markers, as perf 6.1 resolves it (the sample's ip is not added to a chain: perf
 * resolves the ip only for the Self entry). Without a chain the stack is the ip alone. When the
 * ip names another frame than the chain's first entry (precise-ip skid, LBR call stacks), the
 * ip's frame goes in front and r->detached is set (callgraph_add_ids_ip()): perf gives Self to
 * the ip's symbol and prints the chain as recorded. Whether the chain starts at the ip the
 * kernel side compared (st->ip_first), before it replaced kernel addresses. Returns the number
 * of ids, or -errno.
 */
static long stack_ids(struct resolver *r, struct callgraph *cg, const struct pipe_stack *st,
		      const uint64_t *chain)
{
	unsigned int cpumode = PERF_RECORD_MISC_USER;
	uint32_t ip_id;
	size_t n = 0;
	int ret = 0;

	/* the reading side cut the chain at perf's --max-stack (LBR stacks: not) */
	if (resolver_ids_reserve(r, (size_t)st->nr + 2))
		return -ENOMEM;
	/*
	 * The cache lookups of a stack are independent of each other: start loading their
	 * slots together, most are far apart in memory.
	 */
	for (uint32_t i = 0; i < st->nr && !r->prenamed; i++) {
		if (chain[i] >= (uint64_t)PERF_CONTEXT_MAX)
			cpumode = pipe_context_cpumode(chain[i]);
		else
			__builtin_prefetch(frame_slot(r, st->pid, chain[i], cpumode));
	}
	cpumode = PERF_RECORD_MISC_USER;
	for (uint32_t i = 0; i < st->nr && !ret; i++) {
		uint64_t ip = chain[i];

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			cpumode = pipe_context_cpumode(ip);
			if (!cpumode) {
				/*
				 * perf: "invalid callchain context", the chain is discarded: no
				 * frame in perf script (the folded stack is the comm alone), Self
				 * to the ip's symbol in perf report.
				 */
				ret = resolve(r, cg, st->event, st->pid, st->ip, st->misc, &ip_id);
				if (ret)
					return ret;
				r->detached = true;
				r->ids[0] = ip_id;
				return 1;
			}
			continue;
		}
		ret = resolve(r, cg, st->event, st->pid, ip, cpumode, &r->ids[1 + n++]);
	}
	if (ret)
		return ret;
	r->detached = false;
	if (n && !st->ip_first) {
		ret = resolve(r, cg, st->event, st->pid, st->ip, st->misc, &ip_id);
		if (ret)
			return ret;
		if (ip_id != r->ids[1]) {
			r->nr_self_elsewhere += st->samples;
			r->detached = true;
			r->ids[0] = ip_id;
			return (long)n + 1;
		}
	}
	if (n) {
		memmove(&r->ids[0], &r->ids[1], n * sizeof(r->ids[0]));
		return (long)n;
	}
	ret = resolve(r, cg, st->event, st->pid, st->ip, st->misc, &r->ids[0]);
	return ret ? ret : 1;
}

struct callgraph *resolver_graph(struct resolver *r, const struct pipe_stack *st)
{
	if (st->event >= r->nr_attrs)
		return NULL;
	if (!r->cgs[st->event]) {
		r->cgs[st->event] = callgraph_new();
		if (!r->cgs[st->event])
			return NULL;
		/*
		 * Frame names are the sym_session's and comms the comm_table's: pooled and
		 * unchanged until the resolver is released, after the last add. The graph can then
		 * map each distinct frame once instead of hashing its text for every stack.
		 */
		callgraph_stable_strings(r->cgs[st->event], true);
	}
	/* named ahead: the generations are the naming thread's (pipeline-early.c) */
	if (!r->prenamed) {
		r->gen = frame_cache_gen(&r->frames_seen, st->pid);
		r->kgen = frame_cache_gen(&r->frames_seen, -1);
	}
	return r->cgs[st->event];
}

/* The name of thread @tid as @cg interned it (see struct resolver); NULL on ENOMEM. */
static const char *task_comm(struct resolver *r, struct callgraph *cg, int32_t tid)
{
	struct comm_memo *m = &r->comm_memo[((uint32_t)tid * 2654435761u) >> 24];
	const char *comm;

	if (m->cg == cg && m->tid == tid && m->gen == r->comms_gen && m->comm)
		return m->comm;
	comm = comm_table_name(&r->comms, tid);
	comm = comm ? callgraph_intern(cg, comm) : NULL;
	*m = (struct comm_memo){ .cg = cg, .tid = tid, .gen = r->comms_gen, .comm = comm };
	return comm;
}

int resolver_add_ids(struct resolver *r, struct callgraph *cg, const struct pipe_stack *st,
		     size_t n)
{
	struct cg_task task;

	task.comm = task_comm(r, cg, st->tid);
	task.pid = r->o->keep_pid || r->o->keep_tid ? st->pid : -1;
	task.tid = r->o->keep_tid ? st->tid : -1;
	if (!task.comm)
		return -ENOMEM;
	/* added a few stacks later (settled before the graphs are read: pipeline.c) */
	if (r->detached)
		return callgraph_add_ids_soon(cg, &task, r->ids[0], r->ids + 1, n - 1, st->period,
					      st->samples);
	return callgraph_add_ids_soon(cg, &task, CG_NO_IP, r->ids, n, st->period, st->samples);
}

long resolver_stack_ids(struct resolver *r, struct callgraph *cg, const struct pipe_stack *st,
			const uint64_t *chain)
{
	return stack_ids(r, cg, st, chain);
}

int resolver_frame_id(struct resolver *r, struct callgraph *cg, uint32_t event, int32_t pid,
		      uint64_t addr, uint32_t *id)
{
	return resolve(r, cg, event, pid, addr, PERF_RECORD_MISC_USER, id);
}

/*
 * Symbolize one distinct raw stack and add it (with all its samples) to its graph. The frames go
 * straight in as ids: a table of symbolized stacks in between (summing raw stacks that
 * symbolize alike) saved fewer instructions than its copy of every stack cost in memory and
 * page faults.
 */
int resolver_add_stack(struct resolver *r, const struct pipe_stack *st, const uint64_t *chain)
{
	struct callgraph *cg = resolver_graph(r, st);
	long n;

	if (!cg)
		return st->event >= r->nr_attrs ? -EINVAL : -ENOMEM;
	n = stack_ids(r, cg, st, chain);
	if (n < 0)
		return (int)n;
	return resolver_add_ids(r, cg, st, (size_t)n);
}

/*
 * A process's executable mapping; the kernel's (pid -1) are the kernel side's. In a DWARF
 * recording every mapping goes to the unwinder too, as perf's map list has it.
 */
static void add_map(struct resolver *r, const struct pipe_record *rec, const char *body)
{
	struct pipe_map m;

	if (r->perf_maps && pipe_any_map(rec, body, &m) && m.pid != -1)
		sym_session_add_perf_map(r->sym, m.pid, m.start, m.len, m.pgoff, m.filename);
	if (!pipe_exec_map(rec, body, &m) || m.pid == -1)
		return;
	/* an MMAP2's build-id (perf record --buildid-mmap) is checked as a BUILD_ID entry's */
	if (m.build_id_len)
		sym_session_set_build_id(r->sym, m.filename, m.build_id, m.build_id_len);
	sym_session_add_map(r->sym, m.pid, m.start, m.len, m.pgoff, m.filename);
}

int resolver_apply_map_record(struct resolver *r, const struct pipe_record *rec,
			      const char *body)
{
	int32_t ids[3];	/* pid, tid / pid, ppid, tid */

	if (rec->body_len >= sizeof(ids)) {
		memcpy(ids, body, sizeof(ids));
		if ((rec->rec_type != PERF_RECORD_COMM &&
		     (rec->rec_type != PERF_RECORD_FORK || ids[0] != ids[1])) &&
		    frame_cache_invalidate(&r->frames_seen, ids[0]))
			return -ENOMEM;
	}
	switch (rec->rec_type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		add_map(r, rec, body);
		return 0;
	case PERF_RECORD_FORK:
		memcpy(ids, body, 8);
		if (ids[0] != ids[1])
			sym_session_fork(r->sym, ids[1], ids[0]);
		return 0;
	case PERF_RECORD_COMM:
		/*
		 * perf flushes its unwinder's cache at an exec; not restated: it does not when the
		 * exec's COMM is the first name the thread gets (no COMM or FORK of it before)
		 */
		if (r->perf_maps && (rec->misc & PERF_RECORD_MISC_COMM_EXEC)) {
			memcpy(ids, body, sizeof(ids[0]));
			(void)sym_session_perf_exec(r->sym, ids[0]);
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * A record, after the stacks sampled before it: what it does to address spaces (unless done
 * ahead, r->prenamed), then to thread names. An MMAP, or a FORK that makes a process, gives an
 * address space (pid -1: the kernel's) a new generation in the frame cache.
 */
int resolver_apply_record(struct resolver *r, const struct pipe_record *rec, const char *body)
{
	int32_t f[4];	/* COMM: pid, tid; FORK: pid, ppid, tid, ptid */
	int ret = r->prenamed ? 0 : resolver_apply_map_record(r, rec, body);

	if (ret)
		return ret;
	switch (rec->rec_type) {
	case PERF_RECORD_COMM:
		r->comms_gen++;	/* a thread's name may change */
		memcpy(f, body, 8);
		return comm_table_set(&r->comms, f[1], body + 8) ? -ENOMEM : 0;
	case PERF_RECORD_FORK:
		r->comms_gen++;
		memcpy(f, body, sizeof(f));
		return comm_table_fork(&r->comms, f[3], f[2]) ? -ENOMEM : 0;
	default:
		return 0;
	}
}

/*
 * The files of the recording's BUILD_ID table, to the prefetch thread before any record is read.
 * perf record lists the files its samples hit, in the order it met them: loading them from the
 * start keeps the loader busy while the reading is, instead of a large library (libLLVM, 43K
 * symbols) mapped late in a build's recording being loaded at the end while everyone waits for
 * it. What is named does not change: a file loads the same whoever loads it, whenever.
 */
static void announce_recorded_files(struct resolver *r)
{
	for (size_t i = 0; i < r->nr_build_ids; i++) {
		const struct pd_build_id *b = &r->build_ids[i];

		if (!b->kernel && b->filename[0] == '/')
			(void)sym_session_announce(r->sym, b->filename);
	}
}

int resolver_open_session(struct resolver *r)
{
	struct sym_opts so = r->sym_opts;

	/* the kernel side names kernel frames, with its own session */
	so.no_kernel = true;
	r->sym = sym_session_new(&so);
	if (!r->sym)
		return -ENOMEM;
	/* user files and the vdso; the kernel's build-id is the kernel side's */
	if (user_build_ids(r->sym, r->build_ids, r->nr_build_ids))
		return -ENOMEM;
	/*
	 * Files load in a thread of their own: announced by the reading side as soon as it reads
	 * their MMAP, else queued when mapped here (else loaded on first use).
	 */
	(void)sym_session_prefetch(r->sym);
	announce_recorded_files(r);
	return resolver_start_adds(r);
}

int resolver_start(void *arg)
{
	struct resolver *r = arg;

	if (frame_cache_init(&r->frames_seen))
		return err_set(r->err, sizeof(r->err), -ENOMEM, "out of memory");
	return 0;
}

int resolver_ids_reserve(struct resolver *r, size_t n)
{
	uint32_t *v;

	if (n <= r->ids_alloc)
		return 0;
	v = grow_array(r->ids, &r->ids_alloc, n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->ids = v;
	return 0;
}

void resolver_release(struct resolver *r)
{
	(void)resolver_finish(r);
	for (size_t i = 0; r->cgs && i < r->nr_attrs; i++)
		callgraph_free(r->cgs[i]);
	free(r->cgs);
	comm_table_release(&r->comms);
	frame_cache_release(&r->frames_seen);
	nframe_table_release(&r->names);
	sym_session_free(r->sym);
	free(r->ids);
	for (size_t i = 0; i < r->nr_backlog; i++)
		pipe_batch_release(&r->backlog[i]);
	free(r->backlog);
	inl_maps_release(&r->inl_maps);
	memset(r, 0, sizeof(*r));
}
