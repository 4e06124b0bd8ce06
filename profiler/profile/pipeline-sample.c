// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-sample.c - what one PERF_RECORD_SAMPLE contributes, as perf 6.1 delivers it:
 *
 *  - PERF_SAMPLE_READ (perf's evlist__deliver_sample, util/session.c): a sample that reads its
 *    counters is delivered once per counter read (every group member with PERF_FORMAT_GROUP,
 *    leader sampling `{a,b}:S`), each to the event that owns the counter's id, with the period
 *    counted since the previous sample that read that counter; a counter of no known id is an
 *    unknown-id sample, a period of 0 delivers nothing.
 *  - LBR call stacks (PERF_SAMPLE_BRANCH_STACK with PERF_SAMPLE_BRANCH_CALL_STACK,
 *    `perf record --call-graph lbr`; util/machine.c resolve_lbr_callchain_sample, callee
 *    order, no --stitch-lbr): the chain up to and including its PERF_CONTEXT_USER marker, then
 *    the first branch's target and every branch's source, in place of the user chain the
 *    kernel recorded. A chain without a PERF_CONTEXT_USER marker in its first 127 entries is
 *    used as it is. perf caps neither the kernel part nor the branches at --max-stack (127):
 *    an LBR chain keeps every entry (a real LBR holds at most 32, a kernel chain up to 127),
 *    while a recorded chain keeps its first 127 frames (chain_cut()).
 */
#include <errno.h>
#include <stdlib.h>

#include "profiler/profile/pipeline-int.h"

static int cmp_read_id(const void *a, const void *b)
{
	const struct read_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int read_ids_init(struct read_ids *t, const struct pd_reader *r)
{
	size_t n = 0, nr_attrs = pd_reader_nr_attrs(r);

	for (size_t i = 0; i < nr_attrs; i++)
		n += pd_reader_attr(r, i)->nr_ids;
	t->v = calloc(n ? n : 1, sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	for (size_t i = 0; i < nr_attrs; i++) {
		const struct pd_evattr *ev = pd_reader_attr(r, i);

		for (size_t j = 0; j < ev->nr_ids; j++)
			t->v[t->nr++] = (struct read_id){ .id = ev->ids[j], .attr = (uint32_t)i };
	}
	qsort(t->v, t->nr, sizeof(*t->v), cmp_read_id);
	return 0;
}

void read_ids_release(struct read_ids *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

uint64_t read_ids_period(struct read_ids *t, uint64_t id, uint64_t value, uint32_t *attr)
{
	size_t lo = 0, hi = t->nr;
	uint64_t period;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].id == id) {
			period = value - t->v[mid].last;
			t->v[mid].last = value;
			*attr = t->v[mid].attr;
			return period;
		}
		if (t->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*attr = UINT32_MAX;
	return 0;
}

uint64_t chain_cut(const void *chain, uint64_t nr)
{
	uint64_t frames = 0;

	for (uint64_t i = 0; i < nr; i++)
		if (pd_u64_at(chain, i) < (uint64_t)PERF_CONTEXT_MAX && ++frames == RESOLVE_MAX_STACK)
			return i + 1;
	return nr;
}

bool sample_has_lbr_stack(const struct perf_event_attr *a)
{
	return (a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) &&
	       (a->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       (a->sample_type & PERF_SAMPLE_CALLCHAIN);
}

int sample_lbr_chain(const struct pd_sample *s, uint64_t **buf, size_t *alloc,
		     const void **chain, uint64_t *nr)
{
	uint64_t limit = s->callchain_nr < RESOLVE_MAX_STACK ? s->callchain_nr : RESOLVE_MAX_STACK;
	uint64_t user = limit, n;
	uint64_t *w;

	for (uint64_t i = 0; i < limit; i++) {
		if (pd_u64_at(s->callchain, i) == (uint64_t)PERF_CONTEXT_USER) {
			user = i;
			break;
		}
	}
	*chain = s->callchain;
	*nr = s->callchain_nr;
	if (user == limit)
		return 0;	/* LBR only replaces a user chain */
	n = user + 1 + (s->branch_nr ? 1 + s->branch_nr : 0);
	w = grow_array(*buf, alloc, (size_t)n, sizeof(*w));
	if (!w)
		return -ENOMEM;
	*buf = w;
	memcpy(w, s->callchain, (size_t)(user + 1) * 8);
	if (s->branch_nr) {
		/* branch entries: {from, to, flags} */
		w[user + 1] = pd_u64_at(s->branches, 1);
		for (uint64_t i = 0; i < s->branch_nr; i++)
			w[user + 2 + i] = pd_u64_at(s->branches, i * 3);
	}
	*chain = w;
	*nr = n;
	return 0;
}
