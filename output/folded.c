// SPDX-License-Identifier: GPL-2.0
/*
 * folded.c - collapsed stacks exactly as stackcollapse-perf.pl prints them.
 *
 * One line per distinct folded stack, "root;...;leaf count", where the root is the process
 * name and the count the summed period (or sample count). Distinct graph stacks can fold into
 * the same line (addresses or pids not shown, same names in two modules), so lines are summed
 * by text and then sorted bytewise, as Perl's `sort { $a cmp $b } keys %collapsed`.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output-int.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * The Perl script's kernel test is on the module: `$mod =~ m/(^\[|vmlinux$)/ && $mod !~
 * /unknown/` (so "[vdso]" frames are annotated too); frames flagged kernel count as well.
 */
static bool is_kernel_frame(const struct cg_frame *f)
{
	if (strstr(f->dso, "unknown"))
		return false;
	return (f->flags & CG_FRAME_KERNEL) || f->dso[0] == '[' || ends_with(f->dso, "vmlinux");
}

/* Append @s with ';' turned into ':' (a ';' would split the frame), control bytes into '?'. */
static int put_name(struct strbuf *b, const char *s)
{
	return sb_put_clean(b, s, strlen(s), true);
}

/* Go method names ("net/http.(*Client).Do") keep their parentheses: m/\.\(.*\)\./ */
static bool is_go_method(const char *s)
{
	const char *open = strstr(s, ".(");

	return open && strstr(open + 2, ").");
}

/*
 * stackcollapse-perf.pl's tidying of the frame text from @start on (its tidy_generic and
 * tidy_java): everything from the first '(' not opening "(anonymous namespace)" is removed
 * unless the name looks like a Go method, quotes are deleted, and in Java processes a leading
 * 'L' goes from names holding a '/'.
 */
static void tidy_name(struct strbuf *b, size_t start, bool java)
{
	char *s = b->s + start, *p, *out;

	if (!is_go_method(s)) {
		for (p = s; (p = strchr(p, '(')); p++) {
			if (strncmp(p + 1, "anonymous namespace)", 20)) {
				*p = '\0';
				break;
			}
		}
	}
	for (p = out = s; *p; p++) {
		if (*p != '"' && *p != '\'')
			*out++ = *p;
	}
	*out = '\0';
	if (java && s[0] == 'L' && strchr(s, '/'))
		memmove(s, s + 1, strlen(s));
	b->len = start + strlen(s);
}

/*
 * Where stackcollapse's /(.+) \((\S*)\)/ splits perf script's "[unknown] (DSO)" inside DSO:
 * its greedy (.+) ends at the last " (" that non-space characters and a ')' follow (the line's
 * own closing one when they run to the end). A DSO like "/memfd:x (deleted)" has one: the
 * frame is then "[unknown] (/memfd:x", module "deleted". NULL when the split is the usual one.
 */
static const char *unknown_split(const char *dso)
{
	const char *split = NULL;

	for (const char *p = strstr(dso, " ("); p; p = strstr(p + 1, " (")) {
		size_t run = strcspn(p + 2, " ");

		if (!p[2 + run] || memchr(p + 2, ')', run))
			split = p;
	}
	return split;
}

bool folded_name_left_out(const char *name, size_t len, bool perl_compat)
{
	static const char anon[] = "(anonymous namespace)";

	if (!len || name[0] != '(')
		return false;
	return perl_compat || len < sizeof(anon) - 1 || memcmp(name, anon, sizeof(anon) - 1);
}

/* Frames of perf's names left out by the script's rule (FOLDED_TIDY: names not yet its own). */
static bool frame_left_out(const struct cg_frame *f, unsigned int flags)
{
	return (flags & FOLDED_TIDY) && f->sym &&
	       folded_name_left_out(f->sym, strlen(f->sym), flags & FOLDED_PERL_COMPAT);
}

static int put_frame(struct strbuf *b, const struct cg_frame *f, unsigned int flags,
		     bool java)
{
	const char *split;
	size_t start = b->len;
	char addr[24];
	int err;

	if (f->sym && (f->flags & CG_FRAME_INLINED)) {
		/* perf script prints "NAME+OFF (inlined)", stackcollapse keeps NAME */
		const char *cut = strstr(f->sym, " (inlined)");

		err = sb_putn(b, f->sym, cut ? (size_t)(cut - f->sym) : strlen(f->sym));
	} else if (f->sym) {
		err = put_name(b, f->sym);
	} else if ((split = unknown_split(f->dso))) {
		char *head = strndup(f->dso, (size_t)(split - f->dso));

		err = head ? sb_puts(b, "[unknown] (") ?: put_name(b, head) : -ENOMEM;
		free(head);
	} else {
		/* "[unknown]" becomes "[<module basename>]" when the module is known. */
		const char *mod = strcmp(f->dso, "[unknown]") ? dso_basename(f->dso) : "unknown";

		err = sb_putn(b, "[", 1) ?: put_name(b, mod);
		if (!err && (flags & FOLDED_ADDRS)) {
			snprintf(addr, sizeof(addr), " <%" PRIx64 ">", f->addr);
			err = sb_puts(b, addr);
		}
		err = err ?: sb_putn(b, "]", 1);
	}
	if (!err && (flags & FOLDED_TIDY))
		tidy_name(b, start, java);
	if (!err && (flags & FOLDED_KERNEL) && is_kernel_frame(f))
		err = sb_puts(b, "_[k]");
	return err;
}

/*
 * Each distinct frame's text, rendered once: a frame recurs in thousands of stacks, and
 * rendering it (';' escaping, the script's tidying, the kernel test) costs far more than
 * copying the result. Java processes tidy differently, so each kind of process has its own.
 */
struct frame_texts {
	struct strbuf	text;		/* the rendered frames, back to back */
	size_t		*at;		/* by frame id: offset in text + 1; 0: not rendered yet */
	size_t		*len;		/* LEFT_OUT: the frame is not printed (frame_left_out) */
};

#define LEFT_OUT	SIZE_MAX

static void frame_texts_release(struct frame_texts *ft)
{
	free(ft->text.s);
	free(ft->at);
	free(ft->len);
}

/*
 * Append the text of frame @id to @b, rendering it into @ft on first use. 0, 1 when the frame is
 * left out, or -errno.
 */
static int put_frame_id(struct strbuf *b, const struct callgraph *cg, uint32_t id,
			unsigned int flags, bool java, struct frame_texts *ft)
{
	size_t start = ft->text.len;
	int err;

	if (!ft->at) {
		ft->at = calloc(cg_nr_frames(cg), sizeof(*ft->at));
		ft->len = calloc(cg_nr_frames(cg), sizeof(*ft->len));
		if (!ft->at || !ft->len)
			return -ENOMEM;
	}
	if (!ft->at[id]) {
		const struct cg_frame *f = cg_frame_at(cg, id);
		bool out = frame_left_out(f, flags);

		err = out ? 0 : put_frame(&ft->text, f, flags, java);
		if (err)
			return err;
		ft->at[id] = start + 1;
		ft->len[id] = out ? LEFT_OUT : ft->text.len - start;
	}
	if (ft->len[id] == LEFT_OUT)
		return 1;
	return ft->len[id] ? sb_putn(b, ft->text.s + ft->at[id] - 1, ft->len[id]) : 0;
}

static void put_id(char *buf, size_t len, int id)
{
	if (id < 0)
		snprintf(buf, len, "?");	/* the script's "?" when perf printed no pid */
	else
		snprintf(buf, len, "%d", id);
}

/* The root frame: comm with spaces as '_' (and put_name()'s rules), then "-PID" or "-PID/TID". */
static int put_root(struct strbuf *b, const struct cg_task *t, unsigned int flags)
{
	char pid[16], tid[16];
	size_t start = b->len, i;
	int err;

	put_id(pid, sizeof(pid), t->pid);
	put_id(tid, sizeof(tid), t->tid);
	err = put_name(b, t->comm);
	if (!err && (flags & (FOLDED_PID | FOLDED_TID)))
		err = sb_putn(b, "-", 1) ?: sb_puts(b, pid);
	if (!err && (flags & FOLDED_TID))
		err = sb_putn(b, "/", 1) ?: sb_puts(b, tid);
	for (i = start; !err && i < b->len; i++) {
		if (b->s[i] == ' ')
			b->s[i] = '_';
	}
	return err;
}

/* @texts: the frame texts of ordinary [0] and Java [1] processes. */
static int fold_stack(struct strbuf *b, const struct callgraph *cg,
		      const struct cg_stack_rec *r, unsigned int flags, struct frame_texts *texts)
{
	const struct cg_task *t = cg_task_at(cg, r->task);
	bool java = t->comm && !strncmp(t->comm, "java", 4);	/* the script's /^java/ */
	size_t j;
	int err = 0;

	b->len = 0;
	if (t->comm)
		err = put_root(b, t, flags);
	for (j = r->nr; j-- > (size_t)r->detached && !err;) {	/* root first, the chain */
		size_t before = b->len;

		if (b->len)
			err = sb_putn(b, ";", 1);
		err = err ?: put_frame_id(b, cg, r->ids[j], flags, java, &texts[java]);
		if (err == 1) {		/* left out, and its separator with it */
			sb_truncate(b, before);
			err = 0;
		}
	}
	return err;
}

/*
 * The lines go out in blocks of this size: through stdio a line at a time they were two locked
 * calls each, and a stream's default buffer is one 4 KiB write() per 4 KiB of output.
 */
#define OUT_BLOCK	(256 << 10)

struct line_out {
	FILE	*fp;
	char	*buf;		/* OUT_BLOCK bytes; NULL: lines go to @fp one by one */
	size_t	len;
};

static void out_flush(struct line_out *o)
{
	if (o->len)
		fwrite(o->buf, 1, o->len, o->fp);
	o->len = 0;
}

/* "KEY COUNT\n": fprintf's format parsing cost more than the rest of a line's output. */
static void put_line(struct line_out *o, const char *key, uint64_t count)
{
	char digits[24], *p = digits + sizeof(digits);
	size_t klen = strlen(key), dlen;

	*--p = '\n';
	do
		*--p = (char)('0' + count % 10);
	while ((count /= 10));
	*--p = ' ';
	dlen = (size_t)(digits + sizeof(digits) - p);
	if (o->buf && o->len + klen + dlen > OUT_BLOCK)
		out_flush(o);
	if (!o->buf || klen + dlen > OUT_BLOCK) {
		fwrite(key, 1, klen, o->fp);
		fwrite(p, 1, dlen, o->fp);
		return;
	}
	memcpy(o->buf + o->len, key, klen);
	memcpy(o->buf + o->len + klen, p, dlen);
	o->len += klen + dlen;
}

/*
 * A graph of at least this many stacks is folded in two parts, the second on a thread of its
 * own: folding, summing and sorting the 29,023 stacks of a make -B recording (28,837 lines)
 * took ~15 ms of `kprof collapse`, alone at the end of the run, every other thread done. Each
 * part sorts its own lines, and the two sorted runs are merged as they are written.
 */
#define FOLD_SPLIT_MIN	4096

/* A part of the graph's stacks, folded, summed by text and sorted. */
struct fold_part {
	const struct callgraph	*cg;
	unsigned int		flags;
	size_t			from, to;	/* stack records */
	struct str_sums		lines;
	int			err;
};

static void *fold_part(void *arg)
{
	struct fold_part *p = arg;
	struct frame_texts texts[2] = { 0 };
	struct strbuf b = { 0 };

	for (size_t i = p->from; i < p->to && !p->err; i++) {
		const struct cg_stack_rec *r = cg_stack_rec_at(p->cg, i);

		p->err = fold_stack(&b, p->cg, r, p->flags, texts);
		if (!p->err && b.len)	/* the script prints nothing for an empty stack */
			p->err = str_sums_add(&p->lines, b.s, b.len,
					      p->flags & FOLDED_SAMPLES ? r->samples : r->period);
	}
	/* Sorting the sums array itself breaks its index, which is not used again. */
	if (!p->err)
		str_sums_sort(p->lines.v, p->lines.nr);
	free(b.s);
	frame_texts_release(&texts[0]);
	frame_texts_release(&texts[1]);
	return NULL;
}

/*
 * The lines of two sorted parts in order. A text can be in both (two stacks that fold alike,
 * one in each part): its line is printed once with the sum of both counts, as if one part had
 * summed it.
 */
static void write_merged(FILE *fp, const struct str_sums *a, const struct str_sums *b)
{
	/* without the block (ENOMEM), the lines go to the stream one by one */
	struct line_out o = { .fp = fp, .buf = malloc(OUT_BLOCK) };
	size_t i = 0, j = 0;

	while (i < a->nr || j < b->nr) {
		int c = i == a->nr ? 1 : j == b->nr ? -1 : strcmp(a->v[i].key, b->v[j].key);

		if (c < 0) {
			put_line(&o, a->v[i].key, a->v[i].value);
			i++;
		} else if (c > 0) {
			put_line(&o, b->v[j].key, b->v[j].value);
			j++;
		} else {
			put_line(&o, a->v[i].key, a->v[i].value + b->v[j].value);
			i++;
			j++;
		}
	}
	out_flush(&o);
	free(o.buf);
}

int folded_write_parts(FILE *fp, const struct callgraph *cg, unsigned int flags,
		       unsigned int nr_parts)
{
	struct fold_part parts[2];
	pthread_t thread;
	bool threaded = false;
	size_t nr;
	int err;

	if (!fp || !cg)
		return -EINVAL;
	nr_parts = nr_parts < 1 ? 1 : nr_parts > 2 ? 2 : nr_parts;
	/* settles the graph: the parts only read it */
	nr = cg_nr_stack_recs(cg);
	for (unsigned int k = 0; k < 2; k++) {
		size_t from = k < nr_parts ? nr * k / nr_parts : nr;
		size_t to = k < nr_parts ? nr * (k + 1) / nr_parts : nr;

		parts[k] = (struct fold_part){ .cg = cg, .flags = flags, .from = from, .to = to };
	}
	/* on the other CPU from the start: the caller waits for it, and runs nothing else */
	if (nr_parts > 1)
		threaded = !thread_create_elsewhere(&thread, fold_part, &parts[1]);
	fold_part(&parts[0]);
	if (threaded)
		pthread_join(thread, NULL);
	else
		fold_part(&parts[1]);	/* no thread: the second part here, after the first */
	err = parts[0].err ? parts[0].err : parts[1].err;
	if (!err) {
		write_merged(fp, &parts[0].lines, &parts[1].lines);
		if (ferror(fp))
			err = -EIO;
	}
	str_sums_release(&parts[0].lines);
	str_sums_release(&parts[1].lines);
	return err;
}

int folded_write(FILE *fp, const struct callgraph *cg, unsigned int flags)
{
	bool split = cg && cg_nr_stack_recs(cg) >= FOLD_SPLIT_MIN &&
		     sysconf(_SC_NPROCESSORS_ONLN) > 1;

	return folded_write_parts(fp, cg, flags, split ? 2 : 1);
}
