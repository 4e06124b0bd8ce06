// SPDX-License-Identifier: GPL-2.0
/*
 * hist-perf-tree.c - where perf report 6.1's own trees can make its --children entries and
 * chains differ from kprof's, which counts each (module, function) once per sample and each
 * distinct chain once (hist.c, lkp-profile.c). Both trees go wrong only around the made-up
 * symbols perf gives an unwound address's inlined functions (machine.c append_inlines: the
 * inlined name, the enclosing function's range, `inlined` set):
 *
 * 1. The hist entries (hist.c hists__findnew_entry) are an rb-tree searched with
 *    sort.c _sort__sym_cmp after the module's short name: two symbols of which one is inlined
 *    compare by name, two functions by address. When those are not one order of a module's
 *    entries -- an inlined name falls, by name, between functions that lie the other way round
 *    by address -- a search can pass by an existing entry and add a second one, depending on
 *    the tree's shape (its whole insertion history). LKP adds the pieces' Children and Self
 *    (each printed rounded: within 0.01 of kprof's), but each piece has its own chains, each
 *    printed only at 0.5% of the total: calltrace.* keys of such a function can be smaller
 *    in perf, down to nothing; never larger. Only that module's entries: the short names order
 *    the tree first, and in a module whose entries are in one order every search is right.
 *    The test below is exact for the entries kprof has (an inlined symbol equal by name to a
 *    function counts as equal where perf's ranges overlap, here: where they start together).
 *
 * 2. Each entry's call chains are a tree (callchain.c match_chain) in which two frames of
 *    which one is inlined are the same node when their names are equal, and the node keeps the
 *    symbol of the chain that made it: the real function's frames may print as "NAME
 *    (inlined)" (a line LKP's parser drops) or an inlined one as the function (a line it then
 *    counts), and chains that kprof keeps apart are one line for the 0.5% threshold. So every
 *    inlined name that is also the name of a function framed in the same event is a risk to
 *    the calltrace.* keys of the chains through it.
 *
 * The third way perf's entries differ -- an inlined entry turned into its function's by a
 * frame from another map object -- needs perf's map objects, which the call graph does not
 * keep: pipeline-inlmaps.c finds it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

/* qsort: by module short name, then real before inlined, then by start. */
static int by_file(const void *a, const void *b)
{
	const struct hist_entry *x = *(const struct hist_entry *const *)a;
	const struct hist_entry *y = *(const struct hist_entry *const *)b;
	int c = strcmp(dso_basename(x->dso), dso_basename(y->dso));

	if (c)
		return c;
	if (x->inlined != y->inlined)
		return x->inlined - y->inlined;
	return x->sym_start < y->sym_start ? -1 : x->sym_start > y->sym_start;
}

#define INLINED_SUFFIX	" (inlined)"

/* The length of @e's symbol name as perf's made-up symbol has it (without " (inlined)"). */
static size_t name_len(const struct hist_entry *e)
{
	size_t n = strlen(e->sym), k = sizeof(INLINED_SUFFIX) - 1;

	return e->inlined && n > k && !strcmp(e->sym + n - k, INLINED_SUFFIX) ? n - k : n;
}

/* strcmp() of @a's first @na bytes and @b's first @nb. */
static int cmp_names(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

/* perf's order of function @f against inlined @in: by name, then by start. */
static int cmp_real_inlined(const struct hist_entry *f, const struct hist_entry *in)
{
	int c = cmp_names(f->sym, strlen(f->sym), in->sym, name_len(in));

	if (c)
		return c;
	return f->sym_start < in->sym_start ? -1 : f->sym_start > in->sym_start;
}

/*
 * Is perf's comparator one order over real[0..nr_real) (sorted by start) and inl[]? It is
 * when, for every inlined entry, the functions before it (by name) all lie below the ones
 * after it (by address): then each inlined entry has one place among the functions, and
 * inlined entries order among themselves by name as their places do.
 */
static bool one_order(struct hist_entry *const *real, size_t nr_real,
		      struct hist_entry *const *inl, size_t nr_inl)
{
	for (size_t i = 0; i < nr_inl; i++) {
		bool seen_after = false;

		/* by address: once a function after the inlined name is seen, none may be before */
		for (size_t j = 0; j < nr_real; j++) {
			int c = cmp_real_inlined(real[j], inl[i]);

			if (c > 0)
				seen_after = true;
			else if (c < 0 && seen_after)
				return false;
		}
	}
	return true;
}

static int add_name(const char ***v, size_t *nr, const char *s)
{
	const char **n;

	for (size_t i = 0; i < *nr; i++)
		if ((*v)[i] == s || !strcmp((*v)[i], s))
			return 0;
	n = realloc(*v, (*nr + 1) * sizeof(**v));
	if (!n)
		return -ENOMEM;
	*v = n;
	(*v)[(*nr)++] = s;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* bsearch: a name of @key_len bytes against a function's name. */
struct name_key {
	const char	*s;
	size_t		len;
};

static int key_cmp(const void *k, const void *a)
{
	const struct name_key *key = k;
	const char *name = *(const char *const *)a;

	return cmp_names(key->s, key->len, name, strlen(name));
}

/*
 * Inlined names that are also names of functions (any module: perf matches names only), as
 * the inlined entries' symbols ("NAME (inlined)").
 */
static int merged_names(struct hist_entry *const *e, size_t nr, struct perf_tree_risks *r)
{
	const char **real = malloc((nr + 1) * sizeof(*real));
	size_t nr_real = 0;
	int err = 0;

	if (!real)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		if (!e[i]->inlined)
			real[nr_real++] = e[i]->sym;
	qsort(real, nr_real, sizeof(*real), str_cmp);
	for (size_t i = 0; i < nr && !err; i++) {
		struct name_key k = { e[i]->sym, name_len(e[i]) };

		if (e[i]->inlined && bsearch(&k, real, nr_real, sizeof(*real), key_cmp))
			err = add_name(&r->names, &r->nr_names, e[i]->sym);
	}
	free(real);
	return err;
}

/* Whether any frame of @cg is an inlined one (never, but in DWARF-unwound recordings). */
static bool has_inlined(const struct callgraph *cg)
{
	for (size_t i = 0, n = cg_nr_frames(cg); i < n; i++)
		if (cg_frame_at(cg, (uint32_t)i)->flags & CG_FRAME_INLINED)
			return true;
	return false;
}

int perf_tree_risks(const struct callgraph *cg, bool weight_samples, struct perf_tree_risks *r)
{
	struct hist h = { 0 };
	struct hist_entry **e = NULL;
	size_t nr = 0;
	int err;

	/* without inlined frames both trees keep one order: nothing to say, nothing to build */
	if (!has_inlined(cg))
		return 0;
	err = hist_build(&h, cg, weight_samples, false, NULL, NULL);

	if (!err)
		e = malloc((h.nr + 1) * sizeof(*e));
	if (!err && !e)
		err = -ENOMEM;
	/* the entries perf has: user functions of kept chains (kernel frames are never inlined) */
	for (size_t i = 0; !err && i < h.nr; i++)
		if (h.entries[i].children && h.entries[i].sym && !h.entries[i].kernel)
			e[nr++] = &h.entries[i];
	if (!err) {
		r->total = h.total;
		qsort(e, nr, sizeof(*e), by_file);
		err = merged_names(e, nr, r);
	}
	for (size_t i = 0; !err && i < nr;) {
		const char *file = dso_basename(e[i]->dso);
		size_t j = i, k;

		while (j < nr && !strcmp(dso_basename(e[j]->dso), file))
			j++;
		for (k = i; k < j && !e[k]->inlined; k++)
			;
		if (k > i && k < j && !one_order(e + i, k - i, e + k, j - k))
			err = add_name(&r->files, &r->nr_files, file);
		i = j;
	}
	free(e);
	hist_release(&h);
	return err;
}

void perf_tree_risks_release(struct perf_tree_risks *r)
{
	free(r->files);
	free(r->names);
	memset(r, 0, sizeof(*r));
}
