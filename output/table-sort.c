// SPDX-License-Identifier: GPL-2.0
/*
 * table-sort.c - `kprof report --format table` with perf report's other habits: --sort over
 * comm, pid, dso and symbol, --comm/--pid filters on samples and --dso on rows, --no-children,
 * --percent-limit. (The default dso,symbol Children table is table.c, byte-compatible with perf.)
 *
 * A row is one value of the sort key. The key's task fields (comm, pid) come from the sample,
 * its frame fields (dso, symbol) from each frame: Self is the weight of samples whose leaf has
 * the row's key, Children the weight of samples with the key anywhere in the chain, once each.
 * Without frame fields a sample has one key, and Children equals Self. Percentages are of every
 * sample, filtered or not (perf's default --percentage absolute); samples whose leaf has no
 * symbol are kept as [unknown] rows, as the default table does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

struct srow {
	const char	*comm;		/* NULL when not a sort field */
	int		pid;
	const char	*dso;
	const char	*sym;
	uint64_t	sym_start;
	bool		kernel;
	uint64_t	self, children;
};

struct sorter {
	const struct table_opts	*o;
	const struct callgraph	*cg;
	struct srow		*rows;
	size_t			nr, alloc;
	struct idtab		tab;
	size_t			*stamp;		/* per row: the last stack that counted it */
	size_t			stamp_alloc;
	uint64_t		total, nr_samples;
};

static bool has(const struct table_opts *o, enum table_sort_key k)
{
	for (size_t i = 0; i < o->nr_sort; i++)
		if (o->sort[i] == k)
			return true;
	return false;
}

static uint64_t srow_hash(const struct srow *r)
{
	uint64_t h = r->comm ? hash_str(r->comm) : 0;

	h = hash_combine(h, (uint64_t)(int64_t)r->pid);
	h = hash_combine(h, r->dso ? hash_str(r->dso) : 0);
	h = hash_combine(h, r->sym ? hash_str(r->sym) : 0);
	return hash_combine(h, r->sym_start);
}

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool srow_eq(uint32_t id, const void *key, const void *ctx)
{
	const struct sorter *s = ctx;
	const struct srow *a = &s->rows[id], *b = key;

	return a->pid == b->pid && a->sym_start == b->sym_start && str_eq(a->comm, b->comm) &&
	       str_eq(a->dso, b->dso) && str_eq(a->sym, b->sym);
}

static uint32_t row_of(struct sorter *s, const struct cg_task *t, const struct cg_frame *f)
{
	const struct table_opts *o = s->o;
	struct srow key = { .pid = -1 };
	uint64_t hash;
	uint32_t id;

	if (has(o, TABLE_SORT_COMM))
		key.comm = t && t->comm ? t->comm : "[unknown]";
	if (has(o, TABLE_SORT_PID))
		key.pid = t ? t->pid : -1;
	if (f && has(o, TABLE_SORT_DSO))
		key.dso = f->dso;
	if (f && has(o, TABLE_SORT_SYM)) {
		key.sym = f->sym ? f->sym : "[unknown]";
		key.sym_start = f->sym ? f->sym_start : 0;
		key.kernel = f->flags & CG_FRAME_KERNEL;
		if (!key.dso)
			key.dso = f->dso;	/* symbols of two modules stay apart */
	}
	hash = srow_hash(&key);
	id = idtab_find(&s->tab, hash, srow_eq, &key, s);
	if (id == IDTAB_NONE)
		id = idtab_append(&s->tab, hash, (void **)&s->rows, &s->nr, &s->alloc, &key,
				  sizeof(key));
	return id;
}

static bool in_list(const char *const *list, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (s && !strcmp(list[i], s))
			return true;
	return false;
}

static bool sample_kept(const struct table_opts *o, const struct cg_task *t)
{
	if (o->nr_comms && !in_list(o->comms, o->nr_comms, t ? t->comm : NULL))
		return false;
	if (o->nr_pids) {
		for (size_t i = 0; i < o->nr_pids; i++)
			if (t && t->pid == o->pids[i])
				return true;
		return false;
	}
	return true;
}

/* Children once per sample: a row met again higher in the same chain is not counted again. */
static int count_children(struct sorter *s, uint32_t id, size_t stack_no, uint64_t w)
{
	if (id >= s->stamp_alloc) {
		size_t n = s->stamp_alloc ? s->stamp_alloc * 2 : 1024;
		size_t *st;

		while (n <= id)
			n *= 2;
		st = realloc(s->stamp, n * sizeof(*st));
		if (!st)
			return -ENOMEM;
		memset(st + s->stamp_alloc, 0xff, (n - s->stamp_alloc) * sizeof(*st));
		s->stamp = st;
		s->stamp_alloc = n;
	}
	if (s->stamp[id] != stack_no) {
		s->stamp[id] = stack_no;
		s->rows[id].children += w;
	}
	return 0;
}

static int add_stack(struct sorter *s, const struct cg_stack_rec *r, size_t stack_no)
{
	const struct cg_task *t = cg_task_at(s->cg, r->task);
	bool frames = has(s->o, TABLE_SORT_DSO) || has(s->o, TABLE_SORT_SYM);
	uint64_t w = s->o->weight_samples ? r->samples : r->period;
	size_t n = frames ? r->nr : 1;
	int err = 0;

	if (frames && !r->nr)
		return 0;
	s->total += w;
	s->nr_samples += r->samples;
	if (!sample_kept(s->o, t))
		return 0;
	for (size_t j = 0; j < n && !err; j++) {
		const struct cg_frame *f = frames ? cg_frame_at(s->cg, r->ids[j]) : NULL;
		uint32_t id = row_of(s, t, f);

		if (id == IDTAB_NONE)
			return -ENOMEM;
		if (!j)
			s->rows[id].self += w;
		err = count_children(s, id, stack_no, w);
	}
	return err;
}

static bool dso_kept(const struct table_opts *o, const char *dso)
{
	char buf[DSO_SHORT_MAX];

	return !o->nr_dsos || in_list(o->dsos, o->nr_dsos, dso) ||
	       in_list(o->dsos, o->nr_dsos, dso_basename(dso)) ||
	       in_list(o->dsos, o->nr_dsos, dso_short_name(dso, buf));
}

static const struct table_opts *sort_opts;

static int srow_cmp(const void *a, const void *b)
{
	const struct srow *x = *(const struct srow *const *)a, *y = *(const struct srow *const *)b;
	uint64_t kx = sort_opts->no_children ? x->self : x->children;
	uint64_t ky = sort_opts->no_children ? y->self : y->children;
	char bx[DSO_SHORT_MAX], by[DSO_SHORT_MAX];
	int c;

	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	c = strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
	if (c)
		return c;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	c = strcmp(x->dso ? dso_short_name(x->dso, bx) : "", y->dso ? dso_short_name(y->dso, by) : "");
	return c ? c : strcmp(x->sym ? x->sym : "", y->sym ? y->sym : "");
}

static void write_header(FILE *fp, const struct sorter *s, int dso_width)
{
	const struct table_opts *o = s->o;

	table_write_counts(fp, o, s->nr_samples, s->total);
	fputs(o->no_children ? "#\n# Overhead" : "#\n# Children      Self", fp);
	for (size_t i = 0; i < o->nr_sort; i++) {
		switch (o->sort[i]) {
		case TABLE_SORT_COMM:
			fprintf(fp, "  %-16s", "Command");
			break;
		case TABLE_SORT_PID:
			fprintf(fp, "  %7s", "Pid");
			break;
		case TABLE_SORT_DSO:
			fprintf(fp, "  %-*s", dso_width, "Shared Object");
			break;
		case TABLE_SORT_SYM:
			fputs("  Symbol", fp);
			break;
		}
	}
	fputs("\n#\n", fp);
}

static void write_row(FILE *fp, const struct sorter *s, const struct srow *r, int dso_width)
{
	const struct table_opts *o = s->o;
	char buf[DSO_SHORT_MAX];

	if (o->no_children)
		fprintf(fp, "%9.2f%%", 100.0 * r->self / s->total);
	else
		fprintf(fp, "%9.2f%%  %7.2f%%", 100.0 * r->children / s->total,
			100.0 * r->self / s->total);
	for (size_t i = 0; i < o->nr_sort; i++) {
		switch (o->sort[i]) {
		case TABLE_SORT_COMM:
			fprintf(fp, "  %-16s", r->comm);
			break;
		case TABLE_SORT_PID:
			fprintf(fp, "  %7d", r->pid);
			break;
		case TABLE_SORT_DSO:
			fprintf(fp, "  %-*s", dso_width, dso_short_name(r->dso, buf));
			break;
		case TABLE_SORT_SYM:
			fprintf(fp, "  [%c] %s", r->kernel ? 'k' : '.', r->sym);
			break;
		}
	}
	putc('\n', fp);
}

int table_write_sorted(FILE *fp, const struct callgraph *cg, const struct table_opts *o)
{
	struct sorter s = { .o = o, .cg = cg };
	const struct srow **rows = NULL;
	size_t nr = 0, nr_stacks = cg_nr_stack_recs(cg);
	int dso_width = (int)strlen("Shared Object"), err = 0;

	for (size_t i = 0; i < nr_stacks && !err; i++)
		err = add_stack(&s, cg_stack_rec_at(cg, i), i);
	if (!err && !(rows = malloc((s.nr + 1) * sizeof(*rows))))
		err = -ENOMEM;
	for (size_t i = 0; !err && i < s.nr; i++) {
		const struct srow *r = &s.rows[i];
		double pct = s.total ? 100.0 * (o->no_children ? r->self : r->children) / s.total : 0;
		char buf[DSO_SHORT_MAX];
		int w = r->dso ? (int)strlen(dso_short_name(r->dso, buf)) : 0;

		if (!(o->no_children ? r->self : r->children) || pct < o->min_percent)
			continue;
		if (r->dso && !dso_kept(o, r->dso))
			continue;
		rows[nr++] = r;
		if (w > dso_width && w <= 160)
			dso_width = w;
	}
	if (!err) {
		sort_opts = o;	/* qsort has no context argument; the writers are not threaded */
		qsort(rows, nr, sizeof(*rows), srow_cmp);
		write_header(fp, &s, dso_width);
		for (size_t i = 0; i < nr; i++)
			write_row(fp, &s, rows[i], dso_width);
		if (ferror(fp))
			err = -EIO;
	}
	free(rows);
	free(s.rows);
	free(s.stamp);
	idtab_release(&s.tab);
	return err;
}
