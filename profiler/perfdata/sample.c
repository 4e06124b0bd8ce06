// SPDX-License-Identifier: GPL-2.0
/*
 * sample.c - decode PERF_RECORD_SAMPLE bodies and sample_id_all trailers.
 *
 * Pure: bytes and an attr in, a struct out. Field order is the kernel's perf_output_sample()
 * (Linux 6.1); every length read from the body is checked against what is left of it before it
 * is used, so a corrupt record gives -EINVAL, never a read past its end.
 */
#include <errno.h>

#include "profiler/perfdata/perfdata.h"

struct cursor {
	const unsigned char	*p;
	size_t			left;
};

static int take(struct cursor *c, size_t n, const void **out)
{
	if (n > c->left)
		return -EINVAL;
	if (out)
		*out = c->p;
	c->p += n;
	c->left -= n;
	return 0;
}

static int take_u64(struct cursor *c, uint64_t *v)
{
	const void *at;

	if (take(c, 8, &at))
		return -EINVAL;
	*v = pd_u64_at(at, 0);
	return 0;
}

/* Two u32 packed in one u64 (pid/tid, cpu/res). */
static int take_u32_pair(struct cursor *c, int32_t *lo, int32_t *hi)
{
	uint64_t v;

	if (take_u64(c, &v))
		return -EINVAL;
	*lo = (int32_t)(uint32_t)v;
	if (hi)
		*hi = (int32_t)(uint32_t)(v >> 32);
	return 0;
}

/* n u64 words, refusing counts whose byte size would overflow. */
static int take_u64s(struct cursor *c, uint64_t n, const void **out)
{
	if (n > c->left / 8)
		return -EINVAL;
	return take(c, n * 8, out);
}

/*
 * Every field to its default. Not with memset(): gcc makes a memset of this size (~300 bytes) a
 * `rep stosq`, whose start-up cost was half the time of decoding a sample (21 ns of which 11
 * the memset; 8 ns with these 16-byte stores: ~6 ms of the reading thread on the make -B bench
 * recording). gcc would turn the loop back into a memset without the attribute.
 */
typedef uint64_t zero_block __attribute__((vector_size(16), aligned(8), may_alias));

#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static void sample_defaults(const struct perf_event_attr *attr, struct pd_sample *s)
{
	char *p = (char *)s;
	size_t i;

	for (i = 0; i + sizeof(zero_block) <= sizeof(*s); i += sizeof(zero_block))
		*(zero_block *)(p + i) = (zero_block){ 0, 0 };
	memset(p + i, 0, sizeof(*s) - i);
	s->id = s->time = s->stream_id = UINT64_MAX;
	s->pid = s->tid = s->cpu = -1;
	s->period = attr->sample_period;
}

static int decode_read(struct cursor *c, uint64_t fmt, struct pd_sample *s)
{
	size_t words = 1 + !!(fmt & PERF_FORMAT_ID) + !!(fmt & PERF_FORMAT_LOST);
	uint64_t first;

	if (take_u64(c, &first))
		return -EINVAL;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && take_u64(c, &s->read.time_enabled))
		return -EINVAL;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && take_u64(c, &s->read.time_running))
		return -EINVAL;
	if (fmt & PERF_FORMAT_GROUP) {
		s->read.nr = first;
		s->read.value_size = words * 8;
		if (first > UINT64_MAX / words)
			return -EINVAL;
		return take_u64s(c, first * words, &s->read.values);
	}
	/* One counter: its value comes first, its id and lost count after the times. */
	s->read.nr = 1;
	s->read.value = first;
	if ((fmt & PERF_FORMAT_ID) && take_u64(c, &s->read.id))
		return -EINVAL;
	if ((fmt & PERF_FORMAT_LOST) && take_u64(c, &s->read.lost))
		return -EINVAL;
	return 0;
}

static int decode_regs(struct cursor *c, uint64_t mask, uint64_t *abi, const void **regs)
{
	if (take_u64(c, abi))
		return -EINVAL;
	if (!*abi)
		return 0;
	return take_u64s(c, (uint64_t)__builtin_popcountll(mask), regs);
}

static int decode_tail(struct cursor *c, const struct perf_event_attr *attr, uint64_t type,
		       struct pd_sample *s)
{
	uint64_t n;

	if ((type & PERF_SAMPLE_REGS_USER) &&
	    decode_regs(c, attr->sample_regs_user, &s->user_regs_abi, &s->user_regs))
		return -EINVAL;
	if (type & PERF_SAMPLE_STACK_USER) {
		if (take_u64(c, &s->user_stack_size) ||
		    take(c, s->user_stack_size, &s->user_stack))
			return -EINVAL;
		if (s->user_stack_size && take_u64(c, &s->user_stack_dyn_size))
			return -EINVAL;
		if (s->user_stack_dyn_size > s->user_stack_size)
			return -EINVAL;
	}
	if ((type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) && take_u64(c, &s->weight))
		return -EINVAL;
	if ((type & PERF_SAMPLE_DATA_SRC) && take_u64(c, &s->data_src))
		return -EINVAL;
	if ((type & PERF_SAMPLE_TRANSACTION) && take_u64(c, &s->transaction))
		return -EINVAL;
	if ((type & PERF_SAMPLE_REGS_INTR) &&
	    decode_regs(c, attr->sample_regs_intr, &s->intr_regs_abi, &s->intr_regs))
		return -EINVAL;
	if ((type & PERF_SAMPLE_PHYS_ADDR) && take_u64(c, &s->phys_addr))
		return -EINVAL;
	if ((type & PERF_SAMPLE_CGROUP) && take_u64(c, &s->cgroup))
		return -EINVAL;
	if ((type & PERF_SAMPLE_DATA_PAGE_SIZE) && take_u64(c, &s->data_page_size))
		return -EINVAL;
	if ((type & PERF_SAMPLE_CODE_PAGE_SIZE) && take_u64(c, &s->code_page_size))
		return -EINVAL;
	if (type & PERF_SAMPLE_AUX) {
		if (take_u64(c, &n) || take(c, n, &s->aux))
			return -EINVAL;
		s->aux_size = n;
	}
	return 0;
}

int pd_sample_decode(const void *body, size_t len, const struct perf_event_attr *attr,
		       struct pd_sample *s)
{
	struct cursor c = { body, len };
	uint64_t type = attr->sample_type, n;
	const void *at;

	sample_defaults(attr, s);
	if (type & ~PERF_SAMPLE_KNOWN_BITS)
		return -EINVAL;
	if ((type & PERF_SAMPLE_IDENTIFIER) && take_u64(&c, &s->id))
		return -EINVAL;
	if ((type & PERF_SAMPLE_IP) && take_u64(&c, &s->ip))
		return -EINVAL;
	if ((type & PERF_SAMPLE_TID) && take_u32_pair(&c, &s->pid, &s->tid))
		return -EINVAL;
	if ((type & PERF_SAMPLE_TIME) && take_u64(&c, &s->time))
		return -EINVAL;
	if ((type & PERF_SAMPLE_ADDR) && take_u64(&c, &s->addr))
		return -EINVAL;
	if ((type & PERF_SAMPLE_ID) && take_u64(&c, &s->id))
		return -EINVAL;
	if ((type & PERF_SAMPLE_STREAM_ID) && take_u64(&c, &s->stream_id))
		return -EINVAL;
	if ((type & PERF_SAMPLE_CPU) && take_u32_pair(&c, &s->cpu, NULL))
		return -EINVAL;
	if ((type & PERF_SAMPLE_PERIOD) && take_u64(&c, &s->period))
		return -EINVAL;
	if ((type & PERF_SAMPLE_READ) && decode_read(&c, attr->read_format, s))
		return -EINVAL;
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (take_u64(&c, &s->callchain_nr) ||
		    take_u64s(&c, s->callchain_nr, &s->callchain))
			return -EINVAL;
	}
	if (type & PERF_SAMPLE_RAW) {
		/* u32 size, then the bytes; the kernel pads the pair to a multiple of 8. */
		if (take(&c, 4, &at))
			return -EINVAL;
		memcpy(&s->raw_size, at, 4);
		if (take(&c, s->raw_size, &s->raw))
			return -EINVAL;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		if (take_u64(&c, &s->branch_nr))
			return -EINVAL;
		if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) &&
		    take_u64(&c, &s->branch_hw_idx))
			return -EINVAL;
		n = s->branch_nr;
		if (n > UINT64_MAX / 3 || take_u64s(&c, n * 3, &s->branches))
			return -EINVAL;
	}
	return decode_tail(&c, attr, type, s);
}

size_t pd_sample_id_size(const struct perf_event_attr *attr)
{
	uint64_t type = attr->sample_type;
	uint64_t bits = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;

	if (!attr->sample_id_all)
		return 0;
	return 8 * (size_t)__builtin_popcountll(type & bits);
}

int pd_sample_id_decode(const void *body, size_t len, const struct perf_event_attr *attr,
			  struct pd_sample *s)
{
	size_t size = pd_sample_id_size(attr);
	uint64_t type = attr->sample_type;
	struct cursor c;

	sample_defaults(attr, s);
	if (size > len)
		return -EINVAL;
	c.p = (const unsigned char *)body + (len - size);
	c.left = size;
	if (!size)
		return 0;
	/* Order (perf_event__output_id_sample): tid, time, id, stream_id, cpu, identifier. */
	if (type & PERF_SAMPLE_TID)
		take_u32_pair(&c, &s->pid, &s->tid);
	if (type & PERF_SAMPLE_TIME)
		take_u64(&c, &s->time);
	if (type & PERF_SAMPLE_ID)
		take_u64(&c, &s->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		take_u64(&c, &s->stream_id);
	if (type & PERF_SAMPLE_CPU)
		take_u32_pair(&c, &s->cpu, NULL);
	if (type & PERF_SAMPLE_IDENTIFIER)
		take_u64(&c, &s->id);
	return 0;
}

int pd_sample_id_pos(uint64_t type)
{
	int pos = 0;

	if (type & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(type & PERF_SAMPLE_ID))
		return -1;
	pos += !!(type & PERF_SAMPLE_IP);
	pos += !!(type & PERF_SAMPLE_TID);
	pos += !!(type & PERF_SAMPLE_TIME);
	pos += !!(type & PERF_SAMPLE_ADDR);
	return pos;
}

int pd_sample_is_pos(uint64_t type)
{
	int pos = 1;

	if (type & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(type & PERF_SAMPLE_ID))
		return -1;
	pos += !!(type & PERF_SAMPLE_CPU);
	pos += !!(type & PERF_SAMPLE_STREAM_ID);
	return pos;
}
