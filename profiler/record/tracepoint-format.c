// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint-format.c - check a tracepoint format text from a perf.data before libtraceevent
 * parses it (see tracepoint-int.h).
 *
 * Why: libtraceevent 1.7.1 trusts its input; a truncated field line or stray bytes crash it
 * inside tep_parse_event() (NULL dereferences in the field and print-format parsers). A file
 * is untrusted input, so only the exact shape the kernel writes passes:
 *
 *	name: IDENT\n
 *	ID: DIGITS\n
 *	format:\n
 *	\tfield:DECL;\toffset:N;\tsize:N;\tsigned:0|1;\n	(blank lines allowed between)
 *	print fmt: ...
 *
 * and libtraceevent is given a canonical copy that keeps the fields but replaces the print
 * format by an empty one: kprof trace reads fields, never prints the event, so the print
 * format (the largest and most fragile part of the parser) is not needed at all.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/record/tracepoint-int.h"

#define MAX_NAME	256	/* event names and field declarations */

struct fmt_cursor {
	const char	*p, *end;
	unsigned int	line;
};

static int bad(char *err, size_t errlen, const struct fmt_cursor *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "line %u: ", c->line);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool eat(struct fmt_cursor *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n))
		return false;
	c->p += n;
	return true;
}

/* Decimal number up to @max, no sign, at most 10 digits. */
static bool eat_uint(struct fmt_cursor *c, unsigned long max, unsigned long *v)
{
	const char *start = c->p;

	*v = 0;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && c->p - start < 10)
		*v = *v * 10 + (unsigned long)(*c->p++ - '0');
	return c->p > start && *v <= max;
}

/* A run of characters from @set, 1..MAX_NAME long, followed by @stop (consumed). */
static const char *eat_span(struct fmt_cursor *c, const char *set, char stop, size_t *len)
{
	const char *start = c->p;

	while (c->p < c->end && *c->p && strchr(set, *c->p))
		c->p++;
	*len = (size_t)(c->p - start);
	if (!*len || *len > MAX_NAME || c->p == c->end || *c->p != stop)
		return NULL;
	c->p++;
	return start;
}

#define IDENT_CHARS	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
/* What a C declaration in a kernel format uses: types, pointers, arrays with a length. */
#define DECL_CHARS	IDENT_CHARS " *[]"

struct out_buf {
	char	*buf;
	size_t	len, alloc;
};

static int out_add(struct out_buf *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!o->buf) {	/* no arithmetic on a NULL buffer, even + 0 */
		o->buf = malloc(1024);
		if (!o->buf)
			return -ENOMEM;
		o->alloc = 1024;
	}
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->buf + o->len, o->alloc - o->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if ((size_t)n < o->alloc - o->len)
			break;
		size_t alloc = (o->alloc + (size_t)n + 1) * 2;
		char *nb = realloc(o->buf, alloc);

		if (!nb)
			return -ENOMEM;
		o->buf = nb;
		o->alloc = alloc;
	}
	o->len += (size_t)n;
	return 0;
}

/* @n > 0 characters, all of @set */
static bool span_of(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(set, s[i]))
			return false;
	return n > 0;
}

static bool is_ident(const char *s, size_t n)
{
	return span_of(s, n, IDENT_CHARS) && !(s[0] >= '0' && s[0] <= '9');
}

/* A type word: identifiers and '*'s ("unsigned", "*", "char*", "*const"). */
static bool is_type_word(const char *s, size_t n)
{
	return span_of(s, n, IDENT_CHARS "*") && !(s[0] >= '0' && s[0] <= '9');
}

/*
 * The declarations kernels write for TP_STRUCT__entry (kernel/trace/trace_events.c; every
 * format of a 6.18 kernel's tracefs passes, test-record-tpformat):
 *
 *	TYPE NAME			"unsigned short common_type", "const char *const * argv"
 *	TYPE NAME[N], TYPE NAME[]	"char comm[16]", ftrace's "char buf[]"
 *	__data_loc TYPE[] NAME		dynamic arrays and strings; also "__data_loc cpumask_t
 *					mask" and __rel_loc
 *
 * TYPE is words of identifiers and '*'s separated by single spaces. Nothing else passes:
 * libtraceevent 1.7.1 leaks on shapes it half-accepts ("TYPE[] NAME" without __data_loc, a
 * one-word declaration; both found by fuzzing).
 */
static bool decl_valid(const char *d, size_t n)
{
	const char *w[32];
	size_t wl[32], nw = 0, first = 0;
	const char *name, *br;
	size_t name_len;
	bool dyn;

	for (size_t i = 0, start = 0; i <= n; i++) {
		if (i < n && d[i] != ' ')
			continue;
		if (i == start || nw == 32)	/* empty word (double, leading, trailing space) */
			return false;
		w[nw] = d + start;
		wl[nw++] = i - start;
		start = i + 1;
	}
	dyn = nw && ((wl[0] == 10 && !memcmp(w[0], "__data_loc", 10)) ||
		     (wl[0] == 9 && !memcmp(w[0], "__rel_loc", 9)));
	if (dyn)
		first = 1;
	if (nw < first + 2)	/* a type and a name */
		return false;
	name = w[nw - 1];
	br = memchr(name, '[', wl[nw - 1]);
	name_len = br ? (size_t)(br - name) : wl[nw - 1];
	if (!is_ident(name, name_len))
		return false;
	if (br) {	/* NAME[N] or NAME[]: not for dynamic arrays */
		size_t len = wl[nw - 1] - name_len;

		if (dyn || len < 2 || br[len - 1] != ']' ||
		    (len > 2 && !span_of(br + 1, len - 2, IDENT_CHARS)))
			return false;
	}
	for (size_t i = first; i < nw - 1; i++) {
		size_t l = wl[i];

		if (dyn && i == nw - 2 && l > 2 && !memcmp(w[i] + l - 2, "[]", 2))
			l -= 2;	/* the element type of a dynamic array */
		if (!is_type_word(w[i], l))
			return false;
	}
	return true;
}

static int check_field(struct fmt_cursor *c, struct out_buf *o, char *err, size_t errlen)
{
	unsigned long off, size, sign;
	const char *decl;
	size_t dlen;

	decl = eat_span(c, DECL_CHARS, ';', &dlen);
	if (!decl)
		return bad(err, errlen, c, "field declaration is not a C declaration");
	if (!decl_valid(decl, dlen))
		return bad(err, errlen, c, "field declaration is not \"TYPE NAME\", \"TYPE "
			   "NAME[N]\" or \"__data_loc TYPE[] NAME\"");
	/* A sample's raw data is at most 64 KiB (u16 data_loc offsets): so are fields. */
	if (!eat(c, "\toffset:") || !eat_uint(c, 0xffff, &off) || !eat(c, ";\tsize:") ||
	    !eat_uint(c, 0xffff, &size) || !eat(c, ";\tsigned:") || !eat_uint(c, 1, &sign) ||
	    !eat(c, ";\n"))
		return bad(err, errlen, c, "field line is not \"\\tfield:DECL;\\toffset:N;\\tsize:N;"
			   "\\tsigned:0|1;\" (N < 65536)");
	if (off + size > 0x10000)
		return bad(err, errlen, c, "field ends beyond 64 KiB");
	return out_add(o, "\tfield:%.*s;\toffset:%lu;\tsize:%lu;\tsigned:%lu;\n", (int)dlen, decl,
		       off, size, sign);
}

int tp_format_sanitize(const char *fmt, size_t len, char **out, size_t *out_len, char *err,
		       size_t errlen)
{
	struct fmt_cursor c = { .p = fmt, .end = fmt + len, .line = 1 };
	struct out_buf o = { 0 };
	unsigned long id;
	unsigned int nr_fields = 0;
	const char *name;
	size_t nlen;
	int ret;

	*out = NULL;
	if (!eat(&c, "name: ") || !(name = eat_span(&c, IDENT_CHARS, '\n', &nlen)))
		return bad(err, errlen, &c, "no \"name: IDENT\"");
	c.line++;
	if (!eat(&c, "ID: ") || !eat_uint(&c, 0x7fffffff, &id) || !eat(&c, "\n"))
		return bad(err, errlen, &c, "no \"ID: N\"");
	c.line++;
	if (!eat(&c, "format:\n"))
		return bad(err, errlen, &c, "no \"format:\"");
	c.line++;
	ret = out_add(&o, "name: %.*s\nID: %lu\nformat:\n", (int)nlen, name, id);
	while (!ret) {
		if (eat(&c, "\n")) {
			ret = out_add(&o, "\n");
		} else if (eat(&c, "\tfield:")) {
			ret = check_field(&c, &o, err, errlen);
			nr_fields++;
		} else if (eat(&c, "print fmt: ")) {
			break;
		} else {
			ret = bad(err, errlen, &c, c.p == c.end ? "no \"print fmt:\"" :
				  "neither a field nor \"print fmt:\"");
		}
		c.line++;
	}
	if (!ret && (!nr_fields || nr_fields > 4096))
		ret = bad(err, errlen, &c, "%u fields", nr_fields);
	/* the print format itself is not kept (see above) */
	if (!ret)
		ret = out_add(&o, "print fmt: \"\"\n");
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(err, errlen, "%s", strerror(ENOMEM));
		free(o.buf);
		return ret;
	}
	*out = o.buf;
	*out_len = o.len;
	return 0;
}
