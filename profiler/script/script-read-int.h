/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script-read-int.h - the pieces of the `perf script` parser (script-read*.c only).
 *
 * Speed comes from three tables, all keyed by a fast 64-bit hash and all owned by one parser:
 *  - names:  every distinct frame/root name once, as a small integer id;
 *  - lines:  raw frame line (bytes in the input buffer) -> the ids it produces, so a line seen
 *            before costs one hash and one memcmp, no regex work and no allocation;
 *  - stacks: (root id, frame ids...) -> period and sample sums, so the call graph only sees
 *            each distinct stack once, at the end.
 */
#ifndef KPROF_SCRIPT_READ_INT_H
#define KPROF_SCRIPT_READ_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "profiler/script/script.h"

#define SCRIPT_NO_ID	UINT32_MAX

/* ---- hashing --------------------------------------------------------------------------------- */

uint64_t script_hash(const void *p, size_t n, uint64_t seed);

/* ---- growable arrays ------------------------------------------------------------------------- */

struct sbuf {			/* bytes; not NUL-terminated unless sbuf_cstr() */
	char	*p;
	size_t	len, cap;
};

int sbuf_reserve(struct sbuf *b, size_t more);
int sbuf_add(struct sbuf *b, const void *p, size_t n);
static inline void sbuf_reset(struct sbuf *b) { b->len = 0; }
void sbuf_release(struct sbuf *b);

struct ids {			/* uint32 ids */
	uint32_t	*v;
	size_t		nr, cap;
};

int ids_reserve(struct ids *a, size_t more);
void ids_release(struct ids *a);

/* ---- name table: bytes -> id ----------------------------------------------------------------- */

struct name_table {
	uint64_t	*slots;		/* (hash >> 32) << 32 | (id + 1); 0 = empty */
	size_t		mask, nr;
	uint32_t	*off, *len;	/* per id, into arena */
	size_t		cap;
	struct sbuf	arena;		/* names, each followed by a NUL */
};

/* The id of @s[0..n) (added when new), or SCRIPT_NO_ID when out of memory. */
uint32_t name_intern(struct name_table *t, const char *s, size_t n);
static inline const char *name_str(const struct name_table *t, uint32_t id)
{
	return t->arena.p + t->off[id];
}
void name_table_release(struct name_table *t);

/* ---- stack table: (root, frames...) -> sums -------------------------------------------------- */

struct stack_entry {
	uint32_t	off;		/* into stack_table.pool: root id, then frame ids leaf first */
	uint32_t	nr;		/* frames, root excluded */
	uint64_t	period, samples;
};

struct stack_table {
	uint64_t		*slots;
	size_t			mask;
	struct stack_entry	*e;
	size_t			nr, cap;
	struct ids		pool;
};

/* @key = root id then @nr frame ids. 0 or -ENOMEM. */
int stack_add(struct stack_table *t, const uint32_t *key, size_t nr, uint64_t period,
	      uint64_t samples);
void stack_table_release(struct stack_table *t);

/* ---- frame lines ----------------------------------------------------------------------------- */

struct frame_parts {
	const char	*pc, *func, *mod;
	size_t		pc_len, func_len, mod_len;
};

/*
 * stackcollapse-perf.pl's frame regex  ^\s*(\w+)\s*(.+) \((.*)\)  on @s[0..n), which starts at
 * its first non-blank byte, backtracking included. False when the line does not match.
 */
bool frame_match(const char *s, size_t n, struct frame_parts *fp);

/*
 * The names one frame line contributes, in the Perl script's order (the first piece, then the
 * inlined pieces split at "->"), after +0x stripping, [unknown] -> [module], tidying and
 * annotations. @emit gets each name (borrowed) and returns 0 or a negative errno, which stops.
 * A function starting with '(' gives no names.
 */
typedef int (*frame_name_fn)(const char *name, size_t len, void *arg);
int frame_names(const struct frame_parts *fp, unsigned int flags, bool java,
		struct sbuf *scratch, frame_name_fn emit, void *arg);

/* ---- header lines ---------------------------------------------------------------------------- */

struct header {
	const char	*comm, *pid, *tid;
	size_t		comm_len, pid_len, tid_len;
	size_t		end;		/* where the final \s+ of the header regex starts */
	const char	*num2;		/* the regex's $3 as written (num2_len 0: none) */
	size_t		num2_len;
	const char	*ev, *per;	/* event name and period digits; per_len 0: none */
	size_t		ev_len, per_len;
};

/* The header regex, with the comm at least @min_comm bytes long (Perl: 2). Fills the comm,
 * pid and tid of @h (pointers into @s). */
bool header_match(const char *s, size_t n, size_t min_comm, struct header *h);

/* The event regex on a whole header line: fills ev and per of @h; false when it does not match. */
bool header_event(const char *s, size_t n, struct header *h);

/* The count of a sample: "0" and "" count as 1 (Perl's `not $period`); saturating. */
uint64_t period_value(const char *s, size_t n);

/* A sample on one line: @h filled (event and period too), *@frame the frame's offset in @s. */
bool header_one_line(const char *s, size_t n, struct header *h, size_t *frame);

/* ---- the parser ------------------------------------------------------------------------------ */

/* One distinct stack, as handed out by script_parse(). All pointers borrowed. */
struct script_stack {
	const char		*root;		/* the root frame text */
	const char *const	*frames;	/* leaf first */
	size_t			nr;
	uint64_t		period, samples;
};

typedef int (*script_stack_fn)(const struct script_stack *s, void *arg);

/*
 * The parser in steps, for input read in pieces: script_parser_feed() takes whole lines (the last
 * piece may end without '\n'); the bytes need not outlive the call. script_parser_finish() flushes
 * the last sample, calls @fn once per distinct stack (none when @fn is NULL: an error path)
 * and frees the parser. @st is filled in as the lines go.
 */
struct script_parser;
/* NULL when out of memory */
struct script_parser *script_parser_new(const struct script_opts *o, struct script_stats *st);
/* 0 or -ENOMEM */
int script_parser_feed(struct script_parser *p, const char *buf, size_t len);
int script_parser_finish(struct script_parser *p, script_stack_fn fn, void *arg);

/*
 * Parse @buf[0..len) and call @fn once per distinct stack (in no particular order); a non-zero
 * return of @fn stops and is returned. 0, or -ENOMEM. @st may be NULL.
 */
int script_parse(const char *buf, size_t len, const struct script_opts *o, script_stack_fn fn,
		 void *arg, struct script_stats *st);

/* Byte classes of Perl's \s, \d, \w on byte strings (ASCII rules). */
static inline bool perl_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool perl_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static inline bool perl_word(unsigned char c)
{
	return perl_digit(c) || c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static inline size_t skip_blanks(const char *s, size_t i, size_t n)
{
	while (i < n && perl_space(s[i]))
		i++;
	return i;
}

#endif
