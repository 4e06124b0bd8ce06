// SPDX-License-Identifier: GPL-2.0
/*
 * symtab.c - a sorted array of symbols, finished the way perf 6.1 finishes its rbtree of a dso
 * (symbol.c: symbols__fixup_end, symbols__fixup_duplicate, choose_best_symbol) so the same
 * input gives the same names, then searched by binary search instead of a tree walk.
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

#define PAGE		4096ULL
#define ROUNDUP(x)	(((x) + PAGE - 1) / PAGE * PAGE)
/* How far back a lookup walks past symbols that end before the address (nested symbols). */
#define MAX_WALK_BACK	16

bool sym_is_padding(const char *name)
{
	return !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6);
}

int symtab_reserve(struct symtab *t, size_t nr)
{
	struct sym_entry *v;

	if (nr <= t->alloc)
		return 0;
	v = realloc(t->v, nr * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->v = v;
	t->alloc = nr;
	return 0;
}

static size_t dso_hash(const char *dso)
{
	return (size_t)(((uintptr_t)dso >> 3) * 0x9e3779b97f4a7c15ULL >> 20);
}

/* Room for one more module name: in dsos, and in their index (twice as many slots). */
static int dso_slots_reserve(struct symtab *t)
{
	size_t size = t->dso_mask ? t->dso_mask + 1 : 0, new_size;
	const char **v;
	uint16_t *slots;

	if ((t->nr_dsos + 1) * 2 <= size)
		return 0;
	new_size = size ? size * 2 : 64;
	v = realloc(t->dsos, new_size / 2 * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->dsos = v;
	slots = calloc(new_size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_dsos; i++) {
		size_t j = dso_hash(t->dsos[i]) & (new_size - 1);

		while (slots[j])
			j = (j + 1) & (new_size - 1);
		slots[j] = (uint16_t)(i + 1);
	}
	free(t->dso_slots);
	t->dso_slots = slots;
	t->dso_mask = new_size - 1;
	return 0;
}

/*
 * The 1-based index of module name @dso in the table's dsos, added on first sight; 0 for none.
 * Hashed: kallsyms has a few hundred modules, a hostile file up to 65535.
 */
static int dso_index(struct symtab *t, const char *dso, uint16_t *index)
{
	size_t i;

	*index = 0;
	if (!dso)
		return 0;
	if (t->dso_mask) {
		for (i = dso_hash(dso) & t->dso_mask; t->dso_slots[i]; i = (i + 1) & t->dso_mask) {
			if (t->dsos[t->dso_slots[i] - 1] == dso) {
				*index = t->dso_slots[i];
				return 0;
			}
		}
	}
	if (t->nr_dsos == UINT16_MAX)
		return -EOVERFLOW;
	if (dso_slots_reserve(t))
		return -ENOMEM;
	t->dsos[t->nr_dsos++] = dso;
	for (i = dso_hash(dso) & t->dso_mask; t->dso_slots[i]; i = (i + 1) & t->dso_mask)
		;
	t->dso_slots[i] = (uint16_t)t->nr_dsos;
	*index = (uint16_t)t->nr_dsos;
	return 0;
}

int symtab_add(struct symtab *t, uint64_t start, uint64_t len, uint8_t binding,
	       const char *name, const char *dso)
{
	struct sym_entry *e;
	uint16_t index;
	int err = dso_index(t, dso, &index);

	if (err)
		return err;
	if (t->nr == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 256;
		struct sym_entry *v = realloc(t->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->v = v;
		t->alloc = alloc;
	}
	e = &t->v[t->nr];
	*e = (struct sym_entry){
		.start = start, .end = start + len, .name = name, .dso = index,
		.binding = binding, .sized = len != 0,
		.padding = name && name[0] == '_' && sym_is_padding(name),
	};
	t->nr++;
	return 0;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * perf 6.1's dso__synthesize_plt_symbols name for a stub of @base: snprintf(1024, "%s@plt",
 * demangled or not), malloc'd into *@owned; NULL on ENOMEM.
 */
static const char *plt_name(const char *base, bool mangled, char **owned)
{
	char *demangled = mangled ? sym_demangle(base) : NULL;

	*owned = malloc(1024);
	if (*owned)
		snprintf(*owned, 1024, "%s@plt", demangled ? demangled : base);
	free(demangled);
	return *owned;
}

const char *sym_entry_demangled(const struct symtab *t, const struct sym_entry *e,
				char **owned)
{
	const char *name = e->name;
	char *read = NULL;

	*owned = NULL;
	if (e->named)
		return e->name;
	if (e->lazy) {
		name = names_file_read(t ? t->names : NULL, e->name_at, &read);
		if (!name)
			return NULL;
	}
	if (e->plt) {
		name = plt_name(name, e->mangled, owned);
		free(read);
		return name;
	}
	*owned = e->mangled ? sym_demangle(name) : NULL;
	if (*owned) {
		free(read);
		return *owned;
	}
	*owned = read;
	return name;
}

/*
 * A symbol's name for choose_best_symbol(), demangled (as perf has it) at most once: the current
 * best of a run of same-start symbols (identical code folded by the linker, hundreds in a C++
 * binary) is compared with every other one.
 */
struct cmp_name {
	const char	*text;		/* NULL until needed */
	char		*owned;		/* the demangled text, when it differs */
};

/* (While a table is finished, every name is loaded: none is lazy yet.) */
static const char *cmp_name_text(struct cmp_name *n, const struct sym_entry *e)
{
	if (!n->text)
		n->text = sym_entry_demangled(NULL, e, &n->owned);
	if (!n->text)
		n->text = "";
	return n->text;
}

static void cmp_name_release(struct cmp_name *n)
{
	free(n->owned);
	*n = (struct cmp_name){ NULL, NULL };
}

/* The end of choose_best_symbol(), on the names. */
static bool prefer_first_name(const struct sym_entry *a, const struct sym_entry *b,
			      struct cmp_name *a_name, struct cmp_name *b_name)
{
	const char *an = cmp_name_text(a_name, a), *bn = cmp_name_text(b_name, b);
	size_t na = leading_underscores(an), nb = leading_underscores(bn);

	if (na != nb)
		return na < nb;
	na = strlen(an);
	nb = strlen(bn);
	if (na != nb)
		return na > nb;
	/* arch__choose_best_symbol: avoid the "SyS" syscall aliases */
	return strncmp(an, "SyS", 3) && strncmp(an, "compat_SyS", 10);
}

/* perf's choose_best_symbol(): true when @a is kept over @b (same start). */
static bool prefer_first(const struct sym_entry *a, const struct sym_entry *b,
			 struct cmp_name *a_name, struct cmp_name *b_name)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))
		return a->binding == STB_GLOBAL;
	return prefer_first_name(a, b, a_name, b_name);
}

/*
 * symbols__fixup_end: a symbol without size ends where the next begins, except that in kallsyms
 * the last symbol before a change between kernel and module (or, as later perf versions do,
 * between two modules) ends at the next page, so the gap is not swallowed.
 */
static void fixup_end(struct symtab *t, bool kallsyms)
{
	for (size_t i = 1; i < t->nr; i++) {
		struct sym_entry *prev = &t->v[i - 1], *curr = &t->v[i];

		if (prev->end != prev->start)
			continue;
		if (kallsyms && prev->dso != curr->dso)
			prev->end = ROUNDUP(prev->start + PAGE);
		else
			prev->end = curr->start;
	}
	if (t->nr && t->v[t->nr - 1].end == t->v[t->nr - 1].start)
		t->v[t->nr - 1].end = ROUNDUP(t->v[t->nr - 1].start) + PAGE;
}

/*
 * Of a run of same-start symbols, the one binutils' addr2line names the address by when the
 * file's DWARF does not (bfd's elf_find_function, better_fit(): of two that cover the address
 * the one that covers less, the earlier on a tie; one without a size does not count as
 * covering). Kept as scalars: most runs are one symbol long.
 */
struct bfd_pick {
	const char	*name;
	uint64_t	len;
	bool		sized, mangled, plt;
};

static void bfd_pick_set(struct bfd_pick *p, const struct sym_entry *e)
{
	*p = (struct bfd_pick){ e->name, e->end - e->start, e->sized, e->mangled, e->plt };
}

static bool bfd_prefers(const struct sym_entry *cand, const struct bfd_pick *best)
{
	if (!cand->sized)
		return false;
	return !best->sized || cand->end - cand->start < best->len;
}

/*
 * Keep that name when it is not perf's choice (@kept): perf asks addr2line about every
 * unwound address and shows such a name as an inlined frame (unwind-inline.c).
 */
static void note_alias(struct symtab *t, const struct sym_entry *kept, const struct bfd_pick *bfd)
{
	struct sym_alias *a;

	if (bfd->name == kept->name || bfd->plt || kept->plt || !strcmp(bfd->name, kept->name))
		return;
	if (t->nr_aliases == t->alloc_aliases) {
		size_t alloc = t->alloc_aliases ? t->alloc_aliases * 2 : 64;

		a = realloc(t->aliases, alloc * sizeof(*a));
		if (!a)
			return;	/* ENOMEM: the address is named as perf's symbol */
		t->aliases = a;
		t->alloc_aliases = alloc;
	}
	t->aliases[t->nr_aliases++] = (struct sym_alias){
		.start = kept->start, .name = bfd->name, .mangled = bfd->mangled,
	};
}

/* symbols__fixup_duplicate: one symbol per start address. */
static void drop_duplicates(struct symtab *t, bool kallsyms)
{
	struct cmp_name best = { NULL, NULL }, other;
	struct bfd_pick bfd;
	size_t out = 0, run = 1;

	if (!t->nr)
		return;
	for (size_t i = 1; i < t->nr; i++) {
		if (t->v[i].start != t->v[out].start) {
			if (run > 1 && !kallsyms)
				note_alias(t, &t->v[out], &bfd);
			cmp_name_release(&best);
			t->v[++out] = t->v[i];
			run = 1;
			continue;
		}
		/* a run: its first symbol is still t->v[out] (nothing preferred over it yet) */
		if (run++ == 1)
			bfd_pick_set(&bfd, &t->v[out]);
		if (bfd_prefers(&t->v[i], &bfd))
			bfd_pick_set(&bfd, &t->v[i]);
		other = (struct cmp_name){ NULL, NULL };
		if (prefer_first(&t->v[out], &t->v[i], &best, &other)) {
			cmp_name_release(&other);
		} else {
			cmp_name_release(&best);
			best = other;
			t->v[out] = t->v[i];
		}
	}
	if (run > 1 && !kallsyms)
		note_alias(t, &t->v[out], &bfd);
	cmp_name_release(&best);
	t->nr = out + 1;
}

static const char *bfd_alias(const struct symtab *t, uint64_t start, char **owned)
{
	size_t lo = 0, hi = t->nr_aliases;

	*owned = NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->aliases[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == t->nr_aliases || t->aliases[lo].start != start)
		return NULL;
	*owned = t->aliases[lo].mangled ? sym_demangle(t->aliases[lo].name) : NULL;
	return *owned ? *owned : t->aliases[lo].name;
}

/* The number of symbols starting at or below @addr (the last of them is at that index - 1). */
static size_t starts_upto(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const char *symtab_bfd_name(const struct symtab *t, uint64_t addr, char **owned)
{
	/* the last symbol that starts at or below @addr, wherever it ends */
	size_t lo = starts_upto(t, addr);
	const struct sym_entry *e;
	const char *name;

	*owned = NULL;
	if (!lo)
		return NULL;
	e = &t->v[lo - 1];
	/* a PLT stub: bfd's table has no symbol in .plt, addr2line names nothing */
	if (e->plt)
		return NULL;
	name = bfd_alias(t, e->start, owned);
	return name ? name : sym_entry_demangled(t, e, owned);
}

struct sort_key {
	uint64_t	start;
	size_t		at;		/* index in the input */
};

/*
 * LSD radix sort of @n keys by start, 11 bits a pass, stable: passes over digits that are
 * the same in every key (the high bits of a file's addresses) are skipped. Sorted lands in
 * @a or @b; returns which.
 */
static struct sort_key *radix_sort(struct sort_key *a, struct sort_key *b, size_t n)
{
	enum { BITS = 11, DIGITS = 1u << BITS };
	uint64_t all_or = 0, all_and = UINT64_MAX;

	for (size_t i = 0; i < n; i++) {
		all_or |= a[i].start;
		all_and &= a[i].start;
	}
	for (unsigned int shift = 0; shift < 64; shift += BITS) {
		size_t count[DIGITS] = { 0 }, sum = 0;
		struct sort_key *t;

		if (!(((all_or ^ all_and) >> shift) & (DIGITS - 1)))
			continue;
		for (size_t i = 0; i < n; i++)
			count[(a[i].start >> shift) & (DIGITS - 1)]++;
		for (size_t d = 0; d < DIGITS; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[(a[i].start >> shift) & (DIGITS - 1)]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	return a;
}

/*
 * A sorted table with sorted entries appended (the @plt symbols): one stable merge, in place,
 * from the back, with a copy of the appended run. 1: merged; 0: the table is not two runs;
 * -ENOMEM.
 */
static int merge_two_runs(struct symtab *t)
{
	size_t k = 1, nb, i, j, out;
	struct sym_entry *b;

	while (k < t->nr && t->v[k - 1].start <= t->v[k].start)
		k++;
	for (size_t n = k + 1; n < t->nr; n++)
		if (t->v[n - 1].start > t->v[n].start)
			return 0;
	nb = t->nr - k;
	b = malloc(nb * sizeof(*b));
	if (!b)
		return -ENOMEM;
	memcpy(b, t->v + k, nb * sizeof(*b));
	/* equal starts: the first run's entry stays before */
	for (i = k, j = nb, out = t->nr; j > 0; )
		t->v[--out] = i > 0 && t->v[i - 1].start > b[j - 1].start ? t->v[--i] : b[--j];
	free(b);
	return 1;
}

/*
 * Sorted by start, equal starts in the order they are in (perf's rbtree insertion order). A
 * dynamic symbol table comes in hash order: sorting 16-byte keys by radix and moving each
 * (32-byte) entry once costs a fraction of a comparison sort.
 */
int symtab_sort(struct symtab *t)
{
	struct sort_key *keys, *tmp, *sorted_keys;
	struct sym_entry *v;
	bool sorted = true;
	int merged;

	for (size_t i = 1; i < t->nr && sorted; i++)
		sorted = t->v[i - 1].start <= t->v[i].start;
	if (sorted)
		return 0;
	merged = merge_two_runs(t);
	if (merged)
		return merged < 0 ? merged : 0;
	keys = malloc(2 * t->nr * sizeof(*keys));
	v = malloc(t->nr * sizeof(*v));
	if (!keys || !v) {
		free(keys);
		free(v);
		return -ENOMEM;
	}
	tmp = keys + t->nr;
	for (size_t i = 0; i < t->nr; i++)
		keys[i] = (struct sort_key){ .start = t->v[i].start, .at = i };
	sorted_keys = radix_sort(keys, tmp, t->nr);
	for (size_t i = 0; i < t->nr; i++)
		v[i] = t->v[sorted_keys[i].at];
	free(t->v);
	free(keys);
	t->v = v;
	t->alloc = t->nr;
	return 0;
}

int symtab_finish(struct symtab *t, bool kallsyms)
{
	int err = symtab_sort(t);

	if (err)
		return err;
	fixup_end(t, kallsyms);
	drop_duplicates(t, kallsyms);
	return 0;
}

static bool contains(const struct sym_entry *e, uint64_t addr)
{
	return addr >= e->start && (addr < e->end || addr == e->start);
}

struct sym_entry *symtab_find(const struct symtab *t, uint64_t addr)
{
	struct sym_entry *found = NULL;
	/* the last symbol starting at or before addr */
	size_t lo = starts_upto(t, addr);

	for (size_t i = lo, walked = 0; i > 0 && walked < MAX_WALK_BACK; i--, walked++) {
		struct sym_entry *e = &t->v[i - 1];

		if (!contains(e, addr))
			continue;
		if (e->sized)
			return e;
		if (!found)
			found = e;
	}
	return found;
}

struct sym_entry *symtab_plt_shadow(const struct symtab *t, uint64_t addr)
{
	size_t i = starts_upto(t, addr);

	/* the stubs are one run, after the symbols whose ends were fixed up before them */
	while (i > 0 && t->v[i - 1].plt)
		i--;
	for (size_t walked = 0; i > 0 && walked < MAX_WALK_BACK; i--, walked++) {
		struct sym_entry *e = &t->v[i - 1];

		if (!e->sized && contains(e, addr))
			return e;
	}
	return NULL;
}

int symtab_names_lazy(struct symtab *t, struct sym_names_file *names, const char *base,
		      size_t len, struct sym_strpool *pool)
{
	names_file_free(t->names);
	t->names = names;
	/* binutils' names of folded symbols: few, copied (the others are in @pool already) */
	for (size_t i = 0; i < t->nr_aliases; i++) {
		const char *copy;

		if (!ptr_within(t->aliases[i].name, base, len))
			continue;
		copy = sym_strpool_copy(pool, t->aliases[i].name);
		if (!copy)
			return -ENOMEM;
		t->aliases[i].name = copy;
	}
	for (size_t i = 0; i < t->nr; i++) {
		struct sym_entry *e = &t->v[i];
		const char *copy;

		if (e->lazy || !ptr_within(e->name, base, len))
			continue;
		if (names) {
			e->name_at = (uint64_t)((uintptr_t)e->name - (uintptr_t)base);
			e->lazy = true;
			continue;
		}
		copy = sym_strpool_copy(pool, e->name);
		if (!copy)
			return -ENOMEM;
		e->name = copy;
	}
	return 0;
}

void symtab_release(struct symtab *t)
{
	names_file_free(t->names);
	free(t->dsos);
	free(t->dso_slots);
	free(t->v);
	free(t->aliases);
	memset(t, 0, sizeof(*t));
}
