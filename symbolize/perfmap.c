// SPDX-License-Identifier: GPL-2.0
/*
 * perfmap.c - symbols of JIT-compiled code from /tmp/perf-PID.map ("START SIZE NAME", hex,
 * one per line), the file perf reads for a process's anonymous executable mappings. Like perf
 * 6.1 (dso__load_perf_map) the sizes are used as written, with no end fix-up.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

int perfmap_load(struct symtab *t, char **buf, const char *path)
{
	size_t len;
	char *p, *end;
	int err = read_whole_regular_file(path, 0, buf, &len);

	if (err)
		return err;
	for (p = *buf, end = *buf + len; p < end; ) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;
		uint64_t start, size;

		if (!eol)
			eol = end;
		*eol = '\0';
		if (parse_hex(&q, &start) && *q == ' ' && (q++, parse_hex(&q, &size)) &&
		    *q == ' ' && q[1]) {
			err = symtab_add(t, start, size, STB_GLOBAL, q + 1, NULL);
			if (err)
				return err;
		}
		p = eol + 1;
	}
	return symtab_sort(t);
}
