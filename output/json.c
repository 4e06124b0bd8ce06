// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - a small strict JSON reader for the flat objects kprof exchanges: stats.json
 * ({"key": number}), matrix.json ({"key": [numbers], "stats_source": [strings]}) and meta.json.
 *
 * The whole document is validated (RFC 8259 grammar, nothing trailing); top-level members that
 * are numbers, strings, or arrays of numbers/strings are kept, anything else (nested objects,
 * booleans, null) is kept as JSON_OTHER so a reader can decide whether it cares. Errors name the
 * byte offset, so a user can find the bad spot with `head -c`. Duplicate keys are left to the
 * consumer (the matrix code finds them after sorting, without a quadratic search here).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/lib/lib.h"

#define JSON_MAX_DEPTH	64	/* nested values are only validated; bound the recursion */
#define JSON_MAX_SIZE	(1UL << 30)

struct parser {
	const char	*buf;
	size_t		len, pos;
	char		*err;
	size_t		errlen;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->errlen)
		return -EINVAL;
	n = snprintf(p->err, p->errlen, "byte offset %zu: ", p->pos);
	if (n >= 0 && (size_t)n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len && strchr(" \t\r\n", p->buf[p->pos]) && p->buf[p->pos])
		p->pos++;
}

static int peek(struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->buf[p->pos] : -1;
}

static int expect(struct parser *p, char c)
{
	skip_ws(p);
	if (peek(p) != c) {
		if (peek(p) < 0)
			return fail(p, "unexpected end of file, expected '%c'", c);
		return fail(p, "expected '%c'", c);
	}
	p->pos++;
	return 0;
}

static void put_utf8(char *out, size_t *o, unsigned int cp)
{
	if (cp < 0x80) {
		out[(*o)++] = cp;
	} else if (cp < 0x800) {
		out[(*o)++] = 0xc0 | (cp >> 6);
		out[(*o)++] = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		out[(*o)++] = 0xe0 | (cp >> 12);
		out[(*o)++] = 0x80 | ((cp >> 6) & 0x3f);
		out[(*o)++] = 0x80 | (cp & 0x3f);
	} else {
		out[(*o)++] = 0xf0 | (cp >> 18);
		out[(*o)++] = 0x80 | ((cp >> 12) & 0x3f);
		out[(*o)++] = 0x80 | ((cp >> 6) & 0x3f);
		out[(*o)++] = 0x80 | (cp & 0x3f);
	}
}

static int hex4(struct parser *p, unsigned int *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		int c = peek(p);
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return fail(p, "bad \\u escape");
		*cp = *cp << 4 | d;
		p->pos++;
	}
	return 0;
}

static int parse_escape(struct parser *p, char *out, size_t *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	unsigned int cp, lo;
	const char *e;
	int c = peek(p);

	if (c < 0)
		return fail(p, "unterminated string");
	p->pos++;
	if (c != 'u') {
		e = strchr(from, c);
		if (!e || !c) {
			p->pos--;
			return fail(p, "bad escape '\\%c'", c);
		}
		out[(*o)++] = to[e - from];
		return 0;
	}
	if (hex4(p, &cp))
		return -EINVAL;
	if (cp >= 0xd800 && cp < 0xdc00) {
		if (p->pos + 1 >= p->len || p->buf[p->pos] != '\\' || p->buf[p->pos + 1] != 'u')
			return fail(p, "unpaired surrogate in \\u escape");
		p->pos += 2;
		if (hex4(p, &lo))
			return -EINVAL;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(p, "unpaired surrogate in \\u escape");
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	} else if (cp >= 0xdc00 && cp < 0xe000) {
		return fail(p, "unpaired surrogate in \\u escape");
	}
	put_utf8(out, o, cp);
	return 0;
}

/* A string at p->pos (the opening quote); *out is malloc'ed, or NULL when @out is NULL. */
static int parse_string(struct parser *p, char **out)
{
	size_t start, o = 0;
	char *s = NULL;
	int ret;

	if (expect(p, '"'))
		return -EINVAL;
	start = p->pos;
	/* Escapes never expand: the raw length bounds the decoded one (+1 for \u -> 4 bytes). */
	while (p->pos < p->len && p->buf[p->pos] != '"')
		p->pos += p->buf[p->pos] == '\\' ? 2 : 1;
	if (p->pos >= p->len) {
		p->pos = start - 1;
		return fail(p, "unterminated string");
	}
	s = malloc(p->pos - start + 1);
	if (!s)
		return -ENOMEM;
	p->pos = start;
	while (p->buf[p->pos] != '"') {
		unsigned char c = p->buf[p->pos];

		if (c < 0x20) {
			free(s);
			return fail(p, "control character in string");
		}
		p->pos++;
		if (c != '\\') {
			s[o++] = c;
			continue;
		}
		ret = parse_escape(p, s, &o);
		if (ret) {
			free(s);
			return ret;
		}
	}
	p->pos++;
	s[o] = 0;
	if (out)
		*out = s;
	else
		free(s);
	return 0;
}

static int parse_number(struct parser *p, double *v, bool *is_int)
{
	size_t start = p->pos;
	char tmp[64], *end;
	size_t n;

	*is_int = true;
	if (peek(p) == '-')
		p->pos++;
	if (peek(p) == '0') {
		p->pos++;
	} else if (peek(p) >= '1' && peek(p) <= '9') {
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	} else {
		return fail(p, "expected a number");
	}
	if (peek(p) == '.') {
		*is_int = false;
		p->pos++;
		if (!(peek(p) >= '0' && peek(p) <= '9'))
			return fail(p, "expected a digit after '.'");
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	}
	if (peek(p) == 'e' || peek(p) == 'E') {
		*is_int = false;
		p->pos++;
		if (peek(p) == '+' || peek(p) == '-')
			p->pos++;
		if (!(peek(p) >= '0' && peek(p) <= '9'))
			return fail(p, "expected a digit in the exponent");
		while (peek(p) >= '0' && peek(p) <= '9')
			p->pos++;
	}
	n = p->pos - start;
	if (n >= sizeof(tmp)) {
		p->pos = start;
		return fail(p, "number too long");
	}
	memcpy(tmp, p->buf + start, n);
	tmp[n] = 0;
	*v = strtod(tmp, &end);
	if (!isfinite(*v)) {
		p->pos = start;
		return fail(p, "number out of range");
	}
	return 0;
}

static int skip_value(struct parser *p, int depth);

static int skip_container(struct parser *p, int depth, char open, char close)
{
	bool object = open == '{';

	if (depth > JSON_MAX_DEPTH)
		return fail(p, "nesting deeper than %d", JSON_MAX_DEPTH);
	p->pos++;
	skip_ws(p);
	if (peek(p) == close) {
		p->pos++;
		return 0;
	}
	for (;;) {
		skip_ws(p);
		if (object && (parse_string(p, NULL) || expect(p, ':')))
			return -EINVAL;
		if (skip_value(p, depth + 1))
			return -EINVAL;
		skip_ws(p);
		if (peek(p) == close) {
			p->pos++;
			return 0;
		}
		if (expect(p, ','))
			return -EINVAL;
	}
}

static int skip_literal(struct parser *p, const char *lit)
{
	size_t n = strlen(lit);

	if (p->len - p->pos < n || memcmp(p->buf + p->pos, lit, n))
		return fail(p, "unexpected character");
	p->pos += n;
	return 0;
}

static int skip_value(struct parser *p, int depth)
{
	double v;
	bool is_int;

	skip_ws(p);
	switch (peek(p)) {
	case '{':
		return skip_container(p, depth, '{', '}');
	case '[':
		return skip_container(p, depth, '[', ']');
	case '"':
		return parse_string(p, NULL);
	case 't':
		return skip_literal(p, "true");
	case 'f':
		return skip_literal(p, "false");
	case 'n':
		return skip_literal(p, "null");
	case -1:
		return fail(p, "unexpected end of file, expected a value");
	default:
		return parse_number(p, &v, &is_int);
	}
}

static int grow(void **arr, size_t *alloc, size_t nr, size_t size)
{
	void *n;
	size_t want;

	if (nr < *alloc)
		return 0;
	want = *alloc ? *alloc * 2 : 8;
	n = realloc(*arr, want * size);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*alloc = want;
	return 0;
}

/* An array of numbers and strings; anything else inside makes the whole member JSON_OTHER. */
static int parse_array(struct parser *p, struct json_member *m)
{
	size_t start = p->pos, alloc = 0;
	int ret;

	m->type = JSON_ARRAY;
	p->pos++;
	skip_ws(p);
	if (peek(p) == ']') {
		p->pos++;
		return 0;
	}
	for (;;) {
		int c;

		skip_ws(p);
		c = peek(p);
		if (c == '{' || c == '[' || c == 't' || c == 'f' || c == 'n')
			goto other;
		if (grow((void **)&m->nums, &alloc, m->nr, sizeof(*m->nums)) ||
		    !(m->ints = realloc(m->ints, alloc * sizeof(*m->ints))) ||
		    !(m->strs = realloc(m->strs, alloc * sizeof(*m->strs))))
			return -ENOMEM;
		m->nums[m->nr] = 0;
		m->ints[m->nr] = false;
		m->strs[m->nr] = NULL;
		if (c == '"')
			ret = parse_string(p, &m->strs[m->nr]);
		else
			ret = parse_number(p, &m->nums[m->nr], &m->ints[m->nr]);
		if (ret)
			return ret;
		m->nr++;
		skip_ws(p);
		if (peek(p) == ']') {
			p->pos++;
			return 0;
		}
		if (expect(p, ','))
			return -EINVAL;
	}
other:
	for (size_t i = 0; i < m->nr; i++)
		free(m->strs[i]);
	free(m->nums);
	free(m->ints);
	free(m->strs);
	m->nums = NULL;
	m->ints = NULL;
	m->strs = NULL;
	m->nr = 0;
	m->type = JSON_OTHER;
	p->pos = start;
	return skip_value(p, 1);
}

static int parse_member_value(struct parser *p, struct json_member *m)
{
	skip_ws(p);
	switch (peek(p)) {
	case '"':
		m->type = JSON_STRING;
		return parse_string(p, &m->str);
	case '[':
		return parse_array(p, m);
	case '{': case 't': case 'f': case 'n':
		m->type = JSON_OTHER;
		return skip_value(p, 1);
	case -1:
		return fail(p, "unexpected end of file, expected a value");
	default:
		m->type = JSON_NUMBER;
		return parse_number(p, &m->num, &m->num_is_int);
	}
}

static void member_release(struct json_member *m)
{
	free(m->key);
	free(m->str);
	for (size_t i = 0; i < m->nr; i++)
		free(m->strs[i]);
	free(m->nums);
	free(m->ints);
	free(m->strs);
}

void json_object_release(struct json_object *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nr; i++)
		member_release(&o->members[i]);
	free(o->members);
	o->members = NULL;
	o->nr = 0;
}

const struct json_member *json_get(const struct json_object *o, const char *key)
{
	for (size_t i = 0; i < o->nr; i++)
		if (!strcmp(o->members[i].key, key))
			return &o->members[i];
	return NULL;
}

static int parse_members(struct parser *p, struct json_object *o)
{
	size_t alloc = 0;
	int ret;

	if (expect(p, '{'))
		return -EINVAL;
	skip_ws(p);
	if (peek(p) == '}') {
		p->pos++;
		return 0;
	}
	for (;;) {
		struct json_member *m;

		ret = grow((void **)&o->members, &alloc, o->nr, sizeof(*o->members));
		if (ret)
			return ret;
		m = &o->members[o->nr];
		memset(m, 0, sizeof(*m));
		skip_ws(p);
		if (peek(p) != '"')
			return fail(p, peek(p) < 0 ? "unexpected end of file, expected a key" :
				    "expected a string key");
		ret = parse_string(p, &m->key);
		if (ret)
			return ret;
		o->nr++;		/* from here on, released with the object */
		if (expect(p, ':'))
			return -EINVAL;
		ret = parse_member_value(p, m);
		if (ret)
			return ret;
		skip_ws(p);
		if (peek(p) == '}') {
			p->pos++;
			return 0;
		}
		if (expect(p, ','))
			return -EINVAL;
	}
}

int json_parse(const char *buf, size_t len, struct json_object *o, char *err, size_t errlen)
{
	struct parser p = { .buf = buf, .len = len, .err = err, .errlen = errlen };
	int ret;

	memset(o, 0, sizeof(*o));
	if (errlen)
		err[0] = 0;
	skip_ws(&p);
	if (p.pos == len) {
		ret = fail(&p, "empty file, expected a JSON object");
		goto out;
	}
	ret = parse_members(&p, o);
	if (!ret) {
		skip_ws(&p);
		if (p.pos != len)
			ret = fail(&p, "unexpected data after the JSON object");
	}
out:
	if (ret) {
		if (ret == -ENOMEM && errlen)
			snprintf(err, errlen, "out of memory");
		json_object_release(o);
	}
	return ret;
}

int json_read_file(const char *path, struct json_object *o, char *err, size_t errlen)
{
	char *buf;
	size_t len;
	int ret;

	memset(o, 0, sizeof(*o));
	ret = read_whole_file(path, JSON_MAX_SIZE, &buf, &len);
	if (ret) {
		if (errlen)
			snprintf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	ret = json_parse(buf, len, o, err, errlen);
	free(buf);
	return ret;
}
