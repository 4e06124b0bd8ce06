// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report-tree.c - what `kprof report` says about perf report 6.1's entries and chains
 * around inlined frames, which kprof does not replay (output/hist-perf-tree.c,
 * profiler/profile/pipeline-inlmaps.c): each way one line on stderr naming what can differ
 * and how; -v lists every function or name concerned.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "profiler/cli/cmd-report-int.h"
#include "profiler/lib/lib.h"
#include "profiler/profile/profile.h"

/* A space separated list of words. */
struct words {
	char	*s;
	size_t	len, alloc;
};

/* Append @n bytes of @s (a string throughout). -1 on ENOMEM. */
static int put(struct words *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->alloc) {
		size_t alloc = (b->len + n + 1) * 2;
		char *ns = realloc(b->s, alloc);

		if (!ns)
			return -1;
		b->s = ns;
		b->alloc = alloc;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* Each of @words (space separated) not yet in @list, appended with a space. */
static void add_words(struct words *list, const char *words)
{
	for (const char *w = words; w && *w;) {
		size_t n = strcspn(w, " ");
		bool seen = false;

		for (const char *l = list->s; l && *l;) {
			size_t m = strcspn(l, " ");

			seen |= m == n && !strncmp(l, w, n);
			l += m + (l[m] == ' ');
		}
		if (!seen && ((list->len && put(list, " ", 1)) || put(list, w, n)))
			return;	/* ENOMEM: the list is shorter */
		w += n + (w[n] == ' ');
	}
}

/*
 * perf's Children of inlined frames reached through two map objects: the functions, the
 * most each one's children.* can gain in perf (hundredths rounded up, of the smallest
 * event's total), in "NAME:+P" words.
 */
static double warn_multimap(const char *input, const struct profile *p, uint64_t total)
{
	struct words b = { 0 };
	const char *f = p->inline_multimap_funcs;
	double most = 0;

	for (uint64_t i = 0; i < p->nr_inline_multimap_funcs && f && *f; i++) {
		size_t n = strcspn(f, " ");
		double pc = total ? ceil(p->inline_multimap_excess[i] * 10000.0 / total) / 100 : 0;
		char num[32];

		snprintf(num, sizeof(num), ":+%.2f", pc);
		if ((b.len && put(&b, " ", 1)) || put(&b, f, n) || put(&b, num, strlen(num)))
			break;
		most = pc > most ? pc : most;
		f += n + (f[n] == ' ');
	}
	pr_warn("%s: %llu samples hold inlined frames of %llu function%s (e.g. %.*s) that perf "
		"reaches through more than one mapping of their file: perf report 6.1 then turns "
		"such an inlined entry into one of the function's own, and its children.* keys of "
		"%s can be larger, by up to %.2f; kprof counts each sample once", input,
		(unsigned long long)p->nr_inline_multimap,
		(unsigned long long)p->nr_inline_multimap_funcs,
		p->nr_inline_multimap_funcs == 1 ? "" : "s",
		(int)strcspn(p->inline_multimap_funcs, " "), p->inline_multimap_funcs,
		p->nr_inline_multimap_funcs == 1 ? "it" : "them", most);
	pr_debug("%s: functions whose inlined frames perf reaches through more than one "
		 "mapping, with the most perf's children.* can add: %s", input, b.s ? b.s : "");
	free(b.s);
	return most;
}

void warn_perf_tree(const char *input, const struct profile *p)
{
	struct words files = { 0 }, names = { 0 };
	uint64_t total = 0;
	size_t nr_names = 0;
	const char *first = NULL;

	for (size_t i = 0; i < p->nr_events; i++) {
		struct perf_tree_risks r = { 0 };

		if (perf_tree_risks(p->events[i].cg, false, &r))
			continue;	/* ENOMEM: nothing more can be said */
		if (r.total && (!total || r.total < total))
			total = r.total;
		for (size_t j = 0; j < r.nr_files; j++)
			add_words(&files, r.files[j]);
		for (size_t j = 0; j < r.nr_names; j++) {
			/* "NAME (inlined)": NAME, which has no space */
			char *name = strndup(r.names[j], strcspn(r.names[j], " "));
			size_t before = names.len;

			if (name)
				add_words(&names, name);
			nr_names += names.len != before;
			free(name);
		}
		perf_tree_risks_release(&r);
	}
	if (p->nr_inline_multimap) {
		warn_multimap(input, p, total);
		add_words(&files, p->inline_multimap_files);
	}
	if (files.len)
		pr_warn("%s: perf report 6.1's --children tree compares inlined frames by name and "
			"functions by address, which is not one order of the entries of %s: it can "
			"split those files' functions' entries, whose calltrace.* keys can then be "
			"smaller in perf, down to 0 (each piece's chains are printed only from 0.5%%), "
			"and their children.*/self.* keys differ by the pieces' rounding", input,
			files.s);
	if (nr_names) {
		first = names.s;
		pr_warn("%s: %zu inlined function%s named as functions framed too (e.g. %.*s): perf "
			"report 6.1's call chains merge the two by name and print the frame as the "
			"first one seen, with \" (inlined)\" or not, so calltrace.* keys of chains "
			"through %s can be smaller or larger in perf", input, nr_names,
			nr_names == 1 ? " is" : "s are", (int)strcspn(first, " "), first,
			nr_names == 1 ? "it" : "them");
		pr_debug("%s: inlined functions named as functions framed too: %s", input, names.s);
	}
	free(files.s);
	free(names.s);
}
