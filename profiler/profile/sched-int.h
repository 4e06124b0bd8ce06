/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched-int.h - internals of `kprof sched` (sched-timehist.c, sched-chain.c, sched-lkp.c).
 */
#ifndef KPROF_SCHED_INT_H
#define KPROF_SCHED_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "symbolize/symbolize.h"

/*
 * The call chain timehist prints for a sched_switch sample (@words: the sample's
 * PERF_SAMPLE_CALLCHAIN, markers included): the first @max_entries addresses (markers do not
 * count), named in the kernel or in @pid's address space as the markers say, frames named
 * schedule, __schedule or preempt_schedule left out, joined by " <- "; "[unknown]" for an
 * address without a name. Written into @buf (cut at @len - 1). Returns the frames printed.
 */
size_t sched_chain_format(struct sym_session *sym, pid_t pid, const void *words, uint64_t nr,
			  unsigned int max_entries, char *buf, size_t len);

/* Ruby's Float#round(3) (round half up, with Ruby's correction for binary fractions). */
double sched_ruby_round3(double x);

#endif
