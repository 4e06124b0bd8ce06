/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline-local.h - internals of profile_load() (pipeline*.c).
 */
#ifndef KPROF_PIPELINE_LOCAL_H
#define KPROF_PIPELINE_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/output.h"

struct comm_slot {
	int32_t		tid;
	const char	*comm;		/* pooled; NULL: free slot */
};

/* tid -> comm, open addressing, names pooled. Zero-initialised is empty. */
struct comm_table {
	struct comm_slot	*slots;
	size_t			nr, alloc;
	char			**names;	/* the pool: open addressing, owned */
	size_t			nr_names, alloc_names;
};

int comm_table_set(struct comm_table *t, int32_t tid, const char *comm);
/* The child thread starts with its parent's name (perf's thread__fork). */
int comm_table_fork(struct comm_table *t, int32_t parent, int32_t child);
/*
 * The name as perf shows it: the comm, "swapper" for 0, else ":TID". Pooled: equal names are
 * equal pointers, valid until comm_table_release(). NULL on ENOMEM.
 */
const char *comm_table_name(struct comm_table *t, int32_t tid);
const char *comm_table_get(const struct comm_table *t, int32_t tid);
void comm_table_release(struct comm_table *t);

/*
 * Resolved frames by (pid, address): a symbolize lookup costs a hash of its own, and a distinct
 * stack repeats most frames of the one before. Direct mapped. Each entry records the generation
 * of its address space (and of the kernel's): an MMAP or FORK gives the task a new one, so its
 * old entries stop matching without being searched for.
 */
struct frame_cache_entry {
	uint64_t	addr;
	int32_t		pid;		/* -1 for kernel addresses */
	uint32_t	gen, kgen;
	const char	*sym, *dso;	/* owned by the sym_session */
	uint64_t	sym_start;
};

struct frame_cache {
	struct frame_cache_entry	*e;
	int32_t				*pids;	/* pid -> gen, open addressing */
	uint32_t			*gens;
	size_t				nr_pids, alloc_pids;
	uint32_t			next_gen;
};

int frame_cache_init(struct frame_cache *c);
void frame_cache_release(struct frame_cache *c);
/* The current generation of @pid's address space (-1: the kernel's). */
uint32_t frame_cache_gen(const struct frame_cache *c, int32_t pid);
/* @pid's address space changes (MMAP, FORK); -1: the kernel's. 0 or -ENOMEM. */
int frame_cache_invalidate(struct frame_cache *c, int32_t pid);
/* The slot for (pid, addr): a hit when its key and generations match. */
static inline struct frame_cache_entry *frame_cache_slot(struct frame_cache *c, int32_t pid,
							  uint64_t addr)
{
	uint64_t h = (addr ^ ((uint64_t)(uint32_t)pid << 40)) * 0x9e3779b97f4a7c15ULL;

	return &c->e[h >> (64 - 16)];
}

/*
 * Identical raw samples, summed before they are symbolized: (event, pid, tid, cpumode, ip,
 * call chain words) -> (period, count). A profile repeats the same few thousand stacks, so
 * symbolizing and adding each distinct one once per flush saves nearly all the work. The
 * pipeline flushes before anything that can change how a stack resolves or is named (MMAP,
 * MMAP2, COMM, FORK) and when the table grows large, so the result is exactly that of adding
 * every sample on its own.
 */
struct agg_entry {
	uint64_t	hash, ip, period, samples;
	size_t		at;		/* the chain's first word in agg_table.words */
	uint32_t	nr;		/* chain words */
	uint32_t	event;		/* attr index */
	int32_t		pid, tid;
	uint16_t	misc;		/* header.misc cpumode bits */
	bool		dead;		/* flushed: a tombstone until a full flush */
	uint32_t	next_pid, next_tid;	/* next entry (+ 1) of this pid / tid */
};

/* pid or tid -> the newest entry of that task (entry number + 1), open addressing. */
struct agg_heads {
	int32_t		*keys;		/* INT32_MIN: free */
	uint32_t	*heads;
	size_t		nr, alloc;
};

struct agg_table {
	uint64_t		*index;		/* 0 empty, else index_slot(): hash tag, entry */
	size_t			alloc;
	struct agg_entry	*entries;	/* nr entries, live and dead */
	size_t			nr, entries_alloc;
	uint64_t		*words;
	size_t			nr_words, words_alloc;
	struct agg_heads	by_pid, by_tid;
};

/* The key of one sample; chain points at nr (unaligned) u64 words. */
struct agg_key {
	uint32_t	event;
	int32_t		pid, tid;
	uint16_t	misc;
	uint64_t	ip;
	const void	*chain;
	uint32_t	nr;
};

int agg_add(struct agg_table *t, const struct agg_key *k, uint64_t period);
/* True when the table has grown enough that it should be flushed. */
bool agg_full(const struct agg_table *t);
/* Call fn for every entry (chain words aligned), then empty the table. Stops on non-zero. */
typedef int (*agg_fn)(const struct agg_entry *e, const uint64_t *chain, void *arg);
int agg_flush(struct agg_table *t, agg_fn fn, void *arg);
/*
 * The same for the entries of one process (@pid >= 0) or one thread (@tid >= 0) only; the
 * others stay. An MMAP changes one address space, a COMM one thread's name.
 */
int agg_flush_task(struct agg_table *t, int32_t pid, int32_t tid, agg_fn fn, void *arg);
void agg_release(struct agg_table *t);

#endif
