/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output-int.h - private helpers shared by the files of output/ (never included from outside):
 *
 *  - hashing of bytes and integers;
 *  - struct arena: a bump allocator whose memory lives until arena_release();
 *  - struct idtab: an open-addressing hash table of uint32_t ids; the caller keeps the objects
 *    in its own array and supplies the hash and an equality callback, so one table type serves
 *    strings, frames, stacks, trie nodes ...;
 *  - struct strtab: string interning; equal strings give the same pointer, so interned strings
 *    compare with ==;
 *  - a read-only view of the call graph's internals (frames and stacks as ids) for the writers.
 *
 * Everything returns 0 or -errno (pointers: NULL on ENOMEM). Nothing here prints.
 */
#ifndef KPROF_OUTPUT_INT_H
#define KPROF_OUTPUT_INT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "output/output.h"

/* ---- hashing ----------------------------------------------------------------------------- */

/* A strong 64-bit finaliser (splitmix64): every input bit affects every output bit. */
static inline uint64_t hash_u64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* Fold @v into the running hash @h (order matters). */
static inline uint64_t hash_combine(uint64_t h, uint64_t v)
{
	return hash_u64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

uint64_t hash_bytes(const void *p, size_t len);

static inline uint64_t hash_str(const char *s)
{
	return hash_bytes(s, strlen(s));
}

static inline uint64_t hash_ptr(const void *p)
{
	return hash_u64((uint64_t)(uintptr_t)p);
}

/* ---- arena ------------------------------------------------------------------------------- */

struct arena_chunk;

/* Zero-initialise ({0}) to use. Memory is freed all at once by arena_release(). */
struct arena {
	struct arena_chunk	*chunks;
	char			*cur;		/* free space of the newest chunk */
	size_t			left;
};

/* @size bytes aligned to 8; NULL on ENOMEM. */
void *arena_alloc(struct arena *a, size_t size);
void arena_release(struct arena *a);

/* ---- id hash table ------------------------------------------------------------------------ */

#define IDTAB_NONE	UINT32_MAX

struct idtab_slot {
	uint32_t	id;		/* IDTAB_NONE: empty */
	uint32_t	hash;		/* low 32 bits of the object's hash */
};

/* Zero-initialise ({0}) to use; idtab_release() frees it. */
struct idtab {
	struct idtab_slot	*slots;
	size_t			mask;		/* capacity - 1 (a power of two); 0: no slots */
	size_t			nr;
};

typedef bool (*idtab_eq_fn)(uint32_t id, const void *key, const void *ctx);

/*
 * The id whose object equals @key (eq(id, key, ctx)), or IDTAB_NONE. Inline so that a constant
 * @eq is inlined too: lookups are the hot path of callgraph_add().
 */
static inline uint32_t idtab_find(const struct idtab *t, uint64_t hash, idtab_eq_fn eq,
				  const void *key, const void *ctx)
{
	uint32_t h = (uint32_t)hash;
	size_t i;

	if (!t->mask)
		return IDTAB_NONE;
	for (i = h & t->mask; t->slots[i].id != IDTAB_NONE; i = (i + 1) & t->mask) {
		if (t->slots[i].hash == h && eq(t->slots[i].id, key, ctx))
			return t->slots[i].id;
	}
	return IDTAB_NONE;
}

/*
 * Append the @size-byte object @rec to the growable array *@arr (*@nr used, *@alloc capacity)
 * and index it in @t under @hash: the usual "not found, add it" step. Its id, or IDTAB_NONE on
 * ENOMEM (the array is then unchanged).
 */
uint32_t idtab_append(struct idtab *t, uint64_t hash, void **arr, size_t *nr, size_t *alloc,
		      const void *rec, size_t size);
void idtab_release(struct idtab *t);

/* ---- string table -------------------------------------------------------------------------- */

/*
 * Interned strings: one copy of each distinct string, owned by the pool, alive until
 * strtab_release(). Zero-initialise ({0}) to use.
 */
struct strtab {
	struct arena	mem;
	const char	**strs;		/* by id */
	size_t		nr, alloc;
	struct idtab	by_text;	/* hash of the bytes -> id */
	struct idtab	by_ptr;		/* hash of the interned pointer -> id (fast path) */
};

/* The interned copy of @s (NULL with errno = ENOMEM). Costs a pointer probe if @s is interned. */
const char *strtab_intern(struct strtab *sp, const char *s);
void strtab_release(struct strtab *sp);

/* ---- string -> sum maps ------------------------------------------------------------------ */

/* Sums keyed by string, in first-seen order (v[0 .. nr)). Zero-initialise ({0}) to use. */
struct str_sum {
	const char	*key;		/* owned by the map */
	uint64_t	value;
};

struct str_sums {
	struct arena	mem;
	struct str_sum	*v;
	size_t		nr, alloc;
	struct idtab	tab;
};

/* Add @value to the sum of the @len-byte key @key (created at 0). 0 or -ENOMEM. */
int str_sums_add(struct str_sums *s, const char *key, size_t len, uint64_t value);
/*
 * Sort @v[0..n) by key, bytewise (strcmp's order: Perl's `sort`) (str-sort.c). The array of a
 * struct str_sums can be sorted in place once no more keys are added: its index is not used again.
 */
void str_sums_sort(struct str_sum *v, size_t n);
/* The same, recursing into smaller and larger parts at most @max_depth deep, then qsort(). */
void str_sums_sort_bounded(struct str_sum *v, size_t n, unsigned int max_depth);
void str_sums_release(struct str_sums *s);

/*
 * folded_write() with the graph's stacks folded in @nr_parts parts (1 or 2; more count as 2),
 * the second on a thread of its own; the output is the same for any @nr_parts. folded_write()
 * splits a graph of many stacks on a machine of more than one CPU; the tests choose.
 */
int folded_write_parts(FILE *fp, const struct callgraph *cg, unsigned int flags,
		       unsigned int nr_parts);

/* ---- string building ---------------------------------------------------------------------- */

/* A growable NUL-terminated string. Zero-initialise ({0}); free(b.s) when done. */
struct strbuf {
	char	*s;
	size_t	len, alloc;
};

int sb_grow(struct strbuf *b, size_t need);	/* room for @need bytes: 0 or -ENOMEM */

/* Append @n bytes. 0 or -ENOMEM. Inline: the writers append millions of short pieces. */
static inline int sb_putn(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->alloc && sb_grow(b, b->len + n + 1))
		return -ENOMEM;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* Cut back to @len bytes (at most b->len), keeping the string NUL-terminated. */
static inline void sb_truncate(struct strbuf *b, size_t len)
{
	if (b->s && len < b->len) {
		b->len = len;
		b->s[len] = '\0';
	}
}

int sb_puts(struct strbuf *b, const char *s);
/*
 * Append @n bytes of a name that came from outside (a comm, a symbol): control bytes (\t, \n,
 * ESC...) become '?', and with @semicolon a ';' becomes ':', so that no name can end a line,
 * split a folded frame or forge a count (docs/formats.md, "Names in text output").
 */
int sb_put_clean(struct strbuf *b, const char *s, size_t n, bool semicolon);

/* ---- growable arrays ---------------------------------------------------------------------- */

/* Make room for @need elements of @size bytes in *@p (capacity *@alloc). 0 or -ENOMEM. */
int array_reserve(void **p, size_t *alloc, size_t need, size_t size);

/* ---- call graph internals (read-only view for output/ writers) ---------------------------- */

/* A distinct stack as stored: frame ids, leaf first. */
struct cg_stack_rec {
	const uint32_t	*ids;
	uint32_t	nr;
	/* ids[0] is the sample's ip, for Self only, not a frame of the chain: see
	 * callgraph_add_ids_ip(). Chain walkers start at ids[detached]. */
	bool		detached;
	uint32_t	task;		/* task id */
	uint64_t	period;
	uint64_t	samples;
};

size_t cg_nr_frames(const struct callgraph *cg);
const struct cg_frame *cg_frame_at(const struct callgraph *cg, uint32_t id);
const struct cg_task *cg_task_at(const struct callgraph *cg, uint32_t id);
size_t cg_nr_stack_recs(const struct callgraph *cg);
const struct cg_stack_rec *cg_stack_rec_at(const struct callgraph *cg, size_t i);

/* ---- perf report's histogram (--sort=dso,symbol --children) ------------------------------- */

/* One report entry: a (module, symbol) pair, as perf's --sort=dso,symbol keys them. */
struct hist_entry {
	const char	*sym;		/* interned in the call graph; NULL: unresolved (per dso) */
	const char	*dso;
	uint64_t	sym_start;
	bool		kernel;		/* perf's [k] (else [.]) */
	bool		inlined;	/* an unwound address's inlined function (perf's made-up
					 * symbol: this name, the function's range) */
	uint64_t	self;		/* weight of samples whose leaf is this entry */
	uint64_t	children;	/* weight of samples with the entry anywhere, once each */
};

struct hist {
	struct hist_entry	*entries;
	size_t			nr, alloc;
	struct idtab		tab;
	uint32_t		*entry_of_frame;	/* by frame id; IDTAB_NONE: frame dropped */
	uint64_t		total;			/* weight of the samples kept */
	uint64_t		nr_samples;		/* samples kept */
};

/*
 * Called for each distinct stack kept: its entries leaf first (unresolved frames already
 * dropped unless kept), first[i] true where chain[i] occurs for the first time (leaf-most).
 * With @detached, chain[0] is the Self entry of the sample's ip and the call chain is
 * chain[1..n) (see callgraph_add_ids_ip()).
 */
typedef int (*hist_chain_fn)(const uint32_t *chain, const bool *first, size_t n,
			     bool detached, uint64_t weight, void *arg);

/*
 * Build the Children/Self histogram of @cg, weighted by period (or sample count). Without
 * @keep_unresolved this is `perf report -U`: samples whose leaf has no symbol are dropped and
 * unresolved frames are skipped; with it, unresolved frames become one entry per module.
 * @fn (optional) sees every kept chain. Zero-initialise @h; hist_release() frees it.
 */
int hist_build(struct hist *h, const struct callgraph *cg, bool weight_samples,
	       bool keep_unresolved, hist_chain_fn fn, void *arg);
/*
 * Each chain hist_build() kept to @fn again, the histogram as it is: for a walk that needs the
 * entries' Children first (lkp-profile.c). @weight_samples as given to hist_build().
 */
int hist_walk(struct hist *h, const struct callgraph *cg, bool weight_samples, hist_chain_fn fn,
	      void *arg);
void hist_release(struct hist *h);
/* qsort order of the table's rows (const struct hist_entry **): Children, Self, then perf's. */
int hist_entry_cmp(const void *a, const void *b);

/* ---- call chains under the table's rows (table-chains.c) ---------------------------------- */

struct table_chains;
struct table_chains *table_chains_new(enum table_callchain order);	/* NULL: ENOMEM */
/* A hist_chain_fn collecting the paths through every entry of each chain. */
int table_chains_add(const uint32_t *chain, const bool *first, size_t n, bool detached,
		     uint64_t w, void *arg);
/* Group the paths by entry (call once, after hist_build()). 0 or -ENOMEM. */
int table_chains_finish(struct table_chains *tc, size_t nr_entries);
/* The chains of @entry, heaviest first, those of at least @min_percent of all samples. */
void table_chains_write(FILE *fp, const struct table_chains *tc, const struct hist *h,
			size_t entry, double min_percent);
void table_chains_free(struct table_chains *tc);	/* NULL-safe */

/* ---- shared by the writers ---------------------------------------------------------------- */

/* The table's "# Samples:" and "# Event count:" (or "# Sample count:") header lines. */
void table_write_counts(FILE *fp, const struct table_opts *o, uint64_t nr_samples,
			uint64_t total);

/* The module's basename: "/usr/lib/libc.so.6" -> "libc.so.6", "[kernel.kallsyms]" unchanged. */
const char *dso_basename(const char *dso);
/*
 * The Shared Object column: perf's dso short name, the basename, except that a JIT map
 * /tmp/perf-PID.map is "[JIT] tid PID" (dsos.c dso__set_basename) and a kernel module's file
 * "/lib/modules/…/ext4.ko" is "[ext4]" (kmod_path__parse_name). Made in @buf when it must be.
 */
#define DSO_SHORT_MAX	64
const char *dso_short_name(const char *dso, char buf[DSO_SHORT_MAX]);

/* 100 * part / total rounded to 2 decimals exactly as printf("%.2f") does, in hundredths. */
uint64_t percent_hundredths(uint64_t part, uint64_t total);

#endif
