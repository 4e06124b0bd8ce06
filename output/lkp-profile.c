// SPDX-License-Identifier: GPL-2.0
/*
 * lkp-profile.c - LKP's perf-profile.{calltrace,children,self}.<event>.* keys.
 *
 * Two stages are reproduced, each with its own rounding and quirks:
 *
 * perf report --children --header -U -g folded,0.5,callee --sort=dso,symbol
 *   - one entry per (dso, symbol) with Children% and Self% (hist.c);
 *   - under each entry X, one line per distinct full chain from X's leaf-most occurrence up to
 *     the root, value = own hits of that chain * 100.0 / total, printed only if the hits reach
 *     (u64)(total * 0.5 / 100) (util/hist.c output_resort, util/callchain.c __sort_chain_flat);
 *   - every percentage printed with "%.2f".
 *
 * programs/perf-profile/parse (Ruby)
 *   - entry lines: children/self.<ev>.<sym> += the printed value; lines whose symbol or module
 *     holds whitespace do not match its regex and are lost;
 *   - chain lines: first 5 frames joined with '.', += the printed value; a chain holding
 *     whitespace anywhere does not match and is lost;
 *   - .isra.N/.constprop.N/.part.N removed from every name, so such names merge;
 *   - sorted bytewise, printed with "%.2f" when the sum is >= 0.05.
 *
 * Sums are kept in hundredths (the printed values are exact hundredths), so the 0.05 test and
 * the sums are exact; Ruby's floating sums of such values round to the same text.
 *
 * The distinct chains of all entries are the nodes of one trie built root first: the node
 * reached by inserting chain[n-1] ... chain[i] stands for the chain chain[i..n), so a chain's
 * own hits are added at the node of each first occurrence, and its first five frames are the
 * node and its four nearest ancestors.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

/* ---- key text ----------------------------------------------------------------------------- */

/* Length of a match of \.(isra|constprop|part)\.[0-9]+ at @s, or 0. */
static size_t suffix_match(const char *s)
{
	static const char *const names[] = { "isra.", "constprop.", "part." };
	size_t i, n, len;

	if (*s != '.')
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = strlen(names[i]);
		if (strncmp(s + 1, names[i], n))
			continue;
		for (len = 1 + n; s[len] >= '0' && s[len] <= '9'; len++)
			;
		if (len > 1 + n)
			return len;
	}
	return 0;
}

/*
 * Append @sym with LKP's fixup_symbol_name (a global regex removal, left to right); control
 * bytes become '?' so that a symbol cannot end the "key: value" line.
 */
static int sb_put_symbol(struct strbuf *b, const char *sym)
{
	const char *run = sym, *p = sym;
	size_t skip;
	int err;

	while (*p) {
		skip = suffix_match(p);
		if (!skip) {
			p++;
			continue;
		}
		err = sb_put_clean(b, run, p - run, false);
		if (err)
			return err;
		p += skip;
		run = p;
	}
	return sb_put_clean(b, run, p - run, false);
}

/* Ruby's \s: the characters that end a \S+ token. */
static bool has_space(const char *s)
{
	return s && strpbrk(s, " \t\r\n\f\v") != NULL;
}

/* ---- the chain trie ----------------------------------------------------------------------- */

struct trie_node {
	uint32_t	parent;		/* IDTAB_NONE: a root frame */
	uint32_t	entry;
	uint64_t	hits;		/* own hits of the chain ending here */
	bool		space;		/* a frame of this chain holds whitespace */
	/*
	 * The line of a detached ip's entry (callgraph_add_ids_ip()): perf prints, under the ip's
	 * entry, the chain of its parent node. Apart from the parent's own hits: each (entry,
	 * chain) line is a line of its own for the 0.5% threshold.
	 */
	bool		ip_line;
};

struct trie {
	const struct hist	*hist;
	uint64_t		min_hits;	/* of a line that prints */
	struct trie_node	*nodes;
	size_t			nr, alloc;
	struct idtab		tab;
};

static uint64_t node_hash(uint32_t parent, uint32_t entry, bool ip_line)
{
	return hash_u64(((uint64_t)parent << 32) | entry) ^ ip_line;
}

static bool node_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct trie *t = ctx;
	const struct trie_node *k = key;

	return t->nodes[id].parent == k->parent && t->nodes[id].entry == k->entry &&
	       t->nodes[id].ip_line == k->ip_line;
}

static uint32_t trie_child(struct trie *t, uint32_t parent, uint32_t entry, bool ip_line)
{
	struct trie_node key = { .parent = parent, .entry = entry, .ip_line = ip_line };
	uint64_t h = node_hash(parent, entry, ip_line);
	uint32_t id = idtab_find(&t->tab, h, node_eq, &key, t);

	if (id != IDTAB_NONE)
		return id;
	key.space = (!ip_line && has_space(t->hist->entries[entry].sym)) ||
		    (parent != IDTAB_NONE && t->nodes[parent].space);
	return idtab_append(&t->tab, h, (void **)&t->nodes, &t->nr, &t->alloc, &key, sizeof(key));
}

static int trie_add_chain(const uint32_t *chain, const bool *first, size_t n, bool detached,
			  uint64_t weight, void *arg)
{
	struct trie *t = arg;
	uint32_t node = IDTAB_NONE;
	size_t j;

	for (j = n; j-- > (size_t)detached;) {
		/*
		 * Every sample that reaches a node below holds this entry, so no line below can
		 * have more hits than its Children: below the threshold, none of them prints.
		 */
		if (t->hist->entries[chain[j]].children < t->min_hits)
			return 0;
		node = trie_child(t, node, chain[j], false);
		if (node == IDTAB_NONE)
			return -ENOMEM;
		if (first[j])
			t->nodes[node].hits += weight;
	}
	/* the ip's entry prints the whole chain; without one (all of it hidden by -U), nothing */
	if (detached && node != IDTAB_NONE) {
		/* the ip's entry is the chain's first: one entry, one line (perf's he_cache) */
		if (chain[0] == chain[1]) {
			t->nodes[node].hits += weight;
			return 0;
		}
		if (t->hist->entries[chain[0]].children < t->min_hits)
			return 0;
		node = trie_child(t, node, chain[0], true);
		if (node == IDTAB_NONE)
			return -ENOMEM;
		t->nodes[node].hits += weight;
	}
	return 0;
}

static void trie_release(struct trie *t)
{
	free(t->nodes);
	idtab_release(&t->tab);
}

/* ---- one event's keys --------------------------------------------------------------------- */

static int put_prefix(struct strbuf *b, const char *kind, const char *event)
{
	b->len = 0;
	return sb_puts(b, kind) ?: sb_puts(b, event) ?: sb_putn(b, ".", 1);
}

/* perf: u64 min_callchain_hits = callchain_total * (min_percent / 100) */
static uint64_t min_calltrace_hits(uint64_t total, double calltrace_min)
{
	return (uint64_t)(total * (calltrace_min / 100));
}

static int add_calltraces(struct str_sums *sums, struct strbuf *b, const struct trie *t,
			  const char *event, uint64_t total)
{
	uint64_t min_hits = t->min_hits;
	uint32_t node;
	size_t i, depth;
	int err;

	for (i = 0; i < t->nr; i++) {
		const struct trie_node *n = &t->nodes[i];

		if (!n->hits || n->hits < min_hits || n->space)
			continue;
		err = put_prefix(b, "calltrace.", event);
		for (node = n->ip_line ? n->parent : i, depth = 0; !err && node != IDTAB_NONE && depth < 5; depth++) {
			if (depth)
				err = sb_putn(b, ".", 1);
			if (!err)
				err = sb_put_symbol(b, t->hist->entries[t->nodes[node].entry].sym);
			node = t->nodes[node].parent;
		}
		if (!err)
			err = str_sums_add(sums, b->s, b->len, percent_hundredths(n->hits, total));
		if (err)
			return err;
	}
	return 0;
}

static int add_entries(struct str_sums *sums, struct strbuf *b, const struct hist *h,
		       const char *event)
{
	size_t i;
	int err = 0;

	for (i = 0; i < h->nr && !err; i++) {
		const struct hist_entry *e = &h->entries[i];

		if (has_space(e->sym) || has_space(dso_basename(e->dso)))
			continue;
		err = put_prefix(b, "children.", event) ?: sb_put_symbol(b, e->sym) ?:
		      str_sums_add(sums, b->s, b->len, percent_hundredths(e->children, h->total)) ?:
		      put_prefix(b, "self.", event) ?: sb_put_symbol(b, e->sym) ?:
		      str_sums_add(sums, b->s, b->len, percent_hundredths(e->self, h->total));
	}
	return err;
}

static int add_graph(struct str_sums *sums, struct strbuf *b, const struct callgraph *cg,
		     const struct lkp_profile_opts *o, const char *event)
{
	struct hist h = { 0 };
	struct trie t = { .hist = &h };
	int err;

	/*
	 * The Children first, then the trie of only the paths whose every entry can still reach
	 * the threshold: on a make -B recording most distinct stacks end in entries of a few
	 * samples, and the trie was ~9 ms of the main thread's, alone at the end of a run.
	 */
	err = hist_build(&h, cg, o->weight_samples, false, NULL, NULL);
	t.min_hits = min_calltrace_hits(h.total, o->calltrace_min);
	if (!err && h.total)
		err = hist_walk(&h, cg, o->weight_samples, trie_add_chain, &t);
	if (!err && h.total) {
		err = add_entries(sums, b, &h, event) ?:
		      add_calltraces(sums, b, &t, event, h.total);
	}
	trie_release(&t);
	hist_release(&h);
	return err;
}

/* LKP's event name: ':' -> '-', quotes removed ("cycles:pp" -> "cycles-pp"). */
static int lkp_event_name(struct strbuf *b, const char *event)
{
	const char *p;
	int err = 0;

	for (p = event; *p && !err; p++) {
		if (*p == ':')
			err = sb_putn(b, "-", 1);
		else if (*p != '\'')
			err = sb_putn(b, p, 1);
	}
	return err ?: sb_putn(b, "", 0);	/* a string even when empty */
}

static int kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

int lkp_profile_keys_multi(const struct callgraph *const *cgs, size_t nr,
			   const struct lkp_profile_opts *o, struct kv_list *out)
{
	struct strbuf event = { 0 }, b = { 0 };
	struct str_sums sums = { 0 };
	uint64_t min_hundredths;
	size_t i, start;
	int err;

	if (!cgs || !o || !o->event || !out || !isfinite(o->print_min) ||
	    !isfinite(o->calltrace_min) || o->calltrace_min < 0)
		return -EINVAL;
	/* Printed values are hundredths, so "value >= min" is "hundredths >= ceil(min * 100)". */
	min_hundredths = o->print_min > 0 ? (uint64_t)ceil(o->print_min * 100 - 1e-6) : 0;

	err = lkp_event_name(&event, o->event);
	for (i = 0; i < nr && !err; i++)
		err = add_graph(&sums, &b, cgs[i], o, event.s);

	start = out->nr;
	for (i = 0; i < sums.nr && !err; i++) {
		if (sums.v[i].value < min_hundredths)
			continue;
		b.len = 0;
		err = sb_puts(&b, "perf-profile.") ?: sb_puts(&b, sums.v[i].key) ?:
		      kv_list_add(out, b.s, sums.v[i].value / 100.0);
	}
	if (!err && out->nr - start > 1)
		qsort(out->items + start, out->nr - start, sizeof(*out->items), kv_cmp);

	free(event.s);
	free(b.s);
	str_sums_release(&sums);
	return err;
}

int lkp_profile_keys(const struct callgraph *cg, const struct lkp_profile_opts *o,
		     struct kv_list *out)
{
	return lkp_profile_keys_multi(&cg, 1, o, out);
}
