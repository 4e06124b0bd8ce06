// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - perf report's Children/Self histogram over the call graph's distinct stacks.
 *
 * Semantics (perf 6.1, util/hist.c and builtin-report.c with -U):
 *  - entries are (dso, symbol) pairs, symbols told apart by start address;
 *  - Self: the weight of samples whose leaf is the entry (the ip's frame of a detached stack,
 *    see callgraph_add_ids_ip(): perf's Self is the ip's symbol, not the chain's first);
 *  - Children: the weight of samples whose chain holds the entry anywhere, once per sample even
 *    under recursion (perf's he_cache check);
 *  - -U: a sample whose leaf is unresolved is dropped before anything counts it, unresolved
 *    frames inside a chain are skipped, and the chain closes up around them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

static uint64_t entry_hash(const struct hist_entry *e)
{
	uint64_t h = hash_ptr(e->sym);

	h = hash_combine(h, (uintptr_t)e->dso);
	return hash_combine(h, e->sym_start);
}

static bool entry_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct hist *h = ctx;
	const struct hist_entry *a = &h->entries[id], *b = key;

	return a->sym == b->sym && a->dso == b->dso && a->sym_start == b->sym_start;
}

/* The entry of frame @f (added if new), IDTAB_NONE when the frame is dropped or on ENOMEM. */
static uint32_t entry_of(struct hist *h, const struct cg_frame *f, bool keep_unresolved,
			 int *err)
{
	struct hist_entry key = {
		.sym = f->sym, .dso = f->dso, .sym_start = f->sym ? f->sym_start : 0,
		.kernel = f->flags & CG_FRAME_KERNEL, .inlined = f->flags & CG_FRAME_INLINED,
	};
	uint64_t hash;
	uint32_t id;

	if (!f->sym && !keep_unresolved)
		return IDTAB_NONE;
	hash = entry_hash(&key);
	id = idtab_find(&h->tab, hash, entry_eq, &key, h);
	if (id != IDTAB_NONE)
		return id;
	id = idtab_append(&h->tab, hash, (void **)&h->entries, &h->nr, &h->alloc, &key,
			  sizeof(key));
	if (id == IDTAB_NONE)
		*err = -ENOMEM;
	return id;
}

/*
 * Each kept stack's chain of entries to @fn; with @count, the stack counted into the entries'
 * Children and Self and the totals too.
 */
static int walk(struct hist *h, const struct callgraph *cg, bool weight_samples, bool count,
		hist_chain_fn fn, void *arg)
{
	size_t nr_stacks = cg_nr_stack_recs(cg), i, j, n, max_nr = 0;
	uint32_t *chain = NULL;
	size_t *stamp = NULL;
	bool *first = NULL;
	int err = 0;

	for (i = 0; i < nr_stacks; i++) {
		if (cg_stack_rec_at(cg, i)->nr > max_nr)
			max_nr = cg_stack_rec_at(cg, i)->nr;
	}
	chain = malloc((max_nr + 1) * sizeof(*chain));
	first = malloc((max_nr + 1) * sizeof(*first));
	stamp = malloc((h->nr + 1) * sizeof(*stamp));	/* last stack that counted the entry */
	if (!chain || !first || !stamp) {
		err = -ENOMEM;
		goto out;
	}
	memset(stamp, 0xff, (h->nr + 1) * sizeof(*stamp));

	for (i = 0; i < nr_stacks && !err; i++) {
		const struct cg_stack_rec *r = cg_stack_rec_at(cg, i);
		uint64_t w = weight_samples ? r->samples : r->period;

		if (!r->nr || h->entry_of_frame[r->ids[0]] == IDTAB_NONE)
			continue;	/* -U: the sample's own IP has no symbol */
		for (j = 0, n = 0; j < r->nr; j++) {
			uint32_t e = h->entry_of_frame[r->ids[j]];

			if (e == IDTAB_NONE)
				continue;
			chain[n] = e;
			first[n] = stamp[e] != i;
			if (first[n]) {
				stamp[e] = i;
				if (count)
					h->entries[e].children += w;
			}
			n++;
		}
		if (count) {
			h->entries[chain[0]].self += w;
			h->total += w;
			h->nr_samples += r->samples;
		}
		if (fn)
			err = fn(chain, first, n, r->detached, w, arg);
	}
out:
	free(chain);
	free(first);
	free(stamp);
	return err;
}

int hist_build(struct hist *h, const struct callgraph *cg, bool weight_samples,
	       bool keep_unresolved, hist_chain_fn fn, void *arg)
{
	size_t nr_frames = cg_nr_frames(cg), i;
	int err = 0;

	h->entry_of_frame = malloc((nr_frames + 1) * sizeof(*h->entry_of_frame));
	if (!h->entry_of_frame)
		return -ENOMEM;
	for (i = 0; i < nr_frames && !err; i++)
		h->entry_of_frame[i] = entry_of(h, cg_frame_at(cg, i), keep_unresolved, &err);
	if (err)
		return err;
	return walk(h, cg, weight_samples, true, fn, arg);
}

int hist_walk(struct hist *h, const struct callgraph *cg, bool weight_samples, hist_chain_fn fn,
	      void *arg)
{
	return walk(h, cg, weight_samples, false, fn, arg);
}

void hist_release(struct hist *h)
{
	free(h->entries);
	idtab_release(&h->tab);
	free(h->entry_of_frame);
	memset(h, 0, sizeof(*h));
}
