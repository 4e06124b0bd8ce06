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
 *
 * Threading: nothing is locked and nothing is shared between graphs. One thread at a time adds
 * to or reads a graph; a read may first add the stacks callgraph_add_ids_soon() kept, so two
 * threads that read one graph at once call callgraph_settle() before. folded_write() settles
 * the graph and reads a large one from a second thread of its own too, joined before it returns.
 */
#ifndef KPROF_OUTPUT_H
#define KPROF_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profiler/lib/lib.h"

/* ---- call graph -------------------------------------------------------------------------- */

struct callgraph;

enum cg_frame_flags {
	CG_FRAME_KERNEL	= 1 << 0,	/* a kernel frame (perf's [k]) */
	/*
	 * An inlined function of a DWARF-unwound frame: sym is "NAME (inlined)" as perf report
	 * shows it; folded stacks show NAME, as perf script | stackcollapse-perf.pl does.
	 */
	CG_FRAME_INLINED = 1 << 1,
};

struct cg_frame {
	const char	*sym;		/* function name; NULL when unresolved */
	const char	*dso;		/* module: "[kernel.kallsyms]", a path, "[unknown]"; never NULL */
	uint64_t	addr;		/* kept only for unresolved frames (collapse --addrs), else 0 */
	unsigned int	flags;		/* enum cg_frame_flags */
	uint64_t	sym_start;	/* the symbol's start address when known, else 0: perf keeps
					 * same-named symbols of one module apart by it (two static
					 * "cmp" in the kernel are two report entries) */
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

/*
 * Frames as ids: one graph gives equal frames the same id, valid until callgraph_free(). A
 * caller that already keeps a cache entry per resolved address stores the id there and adds
 * stacks by id, so that no frame of a stack is hashed or compared again. 0 or -errno.
 */
int callgraph_frame_id(struct callgraph *cg, const struct cg_frame *frame, uint32_t *id);
/* callgraph_add() for frames given as ids of this graph (leaf first). */
int callgraph_add_ids(struct callgraph *cg, const struct cg_task *task, const uint32_t *ids,
		      size_t nr, uint64_t period, uint64_t samples);
/*
 * A sample whose ip is not its call chain's first entry (perf uses the chain as recorded and
 * gives Self to the ip's symbol: precise-ip skid, LBR call stacks): @ip_id is the frame of the
 * ip, @ids[0..nr) the chain. Report entries count the ip's frame (Self, and Children once
 * with the chain's); folded stacks and flame graphs show the chain only, as perf script does.
 */
int callgraph_add_ids_ip(struct callgraph *cg, const struct cg_task *task, uint32_t ip_id,
			 const uint32_t *ids, size_t nr, uint64_t period, uint64_t samples);
/*
 * callgraph_add_ids() (@ip_id CG_NO_IP) or callgraph_add_ids_ip() for a caller that adds many
 * stacks in a row: the stack is copied and added a few calls later, once what finding it reads
 * is in the cache (a large graph's tables are several MiB). Every query of the graph and every
 * other add first adds the stacks kept, in order, so the graph is the same as with the
 * immediate adds. An error of a kept stack (-ENOMEM) is returned by a later call or by
 * callgraph_settle().
 */
#define CG_NO_IP	UINT32_MAX
int callgraph_add_ids_soon(struct callgraph *cg, const struct cg_task *task, uint32_t ip_id,
			   const uint32_t *ids, size_t nr, uint64_t period, uint64_t samples);
/* Add the stacks kept by callgraph_add_ids_soon() now: 0, or the first error of their adds. */
int callgraph_settle(struct callgraph *cg);

/*
 * The graph's own copy of @s (NULL with errno ENOMEM), alive until callgraph_free(). Optional:
 * frames whose strings were interned here are added without hashing the text again, which
 * makes callgraph_add() faster when a caller caches symbol names.
 */
const char *callgraph_intern(struct callgraph *cg, const char *s);

/*
 * Promise (on = true) that every frame string pointer (cg_frame.sym, .dso) given to
 * callgraph_add() keeps its text unchanged for as long as samples are added, as sym_session's
 * names do. The graph then maps each distinct caller frame to its interned frame once and later
 * adds hash no text (several times faster). Off by default: a caller that reuses one buffer for
 * different names must leave it off. Task comms are not concerned (always hashed). The graph
 * still copies every string and never reads the caller's after the adds. Turning it off
 * forgets the caller's pointers (call it before the strings go away if adds may follow).
 */
void callgraph_stable_strings(struct callgraph *cg, bool on);

uint64_t callgraph_total_period(const struct callgraph *cg);
uint64_t callgraph_total_samples(const struct callgraph *cg);
size_t callgraph_nr_stacks(const struct callgraph *cg);

/* Visit every distinct stack (in no particular order); a non-zero return stops and is returned. */
typedef int (*cg_stack_fn)(const struct cg_stack *st, void *arg);
int callgraph_for_each(const struct callgraph *cg, cg_stack_fn fn, void *arg);

/* ---- key/value lists (LKP metrics, stats.json) ------------------------------------------- */

/* struct kv_list and its add/set/get/sort/release are lib.h's; the writers are here. */
/*
 * The same object with one more member @member (last, after the keys) whose value
 * @write_value writes (0 or -errno).
 */
int kv_list_write_json_member(FILE *fp, const struct kv_list *l, const char *member,
			      int (*write_value)(FILE *fp, void *arg), void *arg);
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
 * --sort=dso,symbol` (see docs/formats.md). Unresolved frames are dropped, samples whose own IP
 * is unresolved are dropped; percentages are of the remaining total.
 */
/*
 * Where perf report 6.1's --children entries and chains of @cg may differ from kprof's, which
 * counts every (module, function) once and every distinct chain once (output/hist-perf-tree.c):
 *  - @files: modules (perf's short names) whose entries perf's hist rb-tree may split: it
 *    compares an inlined frame's made-up symbol by name and a function by address, which is
 *    not one order of their entries (their calltrace.* keys can be smaller in perf);
 *  - @names: inlined functions ("NAME (inlined)" as kprof's frames name them) named as a
 *    function that is a frame too: perf's call-chain
 *    tree merges the two kinds of frame by name (calltrace.* keys through them can differ);
 *  - @total: the weight perf's percentages are of (-U); 0 when @cg has no inlined frame
 *    (then nothing is built: both trees keep one order).
 * Strings are @cg's (or its dso strings' tails). Zero-initialise; perf_tree_risks_release().
 */
struct perf_tree_risks {
	const char	**files;
	size_t		nr_files;
	const char	**names;
	size_t		nr_names;
	uint64_t	total;
};
int perf_tree_risks(const struct callgraph *cg, bool weight_samples, struct perf_tree_risks *r);
void perf_tree_risks_release(struct perf_tree_risks *r);

int lkp_profile_keys(const struct callgraph *cg, const struct lkp_profile_opts *o,
		     struct kv_list *out);
/*
 * The same over several events' graphs, all filed under o->event and summed key by key before
 * the print threshold, as LKP's parser does with a multi-event report (it names every section
 * after the first event). Keys are appended to @out sorted bytewise.
 */
int lkp_profile_keys_multi(const struct callgraph *const *cgs, size_t nr,
			   const struct lkp_profile_opts *o, struct kv_list *out);

/* ---- Children/Self table ----------------------------------------------------------------- */

enum table_sort_key { TABLE_SORT_COMM, TABLE_SORT_PID, TABLE_SORT_DSO, TABLE_SORT_SYM };
enum table_callchain { TABLE_CHAIN_NONE, TABLE_CHAIN_CALLER, TABLE_CHAIN_CALLEE };

struct table_opts {
	const char	*event;		/* named in the header; NULL: not named */
	double		min_percent;	/* rows whose Children and Self are both below are hidden */
	bool		weight_samples;
	bool		show_unresolved;	/* keep unresolved frames as [unknown] rows */
	/* table_write() only: under each row its call chains (perf report -g caller|callee),
	 * each at least chain_min percent of all samples (0: perf's 0.5) */
	enum table_callchain callchain;
	double		chain_min;
	/* table_write_sorted() only; all borrowed */
	const enum table_sort_key *sort;	/* columns in order, e.g. comm,dso */
	size_t		nr_sort;
	bool		no_children;	/* one Overhead (Self) column, sorted by it */
	const char *const *comms;	/* keep samples of these commands; none: all */
	size_t		nr_comms;
	const int	*pids;		/* keep samples of these pids; none: all */
	size_t		nr_pids;
	const char *const *dsos;	/* keep rows of these modules (path or basename) */
	size_t		nr_dsos;
};

/*
 * Like `perf report --children -g none --sort=dso,symbol --stdio`: a '#' header (event, samples,
 * total weight, column names), then one row per (module, symbol) with Children%, Self%, the
 * module's basename and "[k] symbol" / "[.] symbol", sorted by Children then Self (descending).
 * Without show_unresolved the percentages are perf's -U ones (see lkp_profile_keys()).
 */
int table_write(FILE *fp, const struct callgraph *cg, const struct table_opts *o);
/*
 * perf report's --sort/--comm/--pid/--dso/--no-children/--percent-limit over the table: rows
 * keyed by o->sort; min_percent applies to the sorting column (Children, or Self with
 * no_children). Percentages are of all samples (perf's --percentage absolute).
 */
int table_write_sorted(FILE *fp, const struct callgraph *cg, const struct table_opts *o);
/*
 * The table and the call tree as one JSON object (docs/formats.md, "THE CALL TREE"): the
 * event, weight kind, samples and total; "symbols", the table's rows (every row, as
 * show_unresolved and weight_samples say; min_percent ignored); "tree", the stacks merged from
 * the outermost caller, each node a row's entry with its inclusive ("children") and "self"
 * share on that path, its weights and its "callees", heaviest first.
 */
int calltree_write_json(FILE *fp, const char *event, const struct callgraph *cg,
			const struct table_opts *o);

/* ---- folded stacks ----------------------------------------------------------------------- */

enum folded_flags {
	FOLDED_PID	= 1 << 0,	/* root "comm-PID" */
	FOLDED_TID	= 1 << 1,	/* root "comm-PID/TID" */
	FOLDED_KERNEL	= 1 << 2,	/* "_[k]" on kernel frames */
	FOLDED_ADDRS	= 1 << 3,	/* "[module <addr>]" for unresolved frames */
	FOLDED_SAMPLES	= 1 << 4,	/* counts are sample counts, not periods */
	FOLDED_TIDY	= 1 << 5,	/* the script's naming, for names not yet through it
					 * (perf.data input): a name starting with '(' is left
					 * out (its rule for process names) unless it starts
					 * "(anonymous namespace)"; cut at the first '(' (not in
					 * Go methods or "(anonymous namespace)"), drop quotes,
					 * and drop Java's leading 'L' for comms starting "java" */
	FOLDED_PERL_COMPAT = 1 << 6,	/* with FOLDED_TIDY: every name starting with '(' is
					 * left out, "(anonymous namespace)::f" too, as the
					 * script does */
};

/*
 * stackcollapse-perf.pl's `next if $rawfunc =~ /^\(/; # skip process names`: whether the
 * frame named @name (@len bytes, its "+0x..." offset already cut) is left out. Its own tidying
 * keeps "(anonymous namespace)", so the rule was not meant for C++ functions in an anonymous
 * namespace (V8's, LLVM's): kprof keeps those unless @perl_compat (docs/collapse.md, step 2).
 */
bool folded_name_left_out(const char *name, size_t len, bool perl_compat);

/*
 * stackcollapse-perf.pl's format: root first, the comm (spaces as '_') as root frame, ';'
 * between frames, one space, the count; lines sorted bytewise; unresolved frames as
 * "[<module basename>]" or "[unknown]". A graph of 4096 stacks or more is folded in two halves,
 * the second on a thread of its own, when the machine has more than one CPU (the same text).
 */
int folded_write(FILE *fp, const struct callgraph *cg, unsigned int flags);

/* ---- LKP perf-stat keys (docs/stat.md) ---------------------------- */

/*
 * A perf-stat run as LKP's `perf stat -I` parser sees it: per interval, the count of every
 * event (NAN: not counted in that interval). Event names are perf's: "cpu-cycles",
 * "instructions", "cache-misses", "dTLB-load-misses", "page-faults", ...
 */
struct perf_stat_series {
	const char *const	*events;	/* nr_events names; borrowed */
	size_t			nr_events;
	size_t			nr_intervals;
	const double		*t_end;		/* [nr_intervals] seconds since start, increasing */
	const double		*counts;	/* [nr_intervals * nr_events] */
	bool			drop_last;	/* LKP skips the last interval perf printed */
};

/* Receives one key; a non-zero return stops the producer and is returned by it. */
typedef int (*perf_stat_emit_fn)(void *arg, const char *key, double value);

/*
 * Emit perf-stat.i.*, .ps.*, .total.instructions and .overall.* (the per-run scalars LKP puts
 * in stats.json), derived keys only where their counters exist and denominators are non-zero.
 */
int perf_stat_keys(const struct perf_stat_series *s, perf_stat_emit_fn emit, void *arg);
/* LKP's calc_addon_keys on one set of counts (@vals parallel to s->events), keys
 * "perf-stat.<prefix><name>": *-miss-rate%, ipc, cpi, MPKI, cycles-between-cache-misses,
 * instructions-per-iTLB-miss. */
int perf_stat_derive(const struct perf_stat_series *s, const double *vals, const char *prefix,
		     perf_stat_emit_fn emit, void *arg);

/* ---- flame graphs -------------------------------------------------------------- */

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
	uint64_t	invalid;	/* lines without a trailing count, skipped */
	uint64_t	two_counts;	/* differential lines "stack before after" */
	uint64_t	first_invalid;	/* line number of the first invalid line, 0 if none */
};

/* One stack, root first; @before is negative unless the line had two counts. */
typedef int (*folded_stack_fn)(const struct folded_frame *frames, size_t nr, double count,
			       double before, void *arg);

/*
 * The longest line text input may have (folded stacks, perf script): a longer one is an error,
 * -EMSGSIZE, so that a line without end (/dev/zero, a binary file) cannot take all memory.
 * Real lines are far shorter (a 127-frame stack of long C++ names is ~250 KiB).
 */
#define TEXT_LINE_MAX	(1u << 20)
/* strerror(-@err), but -EMSGSIZE says that a line is longer than TEXT_LINE_MAX. */
const char *text_strerror(int err);

/*
 * Parse folded text and call @fn for each stack (lines in input order, CRLF accepted). Lines
 * without a count are counted in @st and skipped. A non-zero return of @fn stops and is
 * returned; -ENOMEM on allocation failure; -EMSGSIZE for a line longer than TEXT_LINE_MAX.
 * @st may be NULL.
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

/*
 * A folded_stack_fn adding to the callgraph @arg: the root frame becomes the task's comm, counts
 * are rounded to whole periods (one sample per unit), "[unknown]" frames are unresolved, _[k]
 * frames are kernel frames in "[kernel.kallsyms]". folded_write() prints such a graph back.
 */
int callgraph_add_folded(const struct folded_frame *frames, size_t nr, double count,
			 double before, void *arg);

double flame_tree_total(const struct flame_tree *t, enum flame_side side);
size_t flame_tree_nr_nodes(const struct flame_tree *t);	/* the root "all" included */

/* Palettes; FLAME_COLORS_KERNEL tells kernel frames (orange) from user frames (green). */
enum flame_colors { FLAME_COLORS_HOT, FLAME_COLORS_MEM, FLAME_COLORS_IO, FLAME_COLORS_KERNEL };

struct flame_svg_opts {
	const char	*title;		/* NULL: "Flame Graph", "Icicle Graph", "Differential…" */
	const char	*subtitle;	/* NULL: none */
	const char	*countname;	/* NULL: "samples" */
	const char	*nametype;	/* NULL: "Function:" */
	unsigned int	width;		/* image width in px; 0: 1200 */
	unsigned int	frame_height;	/* px per row; 0: 16 */
	double		minwidth;	/* narrower frames are culled: px, or percent of total */
	bool		minwidth_percent;
	enum flame_colors colors;
	bool		inverted;	/* icicle: root at the top */
	bool		diff;		/* differential: widths from AFTER, colour by the change */
	bool		self_delta;	/* colour by self instead of inclusive share change */
	bool		no_normalize;	/* diff: keep BEFORE's counts as they are */
	double		diff_scale;	/* diff: full colour at this change in percentage points
					 * (absolute: an A/A diff stays pale); 0: at the largest
					 * change of the graph (flamegraph.pl's relative scale) */
	const char	*before_name, *after_name;	/* diff: named in the legend; NULL: "" */
	unsigned int	max_depth;	/* rows drawn at most; 0: automatic (see below) */
	bool		all_depths;	/* no automatic culling of deep narrow towers */
};

struct flame_svg_stats {
	size_t		frames_drawn;
	size_t		frames_culled;	/* nodes not drawn: too thin, or under a culled one */
	unsigned int	depth;		/* rows drawn */
	size_t		towers_culled;	/* subtrees cut by the depth limit */
	unsigned int	depth_limit;	/* the limit used; 0: none */
};

/*
 * Write a self-contained interactive SVG of @t to @fp. An empty tree gives an SVG saying so and
 * -ENODATA. Unless all_depths or max_depth, rows deeper than the deepest frame of at least 1% of
 * the total plus 8 are not drawn: one deep tower of thin frames no longer sets the height (and
 * pushes the root off the first screen); a note at the bottom says how many were cut. Every name is escaped for XML 1.0: control bytes and invalid UTF-8 become U+FFFD.
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

/* ---- comparison of result sets ------------------------------------------------- */

/*
 * JSON: a strict reader for flat objects (stats.json, matrix.json, meta.json) and writer helpers.
 * Top-level members that are numbers, strings or arrays of numbers/strings are decoded; any
 * other value (nested object, true/false/null, nested array) is validated and kept as
 * JSON_OTHER. Duplicate keys are kept (the matrix reader rejects them).
 */
enum json_type { JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OTHER };

struct json_member {
	char		*key;		/* all strings owned by the object */
	enum json_type	type;
	double		num;		/* JSON_NUMBER */
	bool		num_is_int;	/* the literal had no fraction and no exponent */
	char		*str;		/* JSON_STRING */
	size_t		nr;		/* JSON_ARRAY: elements; strs[i] != NULL for a string */
	double		*nums;
	bool		*ints;
	char		**strs;
};

struct json_object {
	struct json_member	*members;	/* in document order */
	size_t			nr;
};

/* Parse a document; on error, err holds "byte offset N: what" and the object is empty. */
int json_parse(const char *buf, size_t len, struct json_object *o, char *err, size_t errlen);
/* Read and parse a file; err as above, or strerror() text when the file cannot be read. */
int json_read_file(const char *path, struct json_object *o, char *err, size_t errlen);
const struct json_member *json_get(const struct json_object *o, const char *key);
void json_object_release(struct json_object *o);	/* NULL-safe; the object is reusable */

/* A JSON string literal with escapes. */
int json_write_string(FILE *fp, const char *s);
/* json_format_number()'s text. */
int json_write_number(FILE *fp, double v);
/*
 * The shortest text of @v that reads back as @v (plain decimals from 1e-4 to 1e16, else an
 * exponent, like Ruby's Float#to_s); "null" for NaN and infinities; buf of >= 64 bytes.
 */
void json_format_number(char *buf, size_t len, double v);

/*
 * Matrix: one kernel's result set, LKP's <commit>/matrix.json. A row's value is "present" when
 * the run reported the key; otherwise it is a filler 0 (LKP's Integer 0, which LKP's row
 * selection treats differently from a measured 0.0). Rows are kept sorted bytewise by key.
 * matrix.json: {"key": [run0, run1, ...], "stats_source": [paths]}; written fillers are "0",
 * present values always carry a '.' or an exponent, so the distinction survives a round trip.
 */
struct matrix_row { char *key; double *v; bool *present; };	/* nr_runs each, owned */
struct matrix { struct matrix_row *rows; size_t nr_rows, nr_runs; char **sources; };
/* Start from a zeroed struct matrix; 0 or -errno with a one-line reason ("byte offset 17:
 * expected ','") in @err. */
int matrix_read_json(const char *path, struct matrix *m, char *err, size_t errlen);
int matrix_add_stats_json(struct matrix *m, const char *stats_json_path, char *err, size_t errlen);
int matrix_write_json(FILE *fp, const struct matrix *m);
/*
 * Load the result set a user names: a matrix.json file, a kernel directory with matrix.json, a
 * directory of run directories with stats.json (numeric run order), or one run directory.
 * *label (malloc'ed): the set's name or kernel release from meta.json ("name", "kernel_release", "release",
 * "osrelease" or "kernel", in the set directory or the first run's), else the directory name.
 * *set_dir (malloc'ed, may be NULL): the set's directory. err: "<file>: <what is wrong>".
 */
int matrix_load_set(const char *path, struct matrix *m, char **label, char **set_dir,
		    char *err, size_t errlen);
/*
 * The first of @fields that is a non-empty string in <set_dir>/meta.json, else in the first
 * run's meta.json (next to m->sources[0]); malloc'ed, NULL when there is none.
 */
char *matrix_set_meta_string(const char *set_dir, const struct matrix *m,
			     const char *const *fields, size_t nr_fields);
void matrix_release(struct matrix *m);			/* NULL-safe; the matrix is reusable */
const struct matrix_row *matrix_find(const struct matrix *m, const char *key);	/* or NULL */
/* Does any key start with @prefix? (A binary search.) */
bool matrix_has_prefix(const struct matrix *m, const char *prefix);

/* ---- statistics ---- */
double stats_mean(const double *v, size_t n);		/* 0 for n == 0 */
double stats_pstddev(const double *v, size_t n);	/* population sigma, LKP's; -1 for n < 2 */

/* LKP's StatSummary: sorted values less the margins, min, upper median and max. */
struct lkp_summary {
	size_t	n;		/* values left after the margins; 0: empty */
	double	min, median, max;
	bool	median_missing;	/* the median element is a filler (LKP's Integer 0) */
};
/* margin = min(n >> 5, max_margin) values cut from each end after sorting. */
void lkp_summarize(const double *v, const bool *present, size_t n, size_t max_margin,
		   struct lkp_summary *s);

/* I_x(a, b), the regularized incomplete beta function (continued fraction); NAN if invalid. */
double stats_incbeta(double x, double a, double b);
/* P(T <= t) for Student's t with @df (real) degrees of freedom. */
double stats_student_t_cdf(double t, double df);
/*
 * Welch's unequal-variance t-test, two-sided. 0 with *p set; -EDOM when either side has fewer
 * than 2 values (no variance to estimate). Identical constant samples give p = 1, different
 * constant samples p = 0.
 */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, double *t, double *df,
		double *p);

/*
 * Benjamini-Hochberg: q[i] = min over j with p[j] >= p[i] of p[j] * m / rank(j), capped at 1,
 * m = the number of non-NaN p. NaN stays NaN. Controls the false discovery rate at q < alpha
 * for independent (and positively dependent) tests. 0 or -ENOMEM.
 */
int stats_bh_adjust(const double *p, size_t n, double *q);
/*
 * +1 / -1 when @n >= 5 values rise / fall strictly (chance 2/n! for exchangeable runs: 1 in 60
 * for 5; 4 runs would cry wolf 1 time in 12), else 0.
 */
int compare_drift(const double *v, size_t n);
/* A per-run value for --raw: 5 significant digits, no exponent, no trailing zeros. */
void compare_fmt_raw(char *buf, size_t len, double v);

/* ---- LKP row selection (lib/stats.rb) ---- */
struct lkp_side {
	const double	*v;		/* nr values (fillers included), may be NULL when !has_key */
	const bool	*present;
	size_t		nr;		/* number of runs of the set */
	bool		has_key;	/* the set's matrix has the key */
	bool		has_monitor;	/* the set has any key of the key's monitor (the
					 * first component), e.g. any perf-profile.* key */
};
struct lkp_select_opts {
	double	pp_threshold;		/* LKP -p; default 5 */
	bool	pp_threshold_float;	/* -p given: a Float threshold, else LKP's Integer 5 */
	const char *const *tests;	/* more test names (meta.json "family"), borrowed */
	size_t	nr_tests;
};
/* Would LKP's _get_changed_stats list @key comparing @new against @base? */
bool lkp_stat_changed(const char *key, const struct lkp_side *base, const struct lkp_side *new,
		      const struct lkp_select_opts *o);
/* The first component names a performance test (built-in LKP list or @o->tests). */
bool lkp_is_test(const char *key, const struct lkp_select_opts *o);
/* LKP's perf_metric?: a 1% change suffices. @o may be NULL. */
bool lkp_is_perf_metric(const char *key, const struct lkp_select_opts *o);
bool lkp_is_absolute_change(const char *key);	/* perf-profile.* or ending in '%' */
bool lkp_reasonable_change(const char *key, double delta, double max);

/* ---- the comparison table ---- */
/*
 * Ruby's format("%<plus><width>.<prec><conv>", v) for conv 'f' or 'g': Ruby's dtoa rounds ties
 * of its fast path half to even (format("%.2f", 208.745) is "208.74", C says "208.75") and keeps
 * trailing zeros after such a tie in %g ("1.0e+03" for 1050.0). Returns what snprintf returns.
 */
int ruby_format_double(char *buf, size_t len, double v, char conv, int prec, int width,
		       bool plus);
/* LKP's number formats; each writes a NUL-terminated field into buf (>= 32 bytes). */
void lkp_fmt_mean(char *buf, size_t len, double mean);		/* 10 wide */
void lkp_fmt_stddev(char *buf, size_t len, double mean, double stddev);	/* 6 wide */
void lkp_fmt_change(char *buf, size_t len, double change, bool absolute);	/* 12 wide */

struct compare_col {
	const struct matrix	*m;	/* borrowed */
	const char		*label;	/* column header: kernel release or --label */
	const char		*path;	/* where the set was read from, for the header */
};
struct compare_cell {
	double	mean, stddev;		/* stddev -1 for a single run (LKP) */
	double	rel_stddev;		/* 100 * stddev / mean; stddev when mean == 0 */
	double	change;			/* vs column 0: % or absolute; 0 in column 0 */
	double	p;			/* Welch p-value vs column 0; NAN if not computable */
	double	q;			/* p adjusted for the false discovery rate over every
					 * tested (row, column): Benjamini-Hochberg; NAN untested */
	int	drift;			/* +1 / -1: the runs' values rise / fall strictly run by
					 * run (compare_drift()), else 0 */
	const struct matrix_row *row;	/* NULL when the set lacks the key */
};
struct compare_row {
	const char		*key;	/* borrowed from a matrix */
	bool			absolute;	/* change in points, not % */
	bool			listed;		/* in the table: lkp_listed, main, or -a */
	bool			lkp_listed;	/* LKP's selection lists it */
	bool			main;		/* the workload's main metric (always listed) */
	struct compare_cell	*cells;	/* nr_cols, owned */
};
struct compare_opts {
	bool			all;	/* -a: list every row */
	struct lkp_select_opts	select;
	bool			stats;	/* --stats */
	double			alpha;	/* --alpha, default 0.05 */
	bool			raw;	/* --raw */
	const char		*axis_keys, *axis_values;	/* header block; NULL: omitted */
	const char		*main_metric;	/* always listed; NULL: none known */
};
struct compare_result {
	const struct compare_col *cols;	/* borrowed */
	size_t			nr_cols;
	struct compare_row	*rows;	/* every key of every set, listed ones first in LKP order */
	size_t			nr_rows, nr_listed;
	size_t			nr_tested;	/* (row, NEW column) pairs with a p-value */
	size_t			nr_significant;	/* of those, q < alpha */
	const struct compare_row *main;	/* the main metric's row, NULL when no set has it */
};
int compare_build(const struct compare_col *cols, size_t nr_cols, const struct compare_opts *o,
		  struct compare_result *r);
void compare_result_release(struct compare_result *r);	/* NULL-safe */
/*
 * LKP's table of the listed rows (plus --stats columns and --raw lines when asked), ending with
 * a blank line; nothing at all when no row is listed (as LKP).
 */
int compare_write_table(FILE *fp, const struct compare_result *r, const struct compare_opts *o);
/* Everything as one JSON object (see docs/compare.md). */
int compare_write_json(FILE *fp, const struct compare_result *r, const struct compare_opts *o);
/* perf-profile calltrace/children/self rows ranked by |change in share|, @top per kind. */
int compare_write_perf_profile(FILE *fp, const struct compare_result *r, size_t top);

/* The regression report page (compare --html). */
struct compare_html_opts {
	const char	*diff_svg;	/* the differential flame graph (an SVG document), or NULL */
	size_t		diff_svg_len;
	const char	*diff_note;	/* shown instead when there is none */
	size_t		top;		/* perf-profile rows shown */
	size_t		max_plots;	/* per-run plots shown at most */
};
/*
 * One self-contained HTML page (docs/compare.md, --html): the listed rows with p-values and
 * significance marks in sortable columns, per-run plots, the top perf-profile share changes and
 * the differential flame graph embedded. No external resource is referenced.
 */
int compare_write_html(FILE *fp, const struct compare_result *r, const struct compare_opts *o,
		       const struct compare_html_opts *h);

/* ---- plots ---- */
/* LKP's bisect plot as gnuplot's dumb terminal draws it: '*' base/good, 'O' new/bad. */
int plot_write_ascii(FILE *fp, const char *title, const double *good, size_t ngood,
		     const double *bad, size_t nbad, int width, int height);
int plot_write_svg(FILE *fp, const char *title, const double *good, size_t ngood,
		   const char *good_label, const double *bad, size_t nbad, const char *bad_label);

#endif
