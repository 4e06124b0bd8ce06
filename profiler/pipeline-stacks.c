// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-stacks.c - distinct symbolized stacks summed before the call graph (see
 * pipeline-local.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/perf-read-local.h"
#include "profiler/pipeline-local.h"

#define STACK_MAX_ENTRIES	(1u << 18)

static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static uint64_t stack_hash(uint32_t event, const struct cg_task *task, const struct cg_frame *f,
			   size_t n)
{
	uint64_t h = mix((uintptr_t)task->comm, (uint64_t)event << 32 | n);

	h = mix(h, (uint64_t)(uint32_t)task->pid << 32 | (uint32_t)task->tid);
	for (size_t i = 0; i < n; i++) {
		h = mix(h, (uintptr_t)f[i].sym ^ ((uint64_t)f[i].flags << 60));
		h = mix(h, (uintptr_t)f[i].dso ^ f[i].addr ^ f[i].sym_start);
	}
	return h;
}

static bool same_frames(const struct cg_frame *a, const struct cg_frame *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i].sym != b[i].sym || a[i].dso != b[i].dso || a[i].addr != b[i].addr ||
		    a[i].flags != b[i].flags || a[i].sym_start != b[i].sym_start)
			return false;
	return true;
}

static uint64_t entry_hash(const void *tab, size_t i)
{
	return ((const struct symstack_table *)tab)->entries[i].hash;
}

int symstack_add(struct symstack_table *t, uint32_t event, const struct cg_task *task,
	      const struct cg_frame *f, size_t n, uint64_t period, uint64_t samples)
{
	uint64_t h = stack_hash(event, task, f, n);
	struct symstack_entry *e;
	struct cg_frame *frames;
	size_t i;

	if ((t->nr + 1) * 2 > t->alloc && index_grow(&t->index, &t->alloc, t->nr, entry_hash, t))
		return -ENOMEM;
	for (i = h & (t->alloc - 1); t->index[i]; i = (i + 1) & (t->alloc - 1)) {
		e = &t->entries[t->index[i] - 1];
		if (e->hash == h && e->event == event && e->nr == n && e->comm == task->comm &&
		    e->pid == task->pid && e->tid == task->tid &&
		    same_frames(t->frames + e->at, f, n)) {
			e->period += period;
			e->samples += samples;
			return 0;
		}
	}
	e = perf_grow_array(t->entries, &t->entries_alloc, t->nr + 1, sizeof(*e));
	if (e)
		t->entries = e;
	frames = perf_grow_array(t->frames, &t->frames_alloc, t->nr_frames + n, sizeof(*frames));
	if (frames)
		t->frames = frames;
	if (!e || !frames)
		return -ENOMEM;
	memcpy(t->frames + t->nr_frames, f, n * sizeof(*f));
	t->entries[t->nr] = (struct symstack_entry){
		.hash = h, .period = period, .samples = samples, .comm = task->comm,
		.pid = task->pid, .tid = task->tid, .event = event, .nr = (uint32_t)n,
		.at = t->nr_frames,
	};
	t->nr_frames += n;
	t->index[i] = (uint32_t)++t->nr;
	return 0;
}

bool symstack_full(const struct symstack_table *t)
{
	return t->nr >= STACK_MAX_ENTRIES;
}

int symstack_flush(struct symstack_table *t, symstack_fn fn, void *arg)
{
	int ret = 0;

	for (size_t i = 0; i < t->nr && !ret; i++) {
		const struct symstack_entry *e = &t->entries[i];
		struct cg_task task = { e->comm, e->pid, e->tid };

		ret = fn(e->event, &task, t->frames + e->at, e->nr, e->period, e->samples, arg);
	}
	if (t->alloc)
		memset(t->index, 0, t->alloc * sizeof(*t->index));
	t->nr = 0;
	t->nr_frames = 0;
	return ret;
}

void symstack_release(struct symstack_table *t)
{
	free(t->index);
	free(t->entries);
	free(t->frames);
	memset(t, 0, sizeof(*t));
}
