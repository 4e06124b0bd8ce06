// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-unwind.c - samples with a user stack copy (perf record --call-graph dwarf) through
 * profile_load()'s two sides (see pipeline-local.h).
 *
 * Such a sample carries its user registers and a copy of its user stack; no two are alike, so
 * they are not summed by raw stack: the reading side passes each one on as a PIPE_UNWIND
 * message (its call chain, the registers in DWARF order, the used part of the stack copy), and
 * the resolving side unwinds it with symbolize's DWARF unwinder and adds the result as if the
 * recorded call chain had carried the user frames: the kernel part as recorded, then
 * PERF_CONTEXT_USER and the unwound addresses -- what perf's thread__resolve_callchain() does
 * with the unwinder's entries (the recorded chain first, callee order).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/perf-read-local.h"
#include "profiler/pipeline-local.h"

/* perf's x86_64 register numbers (arch/x86/include/uapi/asm/perf_regs.h) of DWARF regs 0..16 */
static const uint8_t dwarf_to_perf[SYM_UNWIND_NREGS] = {
	0 /* AX */, 3 /* DX */, 2 /* CX */, 1 /* BX */, 4 /* SI */, 5 /* DI */, 6 /* BP */,
	7 /* SP */, 16, 17, 18, 19, 20, 21, 22, 23 /* R8..R15 */, 8 /* IP */,
};

#define PERF_SAMPLE_REGS_ABI_64	2

enum unwind_want unwind_wanted(const struct perf_event_attr *attr, const struct perf_sample *s)
{
	const uint64_t both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	/* perf's thread__resolve_callchain_unwind(): both fields, regs and a non-empty copy */
	if ((attr->sample_type & both) != both || !s->user_regs_abi || !s->user_regs ||
	    !s->user_stack_dyn_size)
		return UNWIND_NONE;
	if (s->user_regs_abi != PERF_SAMPLE_REGS_ABI_64)
		return UNWIND_ABI32;
	for (size_t i = 0; i < SYM_UNWIND_NREGS; i++)
		if (!(attr->sample_regs_user & (1ULL << dwarf_to_perf[i])))
			return UNWIND_NO_REGS;
	return UNWIND_YES;
}

int unwind_put(struct pipe_batch *b, const struct pipe_stack *st,
	       const struct perf_event_attr *attr, const struct perf_sample *s)
{
	size_t stack_words = (s->user_stack_dyn_size + 7) / 8;
	size_t head = sizeof(*st) / 8;
	size_t words = head + st->nr + SYM_UNWIND_NREGS + 1 + stack_words;
	uint64_t mask = attr->sample_regs_user, *w = pipe_batch_room(b, words), *regs;

	if (!w)
		return -ENOMEM;
	*(struct pipe_stack *)w = *st;
	((struct pipe_stack *)w)->type = PIPE_UNWIND;
	if (st->nr)
		memcpy(w + head, s->callchain, st->nr * 8);
	regs = w + head + st->nr;
	for (size_t i = 0; i < SYM_UNWIND_NREGS; i++) {
		unsigned int bit = dwarf_to_perf[i];

		/* the sample holds the registers of the mask's set bits, in bit order */
		regs[i] = perf_u64_at(s->user_regs,
				      (size_t)__builtin_popcountll(mask & ((1ULL << bit) - 1)));
	}
	regs[SYM_UNWIND_NREGS] = s->user_stack_dyn_size;
	w[words - 1] = 0;	/* the padding of the last word */
	memcpy(regs + SYM_UNWIND_NREGS + 1, s->user_stack, s->user_stack_dyn_size);
	b->nr += words;
	return 0;
}

size_t unwind_msg_words(const struct pipe_stack *st, const uint64_t *after)
{
	uint64_t stack_len = after[st->nr + SYM_UNWIND_NREGS];

	return st->nr + SYM_UNWIND_NREGS + 1 + (size_t)((stack_len + 7) / 8);
}

int resolver_unwind(struct resolver *r, const struct pipe_stack *st, const uint64_t *after)
{
	const uint64_t *regs = after + st->nr;
	size_t stack_len = (size_t)regs[SYM_UNWIND_NREGS];
	size_t need = st->nr + 1 + RESOLVE_MAX_STACK;
	struct pipe_stack ext = *st;
	uint64_t *chain;
	int n;

	if (need > r->unwind_alloc) {
		chain = realloc(r->unwind_chain, need * sizeof(*chain));
		if (!chain)
			return -ENOMEM;
		r->unwind_chain = chain;
		r->unwind_alloc = need;
	}
	chain = r->unwind_chain;
	if (st->nr)
		memcpy(chain, after, st->nr * 8);
	n = sym_session_unwind(r->sym, st->pid, regs, regs + SYM_UNWIND_NREGS + 1, stack_len,
			       chain + st->nr + 1, RESOLVE_MAX_STACK);
	if (n < 0)
		return n;
	r->unwound_samples += st->samples;
	if (n <= 1)
		r->unwind_short += st->samples;
	ext.type = PIPE_STACK;
	ext.nr = st->nr;
	if (n > 0) {
		chain[st->nr] = (uint64_t)PERF_CONTEXT_USER;
		ext.nr += 1 + (uint32_t)n;
	}
	return resolver_add_stack(r, &ext, chain);
}
