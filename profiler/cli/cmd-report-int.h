/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd-report-int.h - parsing perf report's list options (--sort, --comm, --pid, --dso) for
 * `kprof report`. Each returns 0, or -EINVAL for a bad list (the caller says what it was).
 */
#ifndef KPROF_CMD_REPORT_INT_H
#define KPROF_CMD_REPORT_INT_H

#include <stddef.h>

#include "output/output.h"

/* "comm,dso": keys in order, each once; "symbol" is "sym". */
int report_parse_sort(const char *s, enum table_sort_key keys[4], size_t *nr);
/* Split a copy of @s (kept in *copy, the caller frees it) at commas into @items; appends. */
int report_parse_list(const char *s, char **copy, const char **items, size_t *nr, size_t max);
int report_parse_pids(const char *s, int *pids, size_t *nr, size_t max);
/* -g "caller" or "callee", optionally ",MIN" (a percentage, 0..100). */
int report_parse_callchain(const char *s, enum table_callchain *order, double *min);

struct profile;
/*
 * What perf report 6.1's entries and chains can show otherwise around inlined frames, one line
 * each (cmd-report-tree.c).
 */
void warn_perf_tree(const char *input, const struct profile *p);

#endif
