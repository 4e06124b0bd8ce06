/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline-int.h - internals of profile_load() (pipeline*.c).
 *
 * Two sides share the work. The reading side (pipeline.c) decodes the records of the file in
 * perf's order and sums identical raw samples (agg_table); the resolving side
 * (pipeline-resolve.c) owns everything that names things -- the sym_session and its kernel
 * symbols, the thread names, the frame cache and the call graphs -- and takes, in file order,
 * the distinct raw stacks to symbolize and the records that change how later stacks resolve
 * (MMAP, MMAP2, COMM, FORK). Batches of that work pass between them through a bounded queue
 * (pipeline-queue.c), so reading a large file overlaps with loading kallsyms and symbolizing,
 * and the result is exactly that of one thread doing both in order. The resolving side is two
 * threads itself (pipeline-early.c): one names user frames, the other kernel frames and adds
 * the stacks to the call graphs, through a second such queue.
 */
#ifndef KPROF_PIPELINE_INT_H
#define KPROF_PIPELINE_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/profile.h"
#include "symbolize/symbolize.h"

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
void comm_table_release(struct comm_table *t);

/*
 * Resolved user frames by (pid, address): a symbolize lookup costs a hash of its own, and a
 * distinct stack repeats most frames of the one before. Direct mapped. An entry points to the
 * interned struct nframe of the result, which keeps the frame's id in the call graph, so that
 * adding a stack hashes no frame. Each entry records the generation of its address space (and
 * of the kernel's): an MMAP or FORK gives the task a new one, so its old entries stop matching
 * without being searched for.
 */
struct nframe;

struct frame_cache_entry {
	uint64_t	addr;
	int32_t		pid;
	uint32_t	gen, kgen;
	struct nframe	*f;		/* what it resolved to; NULL: empty */
};

struct frame_cache {
	struct frame_cache_entry	*e;
	int32_t				*pids;	/* pid -> gen, open addressing */
	uint32_t			*gens;
	size_t				nr_pids, alloc_pids;
	uint32_t			next_gen;
	/*
	 * The last pid asked for and its gen, and the kernel's (each stack asks for both), until
	 * the next invalidation.
	 */
	int32_t				last_pid;
	uint32_t			last_gen, last_kgen;
	bool				last_ok, last_kok;
};

/* The frame cache is direct mapped: 2^FRAME_CACHE_BITS slots. */
#define FRAME_CACHE_BITS	16

int frame_cache_init(struct frame_cache *c);
void frame_cache_release(struct frame_cache *c);
/* The current generation of @pid's address space (-1: the kernel's). */
uint32_t frame_cache_gen(struct frame_cache *c, int32_t pid);
/* @pid's address space changes (MMAP, FORK); -1: the kernel's. 0 or -ENOMEM. */
int frame_cache_invalidate(struct frame_cache *c, int32_t pid);
/* The slot for (pid, addr): a hit when its key and generations match. */
static inline struct frame_cache_entry *frame_cache_slot(struct frame_cache *c, int32_t pid,
							  uint64_t addr)
{
	uint64_t h = (addr ^ ((uint64_t)(uint32_t)pid << 40)) * 0x9e3779b97f4a7c15ULL;

	return &c->e[h >> (64 - FRAME_CACHE_BITS)];
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

#define RESOLVE_MAX_STACK	127	/* perf report's default --max-stack */

/* ---- what a sample contributes (pipeline-sample.c) ---------------------------------------- */

/* Counter ids of every attr, with the value each had at its last PERF_SAMPLE_READ. */
struct read_id {
	uint64_t	id, last;
	uint32_t	attr;
};

struct read_ids {
	struct read_id	*v;		/* sorted by id */
	size_t		nr;
};

int read_ids_init(struct read_ids *t, const struct pd_reader *r);
void read_ids_release(struct read_ids *t);
/*
 * The period of counter @id since the last sample that read it (its @value now); its attr in
 * *attr, UINT32_MAX (and 0) when no attr owns the id.
 */
uint64_t read_ids_period(struct read_ids *t, uint64_t id, uint64_t value, uint32_t *attr);

/*
 * The entries of a recorded chain that hold its first RESOLVE_MAX_STACK frames (markers are no
 * frames): perf's --max-stack (thread__resolve_callchain_sample: "nr_entries < max_stack").
 * An LBR call stack is not cut (resolve_lbr_callchain_sample: the kernel part up to the user
 * marker within the first max_stack entries, then every branch).
 */
uint64_t chain_cut(const void *chain, uint64_t nr);
/* True when perf resolves this event's chains from the LBR call stack. */
bool sample_has_lbr_stack(const struct perf_event_attr *a);
/*
 * The chain perf resolves for an LBR call-stack sample, built in *buf (grown as needed):
 * *chain and *nr point at it, or at the sample's own chain when LBR does not apply. 0 or
 * -ENOMEM.
 */
int sample_lbr_chain(const struct pd_sample *s, uint64_t **buf, size_t *alloc,
		     const void **chain, uint64_t *nr);

/* ---- the work queue between the two sides (pipeline-queue.c) ------------------------------ */

/* What a batch holds, in order; each message is a whole number of u64 words. */
enum pipe_msg_type { PIPE_STACK = 1, PIPE_RECORD = 2, PIPE_UNWIND = 3 };

/* A distinct raw stack with its sums; nr call-chain words follow. */
struct pipe_stack {
	uint32_t	type;		/* PIPE_STACK */
	uint32_t	event;		/* attr index */
	int32_t		pid, tid;
	uint32_t	nr;
	uint16_t	misc;		/* header.misc cpumode bits */
	/*
	 * Set by the resolving side, before it replaces any address (pipeline-early.c or
	 * pipeline-kernel.c): the chain's first frame is the sample's ip, so the ip is not
	 * resolved on its own.
	 */
	bool		ip_first;
	/*
	 * Kernel frames (in the chain, and the ip with a kernel misc) become a struct nframe *,
	 * and so do user frames when named ahead (pipeline-early.c).
	 */
	uint64_t	ip, period, samples;
};

/* A record, checked by the reading side; its body follows, padded to 8 bytes. */
struct pipe_record {
	uint32_t	type;		/* PIPE_RECORD */
	uint32_t	rec_type;	/* PERF_RECORD_MMAP, _MMAP2, _COMM or _FORK */
	uint16_t	misc;
	uint32_t	body_len;
};

struct pipe_batch {
	uint64_t	*w;
	size_t		nr, alloc;	/* in words */
};

/*
 * Full batches in flight at most. Two are enough to keep both sides busy (a batch is 512 KiB
 * of work), and every batch more is memory that may be touched for the first time: on a
 * recording of many short processes the batches wait for the kernel's symbols
 * (pipeline-early.c), and with 8 per queue and a backlog of 32 ~20 MB of them were live at once
 * (docs/report.md).
 */
#define PIPE_DEPTH	2

/*
 * A bounded queue of full batches from one producer to one consumer, and the emptied batches
 * going back so that their memory is reused. Without a consumer thread (pipe_queue_init()
 * could not start one) the producer runs the consumer's function on each batch itself.
 */
struct pipe_queue {
	pthread_mutex_t		lock;
	pthread_cond_t		changed;	/* nr, closed or failed changed */
	struct pipe_batch	full[PIPE_DEPTH];
	size_t			head, nr;
	struct pipe_batch	spare[PIPE_DEPTH + 1];
	size_t			nr_spare;
	bool			closed;		/* the producer is done */
	bool			failed;		/* the consumer stopped on an error */
	bool			threaded;
	pthread_t		thread;
	int			(*consume)(void *arg, struct pipe_batch *b);
	int			(*drain)(void *arg);
	void			*arg;
	int			ret;		/* the consumer's first error */
};

/*
 * Start the consumer thread: it calls @consume for each batch in order, after @start (run
 * first, in that thread; a non-zero return fails the queue), and @drain (may be NULL) once the
 * producer is done and every batch consumed. @consume may keep a batch: it takes b->w and leaves
 * *b zeroed (the batch then owns its memory, to pipe_batch_release()). Returns 0 or -errno.
 */
int pipe_queue_init(struct pipe_queue *q, const char *name, int (*start)(void *arg),
		    int (*consume)(void *arg, struct pipe_batch *b), int (*drain)(void *arg),
		    void *arg);
/*
 * A batch goes on once it holds this many words (512 KiB). Every batch in flight is memory a
 * run may touch for the first time, at 1.1-1.9 ms per MB on a virtual machine whose host took
 * it back (docs/report.md); against 1 MiB batches the make -B report's peak RSS went from 49 to
 * 45 MB and its CPU time down 5% (collapse: 10%), with perf run just before, as in the bench.
 * For the report, 256 KiB batches were no faster, 128 KiB slower (more hand-overs).
 */
#define PIPE_BATCH_WORDS	(1u << 16)
/*
 * What a batch is first given: PIPE_BATCH_WORDS and room for the message that crosses it (a
 * record body is < 64 KiB), so that a batch is allocated once at its final size. Grown from
 * nothing by doubling, each batch was copied by ~12 reallocs into fresh pages (14M
 * instructions and ~3,500 page faults on a recording of 500K samples).
 */
#define PIPE_BATCH_ALLOC	(PIPE_BATCH_WORDS + (1u << 13))

uint64_t *pipe_batch_grow(struct pipe_batch *b, size_t words);
/* Space for @words more words at the end of @b; NULL on ENOMEM. Inline: it is per stack. */
static inline uint64_t *pipe_batch_room(struct pipe_batch *b, size_t words)
{
	if (b->w && words <= b->alloc - b->nr)
		return b->w + b->nr;
	return pipe_batch_grow(b, words);
}
/*
 * Hand over @b (left empty, with reused memory) when it holds at least @min_words. Blocks while
 * PIPE_DEPTH batches wait. Returns 0, or the consumer's error once it has failed.
 */
int pipe_queue_push(struct pipe_queue *q, struct pipe_batch *b, size_t min_words);
/*
 * Walk the messages of a batch in order: @stack for each stack (PIPE_STACK or PIPE_UNWIND: its
 * chain words follow it, an unwind message's registers and stack copy after them),
 * @record for each record (its body). Stops at the first non-zero return, which it returns.
 */
int pipe_batch_walk(uint64_t *w, size_t nr,
		    int (*stack)(void *arg, struct pipe_stack *st, uint64_t *chain),
		    int (*record)(void *arg, const struct pipe_record *rec, const char *body),
		    void *arg);
/*
 * The same, calling @ahead with the next message before @stack when that is a stack too
 * (PIPE_STACK), for the caller to start loading what the next stack will need.
 */
int pipe_batch_walk_ahead(uint64_t *w, size_t nr,
			  int (*stack)(void *arg, struct pipe_stack *st, uint64_t *chain),
			  int (*record)(void *arg, const struct pipe_record *rec, const char *body),
			  void (*ahead)(void *arg, const struct pipe_stack *st,
					const uint64_t *chain),
			  void *arg);
/*
 * A batch @consume kept, done with: to the queue's spares (emptied), which the producer's
 * pushes take, so that its memory is reused; freed when there are enough spares. @b is left
 * zeroed.
 */
void pipe_queue_recycle(struct pipe_queue *q, struct pipe_batch *b);
/* No more batches: wait for the consumer to finish them. Returns its error, or 0. */
int pipe_queue_finish(struct pipe_queue *q);
void pipe_batch_release(struct pipe_batch *b);


/*
 * The cpumode a call-chain context marker switches to, as perf's
 * thread__resolve_callchain_sample does; 0 for an unknown marker, which discards the chain
 * ("invalid callchain context").
 */
static inline unsigned int pipe_context_cpumode(uint64_t marker)
{
	switch (marker) {
	case (uint64_t)PERF_CONTEXT_HV:
		return PERF_RECORD_MISC_HYPERVISOR;
	case (uint64_t)PERF_CONTEXT_KERNEL:
		return PERF_RECORD_MISC_KERNEL;
	case (uint64_t)PERF_CONTEXT_USER:
		return PERF_RECORD_MISC_USER;
	default:
		return 0;
	}
}

/* An executable mapping from an MMAP or MMAP2 record (checked by the reading side). */
struct pipe_map {
	int32_t		pid;
	uint64_t	start, len, pgoff;
	const char	*filename;
	/* an MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID: the file's build-id, else length 0 */
	const uint8_t	*build_id;
	uint8_t		build_id_len;
};

/*
 * The recording's first kernel samples in order (pipeline-kernel-order.c): the module
 * mappings seen, until a sample has a kernel address outside all of them.
 */
struct kernel_order_range {
	uint64_t	start, end;
};
struct kernel_order {
	struct kernel_order_range	*mods;
	size_t				nr, alloc;
	bool				kernel_met;
};
/* A mapping from an MMAP record: a module's (pid -1) is noted. 0 or -ENOMEM. */
int kernel_order_map(struct kernel_order *o, const struct pipe_map *m);
/*
 * Whether the sample of @k must be passed on now, before any later one is added: it has a
 * kernel address, and none before it was outside every module.
 */
bool kernel_order_sample(struct kernel_order *o, const struct agg_key *k);
void kernel_order_release(struct kernel_order *o);

/*
 * The mapping of an MMAP or MMAP2 record, false when it is not one for the symbolizer: only
 * executable mappings are (it takes anonymous ones for JIT code). MMAP2 says so in prot, MMAP
 * marks data mappings (perf record -d) in misc.
 */
bool pipe_exec_map(const struct pipe_record *rec, const char *body, struct pipe_map *m);
/* Any MMAP or MMAP2 record's mapping (data and anonymous ones too); false for other records. */
bool pipe_any_map(const struct pipe_record *rec, const char *body, struct pipe_map *m);

/* ---- the kernel side (pipeline-kernel.c) -------------------------------------------------- */

/*
 * A named frame: a kernel one per distinct (address, kernel maps), made by the kernel side on
 * the reading thread; a user one per distinct symbolize result (symbol, module, identity),
 * interned by the resolving side (struct nframe_table) and shared by every process and address
 * that resolve alike. Never changed once made, apart from the resolving side's call graph id,
 * so a stack's frames find their ids without hashing them again -- for user frames, across
 * processes. The strings are the naming session's; everything lives until its maker is released.
 */
struct nframe {
	uint64_t	addr;		/* unresolved: the address perf script shows */
	const char	*sym, *dso;	/* sym NULL: unresolved */
	uint64_t	sym_id;		/* symbolize's identity of the symbol in its module */
	/*
	 * The frame's id in the call graph of event cg_event - 1 (0: none yet). Written by the
	 * resolving side only (zero when a kernel frame is handed over): its pointer is its key.
	 */
	uint32_t	cg_event, cg_id;
};

struct nframe_chunk;

/* A new zeroed nframe from the chunks at *@chunks; NULL on ENOMEM. */
struct nframe *nframe_new(struct nframe_chunk **chunks);
void nframe_chunks_free(struct nframe_chunk **chunks);

/* User nframes by what they name (open addressing). Zero-initialised is empty. */
struct nframe_table {
	struct nframe		**tab;
	size_t			nr, alloc;
	struct nframe_chunk	*chunks;
};

/*
 * The one nframe of (@sym, @dso, @id) (@addr: the unresolved frame's address, @id then too);
 * NULL on ENOMEM. Strings are compared by pointer: they are pooled by the session.
 */
struct nframe *nframe_intern(struct nframe_table *t, const char *sym, const char *dso,
			     uint64_t id, uint64_t addr);
void nframe_table_release(struct nframe_table *t);

struct kframe_slot {
	uint64_t	addr;
	struct nframe	*f;		/* NULL: empty */
};

/*
 * The kernel's symbols, loaded by a thread of their own while the file is read (kallsyms: ~50 ms
 * of the kernel formatting /proc/kallsyms), and the kernel frames of every batch named with them
 * on the resolving thread, before the batch's stacks are added (pipeline-early.c).
 * Started and joined by the reading thread; used by the resolving thread in between, once
 * kernel_side_ready() said the symbols are there.
 */
struct kernel_side {
	struct sym_opts		opts;		/* strings owned by the caller */
	struct sym_session	*sym;		/* the loader thread's until loaded */
	pthread_t		thread;
	bool			started, joined;
	pthread_mutex_t		lock;		/* over loaded, ret and sym until loaded */
	pthread_cond_t		loaded_cond;	/* loaded became true */
	bool			lock_inited;
	bool			loaded;		/* set by the loading thread when done */
	int			ret;		/* its result */
	const struct pd_build_id *ids;		/* the recording's, for the modules' */
	size_t			nr_ids;
	struct kframe_slot	*cache;		/* by address, direct mapped */
	struct nframe_chunk	*chunks;	/* the kernel nframes */
	bool			keep_ip_first;	/* of the batch being named: set already */
	char			err[256];
};

/*
 * Start loading the kernel symbols (in this thread when no other can start), with the
 * recording's build-ids of kernel modules among @ids (borrowed until kernel_side_wait()).
 * 0 or -errno.
 */
int kernel_side_start(struct kernel_side *k, const struct sym_opts *o,
		      const struct pd_build_id *ids, size_t nr_ids);
/* The build-ids of kernel modules among @ids to @s (sym_session_set_module_build_id). */
int kernel_module_build_ids(struct sym_session *s, const struct pd_build_id *ids, size_t nr);
/*
 * The recorded kernel's build-id into @so, as perf takes it: its BUILD_ID entry, and over it
 * the build-id of the kernel's own MMAP2 (perf record --buildid-mmap), which @mmap_id keeps
 * (the caller's, alive as long as @so).
 */
void kernel_build_id_opts(struct sym_opts *so, const struct pd_file_info *in, const char *path,
			  struct pd_build_id *mmap_id);
/* @so's kernel build-id in hex into @out when session @s found nothing that has it, else "". */
void kernel_build_id_missing(const struct sym_session *s, const struct sym_opts *so,
			     char out[41]);
int user_build_ids(struct sym_session *s, const struct pd_build_id *ids, size_t nr);
/*
 * Whether the symbols are loaded: 1, 0 (not yet; only when !@wait), or their loading error
 * (-errno; the reading side's kernel_side_wait() says what it is).
 */
int kernel_side_ready(struct kernel_side *k, bool wait);
/*
 * Name the kernel frames of a batch (after kernel_side_ready() said 1), applying its kernel
 * MMAPs where they stand; each stack's ip_first is set, unless @keep_ip_first (set already,
 * before user frames were named: pipeline-early.c). 0 or -ENOMEM.
 */
int kernel_side_name(struct kernel_side *k, uint64_t *w, size_t nr, bool keep_ip_first);
/*
 * The same message by message, for a walk that does more (pipe_batch_walk() callbacks, @arg the
 * kernel side; k->keep_ip_first as wanted): one stack's kernel frames, one record's kernel map.
 */
int kernel_side_name_stack(void *arg, struct pipe_stack *st, uint64_t *chain);
int kernel_side_map(void *arg, const struct pipe_record *rec, const char *body);
/* Wait for the loading thread (the reading side, at the end): 0, or the error (err filled). */
int kernel_side_wait(struct kernel_side *k, char *err, size_t errlen);
/* What is used for the kernel ("kallsyms PATH", ...), or NULL before kernel_side_wait(). */
const char *kernel_side_source(const struct kernel_side *k);
void kernel_side_release(struct kernel_side *k);

/* ---- inlined frames perf report may count under their function (pipeline-inlmaps.c) ------- */

/* Inlined frames of one name in one function, by event: the map object first seen. */
struct inl_key {
	const char		*dso, *name;	/* pooled: "NAME (inlined)" */
	const char		*base;		/* the function's symbol (pooled) */
	uint64_t		sym_id;
	uint32_t		event;
	struct sym_perf_map	map;		/* of the first frame */
	bool			multi;		/* reached through another map object too */
};

/* The keys, and the samples that had frames of them (runs of [samples, period, nr, key...]). */
struct inl_maps {
	struct inl_key	*keys;
	size_t		nr, alloc;
	uint32_t	*index;			/* key + 1, open addressing */
	size_t		index_alloc;
	uint64_t	*runs;
	size_t		nr_runs, runs_alloc, last_run;	/* in words */
	uint64_t	*cur;			/* the keys of the sample being added */
	size_t		nr_cur, cur_alloc;
};

/* An inlined frame of the sample being added, reached through map object @m. 0 or -ENOMEM. */
int inl_maps_frame(struct inl_maps *t, uint32_t event, const char *dso, const char *name,
		   uint64_t sym_id, const char *base, const struct sym_perf_map *m);
/* The sample (@samples of them, @period in all) is complete. 0 or -ENOMEM. */
int inl_maps_sample(struct inl_maps *t, uint64_t samples, uint64_t period);

/* What inl_maps_result() finds (all zero/NULL when nothing). */
struct inl_maps_said {
	uint64_t	samples;	/* samples with an inlined frame seen through two maps */
	uint64_t	nr_funcs;	/* the functions of those frames */
	char		*funcs;		/* their names, space separated, first seen first */
	uint64_t	*excess;	/* by function: the most perf's Children can add (period) */
	char		*files;		/* their files' basenames, space separated */
};
/* The samples with an inlined frame reached through more than one map object. 0 or -ENOMEM. */
int inl_maps_result(const struct inl_maps *t, struct inl_maps_said *r);
void inl_maps_said_release(struct inl_maps_said *r);
void inl_maps_release(struct inl_maps *t);

/* ---- the resolving side (pipeline-resolve.c) ---------------------------------------------- */

struct resolver {
	const struct profile_load_opts	*o;
	struct sym_opts			sym_opts;	/* strings owned by the caller */
	const struct pd_build_id	*build_ids;	/* the reader's, nr_build_ids */
	size_t				nr_build_ids;
	struct sym_session		*sym;
	struct callgraph		**cgs;		/* per attr, from its 1st sample */
	size_t				nr_attrs;
	struct comm_table		comms;
	/*
	 * A thread's name as interned by the graph, by tid: handed to the graph as its own, a
	 * stack's task is found in one probe (the graph's copy, not the comm table's, is what
	 * its tasks hold). Valid while comms_gen is theirs; COMM and FORK records bump it.
	 */
	struct comm_memo {
		const struct callgraph	*cg;
		int32_t			tid;
		uint32_t		gen;
		const char		*comm;
	}				comm_memo[256];
	uint32_t			comms_gen;
	struct frame_cache		frames_seen;
	struct nframe_table		names;		/* the user frames */
	uint32_t			gen, kgen;	/* of the stack being resolved */
	/*
	 * The stack being added (resolver_ids_reserve): as deep as its chain (LBR call stacks are
	 * not capped, pipeline-sample.c), plus the ip, plus a DWARF stack's inlined frames.
	 */
	uint32_t			*ids;
	size_t				ids_alloc;
	uint64_t			nr_self_elsewhere;	/* see stack_ids() */
	bool				detached;	/* of the stack being added */
	uint64_t			unwound_samples;	/* samples DWARF-unwound */
	uint64_t			unwind_short;	/* of those, no caller found */
	uint64_t			unwind_guessed;	/* of those, perf guesses on */
	uint64_t			unwind_unplaced;	/* ... a file libdwfl can't place */
	char				first_unplaced[256];	/* the first such file */
	bool				perf_maps;	/* every map to sym_session_add_perf_map */
	struct inl_maps			inl_maps;	/* unwound inlined frames, by map */
	/*
	 * pipeline-early.c: the naming thread (user frames, ahead) hands batches to the adding
	 * thread (kernel frames, the call graphs) through @adds; the batches waiting there for
	 * the kernel's symbols. Fields above are the naming thread's when @prename (user frames:
	 * sym, frames_seen, names, gen, kgen) or the adding thread's (the rest, and all of them
	 * without @prename), apart from an nframe's call graph id, which the adding thread keeps.
	 */
	struct kernel_side		*kernel;
	bool				prename;	/* user frames named ahead (not DWARF) */
	bool				prenamed;	/* the batch being added was */
	struct pipe_queue		adds;
	bool				adds_started;
	struct pipe_batch		*backlog;	/* in order, user frames named */
	size_t				nr_backlog, alloc_backlog;
	char				err[256];	/* why the adding thread failed */
	char				err_early[256];	/* why the naming thread failed */
};

/* Room for @n ids in r->ids. 0 or -ENOMEM. */
int resolver_ids_reserve(struct resolver *r, size_t n);
/*
 * The nframe user address @addr of @pid resolves to, under the generations r->gen and r->kgen
 * (through the frame cache); NULL on ENOMEM.
 */
struct nframe *resolver_user_nframe(struct resolver *r, int32_t pid, uint64_t addr);
/*
 * A record's effect on address spaces (the frame cache's generations, the session's maps and
 * forks), and the whole record: that, unless r->prenamed (done ahead), then thread names.
 * 0 or -errno.
 */
int resolver_apply_map_record(struct resolver *r, const struct pipe_record *rec,
			      const char *body);
int resolver_apply_record(struct resolver *r, const struct pipe_record *rec, const char *body);
/* Symbolize one distinct raw stack and add it to its event's graph. 0 or -errno. */
int resolver_add_stack(struct resolver *r, const struct pipe_stack *st, const uint64_t *chain);
/*
 * The pieces of it, for pipeline-unwind.c: the event's graph (created on first use, the
 * generations of the stack's address spaces set; NULL: bad event or ENOMEM), the call chain's
 * frames into r->ids (their number or -errno), one user address's frame id, and adding the
 * @n ids in r->ids.
 */
struct callgraph *resolver_graph(struct resolver *r, const struct pipe_stack *st);
long resolver_stack_ids(struct resolver *r, struct callgraph *cg, const struct pipe_stack *st,
			const uint64_t *chain);
int resolver_frame_id(struct resolver *r, struct callgraph *cg, uint32_t event, int32_t pid,
		      uint64_t addr, uint32_t *id);
int resolver_add_ids(struct resolver *r, struct callgraph *cg, const struct pipe_stack *st,
		     size_t n);

/* ---- samples with a user stack copy (pipeline-unwind.c) ----------------------------------- */

/* Whether the recording's ARCH (NULL: not recorded) is one the unwinder knows here. */
bool unwind_arch_ok(const char *arch);
/* The sample fields of a --call-graph dwarf recording. */
#define UNWIND_SAMPLE_BITS	(PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER)

/* Whether @s is to be DWARF-unwound, as perf decides it. */
enum unwind_want unwind_wanted(const struct perf_event_attr *attr, const struct pd_sample *s,
			       bool arch_ok);
/*
 * A PIPE_UNWIND message into @b: @st (its type replaced), its @chain of st->nr words, the DWARF
 * registers, the stack copy's length and bytes. 0 or -ENOMEM.
 */
int unwind_put(struct pipe_batch *b, const struct pipe_stack *st, const void *chain,
	       const struct perf_event_attr *attr, const struct pd_sample *s);
/* Words of a PIPE_UNWIND message after its header at @after. */
size_t unwind_msg_words(const struct pipe_stack *st, const uint64_t *after);
/* Unwind one PIPE_UNWIND message and add its stack. 0 or -errno. */
int resolver_unwind(struct resolver *r, const struct pipe_stack *st, const uint64_t *after);

/*
 * The resolving side's user-space sym_session, made by the reading thread before the resolving
 * one starts (so that it can announce files to its prefetch thread). 0 or -ENOMEM.
 */
int resolver_open_session(struct resolver *r);
/* The queue's start function (the frame cache). 0 or -errno with r->err set. */
int resolver_start(void *r);

/* ---- naming ahead of the kernel's symbols (pipeline-early.c) ------------------------------ */

/*
 * At most this many batches (1 MiB) wait for the kernel's symbols on the adding thread; then it
 * waits, and the naming thread and the reader after PIPE_DEPTH more each (see PIPE_DEPTH).
 */
#define EARLY_MAX_BACKLOG	2

/* Start the adding thread (before the naming one). 0 or -errno. */
int resolver_start_adds(struct resolver *r);
/*
 * One batch, the naming thread's consume function: its user frames named (r->prename), then on
 * to the adding thread, which names its kernel frames and adds its stacks to the graphs once the
 * kernel's symbols are there, in order after the batches kept before it. 0 or -errno with
 * r->err_early set.
 */
int resolver_consume(void *r, struct pipe_batch *b);
/*
 * After the naming thread is done (pipe_queue_finish() of its queue): the adding thread
 * finishes the batches it has, and stops. Its error (r->err set) or 0.
 */
int resolver_finish(struct resolver *r);
/*
 * Name the user frames of a batch (its records' effects on address spaces applied where they
 * stand): each stack's ip_first set, its user chain words (and a user ip that is resolved on its
 * own) replaced by struct nframe pointers, exactly as stack_ids() would resolve them. 0 or -errno.
 */
int resolver_prename(struct resolver *r, uint64_t *w, size_t nr);
void resolver_release(struct resolver *r);

#endif
