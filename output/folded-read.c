// SPDX-License-Identifier: GPL-2.0
/*
 * folded-read.c - parse folded stacks ("root;child;leaf 42") the way flamegraph.pl reads them:
 * the count is the trailing number (fractions allowed) after whitespace, and a stack that again
 * ends in a number is a differential line "stack before after" as difffolded.pl writes it.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

const char *text_strerror(int err)
{
	return err == -EMSGSIZE ? "a line is longer than 1 MiB (not text of this kind?)" :
	       strerror(-err);
}

struct folded_parser {
	struct folded_frame	*frames;
	size_t			alloc;
	char			*line;		/* scratch copy for folded_read_buf() */
	size_t			line_alloc;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/*
 * Split a trailing "<ws>digits[.digits]" off s[0..*len); on success *len is the length of
 * what precedes the whitespace and the number is returned in *value.
 */
static bool take_count(char *s, size_t *len, double *value)
{
	size_t end = *len, i = end;
	bool dot = false;

	while (i > 0 && (isdigit((unsigned char)s[i - 1]) || (s[i - 1] == '.' && !dot))) {
		if (s[i - 1] == '.')
			dot = true;
		i--;
	}
	/* flamegraph.pl's \d+(?:\.\d*)?: at least one digit before any dot */
	if (i == end || !isdigit((unsigned char)s[i]))
		return false;
	if (i == 0 || !is_blank(s[i - 1]))
		return false;
	s[end] = '\0';
	*value = strtod(s + i, NULL);
	if (!isfinite(*value))
		return false;	/* hundreds of digits: not a count */
	/* flamegraph.pl's lazy \s+? after a greedy stack: one blank goes, others stay in the name */
	*len = i - 1;
	return true;
}

static int grow_frames(struct folded_parser *p, size_t need)
{
	struct folded_frame *f;
	size_t n = p->alloc ? p->alloc : 64;

	while (n < need)
		n *= 2;
	f = realloc(p->frames, n * sizeof(*f));
	if (!f)
		return -ENOMEM;
	p->frames = f;
	p->alloc = n;
	return 0;
}

/* Parse one line, modified in place (@line[len] must be writable). */
static int parse_line(struct folded_parser *p, char *line, size_t len, folded_stack_fn fn,
		      void *arg, struct folded_read_stats *st)
{
	double count, before = -1;
	size_t nr = 0, i, start;
	int err;

	while (len > 0 && is_blank(line[len - 1]))
		len--;
	if (len == 0)
		return 0;
	st->lines++;
	if (!take_count(line, &len, &count)) {
		st->invalid++;
		if (!st->first_invalid)
			st->first_invalid = st->lines;
		return 0;
	}
	if (take_count(line, &len, &before))
		st->two_counts++;
	line[len] = '\0';
	st->stacks++;

	/* An empty stack is a sample of the root alone, as in flamegraph.pl. */
	for (start = 0, i = 0; len > 0 && i <= len; i++) {
		if (i < len && line[i] != ';')
			continue;
		if (nr == p->alloc && (err = grow_frames(p, nr + 1)))
			return err;
		line[i] = '\0';
		p->frames[nr].name = line + start;
		p->frames[nr].flags = 0;
		if (i - start >= 4 && !memcmp(line + i - 4, "_[k]", 4)) {
			line[i - 4] = '\0';
			p->frames[nr].flags = FOLDED_FRAME_KERNEL;
		}
		nr++;
		start = i + 1;
	}
	return fn(p->frames, nr, count, before, arg);
}

int folded_read_buf(const char *buf, size_t len, folded_stack_fn fn, void *arg,
		    struct folded_read_stats *st)
{
	struct folded_read_stats dummy;
	struct folded_parser p = { 0 };
	const char *pos = buf, *end = buf + len;
	int err = 0;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	while (pos < end && !err) {
		const char *nl = memchr(pos, '\n', end - pos);
		size_t n = (nl ? nl : end) - pos;

		if (n > TEXT_LINE_MAX) {
			err = -EMSGSIZE;
			break;
		}
		if (n + 1 > p.line_alloc) {
			char *l = realloc(p.line, n + 1);

			if (!l) {
				err = -ENOMEM;
				break;
			}
			p.line = l;
			p.line_alloc = n + 1;
		}
		memcpy(p.line, pos, n);
		p.line[n] = '\0';
		err = parse_line(&p, p.line, n, fn, arg, st);
		pos += n + 1;
	}
	free(p.line);
	free(p.frames);
	return err;
}

#define CHUNK	(1u << 16)

/* Read in chunks, whole lines parsed in place: memory is bounded by TEXT_LINE_MAX. */
int folded_read_file(FILE *fp, folded_stack_fn fn, void *arg, struct folded_read_stats *st)
{
	struct folded_read_stats dummy;
	struct folded_parser p = { 0 };
	size_t cap = CHUNK, n = 0, got;
	char *buf = malloc(cap + 1), *line, *nl;
	bool eof = false;
	int err = 0;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	if (!buf)
		return -ENOMEM;
	while (!err && !eof) {
		if (n == cap) {
			char *nb = cap > TEXT_LINE_MAX ? NULL : realloc(buf, cap * 2 + 1);

			if (!nb) {
				err = cap > TEXT_LINE_MAX ? -EMSGSIZE : -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		got = fread(buf + n, 1, cap - n, fp);
		eof = got < cap - n;
		n += got;
		for (line = buf; !err && (nl = memchr(line, '\n', n - (line - buf))); line = nl + 1)
			err = nl - line > TEXT_LINE_MAX ? -EMSGSIZE :
			      parse_line(&p, line, (size_t)(nl - line), fn, arg, st);
		n -= (size_t)(line - buf);
		memmove(buf, line, n);
		if (!err && n > TEXT_LINE_MAX)
			err = -EMSGSIZE;
	}
	if (!err && n) {	/* the last line, without '\n' */
		buf[n] = '\0';
		err = parse_line(&p, buf, n, fn, arg, st);
	}
	if (!err && ferror(fp))
		err = -EIO;
	free(buf);
	free(p.frames);
	return err;
}
