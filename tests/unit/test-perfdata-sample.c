// SPDX-License-Identifier: GPL-2.0
/*
 * The PERF_RECORD_SAMPLE decoder: every sample_type bit, in the kernel's order, and -EINVAL
 * (never a read past the end) for every truncation of a body.
 */
#include <errno.h>
#include <stdlib.h>

#include "profiler/perfdata/perfdata.h"
#include "tests/tap.h"

struct body {
	uint64_t	w[128];
	size_t		n;
};

static void put(struct body *b, uint64_t v)
{
	b->w[b->n++] = v;
}

static void put2(struct body *b, uint32_t lo, uint32_t hi)
{
	put(b, (uint64_t)hi << 32 | lo);
}

/* A body with every bit set; fields numbered so that a shifted read shows. */
static void full_body(struct perf_event_attr *a, struct body *b)
{
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	a->size = sizeof(*a);
	a->sample_type = PERF_SAMPLE_KNOWN_BITS & ~(uint64_t)PERF_SAMPLE_WEIGHT_STRUCT;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	a->sample_regs_user = 0x7;	/* three registers */
	a->sample_regs_intr = 0x3;
	put(b, 101);			/* identifier */
	put(b, 0xffffffff81000000);	/* ip */
	put2(b, 42, 43);		/* pid, tid */
	put(b, 1000);			/* time */
	put(b, 0xdead);			/* addr */
	put(b, 101);			/* id */
	put(b, 7);			/* stream id */
	put2(b, 1, 0);			/* cpu */
	put(b, 1001001);		/* period */
	put(b, 2);			/* read: nr */
	put(b, 50);			/* time enabled */
	put(b, 40);			/* time running */
	put(b, 11); put(b, 101); put(b, 0);	/* value, id, lost */
	put(b, 12); put(b, 102); put(b, 3);
	put(b, 4);			/* callchain: nr */
	put(b, (uint64_t)PERF_CONTEXT_KERNEL);
	put(b, 0xffffffff81000000);
	put(b, (uint64_t)PERF_CONTEXT_USER);
	put(b, 0x401000);
	put2(b, 12, 0xaaaaaaaa);	/* raw: size 12, first 4 bytes of data */
	put(b, 0xbbbbbbbbbbbbbbbb);	/* raw: the other 8 */
	put(b, 2);			/* branch stack: nr */
	put(b, 5);			/* hw_idx */
	for (int i = 0; i < 6; i++)
		put(b, 0x1000 + i);	/* {from, to, flags} x 2 */
	put(b, 2);			/* regs user: abi */
	put(b, 1); put(b, 2); put(b, 3);
	put(b, 16);			/* stack user: size */
	put(b, 0x11); put(b, 0x22);
	put(b, 8);			/* dyn size */
	put(b, 77);			/* weight */
	put(b, 88);			/* data_src */
	put(b, 99);			/* transaction */
	put(b, 0);			/* regs intr: abi none, no registers */
	put(b, 0x1234000);		/* phys addr */
	put(b, 5555);			/* cgroup */
	put(b, 4096);			/* data page size */
	put(b, 2097152);		/* code page size */
	put(b, 8);			/* aux: size */
	put(b, 0xa0a0);
}

static void test_full(void)
{
	struct perf_event_attr a;
	struct pd_sample s;
	struct body b;
	int bad = 0;

	full_body(&a, &b);
	is_int(pd_sample_decode(b.w, b.n * 8, &a, &s), 0, "a sample with every bit decodes");
	is_u64(s.id, 101, "id");
	is_u64(s.ip, 0xffffffff81000000, "ip");
	ok(s.pid == 42 && s.tid == 43, "pid/tid");
	is_u64(s.time, 1000, "time");
	is_u64(s.addr, 0xdead, "addr");
	is_u64(s.stream_id, 7, "stream id");
	is_int(s.cpu, 1, "cpu");
	is_u64(s.period, 1001001, "period");
	ok(s.read.nr == 2 && s.read.time_enabled == 50 && s.read.time_running == 40 &&
	   s.read.value_size == 24, "read group header");
	ok(pd_u64_at(s.read.values, 3) == 12 && pd_u64_at(s.read.values, 5) == 3,
	   "read group values with id and lost");
	ok(s.callchain_nr == 4 && pd_u64_at(s.callchain, 3) == 0x401000, "callchain");
	ok(s.raw_size == 12 && s.raw && *(const uint32_t *)s.raw == 0xaaaaaaaa, "raw");
	ok(s.branch_nr == 2 && s.branch_hw_idx == 5 && pd_u64_at(s.branches, 5) == 0x1005,
	   "branch stack with hw_idx");
	ok(s.user_regs_abi == 2 && pd_u64_at(s.user_regs, 2) == 3, "user regs");
	ok(s.user_stack_size == 16 && s.user_stack_dyn_size == 8 &&
	   pd_u64_at(s.user_stack, 1) == 0x22, "user stack");
	ok(s.weight == 77 && s.data_src == 88 && s.transaction == 99, "weight, data_src, txn");
	ok(s.intr_regs_abi == 0 && !s.intr_regs, "intr regs with abi none");
	ok(s.phys_addr == 0x1234000 && s.cgroup == 5555, "phys addr, cgroup");
	ok(s.data_page_size == 4096 && s.code_page_size == 2097152, "page sizes");
	ok(s.aux_size == 8 && pd_u64_at(s.aux, 0) == 0xa0a0, "aux");

	/* Every shorter body is refused; a copy of exactly that length lets ASan see overreads. */
	for (size_t len = 0; len < b.n * 8; len++) {
		void *copy = malloc(len ? len : 1);

		memcpy(copy, b.w, len);
		if (pd_sample_decode(copy, len, &a, &s) != -EINVAL)
			bad++;
		free(copy);
	}
	is_int(bad, 0, "every truncation of the full body is -EINVAL");
}

static void test_defaults_and_limits(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .sample_period = 4000 };
	struct pd_sample s, want;
	struct body b = { .n = 0 };

	a.sample_type = PERF_SAMPLE_IP;
	put(&b, 0x400000);
	memset(&s, 0xa5, sizeof(s));	/* what the struct held before: none of it stays */
	is_int(pd_sample_decode(b.w, 8, &a, &s), 0, "ip only");
	ok(s.time == UINT64_MAX && s.id == UINT64_MAX && s.pid == -1 && s.cpu == -1,
	   "absent fields keep their defaults");
	is_u64(s.period, 4000, "period defaults to attr.sample_period");
	memset(&want, 0, sizeof(want));
	want.id = want.time = want.stream_id = UINT64_MAX;
	want.pid = want.tid = want.cpu = -1;
	want.period = 4000;
	want.ip = 0x400000;
	ok(!memcmp(&s, &want, sizeof(s)), "every other byte zero");

	a.sample_type = PERF_SAMPLE_CALLCHAIN;
	b.n = 0;
	put(&b, UINT64_MAX / 4);	/* a count whose byte size overflows */
	is_int(pd_sample_decode(b.w, 8, &a, &s), -EINVAL, "huge callchain nr is refused");
	a.sample_type = PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	b.n = 0;
	put(&b, UINT64_MAX / 2);
	is_int(pd_sample_decode(b.w, 8, &a, &s), -EINVAL, "huge read group nr is refused");
	a.sample_type = PERF_SAMPLE_MAX;
	is_int(pd_sample_decode(b.w, 8, &a, &s), -EINVAL, "unknown sample_type bits");

	a.sample_type = PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_RUNNING;
	b.n = 0;
	put(&b, 9); put(&b, 8); put(&b, 55);	/* value, running, id */
	is_int(pd_sample_decode(b.w, 24, &a, &s), 0, "single counter read");
	ok(s.read.nr == 1 && s.read.value == 9 && s.read.time_running == 8 && s.read.id == 55,
	   "value, time running, id");
	a.sample_type = PERF_SAMPLE_STACK_USER;
	b.n = 0;
	put(&b, 8); put(&b, 0); put(&b, 9);	/* dyn_size larger than size */
	is_int(pd_sample_decode(b.w, 24, &a, &s), -EINVAL, "stack dyn_size > size");
	a.sample_type = PERF_SAMPLE_RAW;
	b.n = 0;
	put2(&b, 1000, 0);
	is_int(pd_sample_decode(b.w, 8, &a, &s), -EINVAL, "raw size past the end");
}

static void test_id_trailer(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .sample_id_all = 1 };
	struct pd_sample s;
	struct body b = { .n = 0 };

	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
			PERF_SAMPLE_PERIOD | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CALLCHAIN;
	is_int((int)pd_sample_id_size(&a), 32, "trailer: tid, time, cpu, identifier");
	put(&b, 0x1111);		/* some record body */
	put2(&b, 5, 6);
	put(&b, 777);
	put2(&b, 1, 0);
	put(&b, 202);
	is_int(pd_sample_id_decode(b.w, b.n * 8, &a, &s), 0, "trailer decodes");
	ok(s.pid == 5 && s.tid == 6 && s.time == 777 && s.cpu == 1 && s.id == 202,
	   "trailer fields");
	is_int(pd_sample_id_decode(b.w, 24, &a, &s), -EINVAL, "short trailer");
	a.sample_id_all = 0;
	is_int(pd_sample_id_decode(b.w, 8, &a, &s), 0, "no sample_id_all, no trailer");
	ok(s.time == UINT64_MAX, "... and no time");

	is_int(pd_sample_id_pos(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP), 0, "id_pos identifier");
	is_int(pd_sample_id_pos(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				  PERF_SAMPLE_ID), 3, "id_pos after ip, tid, time");
	is_int(pd_sample_id_pos(PERF_SAMPLE_IP), -1, "no id");
	is_int(pd_sample_is_pos(PERF_SAMPLE_IDENTIFIER), 1, "is_pos identifier");
	is_int(pd_sample_is_pos(PERF_SAMPLE_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_STREAM_ID), 3,
	       "is_pos before stream id and cpu");
}

int main(void)
{
	test_full();
	test_defaults_and_limits();
	test_id_trailer();
	return done_testing();
}
