// SPDX-License-Identifier: GPL-2.0
/*
 * calltree-json.c - the call tree of `kprof report --format json`: the Children/Self rows of
 * the table (hist.c, the same entries and weights), and the stacks merged from the outermost
 * caller into a tree whose nodes are those entries, each with its inclusive ("children") and
 * self weight on that path. docs/formats.md has the schema.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "output/output-int.h"

struct tree_node {
	uint32_t	entry;		/* hist entry */
	uint32_t	parent;		/* node id; IDTAB_NONE for the outermost callers */
	uint32_t	first_child, next_sibling;	/* IDTAB_NONE: none */
	uint64_t	total, self;
};

struct tree {
	struct tree_node	*nodes;
	size_t			nr, alloc;
	struct idtab		tab;		/* (parent, entry) -> node */
	uint32_t		first_root;
	uint64_t		total;
};

struct node_key {
	uint32_t	parent, entry;
};

static uint64_t node_hash(uint32_t parent, uint32_t entry)
{
	return hash_combine(hash_u64(parent), entry);
}

static bool node_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct tree_node *n = &((const struct tree *)ctx)->nodes[id];
	const struct node_key *k = key;

	return n->parent == k->parent && n->entry == k->entry;
}

static uint32_t node_get(struct tree *t, uint32_t parent, uint32_t entry)
{
	struct node_key k = { parent, entry };
	uint64_t h = node_hash(parent, entry);
	uint32_t id = idtab_find(&t->tab, h, node_eq, &k, t);
	struct tree_node n = {
		.entry = entry, .parent = parent, .first_child = IDTAB_NONE,
		.next_sibling = parent == IDTAB_NONE ? t->first_root :
			       t->nodes[parent].first_child,
	};

	if (id != IDTAB_NONE)
		return id;
	id = idtab_append(&t->tab, h, (void **)&t->nodes, &t->nr, &t->alloc, &n, sizeof(n));
	if (id == IDTAB_NONE)
		return id;
	if (parent == IDTAB_NONE)
		t->first_root = id;
	else
		t->nodes[parent].first_child = id;
	return id;
}

/*
 * A kept chain (entries leaf first): walk it from the outermost caller down. A detached ip
 * (chain[0], the Self entry of a sample whose ip is not its chain's first entry: skid, LBR)
 * hangs below the chain's leaf, so its node keeps the sample's Self as the table does.
 */
static int add_chain(const uint32_t *chain, const bool *first, size_t n, bool detached,
		     uint64_t weight, void *arg)
{
	struct tree *t = arg;
	uint32_t node = IDTAB_NONE;

	(void)first;	/* the entry's first-in-sample flag: the tree counts every path */
	(void)detached;	/* the detached ip is chain[0]: below the leaf like any entry */

	for (size_t i = n; i-- > 0;) {
		node = node_get(t, node, chain[i]);
		if (node == IDTAB_NONE)
			return -ENOMEM;
		t->nodes[node].total += weight;
	}
	if (node != IDTAB_NONE)
		t->nodes[node].self += weight;
	t->total += weight;
	return 0;
}

static void write_pct(FILE *fp, const char *key, uint64_t part, uint64_t total)
{
	uint64_t h = percent_hundredths(part, total);

	fprintf(fp, "\"%s\": %" PRIu64 ".%02" PRIu64, key, h / 100, h % 100);
}

static void write_entry(FILE *fp, const struct hist_entry *e)
{
	fputs("\"symbol\": ", fp);
	json_write_string(fp, e->sym ? e->sym : "[unknown]");
	fputs(", \"dso\": ", fp);
	json_write_string(fp, e->dso);
	fprintf(fp, ", \"kernel\": %s", e->kernel ? "true" : "false");
}

/* Heaviest first, as the table; ties by entry order so the output is deterministic. */
static int cmp_nodes(const void *a, const void *b, void *ctx)
{
	const struct tree_node *x = &((const struct tree *)ctx)->nodes[*(const uint32_t *)a];
	const struct tree_node *y = &((const struct tree *)ctx)->nodes[*(const uint32_t *)b];

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static int write_nodes(FILE *fp, const struct tree *t, const struct hist *h, uint32_t first,
		       int depth)
{
	size_t nr = 0, i = 0;
	uint32_t *ids;

	for (uint32_t n = first; n != IDTAB_NONE; n = t->nodes[n].next_sibling)
		nr++;
	if (!nr) {
		fputs("[]", fp);
		return 0;
	}
	ids = malloc(nr * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (uint32_t n = first; n != IDTAB_NONE; n = t->nodes[n].next_sibling)
		ids[i++] = n;
	qsort_r(ids, nr, sizeof(*ids), cmp_nodes, (void *)t);
	fputs("[", fp);
	for (i = 0; i < nr; i++) {
		const struct tree_node *n = &t->nodes[ids[i]];
		int err;

		fprintf(fp, "%s\n%*s{", i ? "," : "", 2 * depth, "");
		write_entry(fp, &h->entries[n->entry]);
		fputs(", ", fp);
		write_pct(fp, "children", n->total, h->total);
		fputs(", ", fp);
		write_pct(fp, "self", n->self, h->total);
		fprintf(fp, ", \"period\": %" PRIu64 ", \"self_period\": %" PRIu64 ", \"callees\": ",
			n->total, n->self);
		err = write_nodes(fp, t, h, n->first_child, depth + 1);
		if (err) {
			free(ids);
			return err;
		}
		fputs("}", fp);
	}
	fputs("]", fp);
	free(ids);
	return 0;
}

static int write_rows(FILE *fp, const struct hist *h)
{
	const struct hist_entry **rows = malloc((h->nr + 1) * sizeof(*rows));
	size_t nr = 0;

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < h->nr; i++)
		if (h->entries[i].children)
			rows[nr++] = &h->entries[i];
	qsort(rows, nr, sizeof(*rows), hist_entry_cmp);	/* the table's order */
	fputs("[", fp);
	for (size_t i = 0; i < nr; i++) {
		fprintf(fp, "%s\n      {", i ? "," : "");
		write_entry(fp, rows[i]);
		fputs(", ", fp);
		write_pct(fp, "children", rows[i]->children, h->total);
		fputs(", ", fp);
		write_pct(fp, "self", rows[i]->self, h->total);
		fprintf(fp, ", \"period\": %" PRIu64 ", \"self_period\": %" PRIu64 "}",
			rows[i]->children, rows[i]->self);
	}
	fputs("]", fp);
	free(rows);
	return 0;
}

int calltree_write_json(FILE *fp, const char *event, const struct callgraph *cg,
			const struct table_opts *o)
{
	struct tree t = { .first_root = IDTAB_NONE };
	struct hist h = { 0 };
	int err;

	if (!fp || !cg || !o)
		return -EINVAL;
	err = hist_build(&h, cg, o->weight_samples, o->show_unresolved, add_chain, &t);
	if (!err) {
		fputs("{\"event\": ", fp);
		json_write_string(fp, event ? event : "");
		fprintf(fp, ", \"weight\": \"%s\", \"samples\": %" PRIu64 ", \"total\": %" PRIu64
			",\n    \"symbols\": ", o->weight_samples ? "samples" : "period",
			h.nr_samples, h.total);
		err = write_rows(fp, &h);
	}
	if (!err) {
		fputs(",\n    \"tree\": ", fp);
		err = write_nodes(fp, &t, &h, t.first_root, 3);
		fputs("}", fp);
	}
	if (!err && ferror(fp))
		err = -EIO;
	free(t.nodes);
	idtab_release(&t.tab);
	hist_release(&h);
	return err;
}
