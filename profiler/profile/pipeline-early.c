// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-early.c - the resolving side of profile_load() does not wait for the kernel's
 * symbols (see pipeline-int.h).
 *
 * Reading /proc/kallsyms takes the kernel ~50 ms, and on a recording of many short processes
 * the first batches are full long before. Naming a batch's user frames needs only the address
 * spaces, which the batch's own records give in order; so each batch's user frames are named as
 * soon as it arrives (resolver_prename(): every user address becomes a pointer to its struct
 * nframe, the records' effects on address spaces applied where they stand), and the batch waits
 * here, in order, until the kernel's symbols are there. Then its kernel frames are named and its
 * stacks added to the call graphs, with the records' effects on thread names, in order. The
 * result is that of resolving every stack in order: user names depend on address spaces only,
 * kernel names on the kernel's maps only, the call graphs see the stacks in the same order.
 *
 * A DWARF recording is not named ahead: unwinding a stack needs the address space as it was
 * at the stack (pipeline-unwind.c), so each batch is resolved whole once the symbols are there.
 */
#include <errno.h>
#include <string.h>

#include "profiler/lib/lib.h"
#include "profiler/profile/pipeline-int.h"

/* The user frames of one stack, in the order stack_ids() resolves them. */
static int prename_stack(void *arg, struct pipe_stack *st, uint64_t *chain)
{
	struct resolver *r = arg;
	unsigned int cpumode = PERF_RECORD_MISC_USER;
	uint64_t first_ip = 0;
	bool discarded = false;
	struct nframe *f;
	size_t n = 0;

	if (st->type != PIPE_STACK)
		return -EPROTO;	/* only DWARF recordings have them, and are not named ahead */
	r->gen = frame_cache_gen(&r->frames_seen, st->pid);
	r->kgen = frame_cache_gen(&r->frames_seen, -1);
	/*
	 * Independent lookups: start loading their slots together (mostly loaded already, while
	 * the stack before was named: prename_ahead; not for a batch's first stack).
	 */
	for (uint32_t i = 0; i < st->nr; i++) {
		if (chain[i] >= (uint64_t)PERF_CONTEXT_MAX)
			cpumode = pipe_context_cpumode(chain[i]);
		else if (cpumode == PERF_RECORD_MISC_USER)
			__builtin_prefetch(frame_cache_slot(&r->frames_seen, st->pid, chain[i]));
	}
	cpumode = PERF_RECORD_MISC_USER;
	for (uint32_t i = 0; i < st->nr; i++) {
		if (chain[i] >= (uint64_t)PERF_CONTEXT_MAX) {
			cpumode = pipe_context_cpumode(chain[i]);
			if (!cpumode) {
				discarded = true;	/* the rest is never resolved */
				break;
			}
			continue;
		}
		if (!n++)
			first_ip = chain[i];
		if (cpumode != PERF_RECORD_MISC_USER)
			continue;
		f = resolver_user_nframe(r, st->pid, chain[i]);
		if (!f)
			return -ENOMEM;
		chain[i] = (uint64_t)(uintptr_t)f;
	}
	/* compared as the kernel side does (pipeline-kernel.c name_stack) */
	st->ip_first = !discarded && n && first_ip == st->ip;
	/* stack_ids() resolves the ip on its own unless the chain starts with it */
	if (st->misc == PERF_RECORD_MISC_USER && !st->ip_first) {
		f = resolver_user_nframe(r, st->pid, st->ip);
		if (!f)
			return -ENOMEM;
		st->ip = (uint64_t)(uintptr_t)f;
	}
	return 0;
}

static int prename_record(void *r, const struct pipe_record *rec, const char *body)
{
	return resolver_apply_map_record(r, rec, body);
}

/*
 * The frame cache slots of the next stack's user frames, loading while this one is named: the
 * prefetches of a stack's own slots just before it is named left its first lookup waiting for
 * memory (68% of resolver_user_nframe's samples on make -B, 8% of all): with these as well,
 * the naming functions' samples went down by 8%.
 */
static void prename_ahead(void *arg, const struct pipe_stack *st, const uint64_t *chain)
{
	struct resolver *r = arg;
	unsigned int cpumode = PERF_RECORD_MISC_USER;

	for (uint32_t i = 0; i < st->nr; i++) {
		if (chain[i] >= (uint64_t)PERF_CONTEXT_MAX)
			cpumode = pipe_context_cpumode(chain[i]);
		else if (cpumode == PERF_RECORD_MISC_USER)
			__builtin_prefetch(frame_cache_slot(&r->frames_seen, st->pid, chain[i]));
	}
}

int resolver_prename(struct resolver *r, uint64_t *w, size_t nr)
{
	return pipe_batch_walk_ahead(w, nr, prename_stack, prename_record, prename_ahead, r);
}

/*
 * A stack of a batch whose user frames are named (or, not named ahead, none): its kernel frames,
 * then into its graph. One walk of the batch for both: its words are still in the cache.
 */
static int add_stack(void *arg, struct pipe_stack *st, uint64_t *chain)
{
	struct resolver *r = arg;
	int ret = kernel_side_name_stack(r->kernel, st, chain);

	if (ret)
		return ret;
	if (st->type == PIPE_UNWIND)
		return resolver_unwind(r, st, chain);
	return resolver_add_stack(r, st, chain);
}

static int add_record(void *arg, const struct pipe_record *rec, const char *body)
{
	struct resolver *r = arg;
	int ret = kernel_side_map(r->kernel, rec, body);

	return ret ? ret : resolver_apply_record(r, rec, body);
}

static int add_batch(struct resolver *r, uint64_t *w, size_t nr)
{
	int ret;

	r->kernel->keep_ip_first = r->prename;
	r->prenamed = r->prename;
	ret = pipe_batch_walk(w, nr, add_stack, add_record, r);
	r->prenamed = false;
	return ret;
}

/* Wait for the kernel's symbols, then add the batches kept, in order. */
static int add_backlog(struct resolver *r)
{
	int ret;

	if (!r->nr_backlog)
		return 0;
	ret = kernel_side_ready(r->kernel, true);
	if (ret < 0)
		return ret;	/* the reading side says why (kernel_side_wait) */
	ret = 0;
	for (size_t i = 0; i < r->nr_backlog; i++) {
		if (!ret)
			ret = add_batch(r, r->backlog[i].w, r->backlog[i].nr);
		/* back to the reading side through the naming thread: not faulted in again */
		pipe_queue_recycle(&r->adds, &r->backlog[i]);
	}
	r->nr_backlog = 0;
	return ret;
}

/* The adding thread's consume function (its queue's, after the naming thread). */
static int add_consume(void *arg, struct pipe_batch *b)
{
	struct resolver *r = arg;
	int ret = kernel_side_ready(r->kernel, false);
	struct pipe_batch *kept;

	if (ret < 0) {
		/* the reading side says why (kernel_side_wait) */
	} else if (!ret && r->nr_backlog < EARLY_MAX_BACKLOG) {
		kept = grow_array(r->backlog, &r->alloc_backlog, r->nr_backlog + 1, sizeof(*kept));
		if (!kept)
			ret = -ENOMEM;
		else {
			r->backlog = kept;
			r->backlog[r->nr_backlog++] = *b;
			memset(b, 0, sizeof(*b));
			ret = 0;
		}
	} else {
		ret = add_backlog(r);
		if (!ret)
			ret = add_batch(r, b->w, b->nr);
	}
	if (ret && !r->err[0])
		err_set(r->err, sizeof(r->err), ret, "%s", strerror(-ret));
	return ret;
}

/* The adding thread's drain function: the batches still kept, once the symbols are there. */
static int add_drain(void *arg)
{
	struct resolver *r = arg;
	int ret = add_backlog(r);

	if (ret && !r->err[0])
		err_set(r->err, sizeof(r->err), ret, "%s", strerror(-ret));
	return ret;
}

static int add_start(void *arg)
{
	(void)arg;
	return 0;
}

int resolver_start_adds(struct resolver *r)
{
	int ret = pipe_queue_init(&r->adds, "kprof-add", add_start, add_consume, add_drain, r);

	r->adds_started = !ret;
	return ret;
}

int resolver_consume(void *arg, struct pipe_batch *b)
{
	struct resolver *r = arg;
	int ret = r->prename ? resolver_prename(r, b->w, b->nr) : 0;

	if (ret) {
		err_set(r->err_early, sizeof(r->err_early), ret, "%s", strerror(-ret));
		return ret;
	}
	/* an error of the adding thread: its own r->err says what */
	return pipe_queue_push(&r->adds, b, 1);
}

int resolver_finish(struct resolver *r)
{
	if (!r->adds_started)
		return 0;
	r->adds_started = false;
	return pipe_queue_finish(&r->adds);
}
