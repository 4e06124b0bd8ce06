// SPDX-License-Identifier: GPL-2.0
/*
 * callgraph.c - distinct stacks -> (period, samples), hash-consed.
 *
 * Three levels of interning make a repeated sample cheap and allocation-free:
 *  1. strings (symbol, module, comm) live once in a string table, so they compare with ==;
 *  2. a frame (sym, dso, addr, flags, sym_start) becomes a small integer id;
 *  3. a stack is (task id, frame ids) and is found by hashing those integers.
 * Adding a sample whose stack was seen before only hashes and adds two counters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

struct ext_frame {
	struct cg_frame	raw;		/* as the caller passed it, strings not interned */
	uint32_t	id;
};

/*
 * How many stacks callgraph_add_ids_soon() keeps before adding the oldest. Finding a stack is
 * three cache misses in a row in tables of several MiB: its slot in stack_tab, the record the
 * slot names, the ids the record points to (make -B: ~70% of add_ids' time). Each is loaded one
 * add later than the one before, while the caller names the next stacks, so that the oldest
 * stack's are all in the cache when it is added. The adds are the same, in the same order.
 */
#define CG_SOON	3
_Static_assert(CG_NO_IP == IDTAB_NONE, "no ip: no id");

struct cg_soon {
	struct cg_stack_rec	key;		/* .ids is buf */
	uint64_t		hash;
	uint32_t		*buf;
	size_t			alloc;
};

struct callgraph {
	struct strtab		strs;
	struct arena		ids_mem;	/* the frame id arrays of the stacks */

	struct cg_frame		*frames;	/* by frame id; strings interned */
	size_t			nr_frames, alloc_frames;
	struct idtab		frame_tab;

	struct cg_task		*tasks;		/* by task id; comm interned */
	size_t			nr_tasks, alloc_tasks;
	struct idtab		task_tab;
	/*
	 * The task of the last stack added (nr_tasks when none): the stacks of one thread come
	 * in a row. Its comm is the interned copy, which a caller's text never is unless it is
	 * that copy (callgraph_intern()), so a pointer match is a match of the text.
	 */
	uint32_t		last_task;

	struct cg_stack_rec	*stacks;
	size_t			nr_stacks, alloc_stacks;
	struct idtab		stack_tab;

	/* With stable strings: the caller's raw frames -> frame ids. */
	bool			stable_strings;
	struct ext_frame	*ext_frames;
	size_t			nr_ext_frames, alloc_ext_frames;
	struct idtab		ext_frame_tab;

	uint32_t		*scratch;	/* frame ids of the sample being added */
	size_t			alloc_scratch;
	size_t			max_nr;		/* deepest stack, sizes for_each's buffer */
	uint64_t		total_period, total_samples;

	/* callgraph_add_ids_soon()'s stacks not added yet, oldest at soon_head */
	struct cg_soon		soon[CG_SOON];
	size_t			soon_head, nr_soon;
	int			soon_err;	/* the first error of a deferred add */
};

struct callgraph *callgraph_new(void)
{
	struct callgraph *cg = calloc(1, sizeof(*cg));

	if (!cg)
		errno = ENOMEM;
	return cg;
}

void callgraph_free(struct callgraph *cg)
{
	if (!cg)
		return;
	strtab_release(&cg->strs);
	arena_release(&cg->ids_mem);
	free(cg->frames);
	idtab_release(&cg->frame_tab);
	free(cg->tasks);
	idtab_release(&cg->task_tab);
	free(cg->stacks);
	idtab_release(&cg->stack_tab);
	free(cg->ext_frames);
	idtab_release(&cg->ext_frame_tab);
	free(cg->scratch);
	for (size_t i = 0; i < CG_SOON; i++)
		free(cg->soon[i].buf);
	free(cg);
}

const char *callgraph_intern(struct callgraph *cg, const char *s)
{
	return strtab_intern(&cg->strs, s);
}

/* ---- frames ------------------------------------------------------------------------------- */

/* One mixing round over all fields: this runs for every frame of every sample. */
static uint64_t frame_hash(const struct cg_frame *f)
{
	uint64_t h = (uintptr_t)f->sym * 0x9e3779b97f4a7c15ULL;

	h ^= ((uintptr_t)f->dso << 17 | (uintptr_t)f->dso >> 47) * 0xc2b2ae3d27d4eb4fULL;
	h ^= f->addr * 0x165667b19e3779f9ULL ^ f->sym_start * 0x27d4eb2f165667c5ULL;
	return hash_u64(h ^ f->flags);
}

static bool frame_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct callgraph *cg = ctx;
	const struct cg_frame *a = &cg->frames[id], *b = key;

	return a->sym == b->sym && a->dso == b->dso && a->addr == b->addr &&
	       a->sym_start == b->sym_start && a->flags == b->flags;
}

/* The id of the frame @in with its strings interned, added if new. */
static uint32_t frame_intern(struct callgraph *cg, const struct cg_frame *in, int *err)
{
	struct cg_frame f = *in;
	uint64_t h;
	uint32_t id;

	f.dso = strtab_intern(&cg->strs, f.dso);
	if (f.sym)
		f.sym = strtab_intern(&cg->strs, f.sym);
	if (!f.dso || (in->sym && !f.sym)) {
		*err = -ENOMEM;
		return IDTAB_NONE;
	}
	h = frame_hash(&f);
	id = idtab_find(&cg->frame_tab, h, frame_eq, &f, cg);
	if (id == IDTAB_NONE)
		id = idtab_append(&cg->frame_tab, h, (void **)&cg->frames, &cg->nr_frames,
				  &cg->alloc_frames, &f, sizeof(f));
	if (id == IDTAB_NONE)
		*err = -ENOMEM;
	else
		cg->last_task = id;
	return id;
}

static bool ext_frame_eq(uint32_t i, const void *key, const void *ctx)
{
	const struct callgraph *cg = ctx;
	const struct cg_frame *a = &cg->ext_frames[i].raw, *b = key;

	return a->sym == b->sym && a->dso == b->dso && a->addr == b->addr &&
	       a->sym_start == b->sym_start && a->flags == b->flags;
}

/* The id of @in, added if new; IDTAB_NONE with *err set on failure. */
static uint32_t frame_id(struct callgraph *cg, const struct cg_frame *in, int *err)
{
	struct ext_frame x = { .raw = *in };
	uint64_t h;
	uint32_t i;

	if (!in->dso) {
		*err = -EINVAL;
		return IDTAB_NONE;
	}
	h = frame_hash(in);
	if (cg->stable_strings) {
		/* The caller's pointers stand for their text: one probe, no text hashed. */
		i = idtab_find(&cg->ext_frame_tab, h, ext_frame_eq, in, cg);
		if (i != IDTAB_NONE)
			return cg->ext_frames[i].id;
	} else {
		/* The frames table holds interned pointers only, so a match on the caller's
		 * pointers means they are interned already. */
		i = idtab_find(&cg->frame_tab, h, frame_eq, in, cg);
		if (i != IDTAB_NONE)
			return i;
	}
	x.id = frame_intern(cg, in, err);
	/* Failing to remember the mapping only costs speed. */
	if (x.id != IDTAB_NONE && cg->stable_strings)
		(void)idtab_append(&cg->ext_frame_tab, h, (void **)&cg->ext_frames,
				   &cg->nr_ext_frames, &cg->alloc_ext_frames, &x, sizeof(x));
	return x.id;
}

void callgraph_stable_strings(struct callgraph *cg, bool on)
{
	cg->stable_strings = on;
	/* The caller's pointers are only promised while on: forget them when it ends. */
	if (!on) {
		free(cg->ext_frames);
		cg->ext_frames = NULL;
		cg->nr_ext_frames = cg->alloc_ext_frames = 0;
		idtab_release(&cg->ext_frame_tab);
	}
}

/* ---- tasks -------------------------------------------------------------------------------- */

static uint64_t task_hash(const struct cg_task *t)
{
	uint64_t h = hash_ptr(t->comm);

	h = hash_combine(h, (uint32_t)t->pid);
	return hash_combine(h, (uint32_t)t->tid);
}

static bool task_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct callgraph *cg = ctx;
	const struct cg_task *a = &cg->tasks[id], *b = key;

	return a->comm == b->comm && a->pid == b->pid && a->tid == b->tid;
}

static uint32_t task_id(struct callgraph *cg, const struct cg_task *in, int *err)
{
	struct cg_task t = { .comm = NULL, .pid = -1, .tid = -1 };
	uint64_t h;
	uint32_t id;

	if (in)
		t = *in;
	if (cg->last_task < cg->nr_tasks && task_eq(cg->last_task, &t, cg))
		return cg->last_task;
	/* As for frames: a match on the caller's pointer means the comm is interned already. */
	h = task_hash(&t);
	id = idtab_find(&cg->task_tab, h, task_eq, &t, cg);
	if (id != IDTAB_NONE)
		return cg->last_task = id;
	if (t.comm && !(t.comm = strtab_intern(&cg->strs, t.comm))) {
		*err = -ENOMEM;
		return IDTAB_NONE;
	}
	h = task_hash(&t);
	id = idtab_find(&cg->task_tab, h, task_eq, &t, cg);
	if (id == IDTAB_NONE)
		id = idtab_append(&cg->task_tab, h, (void **)&cg->tasks, &cg->nr_tasks,
				  &cg->alloc_tasks, &t, sizeof(t));
	if (id == IDTAB_NONE)
		*err = -ENOMEM;
	return id;
}

/* ---- stacks ------------------------------------------------------------------------------- */

static uint64_t stack_hash(uint32_t task, const uint32_t *ids, size_t nr)
{
	uint64_t h = ((uint64_t)task << 32 | nr) * 0x9e3779b97f4a7c15ULL;
	size_t i;

	/* A multiply-rotate per id, one full mix at the end: cheap for deep stacks. */
	for (i = 0; i < nr; i++) {
		h = (h ^ ids[i]) * 0xc2b2ae3d27d4eb4fULL;
		h = h << 29 | h >> 35;
	}
	return hash_u64(h);
}

static bool stack_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct callgraph *cg = ctx;
	const struct cg_stack_rec *a = &cg->stacks[id], *b = key;

	return a->task == b->task && a->nr == b->nr && a->detached == b->detached &&
	       (!b->nr || memcmp(a->ids, b->ids, b->nr * sizeof(*b->ids)) == 0);
}

static int stack_new(struct callgraph *cg, const struct cg_stack_rec *key, uint64_t h)
{
	struct cg_stack_rec st = *key;
	uint32_t *ids = arena_alloc(&cg->ids_mem, key->nr * sizeof(*ids) + 1);

	if (!ids)
		return -ENOMEM;
	if (key->nr)	/* an empty stack may come before any scratch space exists */
		memcpy(ids, key->ids, key->nr * sizeof(*ids));
	st.ids = ids;
	if (idtab_append(&cg->stack_tab, h, (void **)&cg->stacks, &cg->nr_stacks,
			 &cg->alloc_stacks, &st, sizeof(st)) == IDTAB_NONE)
		return -ENOMEM;
	if (key->nr > cg->max_nr)
		cg->max_nr = key->nr;
	return 0;
}

/* Add the stack @key (hashed @h) with its weights. */
static int add_key(struct callgraph *cg, const struct cg_stack_rec *key, uint64_t h)
{
	uint32_t id = idtab_find(&cg->stack_tab, h, stack_eq, key, cg);

	if (id != IDTAB_NONE) {
		cg->stacks[id].period += key->period;
		cg->stacks[id].samples += key->samples;
	} else {
		int err = stack_new(cg, key, h);

		if (err)
			return err;
	}
	cg->total_period += key->period;
	cg->total_samples += key->samples;
	return 0;
}

static uint64_t key_hash(const struct cg_stack_rec *key)
{
	return stack_hash(key->task, key->ids, key->nr) ^ key->detached;
}

/* The oldest deferred stack, added now. */
static int soon_add_oldest(struct callgraph *cg)
{
	struct cg_soon *s = &cg->soon[cg->soon_head];
	int err = add_key(cg, &s->key, s->hash);

	cg->soon_head = (cg->soon_head + 1) % CG_SOON;
	cg->nr_soon--;
	if (err && !cg->soon_err)
		cg->soon_err = err;
	return err;
}

int callgraph_settle(struct callgraph *cg)
{
	if (!cg)
		return -EINVAL;
	while (cg->nr_soon)
		(void)soon_add_oldest(cg);
	return cg->soon_err;
}

/*
 * Queries see every stack added: a graph is used by one thread at a time, and settling changes
 * no answer, only when the deferred adds are done. An error stays for callgraph_settle().
 */
static void settle_for_query(const struct callgraph *cg)
{
	if (cg->nr_soon)
		(void)callgraph_settle((struct callgraph *)cg);
}

/* Add the stack of frame ids @ids[0..nr) (leaf first) for @task. */
static int add_ids(struct callgraph *cg, const struct cg_task *task, const uint32_t *ids,
		   size_t nr, bool detached, uint64_t period, uint64_t samples)
{
	struct cg_stack_rec key = {
		.period = period, .samples = samples, .nr = nr, .detached = detached,
	};
	int err = callgraph_settle(cg);

	if (err)
		return err;
	key.task = task_id(cg, task, &err);
	if (err)
		return err;
	key.ids = ids;
	return add_key(cg, &key, key_hash(&key));
}

/* The slot where finding hash @h starts, or NULL without slots. */
static const struct idtab_slot *first_slot(const struct callgraph *cg, uint64_t h)
{
	const struct idtab *t = &cg->stack_tab;

	return t->mask ? &t->slots[(uint32_t)h & t->mask] : NULL;
}

/* The record the first slot of @s names when its hash matches (a guess: it is only loaded). */
static const struct cg_stack_rec *likely_rec(const struct callgraph *cg, const struct cg_soon *s)
{
	const struct idtab_slot *slot = first_slot(cg, s->hash);

	if (!slot || slot->id == IDTAB_NONE || slot->hash != (uint32_t)s->hash ||
	    slot->id >= cg->nr_stacks)
		return NULL;
	return &cg->stacks[slot->id];
}

/*
 * Keep a stack (@ip_id first when it is not IDTAB_NONE: callgraph_add_ids_ip()) and start
 * loading what finding it needs; add the oldest kept stack once CG_SOON wait.
 */
static int add_soon(struct callgraph *cg, const struct cg_task *task, uint32_t ip_id,
		    const uint32_t *ids, size_t nr, uint64_t period, uint64_t samples)
{
	bool detached = ip_id != IDTAB_NONE;
	const struct cg_stack_rec *rec;
	struct cg_soon *s;
	int err = 0;

	if (cg->nr_soon == CG_SOON && soon_add_oldest(cg))
		return cg->soon_err;
	s = &cg->soon[(cg->soon_head + cg->nr_soon) % CG_SOON];
	if (array_reserve((void **)&s->buf, &s->alloc, nr + detached, sizeof(*s->buf)))
		return -ENOMEM;
	if (detached)
		s->buf[0] = ip_id;
	if (nr)
		memcpy(s->buf + detached, ids, nr * sizeof(*ids));
	s->key = (struct cg_stack_rec){
		.period = period, .samples = samples, .nr = nr + detached, .detached = detached,
		.ids = s->buf,
	};
	s->key.task = task_id(cg, task, &err);
	if (err)
		return err;
	s->hash = key_hash(&s->key);
	__builtin_prefetch(first_slot(cg, s->hash));
	/* the one kept before: its slot is loaded, load its record */
	if (cg->nr_soon >= 1 &&
	    (rec = likely_rec(cg, &cg->soon[(cg->soon_head + cg->nr_soon - 1) % CG_SOON])))
		__builtin_prefetch(rec);
	/* the one before that: its record is loaded, load its ids */
	if (cg->nr_soon >= 2 &&
	    (rec = likely_rec(cg, &cg->soon[(cg->soon_head + cg->nr_soon - 2) % CG_SOON])))
		__builtin_prefetch(rec->ids);
	cg->nr_soon++;
	return 0;
}

int callgraph_add(struct callgraph *cg, const struct cg_task *task,
		  const struct cg_frame *frames, size_t nr, uint64_t period, uint64_t samples)
{
	int err = 0;

	if (!cg || (nr && !frames) || nr >= IDTAB_NONE)
		return -EINVAL;
	if (array_reserve((void **)&cg->scratch, &cg->alloc_scratch, nr, sizeof(*cg->scratch)))
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		cg->scratch[i] = frame_id(cg, &frames[i], &err);
		if (err)
			return err;
	}
	return add_ids(cg, task, cg->scratch, nr, false, period, samples);
}

int callgraph_frame_id(struct callgraph *cg, const struct cg_frame *frame, uint32_t *id)
{
	int err = 0;

	if (!cg || !frame)
		return -EINVAL;
	*id = frame_id(cg, frame, &err);
	return err;
}

int callgraph_add_ids(struct callgraph *cg, const struct cg_task *task, const uint32_t *ids,
		      size_t nr, uint64_t period, uint64_t samples)
{
	if (!cg || (nr && !ids) || nr >= IDTAB_NONE)
		return -EINVAL;
	for (size_t i = 0; i < nr; i++)
		if (ids[i] >= cg->nr_frames)
			return -EINVAL;
	return add_ids(cg, task, ids, nr, false, period, samples);
}

int callgraph_add_ids_ip(struct callgraph *cg, const struct cg_task *task, uint32_t ip_id,
			 const uint32_t *ids, size_t nr, uint64_t period, uint64_t samples)
{
	if (!cg || (nr && !ids) || nr + 1 >= IDTAB_NONE || ip_id >= cg->nr_frames)
		return -EINVAL;
	for (size_t i = 0; i < nr; i++)
		if (ids[i] >= cg->nr_frames)
			return -EINVAL;
	if (array_reserve((void **)&cg->scratch, &cg->alloc_scratch, nr + 1,
			  sizeof(*cg->scratch)))
		return -ENOMEM;
	cg->scratch[0] = ip_id;
	if (nr)
		memcpy(cg->scratch + 1, ids, nr * sizeof(*ids));
	return add_ids(cg, task, cg->scratch, nr + 1, true, period, samples);
}

int callgraph_add_ids_soon(struct callgraph *cg, const struct cg_task *task, uint32_t ip_id,
			   const uint32_t *ids, size_t nr, uint64_t period, uint64_t samples)
{
	if (!cg || (nr && !ids) || nr + 1 >= IDTAB_NONE ||
	    (ip_id != IDTAB_NONE && ip_id >= cg->nr_frames))
		return -EINVAL;
	for (size_t i = 0; i < nr; i++)
		if (ids[i] >= cg->nr_frames)
			return -EINVAL;
	return add_soon(cg, task, ip_id, ids, nr, period, samples);
}

/* ---- queries ------------------------------------------------------------------------------ */

uint64_t callgraph_total_period(const struct callgraph *cg)
{
	settle_for_query(cg);
	return cg->total_period;
}

uint64_t callgraph_total_samples(const struct callgraph *cg)
{
	settle_for_query(cg);
	return cg->total_samples;
}

size_t callgraph_nr_stacks(const struct callgraph *cg)
{
	settle_for_query(cg);
	return cg->nr_stacks;
}

int callgraph_for_each(const struct callgraph *cg, cg_stack_fn fn, void *arg)
{
	struct cg_frame *buf = NULL;
	struct cg_stack st;
	size_t i, j;
	int ret = 0;

	settle_for_query(cg);
	if (cg->max_nr && !(buf = calloc(cg->max_nr, sizeof(*buf))))
		return -ENOMEM;
	for (i = 0; i < cg->nr_stacks && !ret; i++) {
		const struct cg_stack_rec *r = &cg->stacks[i];

		/* the chain only: a detached ip is not a frame of it */
		for (j = r->detached; j < r->nr; j++)
			buf[j - r->detached] = cg->frames[r->ids[j]];
		st = (struct cg_stack){
			.task = &cg->tasks[r->task], .frames = buf, .nr = r->nr - r->detached,
			.period = r->period, .samples = r->samples,
		};
		ret = fn(&st, arg);
	}
	free(buf);
	return ret;
}

/* ---- the internal view (output-int.h) --------------------------------------------------- */

size_t cg_nr_frames(const struct callgraph *cg)
{
	return cg->nr_frames;
}

const struct cg_frame *cg_frame_at(const struct callgraph *cg, uint32_t id)
{
	return &cg->frames[id];
}

const struct cg_task *cg_task_at(const struct callgraph *cg, uint32_t id)
{
	return &cg->tasks[id];
}

size_t cg_nr_stack_recs(const struct callgraph *cg)
{
	settle_for_query(cg);
	return cg->nr_stacks;
}

const struct cg_stack_rec *cg_stack_rec_at(const struct callgraph *cg, size_t i)
{
	settle_for_query(cg);
	return &cg->stacks[i];
}
