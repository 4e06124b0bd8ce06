// SPDX-License-Identifier: GPL-2.0
/*
 * pprof.c - a call graph as pprof's profile.proto, encoded by protobuf-c (the .proto compiled
 * at build time from Debian's golang-github-google-pprof-dev) and gzip-compressed by zlib.
 *
 * One pass over the distinct stacks builds the message: a Sample per distinct stack, and the
 * Locations, Functions, Mappings and strings it needs the first time they are met. Labels are
 * shared by all samples of a task. The packed bytes stream through deflate into the FILE, so the
 * encoded profile is never held in memory whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profiler/export/export-int.h"
#include "profiler/export/export.h"
#include "profile.pb-c.h"

typedef Perftools__Profiles__Profile	pb_profile;
typedef Perftools__Profiles__Sample	pb_sample;
typedef Perftools__Profiles__Location	pb_location;
typedef Perftools__Profiles__Line	pb_line;
typedef Perftools__Profiles__Function	pb_function;
typedef Perftools__Profiles__Mapping	pb_mapping;
typedef Perftools__Profiles__Label	pb_label;
typedef Perftools__Profiles__ValueType	pb_value_type;

/* A mapping as it is being built: its message, and the address range its locations span. */
struct map_info {
	pb_mapping	msg;
	uint64_t	lo, hi;		/* hi 0: no address seen */
	uint64_t	self;		/* period of the samples whose leaf is here (main binary) */
	bool		user;
};

#define TASK_LABELS	3		/* comm, pid, tid */

/* A distinct stack until the message is assembled (its arrays still move until then). */
struct sample_info {
	size_t		at;		/* first location id in loc_ids */
	uint32_t	nr;
	uint32_t	task;
	int64_t		values[2];	/* samples, period */
};

struct pprof_builder {
	const struct export_event	*ev;
	const struct export_opts	*o;
	struct stab			strs;
	struct wmap			loc_keys, fn_keys, map_keys, task_keys;
	pb_location			*locs;		/* [loc_keys.nr] */
	pb_function			*fns;		/* [fn_keys.nr] */
	struct map_info			*maps;		/* [map_keys.nr] */
	pb_label			*labels;	/* TASK_LABELS per task */
	uint8_t				*nr_labels;	/* per task */
	size_t				alloc_locs, alloc_fns, alloc_maps, alloc_tasks;
	size_t				alloc_nr_labels;
	struct sample_info		*samples;
	size_t				nr_samples, alloc_samples;
	uint64_t			*loc_ids;	/* every sample's, back to back */
	size_t				nr_loc_ids, alloc_loc_ids;
};

static int str(struct pprof_builder *b, const char *s, int64_t *idx)
{
	return stab_index(&b->strs, s, idx);
}

static const struct export_build_id *find_build_id(const struct export_opts *o, const char *dso)
{
	for (size_t i = 0; i < o->nr_build_ids; i++)
		if (o->build_ids[i].filename && !strcmp(o->build_ids[i].filename, dso))
			return &o->build_ids[i];
	return NULL;
}

static int mapping_id(struct pprof_builder *b, const struct cg_frame *f, uint64_t *id)
{
	struct wkey k = { { (uintptr_t)f->dso, f->flags & CG_FRAME_KERNEL, 0, 0 } };
	const struct export_build_id *bid;
	char hex[2 * 64 + 1];
	struct map_info *m;
	uint32_t i;
	bool added;
	int ret;

	ret = wmap_get(&b->map_keys, &k, &i, &added);
	if (ret || !added) {
		*id = i + 1;
		return ret;
	}
	ret = xgrow(&b->maps, &b->alloc_maps, i + 1, sizeof(*b->maps));
	if (ret)
		return ret;
	m = &b->maps[i];
	*m = (struct map_info){ 0 };
	perftools__profiles__mapping__init(&m->msg);
	m->msg.id = i + 1;
	/* the names are the symbolizer's: the functions come with the profile */
	m->msg.has_functions = true;
	m->user = !(f->flags & CG_FRAME_KERNEL) && strcmp(f->dso, "[unknown]");
	ret = str(b, f->dso, &m->msg.filename);
	bid = find_build_id(b->o, f->dso);
	if (!ret && bid && bid->size && bid->size <= 64) {
		for (size_t j = 0; j < bid->size; j++)
			snprintf(hex + 2 * j, 3, "%02x", bid->id[j]);
		ret = str(b, hex, &m->msg.build_id);
	}
	*id = i + 1;
	return ret;
}

static int function_id(struct pprof_builder *b, const struct cg_frame *f, uint64_t *id)
{
	struct wkey k = { { (uintptr_t)f->sym, (uintptr_t)f->dso, f->sym_start,
			    f->flags & CG_FRAME_KERNEL } };
	char buf[512];
	pb_function *fn;
	uint32_t i;
	bool added;
	int ret;

	ret = wmap_get(&b->fn_keys, &k, &i, &added);
	*id = i + 1;
	if (ret || !added)
		return ret;
	ret = xgrow(&b->fns, &b->alloc_fns, i + 1, sizeof(*b->fns));
	if (ret)
		return ret;
	fn = &b->fns[i];
	perftools__profiles__function__init(fn);
	fn->id = i + 1;
	ret = str(b, export_frame_name(f, buf, sizeof(buf)), &fn->name);
	fn->system_name = fn->name;
	return ret;
}

static int location_id(struct pprof_builder *b, const struct cg_frame *f, uint64_t *id)
{
	uint64_t addr = f->sym ? f->sym_start : f->addr;
	struct wkey k = { { (uintptr_t)f->sym, (uintptr_t)f->dso, addr,
			    f->flags & CG_FRAME_KERNEL } };
	struct map_info *m;
	pb_location *loc;
	uint32_t i;
	bool added;
	int ret;

	ret = wmap_get(&b->loc_keys, &k, &i, &added);
	*id = i + 1;
	if (ret || !added)
		return ret;
	if (xgrow(&b->locs, &b->alloc_locs, i + 1, sizeof(*b->locs)))
		return -ENOMEM;
	loc = &b->locs[i];
	perftools__profiles__location__init(loc);
	loc->id = i + 1;
	loc->address = addr;
	ret = mapping_id(b, f, &loc->mapping_id);
	if (ret)
		return ret;
	m = &b->maps[loc->mapping_id - 1];
	if (addr && (!m->msg.memory_limit || addr < m->msg.memory_start))
		m->msg.memory_start = addr;
	if (addr && addr >= m->msg.memory_limit)
		m->msg.memory_limit = addr + 1;
	/* the Line (function) is kept in loc->n_line's place until the arrays stop moving */
	return function_id(b, f, &loc->n_line);
}

static int task_index(struct pprof_builder *b, const struct cg_task *t, uint32_t *idx)
{
	struct wkey k = { { (uintptr_t)t->comm, (uint64_t)(int64_t)t->pid,
			    (uint64_t)(int64_t)t->tid, 0 } };
	pb_label *l;
	uint8_t n = 0;
	bool added;
	int ret;

	ret = wmap_get(&b->task_keys, &k, idx, &added);
	if (ret || !added)
		return ret;
	if (xgrow(&b->labels, &b->alloc_tasks, *idx + 1, TASK_LABELS * sizeof(*b->labels)) ||
	    xgrow(&b->nr_labels, &b->alloc_nr_labels, *idx + 1, sizeof(*b->nr_labels)))
		return -ENOMEM;
	l = &b->labels[*idx * TASK_LABELS];
	if (t->comm) {
		perftools__profiles__label__init(&l[n]);
		ret = str(b, "comm", &l[n].key) ?: str(b, t->comm, &l[n].str);
		n++;
	}
	if (!ret && t->pid >= 0) {
		perftools__profiles__label__init(&l[n]);
		ret = str(b, "pid", &l[n].key);
		l[n++].num = t->pid;
	}
	if (!ret && t->tid >= 0) {
		perftools__profiles__label__init(&l[n]);
		ret = str(b, "tid", &l[n].key);
		l[n++].num = t->tid;
	}
	b->nr_labels[*idx] = n;
	return ret;
}

static int add_stack(const struct cg_stack *st, void *arg)
{
	struct pprof_builder *b = arg;
	size_t at = b->nr_loc_ids;
	uint32_t task;
	int ret;

	if (!st->nr || !st->samples)
		return 0;
	if (xgrow(&b->samples, &b->alloc_samples, b->nr_samples + 1, sizeof(*b->samples)) ||
	    xgrow(&b->loc_ids, &b->alloc_loc_ids, at + st->nr, sizeof(*b->loc_ids)))
		return -ENOMEM;
	/* pprof wants the leaf first, as perf records it and the call graph keeps it */
	for (size_t i = 0; i < st->nr; i++) {
		ret = location_id(b, &st->frames[i], &b->loc_ids[at + i]);
		if (ret)
			return ret;
	}
	ret = task_index(b, st->task, &task);
	if (ret)
		return ret;
	if (st->frames[0].sym)
		b->maps[b->locs[b->loc_ids[at] - 1].mapping_id - 1].self += st->period;
	b->samples[b->nr_samples++] = (struct sample_info){
		.at = at, .nr = (uint32_t)st->nr, .task = task,
		.values = { (int64_t)st->samples, (int64_t)st->period },
	};
	b->nr_loc_ids += st->nr;
	return 0;
}

/* ---- the gzip stream ------------------------------------------------------------------------ */

struct gz_buffer {
	ProtobufCBuffer	base;
	z_stream	z;
	FILE		*fp;
	int		err;
	unsigned char	out[1 << 16];
};

static void gz_drain(struct gz_buffer *g, int flush)
{
	int zret;

	do {
		g->z.next_out = g->out;
		g->z.avail_out = sizeof(g->out);
		zret = deflate(&g->z, flush);
		if (zret == Z_STREAM_ERROR) {
			g->err = -EIO;
			return;
		}
		size_t n = sizeof(g->out) - g->z.avail_out;

		if (n && fwrite(g->out, 1, n, g->fp) != n) {
			g->err = -EIO;
			return;
		}
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && zret != Z_STREAM_END));
}

static void gz_append(ProtobufCBuffer *buf, size_t len, const uint8_t *data)
{
	struct gz_buffer *g = (struct gz_buffer *)buf;

	while (!g->err && len) {
		uInt n = len > (1u << 30) ? 1u << 30 : (uInt)len;

		g->z.next_in = (Bytef *)data;
		g->z.avail_in = n;
		gz_drain(g, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

/* Pack @p gzip-compressed into @fp: windowBits 15 + 16 asks zlib for the gzip wrapper. */
static int write_gzip(FILE *fp, const pb_profile *p)
{
	struct gz_buffer *g = calloc(1, sizeof(*g));
	int ret;

	if (!g)
		return -ENOMEM;
	g->base.append = gz_append;
	g->fp = fp;
	if (deflateInit2(&g->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return -ENOMEM;
	}
	perftools__profiles__profile__pack_to_buffer(p, &g->base);
	if (!g->err)
		gz_drain(g, Z_FINISH);
	deflateEnd(&g->z);
	ret = g->err;
	free(g);
	return ret;
}

/* ---- assembling the message ----------------------------------------------------------------- */

/* The main binary first (pprof's mapping[0]): the user file with the most self weight. */
static int cmp_main_first(const void *a, const void *b)
{
	const struct map_info *x = *(struct map_info *const *)a;
	const struct map_info *y = *(struct map_info *const *)b;

	if (x->user != y->user)
		return x->user ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return x->msg.id < y->msg.id ? -1 : 1;
}

static int64_t period_of(const struct export_event *ev, const char *unit)
{
	if (ev->period)
		return (int64_t)ev->period;
	if (ev->freq && !strcmp(unit, "nanoseconds"))
		return (int64_t)(1000000000ULL / ev->freq);
	return 0;
}

static int assemble(struct pprof_builder *b, FILE *fp)
{
	const char *unit = export_event_unit(b->ev->name);
	pb_value_type types[2], period_type, *type_ptrs[2] = { &types[0], &types[1] };
	pb_profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	size_t nr_locs = b->loc_keys.nr, nr_fns = b->fn_keys.nr, nr_maps = b->map_keys.nr;
	size_t nr_tasks = b->task_keys.nr;
	pb_sample *samples = malloc((b->nr_samples + 1) * sizeof(*samples));
	pb_sample **sp = malloc((b->nr_samples + 1) * sizeof(*sp));
	pb_line *lines = malloc((nr_locs + 1) * sizeof(*lines));
	pb_location **lp = malloc((nr_locs + 1) * sizeof(*lp));
	pb_line **linep = malloc((nr_locs + 1) * sizeof(*linep));
	pb_function **fp_ = malloc((nr_fns + 1) * sizeof(*fp_));
	pb_mapping **mp = malloc((nr_maps + 1) * sizeof(*mp));
	struct map_info **order = malloc((nr_maps + 1) * sizeof(*order));
	pb_label **lab = malloc((nr_tasks * TASK_LABELS + 1) * sizeof(*lab));
	int64_t *comments = malloc((b->o->nr_comments + 1) * sizeof(*comments));
	int ret = 0;

	if (!sp || !lp || !linep || !fp_ || !mp || !order || !lab || !comments ||
	    !samples || !lines) {
		ret = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < 2; i++)
		perftools__profiles__value_type__init(&types[i]);
	perftools__profiles__value_type__init(&period_type);
	ret = str(b, "samples", &types[0].type) ?: str(b, "count", &types[0].unit) ?:
	      str(b, b->ev->name, &types[1].type) ?: str(b, unit, &types[1].unit) ?:
	      str(b, b->ev->name, &period_type.type) ?: str(b, unit, &period_type.unit);
	for (size_t i = 0; !ret && i < b->o->nr_comments; i++)
		ret = str(b, b->o->comments[i], &comments[i]);
	if (ret)
		goto out;

	for (size_t i = 0; i < nr_tasks * TASK_LABELS; i++)
		lab[i] = &b->labels[i];
	for (size_t i = 0; i < b->nr_samples; i++) {
		struct sample_info *si = &b->samples[i];
		pb_sample *s = &samples[i];

		perftools__profiles__sample__init(s);
		s->n_location_id = si->nr;
		s->location_id = b->loc_ids + si->at;
		s->n_value = 2;
		s->value = si->values;
		s->n_label = b->nr_labels[si->task];
		s->label = &lab[si->task * TASK_LABELS];
		sp[i] = s;
	}
	for (size_t i = 0; i < nr_locs; i++) {
		pb_location *l = &b->locs[i];

		perftools__profiles__line__init(&lines[i]);
		lines[i].function_id = l->n_line;
		linep[i] = &lines[i];
		l->n_line = 1;
		l->line = &linep[i];
		lp[i] = l;
	}
	for (size_t i = 0; i < nr_fns; i++)
		fp_[i] = &b->fns[i];
	for (size_t i = 0; i < nr_maps; i++)
		order[i] = &b->maps[i];
	qsort(order, nr_maps, sizeof(*order), cmp_main_first);
	for (size_t i = 0; i < nr_maps; i++)
		mp[i] = &order[i]->msg;

	p.n_sample_type = 2;
	p.sample_type = type_ptrs;
	p.n_sample = b->nr_samples;
	p.sample = sp;
	p.n_mapping = nr_maps;
	p.mapping = mp;
	p.n_location = nr_locs;
	p.location = lp;
	p.n_function = nr_fns;
	p.function = fp_;
	p.n_string_table = b->strs.nr;
	p.string_table = b->strs.texts;
	p.period_type = &period_type;
	p.period = period_of(b->ev, unit);
	p.n_comment = b->o->nr_comments;
	p.comment = comments;
	p.default_sample_type = types[1].type;
	ret = write_gzip(fp, &p);
out:
	free(samples);
	free(lines);
	free(sp);
	free(lp);
	free(linep);
	free(fp_);
	free(mp);
	free(order);
	free(lab);
	free(comments);
	return ret;
}

static void builder_release(struct pprof_builder *b)
{
	stab_release(&b->strs);
	wmap_release(&b->loc_keys);
	wmap_release(&b->fn_keys);
	wmap_release(&b->map_keys);
	wmap_release(&b->task_keys);
	free(b->locs);
	free(b->fns);
	free(b->maps);
	free(b->labels);
	free(b->nr_labels);
	free(b->samples);
	free(b->loc_ids);
}

int export_pprof(FILE *fp, const struct export_event *ev, const struct export_opts *o)
{
	static const struct export_opts defaults;
	struct pprof_builder b = { .ev = ev, .o = o ? o : &defaults };
	int ret;

	if (!callgraph_total_samples(ev->cg))
		return -ENODATA;
	ret = stab_init(&b.strs);
	if (!ret)
		ret = callgraph_for_each(ev->cg, add_stack, &b);
	if (!ret)
		ret = assemble(&b, fp);
	builder_release(&b);
	return ret;
}
