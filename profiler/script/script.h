/* SPDX-License-Identifier: GPL-2.0 */
/*
 * script.h - `perf script` text into a call graph, with stackcollapse-perf.pl's names. Public
 * header of profiler/script/ (may use perfdata/ for the magic check, output/, lib/). Pure
 * functions of their input, reentrant; errors -errno with a reason in the caller's buffer.
 *
 * The parser reproduces stackcollapse-perf.pl (FlameGraph 41fee1f) line for line: the same
 * header and frame regexes, the same name tidying and annotations, the same event filter and
 * count. docs/collapse.md lists the rules and the deliberate differences (last sample flushed
 * at end of input, samples printed on the header line, one-character comm names, CRLF input,
 * "(anonymous namespace)::f" frames kept), which SCRIPT_PERL_COMPAT turns off.
 *
 * Frames handed to the call graph carry the final stackcollapse name in cg_frame.sym (dso "",
 * addr 0, flags 0); the task's comm is the final root frame text ("java-?/25607" with --tid),
 * pid and tid are -1. So folded_write(fp, cg, 0) prints exactly what the Perl script prints.
 */
#ifndef KPROF_SCRIPT_H
#define KPROF_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/output.h"

enum script_flags { SCRIPT_PID = 1, SCRIPT_TID = 2, SCRIPT_KERNEL = 4, SCRIPT_JIT = 8,
		    SCRIPT_ADDRS = 16,	/* stackcollapse-perf.pl's --pid --tid --kernel --jit --addrs */
		    SCRIPT_PERL_COMPAT = 32 };	/* no deliberate differences (docs/collapse.md) */

struct script_opts {
	unsigned int	flags;		/* enum script_flags */
	const char	*event_filter;	/* keep only this event; NULL: the first event seen */
};

struct script_stats {
	uint64_t	lines;		/* input lines */
	uint64_t	samples;	/* samples added to the call graph */
	uint64_t	malformed;	/* lines the Perl script reports as "Unrecognized line" */
	uint64_t	skipped_events;	/* samples of other events than the one kept */
	uint64_t	binary;		/* malformed lines holding NUL bytes: not text at all */
	char		event[128];	/* the event kept ("" when no header named one) */
};

/* True when @head (the first bytes of a file) looks like `perf script` output. */
bool script_looks_like(const void *head, size_t len);

/*
 * Parse `perf script` text into @cg (frames carry final stackcollapse names). @st may be NULL;
 * otherwise it is filled in (zeroed first). Malformed lines are counted, never fatal.
 * 0, or -ENOMEM (@cg may then hold part of the input).
 */
int script_read_buf(const char *buf, size_t len, const struct script_opts *o,
		    struct callgraph *cg, struct script_stats *st);

/* The same for a file ("-" = stdin), read whole (mmap when possible). -errno with a one-line
 * reason naming the file in @err. */
int script_read_file(const char *path /* "-" = stdin */, const struct script_opts *o,
		     struct callgraph *cg, struct script_stats *st, char *err, size_t errlen);

#endif
