// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-kernel-order.c - the first kernel samples reach the kernel side in the recording's
 * order (see pipeline-int.h).
 *
 * Samples are summed before they are named (pipeline-agg.c), so the kernel side meets their
 * addresses in the order the table is flushed in, not in perf's. That order matters in one
 * place: perf 6.1 loads the kernel's kallsyms when it first resolves an address in the kernel
 * map, and names a kallsyms-named module differently when it met one of its addresses before
 * (symbolize.h, sym_stats.modules_early). So until a sample has a kernel address outside every
 * module mapping (the kernel map, or an address perf finds no module for), each sample with a
 * kernel address is passed on at once, in order; the samples of a recording's first
 * milliseconds at most, usually one.
 */
#include <errno.h>
#include <string.h>

#include "profiler/lib/lib.h"
#include "profiler/profile/pipeline-int.h"

int kernel_order_map(struct kernel_order *o, const struct pipe_map *m)
{
	struct kernel_order_range *v;

	if (o->kernel_met || m->pid != -1 || !strncmp(m->filename, "[kernel.", 8) ||
	    !strncmp(m->filename, "[guest.kernel.", 14))
		return 0;
	v = grow_array(o->mods, &o->alloc, o->nr + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	o->mods = v;
	o->mods[o->nr++] = (struct kernel_order_range){ m->start, m->start + m->len };
	return 0;
}

/* Whether @addr is a kernel address in no module mapping: perf loads the kernel there. */
static bool outside_modules(const struct kernel_order *o, uint64_t addr)
{
	for (size_t i = 0; i < o->nr; i++)
		if (addr >= o->mods[i].start && addr < o->mods[i].end)
			return false;
	return true;
}

bool kernel_order_sample(struct kernel_order *o, const struct agg_key *k)
{
	unsigned int cpumode = PERF_RECORD_MISC_USER;
	const unsigned char *chain = k->chain;
	bool kernel = false;

	if (o->kernel_met)
		return false;
	/* perf resolves the sample's ip first, then its chain (leaf first) */
	if (k->misc == PERF_RECORD_MISC_KERNEL) {
		kernel = true;
		o->kernel_met = outside_modules(o, k->ip);
	}
	for (uint32_t i = 0; i < k->nr && !o->kernel_met; i++) {
		uint64_t w;

		memcpy(&w, chain + (size_t)i * 8, 8);
		if (w >= (uint64_t)PERF_CONTEXT_MAX) {
			cpumode = pipe_context_cpumode(w);
			if (!cpumode)
				break;
			continue;
		}
		if (cpumode == PERF_RECORD_MISC_KERNEL) {
			kernel = true;
			o->kernel_met = outside_modules(o, w);
		}
	}
	return kernel;
}

void kernel_order_release(struct kernel_order *o)
{
	free(o->mods);
	memset(o, 0, sizeof(*o));
}
