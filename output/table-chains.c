// SPDX-License-Identifier: GPL-2.0
/*
 * table-chains.c - `kprof report -g caller|callee`: under each row of the Children/Self table,
 * the call chains through that entry, heaviest first, as perf report prints them with -g.
 *
 *  - callee order: from the entry up through its callers to the root ("who calls it");
 *  - caller order: from the entry down through its callees to the sampled leaf ("what it
 *    calls"), perf's default for --children.
 *
 * Each sample's chain (hist_build()'s entries, leaf first) gives every entry it holds one path,
 * starting at the entry's first (leaf-most) occurrence; paths are cut at MAX_PATH entries. Equal
 * paths of one entry are merged; each is shown with its share of all samples when it reaches
 * the threshold (perf's -g default 0.5%), at most MAX_SHOWN per row.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

#define MAX_PATH	32
#define MAX_SHOWN	10

struct path {
	uint32_t	*ids;		/* ids[0] is the entry; owned */
	uint32_t	len;
	uint64_t	weight;
};

struct table_chains {
	enum table_callchain	order;
	struct path		*paths;
	size_t			nr, alloc;
	struct idtab		tab;
	size_t			*first;		/* per entry: its paths start here (sorted) */
	size_t			nr_entries;
};

static uint64_t path_hash(const uint32_t *ids, uint32_t len)
{
	uint64_t h = len;

	for (uint32_t i = 0; i < len; i++)
		h = hash_combine(h, ids[i]);
	return h;
}

struct path_key {
	const uint32_t	*ids;
	uint32_t	len;
};

static bool path_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct table_chains *tc = ctx;
	const struct path_key *k = key;
	const struct path *p = &tc->paths[id];

	return p->len == k->len && !memcmp(p->ids, k->ids, k->len * sizeof(*k->ids));
}

static int add_path(struct table_chains *tc, const uint32_t *ids, uint32_t len, uint64_t w)
{
	struct path_key key = { ids, len };
	uint64_t hash = path_hash(ids, len);
	uint32_t id = idtab_find(&tc->tab, hash, path_eq, &key, tc);
	struct path p = { NULL, len, 0 };

	if (id == IDTAB_NONE) {
		p.ids = malloc(len * sizeof(*p.ids));
		if (!p.ids)
			return -ENOMEM;
		memcpy(p.ids, ids, len * sizeof(*ids));
		id = idtab_append(&tc->tab, hash, (void **)&tc->paths, &tc->nr, &tc->alloc, &p,
				  sizeof(p));
		if (id == IDTAB_NONE) {
			free(p.ids);
			return -ENOMEM;
		}
	}
	tc->paths[id].weight += w;
	return 0;
}

/*
 * A hist_chain_fn: one path per entry of the chain, from its first occurrence. A detached ip
 * (skid, LBR: chain[0] is not called by chain[1]) is no callee of the chain: caller paths stop
 * above it, and its own caller path is itself alone.
 */
int table_chains_add(const uint32_t *chain, const bool *first, size_t n, bool detached,
		     uint64_t w, void *arg)
{
	struct table_chains *tc = arg;
	uint32_t buf[MAX_PATH];
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		uint32_t len = 0;

		if (!first[i])
			continue;
		if (tc->order == TABLE_CHAIN_CALLEE)	/* up: i, i+1, ... (callers) */
			for (size_t j = i; j < n && len < MAX_PATH; j++)
				buf[len++] = chain[j];
		else if (detached && i == 0)
			buf[len++] = chain[0];
		else					/* down: i, i-1, ... 0 (callees) */
			for (size_t j = i + 1; j-- > (detached ? 1 : 0) && len < MAX_PATH; )
				buf[len++] = chain[j];
		err = add_path(tc, buf, len, w);
	}
	return err;
}

struct table_chains *table_chains_new(enum table_callchain order)
{
	struct table_chains *tc = calloc(1, sizeof(*tc));

	if (tc)
		tc->order = order;
	return tc;
}

static int path_cmp(const void *a, const void *b)
{
	const struct path *x = a, *y = b;

	if (x->ids[0] != y->ids[0])
		return x->ids[0] < y->ids[0] ? -1 : 1;
	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->ids, y->ids, x->len * sizeof(*x->ids));
}

/* After the last add: paths grouped by entry, heaviest first; the hash index is not needed. */
int table_chains_finish(struct table_chains *tc, size_t nr_entries)
{
	idtab_release(&tc->tab);
	qsort(tc->paths, tc->nr, sizeof(*tc->paths), path_cmp);
	tc->first = malloc((nr_entries + 1) * sizeof(*tc->first));
	if (!tc->first)
		return -ENOMEM;
	tc->nr_entries = nr_entries;
	for (size_t e = 0, p = 0; e <= nr_entries; e++) {
		while (p < tc->nr && tc->paths[p].ids[0] < e)
			p++;
		tc->first[e] = p;
	}
	return 0;
}

static const char *name_of(const struct hist_entry *e)
{
	return e->sym ? e->sym : "[unknown]";
}

void table_chains_write(FILE *fp, const struct table_chains *tc, const struct hist *h,
			size_t entry, double min_percent)
{
	size_t shown = 0, end = tc->first[entry + 1];
	const char *sep = tc->order == TABLE_CHAIN_CALLEE ? " <- " : " -> ";

	for (size_t p = tc->first[entry]; p < end && shown < MAX_SHOWN; p++) {
		const struct path *path = &tc->paths[p];
		double pct = h->total ? 100.0 * path->weight / h->total : 0;

		if (pct < min_percent)
			break;	/* heaviest first: the rest are lighter */
		fprintf(fp, "%s            --%.2f%%--", shown ? "" : "            |\n", pct);
		for (uint32_t i = 0; i < path->len; i++)
			fprintf(fp, "%s%s", i ? sep : "", name_of(&h->entries[path->ids[i]]));
		putc('\n', fp);
		shown++;
	}
	if (shown)
		putc('\n', fp);
}

void table_chains_free(struct table_chains *tc)
{
	if (!tc)
		return;
	for (size_t i = 0; i < tc->nr; i++)
		free(tc->paths[i].ids);
	free(tc->paths);
	free(tc->first);
	idtab_release(&tc->tab);
	free(tc);
}
