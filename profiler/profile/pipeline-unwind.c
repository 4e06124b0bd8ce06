// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-unwind.c - samples with a user stack copy (perf record --call-graph dwarf) through
 * profile_load()'s two sides (see pipeline-int.h).
 *
 * Such a sample carries its user registers and a copy of its user stack; no two are alike, so
 * they are not summed by raw stack: the reading side passes each one on as a PIPE_UNWIND
 * message (its call chain, the registers in DWARF order, the used part of the stack copy), and
 * the resolving side unwinds it with symbolize's DWARF unwinder and adds the recorded chain
 * (the kernel's part) followed by the unwound frames -- what perf's thread__resolve_callchain()
 * does with the unwinder's entries (the recorded chain first, callee order), each unwound
 * address shown as its inlined functions when its file's DWARF has them (perf's
 * append_inlines, which only unwound frames get).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/pipeline-int.h"

/* perf's x86_64 register numbers (arch/x86/include/uapi/asm/perf_regs.h) of DWARF regs 0..16 */
static const uint8_t dwarf_to_perf[SYM_UNWIND_NREGS] = {
	0 /* AX */, 3 /* DX */, 2 /* CX */, 1 /* BX */, 4 /* SI */, 5 /* DI */, 6 /* BP */,
	7 /* SP */, 16, 17, 18, 19, 20, 21, 22, 23 /* R8..R15 */, 8 /* IP */,
};

#define PERF_SAMPLE_REGS_ABI_64	2

bool unwind_arch_ok(const char *arch)
{
#ifdef __x86_64__
	return !arch || !strcmp(arch, "x86_64");
#else
	(void)arch;
	return false;
#endif
}

enum unwind_want unwind_wanted(const struct perf_event_attr *attr, const struct pd_sample *s,
			       bool arch_ok)
{
	const uint64_t both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	/* perf's thread__resolve_callchain_unwind(): both fields, regs and a non-empty copy */
	if ((attr->sample_type & both) != both || !s->user_regs_abi || !s->user_regs ||
	    !s->user_stack_dyn_size)
		return UNWIND_NONE;
	if (!arch_ok)
		return UNWIND_ARCH;
	if (s->user_regs_abi != PERF_SAMPLE_REGS_ABI_64)
		return UNWIND_ABI32;
	for (size_t i = 0; i < SYM_UNWIND_NREGS; i++)
		if (!(attr->sample_regs_user & (1ULL << dwarf_to_perf[i])))
			return UNWIND_NO_REGS;
	return UNWIND_YES;
}

int unwind_put(struct pipe_batch *b, const struct pipe_stack *st, const void *chain,
	       const struct perf_event_attr *attr, const struct pd_sample *s)
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
		memcpy(w + head, chain, st->nr * 8);
	regs = w + head + st->nr;
	for (size_t i = 0; i < SYM_UNWIND_NREGS; i++) {
		unsigned int bit = dwarf_to_perf[i];

		/* the sample holds the registers of the mask's set bits, in bit order */
		regs[i] = pd_u64_at(s->user_regs,
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

/*
 * The frames of one unwound address appended to r->ids: its inlined functions when the file's
 * DWARF has them (perf's append_inlines), else its symbol. @skip_first: the sample's own frame
 * is already r->ids[0] (a user-mode sample), so the first frame is left out when it is the
 * symbol itself.
 */
static int add_frames(struct resolver *r, struct callgraph *cg, const struct pipe_stack *st,
		      uint64_t addr, bool skip_first, size_t *n)
{
	const struct sym_inline *in;
	struct sym_result res;
	int nr = sym_session_inlines(r->sym, st->pid, addr, &in);

	if (nr < 0)
		return nr;
	if (resolver_ids_reserve(r, *n + (size_t)(nr ? nr : 1)))
		return -ENOMEM;
	if (!nr) {
		if (skip_first)
			return 0;
		return resolver_frame_id(r, cg, st->event, st->pid, addr, &r->ids[(*n)++]);
	}
	sym_session_resolve(r->sym, st->pid, addr, false, &res);
	/*
	 * The chain perf shows starts with an inlined function: the sample's own symbol, already
	 * r->ids[0], takes its Self but is not part of the chain (callgraph_add_ids_ip()).
	 */
	if (skip_first && in[0].inlined)
		r->detached = true;
	for (int i = skip_first && !in[0].inlined; i < nr; i++) {
		struct cg_frame f = {
			.sym = in[i].sym, .dso = res.dso, .sym_start = res.sym_id,
			.flags = in[i].inlined ? CG_FRAME_INLINED : 0,
		};
		struct sym_perf_map m;
		int ret = callgraph_frame_id(cg, &f, &r->ids[(*n)++]);

		if (!ret && in[i].inlined && sym_session_perf_map(r->sym, st->pid, addr, &m))
			ret = inl_maps_frame(&r->inl_maps, st->event, res.dso, in[i].sym,
					     res.sym_id, res.sym, &m);
		if (ret)
			return ret;
	}
	return 0;
}

int resolver_unwind(struct resolver *r, const struct pipe_stack *st, const uint64_t *after)
{
	const uint64_t *regs = after + st->nr;
	size_t stack_len = (size_t)regs[SYM_UNWIND_NREGS], n;
	struct callgraph *cg = resolver_graph(r, st);
	uint64_t ips[RESOLVE_MAX_STACK];
	long nk;
	int nu, ret = 0;

	if (!cg)
		return st->event >= r->nr_attrs ? -EINVAL : -ENOMEM;
	/* the recorded chain (the kernel's part), the sample's own frame first */
	nk = resolver_stack_ids(r, cg, st, after);
	if (nk < 0)
		return (int)nk;
	nu = sym_session_unwind(r->sym, st->pid, regs, regs + SYM_UNWIND_NREGS + 1, stack_len,
				ips, RESOLVE_MAX_STACK);
	if (nu < 0)
		return nu;
	r->unwound_samples += st->samples;
	if (nu <= 1)
		r->unwind_short += st->samples;
	if (sym_session_unwind_guessed(r->sym))
		r->unwind_guessed += st->samples;
	if (sym_session_unwind_unplaced(r->sym)) {
		if (!r->unwind_unplaced)
			snprintf(r->first_unplaced, sizeof(r->first_unplaced), "%s",
				 sym_session_unwind_unplaced(r->sym));
		r->unwind_unplaced += st->samples;
	}
	n = (size_t)nk;
	for (int i = 0; i < nu && !ret; i++) {
		/* a user-mode sample's leaf is its ip, which the chain's frames began with */
		bool own = i == 0 && !st->nr && ips[0] == st->ip;

		ret = add_frames(r, cg, st, ips[i], own, &n);
	}
	if (!ret)
		ret = inl_maps_sample(&r->inl_maps, st->samples, st->period);
	return ret ? ret : resolver_add_ids(r, cg, st, n);
}
