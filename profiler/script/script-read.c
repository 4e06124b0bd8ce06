// SPDX-License-Identifier: GPL-2.0
/*
 * script-read.c - `perf script` text into distinct stacks, the way stackcollapse-perf.pl
 * (FlameGraph 41fee1f) folds it.
 *
 * The Perl main loop, per line: '#' lines are skipped; a blank line ends the sample (the root
 * is prepended and the stack remembered with the period); a line matching the header regex
 * ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ starts one (event filter, period, root name); a line matching the
 * frame regex adds frames while a sample is open; anything else is "Unrecognized". This file
 * keeps that order and those regexes (as byte scans). The deliberate differences, all off with
 * SCRIPT_PERL_COMPAT, are: CRLF line ends, one-character comm names, samples printed on the
 * header line, the last sample flushed at end of input, and frames of C++'s anonymous
 * namespaces kept (script-read-frame.c).
 *
 * The hot path is a frame line of a sample already seen: memchr to the line end, skip blanks,
 * hash, find the line in the cache, append its ids. Nothing is allocated per line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/script/script-read-int.h"

/* More distinct frame lines, or key bytes, than this and the line cache starts over (bounds
 * its memory). */
#define LINE_CACHE_MAX		(1u << 22)
#define LINE_CACHE_BYTES	(256u << 20)
#define LINE_SEED	0x6c696e65ull

struct line_entry {
	uint32_t	key;		/* into parser.keys: the line from its pc on */
	uint32_t	len;
	uint32_t	ids_off;	/* into parser.line_ids: the line's names, leaf first */
	uint32_t	nr;
	bool		java;		/* parsed for a java process (leading 'L' removal) */
	bool		bad;		/* not a frame line */
};

struct script_parser {
	unsigned int		flags;
	bool			compat;
	struct script_stats	*st;
	struct name_table	names;
	struct stack_table	stacks;

	uint64_t		*lslots;	/* line cache */
	size_t			lmask;
	struct line_entry	*lines;
	size_t			nr_lines, cap_lines;
	struct ids		line_ids;
	struct sbuf		keys;		/* the cached lines' bytes: the input may be gone */

	struct sbuf		filter;		/* the event kept */
	bool			filter_set;	/* false until the first event (or --event-filter) */

	/* the open sample: $pname defined in the Perl script */
	bool			open;
	bool			java;
	uint64_t		period;
	struct ids		cur;		/* root id, then frame ids leaf first */
	struct ids		root_tail;	/* root text after a ';', as frames, leaf first */

	struct sbuf		scratch, pname;
};

/* ---- the line cache -------------------------------------------------------------------------- */

static int emit_name(const char *name, size_t len, void *arg)
{
	struct script_parser *p = arg;
	uint32_t id = name_intern(&p->names, name, len);

	if (id == SCRIPT_NO_ID || ids_reserve(&p->line_ids, 1))
		return -ENOMEM;
	p->line_ids.v[p->line_ids.nr++] = id;
	return 0;
}

static void line_cache_clear(struct script_parser *p)
{
	if (p->lslots)
		memset(p->lslots, 0, (p->lmask + 1) * sizeof(*p->lslots));
	p->nr_lines = 0;
	p->line_ids.nr = 0;
	p->keys.len = 0;
}

static int line_cache_grow(struct script_parser *p)
{
	size_t nmask = p->lmask ? p->lmask * 2 + 1 : 4095, i, j;
	uint64_t *ns;

	ns = calloc(nmask + 1, sizeof(*ns));
	if (!ns)
		return -ENOMEM;
	for (i = 0; p->lslots && i <= p->lmask; i++) {
		const struct line_entry *e;
		uint64_t h;

		if (!p->lslots[i])
			continue;
		e = &p->lines[(uint32_t)p->lslots[i] - 1];
		h = script_hash(p->keys.p + e->key, e->len, LINE_SEED ^ e->java);
		for (j = h & nmask; ns[j]; j = (j + 1) & nmask)
			;
		ns[j] = p->lslots[i];
	}
	free(p->lslots);
	p->lslots = ns;
	p->lmask = nmask;
	return 0;
}

/* Parse a frame line seen for the first time and remember what it gives. */
static const struct line_entry *line_add(struct script_parser *p, const char *s, size_t n,
					 bool java, uint64_t h)
{
	struct frame_parts fp;
	struct line_entry *e;
	size_t start, i, j;

	if (p->nr_lines >= LINE_CACHE_MAX || p->keys.len + n > LINE_CACHE_BYTES)
		line_cache_clear(p);
	if (n > LINE_CACHE_BYTES)
		return NULL;
	if ((p->nr_lines + 1) * 2 > p->lmask + 1 && line_cache_grow(p))
		return NULL;
	if (p->nr_lines == p->cap_lines) {
		size_t cap = p->cap_lines ? p->cap_lines * 2 : 4096;

		e = realloc(p->lines, cap * sizeof(*e));
		if (!e)
			return NULL;
		p->lines = e;
		p->cap_lines = cap;
	}
	start = p->line_ids.nr;
	e = &p->lines[p->nr_lines];
	*e = (struct line_entry){ .key = (uint32_t)p->keys.len, .len = (uint32_t)n, .java = java };
	if (sbuf_add(&p->keys, s, n))
		return NULL;
	if (!frame_match(s, n, &fp)) {
		e->bad = true;
	} else {
		if (frame_names(&fp, p->flags, java, &p->scratch, emit_name, p))
			return NULL;
		/* the Perl script unshifts the pieces in order: leaf first is the reverse */
		for (i = start, j = p->line_ids.nr; i + 1 < j; i++, j--) {
			uint32_t t = p->line_ids.v[i];

			p->line_ids.v[i] = p->line_ids.v[j - 1];
			p->line_ids.v[j - 1] = t;
		}
		if (p->line_ids.nr > UINT32_MAX)
			return NULL;
	}
	e->ids_off = (uint32_t)start;
	e->nr = (uint32_t)(p->line_ids.nr - start);
	for (i = h & p->lmask; p->lslots[i]; i = (i + 1) & p->lmask)
		;
	p->lslots[i] = (h >> 32) << 32 | (uint64_t)(p->nr_lines + 1);
	p->nr_lines++;
	return e;
}

/* memcmp() == 0 for the short keys of frame lines, without the call and its dispatch. */
static inline bool bytes_eq(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t i;

	if (n < 8)
		return !memcmp(a, b, n);
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			return false;
	}
	memcpy(&x, a + n - 8, 8);
	memcpy(&y, b + n - 8, 8);
	return x == y;
}

static inline const struct line_entry *line_lookup(struct script_parser *p, const char *s,
						   size_t n, bool java)
{
	uint64_t h = script_hash(s, n, LINE_SEED ^ java);
	size_t i;

	if (p->lslots) {
		for (i = h & p->lmask; p->lslots[i]; i = (i + 1) & p->lmask) {
			uint64_t sl = p->lslots[i];
			const struct line_entry *e = &p->lines[(uint32_t)sl - 1];

			if (sl >> 32 == h >> 32 && e->len == n && e->java == java &&
			    bytes_eq(p->keys.p + e->key, s, n))
				return e;
		}
	}
	return line_add(p, s, n, java, h);
}

/*
 * A frame line (@s at its first non-blank byte). Frames count only while a sample is open;
 * a line that is no frame either is malformed ("Unrecognized line").
 */
static int frame_line(struct script_parser *p, const char *s, size_t n)
{
	const struct line_entry *e = line_lookup(p, s, n, p->open && p->java);

	if (!e)
		return -ENOMEM;
	if (e->bad) {
		p->st->malformed++;
		p->st->binary += memchr(s, '\0', n) != NULL;
		return 0;
	}
	if (!p->open || !e->nr)
		return 0;
	if (ids_reserve(&p->cur, e->nr))
		return -ENOMEM;
	memcpy(p->cur.v + p->cur.nr, p->line_ids.v + e->ids_off, e->nr * sizeof(uint32_t));
	p->cur.nr += e->nr;
	return 0;
}

/* ---- samples --------------------------------------------------------------------------------- */

static int sample_end(struct script_parser *p)
{
	int ret;

	if (!p->open)
		return 0;
	p->open = false;
	if (ids_reserve(&p->cur, p->root_tail.nr))
		return -ENOMEM;
	if (p->root_tail.nr)
		memcpy(p->cur.v + p->cur.nr, p->root_tail.v, p->root_tail.nr * sizeof(uint32_t));
	ret = stack_add(&p->stacks, p->cur.v, p->cur.nr - 1 + p->root_tail.nr, p->period, 1);
	p->cur.nr = 0;
	if (!ret)
		p->st->samples++;
	return ret;
}

/* The event filter: 1 when a sample of @ev is kept, 0 when not, -ENOMEM. */
static int event_keep(struct script_parser *p, const char *ev, size_t len)
{
	if (!p->filter_set) {
		/* by default only the first event type seen: mixing events misleads */
		p->filter_set = true;
		return sbuf_add(&p->filter, ev, len) ? -ENOMEM : 1;
	}
	if (len == p->filter.len && !memcmp(ev, p->filter.p, len))
		return 1;
	p->st->skipped_events++;
	return 0;
}

/*
 * Open a sample: the root frame text is comm (blanks as '_'), "-PID" with --pid, "-PID/TID"
 * with --tid. A ';' in it would be a frame separator in the Perl script's joined stack key, so
 * the text after it becomes frames, which keeps equal joined keys merged.
 */
static int sample_start(struct script_parser *p, const struct header *h, uint64_t period)
{
	struct sbuf *b = &p->pname;
	const char *semi;
	size_t i, root_len;
	uint32_t id;

	sbuf_reset(b);
	if (sbuf_add(b, h->comm, h->comm_len))
		return -ENOMEM;
	if (p->flags & (SCRIPT_PID | SCRIPT_TID)) {
		if (sbuf_add(b, "-", 1) || sbuf_add(b, h->pid, h->pid_len))
			return -ENOMEM;
		if ((p->flags & SCRIPT_TID) &&
		    (sbuf_add(b, "/", 1) || sbuf_add(b, h->tid, h->tid_len)))
			return -ENOMEM;
	}
	for (i = 0; i < b->len; i++)
		if (b->p[i] == ' ')
			b->p[i] = '_';
	p->java = b->len >= 4 && !memcmp(b->p, "java", 4);
	p->period = period;

	semi = memchr(b->p, ';', b->len);
	root_len = semi ? (size_t)(semi - b->p) : b->len;
	id = name_intern(&p->names, b->p, root_len);
	if (id == SCRIPT_NO_ID || ids_reserve(&p->cur, 1))
		return -ENOMEM;
	if (!p->open)
		p->cur.nr = 1;	/* a header inside a sample keeps its frames, as in Perl */
	p->cur.v[0] = id;
	p->root_tail.nr = 0;
	while (semi) {
		const char *s = semi + 1, *end = b->p + b->len;

		semi = memchr(s, ';', (size_t)(end - s));
		id = name_intern(&p->names, s, (size_t)((semi ? semi : end) - s));
		if (id == SCRIPT_NO_ID || ids_reserve(&p->root_tail, 1))
			return -ENOMEM;
		p->root_tail.v[p->root_tail.nr++] = id;
	}
	/* leaf first: the last piece of the root text is the deepest */
	for (i = 0; i < p->root_tail.nr / 2; i++) {
		uint32_t t = p->root_tail.v[i];

		p->root_tail.v[i] = p->root_tail.v[p->root_tail.nr - 1 - i];
		p->root_tail.v[p->root_tail.nr - 1 - i] = t;
	}
	p->open = true;
	return 0;
}

/* A header: the event filter, then the sample (a filtered one leaves $pname as it was). */
static int header_line(struct script_parser *p, const char *s, size_t n, struct header *h)
{
	int keep = 1;

	h->per = "";
	h->per_len = 0;
	if (header_event(s, n, h))
		keep = event_keep(p, h->ev, h->ev_len);
	if (keep <= 0)
		return keep;
	return sample_start(p, h, period_value(h->per, h->per_len));
}

/* A sample printed on one line: a sample of its own, closed at once. */
static int one_line_sample(struct script_parser *p, const char *s, size_t n, struct header *h,
			   size_t frame)
{
	int ret = event_keep(p, h->ev, h->ev_len);

	if (ret <= 0)
		return ret;
	ret = sample_start(p, h, period_value(h->per, h->per_len));
	if (!ret)
		ret = frame_line(p, s + frame, n - frame);
	if (!ret)
		ret = sample_end(p);
	return ret;
}

static int one_line(struct script_parser *p, const char *s, size_t n)
{
	struct header h;
	size_t i;

	if (n && s[0] == '#')
		return 0;
	if (n && s[n - 1] == '\r' && !p->compat)
		n--;
	if (!n)
		return sample_end(p);
	if (!p->open && !p->compat && header_one_line(s, n, &h, &i))
		return one_line_sample(p, s, n, &h, i);
	if (perl_space(s[0])) {
		i = skip_blanks(s, 1, n);
		if (i == n) {
			p->st->malformed++;
			return 0;
		}
		return frame_line(p, s + i, n - i);
	}
	if (header_match(s, n, p->compat ? 2 : 1, &h))
		return header_line(p, s, n, &h);
	return frame_line(p, s, n);
}

/* ---- entry point ----------------------------------------------------------------------------- */

static void script_parser_free(struct script_parser *p)
{
	name_table_release(&p->names);
	stack_table_release(&p->stacks);
	free(p->lslots);
	free(p->lines);
	ids_release(&p->line_ids);
	ids_release(&p->cur);
	ids_release(&p->root_tail);
	sbuf_release(&p->scratch);
	sbuf_release(&p->pname);
	sbuf_release(&p->keys);
	sbuf_release(&p->filter);
	free(p);
}

static int emit_stacks(struct script_parser *p, script_stack_fn fn, void *arg)
{
	const char **names = NULL;
	size_t cap = 0, i, k;
	int ret = 0;

	/* stacks with frames first: a call graph is never handed a frameless stack first */
	for (i = 0; i < 2 * p->stacks.nr && !ret; i++) {
		const struct stack_entry *e = &p->stacks.e[i % p->stacks.nr];
		const uint32_t *key = p->stacks.pool.v + e->off;
		struct script_stack s;

		if ((i < p->stacks.nr) != (e->nr > 0))
			continue;
		if (e->nr > cap) {
			const char **nn = realloc(names, e->nr * 2 * sizeof(*nn));

			if (!nn) {
				ret = -ENOMEM;
				break;
			}
			names = nn;
			cap = e->nr * 2;
		}
		for (k = 0; k < e->nr; k++)
			names[k] = name_str(&p->names, key[k + 1]);
		s = (struct script_stack){ .root = name_str(&p->names, key[0]), .frames = names,
					   .nr = e->nr, .period = e->period,
					   .samples = e->samples };
		ret = fn(&s, arg);
	}
	free(names);
	return ret;
}

struct script_parser *script_parser_new(const struct script_opts *o, struct script_stats *st)
{
	struct script_parser *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	memset(st, 0, sizeof(*st));
	p->st = st;
	p->flags = o ? o->flags : 0;
	p->compat = p->flags & SCRIPT_PERL_COMPAT;
	if (o && o->event_filter && o->event_filter[0]) {
		p->filter_set = true;
		if (sbuf_add(&p->filter, o->event_filter, strlen(o->event_filter))) {
			script_parser_free(p);
			return NULL;
		}
	}
	return p;
}

int script_parser_feed(struct script_parser *p, const char *buf, size_t len)
{
	const char *line = buf, *end = buf + len, *nl;
	int ret = 0;

	while (line < end && !ret) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		p->st->lines++;
		if ((size_t)(nl - line) > TEXT_LINE_MAX)
			return -EMSGSIZE;
		ret = one_line(p, line, (size_t)(nl - line));
		line = nl + 1;
	}
	return ret;
}

int script_parser_finish(struct script_parser *p, script_stack_fn fn, void *arg)
{
	struct script_stats *st = p->st;
	size_t n = p->filter.len < sizeof(st->event) - 1 ? p->filter.len : sizeof(st->event) - 1;
	int ret = 0;

	/* The Perl script drops a last sample that no blank line ends. */
	if (!p->compat)
		ret = sample_end(p);
	if (n)
		memcpy(st->event, p->filter.p, n);
	st->event[n] = '\0';
	if (!ret && fn)
		ret = emit_stacks(p, fn, arg);
	script_parser_free(p);
	return ret;
}

int script_parse(const char *buf, size_t len, const struct script_opts *o, script_stack_fn fn,
		 void *arg, struct script_stats *st)
{
	struct script_stats dummy;
	struct script_parser *p = script_parser_new(o, st ? st : &dummy);
	int ret;

	if (!p)
		return -ENOMEM;
	ret = script_parser_feed(p, buf, len);
	if (ret) {
		script_parser_finish(p, NULL, NULL);
		return ret;
	}
	return script_parser_finish(p, fn, arg);
}
