/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cg-helpers.h - build call graphs from short text for output/ unit tests.
 *
 * A stack is written leaf first, frames separated by ';'. A frame is "sym" (module "app"),
 * "sym@module", "?" (unresolved in "app") or "?@module"; a module that starts with '[' marks a
 * kernel frame. "sym#N" sets the symbol's start address to N (tells apart same-named symbols);
 * "?+N" gives an unresolved frame the address N.
 */
#ifndef KPROF_TEST_CG_HELPERS_H
#define KPROF_TEST_CG_HELPERS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"

#define CG_TEST_MAX_FRAMES 64

/* Parse @text into frames whose strings point into @buf (a writable copy). Returns the count. */
static inline size_t cg_test_parse(char *buf, struct cg_frame *f)
{
	size_t n = 0;
	char *tok, *save = NULL, *at, *hash, *plus;

	for (tok = strtok_r(buf, ";", &save); tok && n < CG_TEST_MAX_FRAMES;
	     tok = strtok_r(NULL, ";", &save)) {
		memset(&f[n], 0, sizeof(f[n]));
		f[n].dso = "app";
		at = strchr(tok, '@');
		if (at) {
			*at = '\0';
			f[n].dso = at + 1;
		}
		hash = strchr(tok, '#');
		if (hash) {
			*hash = '\0';
			f[n].sym_start = strtoull(hash + 1, NULL, 0);
		}
		plus = tok[0] == '?' ? strchr(tok, '+') : NULL;
		if (plus)
			f[n].addr = strtoull(plus + 1, NULL, 0);
		f[n].sym = tok[0] == '?' ? NULL : tok;
		if (f[n].dso[0] == '[')
			f[n].flags = CG_FRAME_KERNEL;
		n++;
	}
	return n;
}

/* Add @samples samples of stack @text totalling @period, for task (@comm, @pid, @tid). */
static inline int cg_test_add_task(struct callgraph *cg, const char *comm, int pid, int tid,
				   const char *text, uint64_t period, uint64_t samples)
{
	struct cg_frame frames[CG_TEST_MAX_FRAMES];
	struct cg_task task = { .comm = comm, .pid = pid, .tid = tid };
	char *buf = strdup(text);
	size_t n;
	int err;

	if (!buf)
		return -1;
	n = text[0] ? cg_test_parse(buf, frames) : 0;
	err = callgraph_add(cg, &task, frames, n, period, samples);
	/* The graph copied the strings: scribble over ours to prove it. */
	memset(buf, 'X', strlen(text));
	free(buf);
	return err;
}

static inline int cg_test_add(struct callgraph *cg, const char *comm, const char *text,
			      uint64_t period, uint64_t samples)
{
	return cg_test_add_task(cg, comm, -1, -1, text, period, samples);
}

/* The value of @key in @l, NAN when absent. */
static inline double kv_test_get(const struct kv_list *l, const char *key)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		if (!strcmp(l->items[i].key, key))
			return l->items[i].value;
	}
	return NAN;
}

/* Capture what a writer prints: capture_open(), write to c.fp, capture_close() -> text. */
struct capture {
	char	*buf;
	size_t	len;
	FILE	*fp;
};

static inline FILE *capture_open(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->fp = open_memstream(&c->buf, &c->len);
	return c->fp;
}

/* The text written (malloc'd, never NULL). */
static inline char *capture_close(struct capture *c)
{
	fclose(c->fp);
	return c->buf ? c->buf : strdup("");
}

#endif
