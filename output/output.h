/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - the call graph and everything written from it: LKP perf-profile keys, the
 * Children/Self table, folded stacks, flame graphs, and the comparison of result sets.
 *
 * Plain C: knows nothing of perf, DWARF or pids beyond the numbers it is given.
 *
 * Invariants of the call graph:
 *  - It aggregates *distinct stacks*: (task, frames) -> (period sum, sample count), so memory
 *    grows with the shape of the profile, not with the number of samples.
 *  - Frames are given leaf first (as perf records them) and stored that way.
 *  - Every string given to it is copied (interned); the caller keeps ownership of its own.
 *    Strings handed out by it live until callgraph_free().
 *
 * Errors: 0 or a negative errno; constructors return NULL with errno set. Writers only write
 * to the FILE * they are given.
 */
#ifndef KPROF_OUTPUT_H
#define KPROF_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- call graph -------------------------------------------------------------------------- */

struct callgraph;

enum cg_frame_flags {
	CG_FRAME_KERNEL	= 1 << 0,	/* a kernel frame (perf's [k]) */
};

struct cg_frame {
	const char	*sym;		/* function name; NULL when unresolved */
	const char	*dso;		/* module: "[kernel.kallsyms]", a path, "[unknown]"; never NULL */
	uint64_t	addr;		/* kept only for unresolved frames (collapse --addrs), else 0 */
	unsigned int	flags;		/* enum cg_frame_flags */
};

struct cg_task {
	const char	*comm;		/* process name, the root frame of folded stacks; NULL: none */
	int		pid;		/* -1 when not tracked */
	int		tid;		/* -1 when not tracked */
};

/* One distinct stack, as handed to callgraph_for_each() callbacks. All pointers borrowed. */
struct cg_stack {
	const struct cg_task	*task;
	const struct cg_frame	*frames;	/* leaf first */
	size_t			nr;
	uint64_t		period;		/* sum of sample periods */
	uint64_t		samples;	/* number of samples */
};

struct callgraph *callgraph_new(void);
void callgraph_free(struct callgraph *cg);		/* NULL-safe */

/* Add one sample (or @samples identical ones) of total weight @period. */
int callgraph_add(struct callgraph *cg, const struct cg_task *task,
		  const struct cg_frame *frames, size_t nr, uint64_t period, uint64_t samples);

uint64_t callgraph_total_period(const struct callgraph *cg);
uint64_t callgraph_total_samples(const struct callgraph *cg);
size_t callgraph_nr_stacks(const struct callgraph *cg);

/* Visit every distinct stack (in no particular order); a non-zero return stops and is returned. */
typedef int (*cg_stack_fn)(const struct cg_stack *st, void *arg);
int callgraph_for_each(const struct callgraph *cg, cg_stack_fn fn, void *arg);

/* ---- key/value lists (LKP metrics, stats.json) ------------------------------------------- */

struct kv {
	char	*key;		/* owned by the list */
	double	value;
};

struct kv_list {
	struct kv	*items;
	size_t		nr, alloc;
};

int kv_list_add(struct kv_list *l, const char *key, double value);
void kv_list_sort(struct kv_list *l);			/* bytewise by key */
void kv_list_release(struct kv_list *l);		/* frees items; the list is reusable */
/* "key: %.2f\n" lines (LKP's parse output format). */
int kv_list_write_text(FILE *fp, const struct kv_list *l);
/* A flat JSON object {"key": value, ...}; numbers in shortest round-trip form. */
int kv_list_write_json(FILE *fp, const struct kv_list *l);

/* ---- LKP perf-profile keys --------------------------------------------------------------- */

struct lkp_profile_opts {
	const char	*event;		/* perf's event name, e.g. "cycles:pp"; ':' becomes '-' */
	double		calltrace_min;	/* percent; perf's -g folded,<min>,callee (LKP: 0.5) */
	double		print_min;	/* percent; keys below are not printed (LKP: 0.05) */
	bool		weight_samples;	/* weight by sample count instead of period */
};

/*
 * Append perf-profile.{calltrace,children,self}.<event>.* keys for @cg to @out, exactly as LKP's
 * parser derives them from `perf report --children --header -U -g folded,0.5,callee
 * --sort=dso,symbol` (see docs/report.md). Unresolved frames are dropped, samples whose own IP
 * is unresolved are dropped; percentages are of the remaining total.
 */
int lkp_profile_keys(const struct callgraph *cg, const struct lkp_profile_opts *o,
		     struct kv_list *out);

/* ---- Children/Self table ----------------------------------------------------------------- */

struct table_opts {
	double		min_percent;	/* rows whose Children and Self are both below are hidden */
	bool		weight_samples;
	bool		show_unresolved;	/* keep unresolved frames as [unknown] rows */
};

/* Like `perf report --children -g none --sort=dso,symbol`: Children%, Self%, dso, symbol. */
int table_write(FILE *fp, const struct callgraph *cg, const struct table_opts *o);

/* ---- folded stacks ----------------------------------------------------------------------- */

enum folded_flags {
	FOLDED_PID	= 1 << 0,	/* root "comm-PID" */
	FOLDED_TID	= 1 << 1,	/* root "comm-PID/TID" */
	FOLDED_KERNEL	= 1 << 2,	/* "_[k]" on kernel frames */
	FOLDED_ADDRS	= 1 << 3,	/* "[module <addr>]" for unresolved frames */
	FOLDED_SAMPLES	= 1 << 4,	/* counts are sample counts, not periods */
};

/*
 * stackcollapse-perf.pl's format: root first, the comm (spaces as '_') as root frame, ';'
 * between frames, one space, the count; lines sorted bytewise; unresolved frames as
 * "[<module basename>]" or "[unknown]".
 */
int folded_write(FILE *fp, const struct callgraph *cg, unsigned int flags);

/* ---- flame graphs (issue 6) -------------------------------------------------------------- */

/*
 * Folded text ("root;child;leaf 42", one stack per line, fractional counts allowed) as
 * stackcollapse-perf.pl and flamegraph.pl use it. A line "stack before after" (difffolded.pl's
 * output) carries two counts. A frame ending in "_[k]" is a kernel frame: the suffix is removed
 * and FOLDED_FRAME_KERNEL set; other annotations (_[j], _[i], _[w]) stay in the name.
 */
enum folded_frame_flags {
	FOLDED_FRAME_KERNEL	= 1 << 0,
};

struct folded_frame {
	const char	*name;		/* NUL-terminated, borrowed for the callback only */
	unsigned int	flags;		/* enum folded_frame_flags */
};

struct folded_read_stats {
	uint64_t	lines;		/* non-empty lines seen */
	uint64_t	stacks;		/* lines that carried a stack */
	uint64_t	invalid;	/* lines without a trailing count (skipped, like flamegraph.pl) */
	uint64_t	two_counts;	/* differential lines "stack before after" */
	uint64_t	first_invalid;	/* line number of the first invalid line, 0 if none */
};

/* One stack, root first; @before is negative unless the line had two counts. */
typedef int (*folded_stack_fn)(const struct folded_frame *frames, size_t nr, double count,
			       double before, void *arg);

/*
 * Parse folded text and call @fn for each stack (lines in input order, CRLF accepted). Lines
 * without a count are counted in @st and skipped. A non-zero return of @fn stops and is
 * returned; -ENOMEM on allocation failure. @st may be NULL.
 */
int folded_read_buf(const char *buf, size_t len, folded_stack_fn fn, void *arg,
		    struct folded_read_stats *st);
int folded_read_file(FILE *fp, folded_stack_fn fn, void *arg, struct folded_read_stats *st);

/*
 * The frame tree a flame graph is drawn from: stacks merged from the root, each node holding
 * its inclusive and self count for two sides (the "before" side is used by differential graphs
 * only). Names are copied (interned); node names live until flame_tree_free().
 */
struct flame_tree;

enum flame_side { FLAME_AFTER = 0, FLAME_BEFORE = 1 };
enum flame_frame_flags {
	FLAME_FRAME_KERNEL	= 1 << 0,	/* drawn in the kernel colour by --colors kernel */
};

/* @reverse: stacks are merged from the leaf ("--reverse"). NULL with errno on failure. */
struct flame_tree *flame_tree_new(bool reverse);
void flame_tree_free(struct flame_tree *t);		/* NULL-safe */

/* Add @count (>= 0) to the stack @names[0] (root) .. @names[nr-1] (leaf); @flags may be NULL. */
int flame_tree_add(struct flame_tree *t, enum flame_side side, const char *const *names,
		   const unsigned int *flags, size_t nr, double count);
/* Where flame_tree_add_folded() adds: @side, and BEFORE too for two-count lines when @side is
 * AFTER (difffolded.pl's "stack before after"). */
struct flame_folded_sink {
	struct flame_tree	*tree;
	enum flame_side		side;
};
/* A folded_stack_fn; @arg is a struct flame_folded_sink. */
int flame_tree_add_folded(const struct folded_frame *frames, size_t nr, double count,
			  double before, void *arg);
/*
 * Add every stack of @cg, weighted by period (or sample count with @samples), root first with
 * the task's comm as root frame like folded_write(); kernel frames keep their flag, unresolved
 * frames are named "[<module basename>]" or "[unknown]".
 */
int flame_tree_add_callgraph(struct flame_tree *t, enum flame_side side,
			     const struct callgraph *cg, bool samples);

double flame_tree_total(const struct flame_tree *t, enum flame_side side);
size_t flame_tree_nr_nodes(const struct flame_tree *t);	/* the root "all" included */

/* Palettes; FLAME_COLORS_KERNEL tells kernel frames (orange) from user frames (green). */
enum flame_colors { FLAME_COLORS_HOT, FLAME_COLORS_MEM, FLAME_COLORS_IO, FLAME_COLORS_KERNEL };

struct flame_svg_opts {
	const char	*title;		/* NULL: "Flame Graph", "Icicle Graph" or "Differential …" */
	const char	*subtitle;	/* NULL: none */
	const char	*countname;	/* NULL: "samples" */
	const char	*nametype;	/* NULL: "Function:" */
	unsigned int	width;		/* image width in px; 0: 1200 */
	unsigned int	frame_height;	/* px per row; 0: 16 */
	double		minwidth;	/* frames narrower are culled: px, or percent of the total */
	bool		minwidth_percent;
	enum flame_colors colors;
	bool		inverted;	/* icicle: root at the top */
	bool		diff;		/* differential: widths from AFTER, colour by the change */
	bool		self_delta;	/* colour by self instead of inclusive share change */
	bool		no_normalize;	/* diff: keep BEFORE's counts as they are */
};

struct flame_svg_stats {
	size_t		frames_drawn;
	size_t		frames_culled;	/* nodes not drawn because they (or a parent) were too thin */
	unsigned int	depth;		/* rows drawn */
};

/*
 * Write a self-contained interactive SVG of @t to @fp. An empty tree gives an SVG saying so and
 * -ENODATA. Every name is escaped for XML 1.0: control bytes and invalid UTF-8 become U+FFFD.
 */
int flame_svg_write(FILE *fp, const struct flame_tree *t, const struct flame_svg_opts *o,
		    struct flame_svg_stats *st);

/* The fill of a frame: deterministic in (scheme, name, flags). */
void flame_color(enum flame_colors scheme, const char *name, unsigned int flags,
		 unsigned char rgb[3]);
/* Differential fill: red when @delta > 0, blue when < 0, white at 0, saturated at |@max|. */
void flame_diff_color(double delta, double max, unsigned char rgb[3]);
/* Parse "hot", "mem", "io" or "kernel"; -EINVAL otherwise. */
int flame_colors_parse(const char *s, enum flame_colors *out);

/* ---- comparison of result sets (issue 5) ------------------------------------------------- */

#endif
