// SPDX-License-Identifier: GPL-2.0
/*
 * profile_load() on perf.data files built here, with kernel call chains resolved through a
 * kallsyms text of our own: frames leaf first without markers, names of threads as they were at
 * each sample (also when records arrive out of time order), pid/tid/address keeping, lost and
 * throttle counting, an unknown context marker, and several events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "profiler/profile/profile.h"
#include "tests/tap.h"
#include "tests/unit/perf-data-build.h"

#define TEXT	0xffffffff81000000ULL
#define LEAF	(TEXT + 0x1000)
#define MID	(TEXT + 0x2000)
#define TOP	(TEXT + 0x3000)
#define NOWHERE	(TEXT - 0x100000)	/* below _text: unresolved */

static const char kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T leaf\n"
	"ffffffff81002000 T mid\n"
	"ffffffff81003000 T top\n"
	"ffffffff81004000 T _etext\n";

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* The sample_id_all trailer of this sample_type: tid, time, identifier. */
static void put_trailer(uint64_t *w, size_t *n, int32_t tid, uint64_t time)
{
	w[(*n)++] = (uint64_t)(uint32_t)tid << 32 | (uint32_t)tid;
	w[(*n)++] = time;
	w[(*n)++] = 100;
}

static void put_comm(struct buf *b, int32_t tid, const char *name, uint64_t time)
{
	uint64_t w[8] = { (uint64_t)(uint32_t)tid << 32 | (uint32_t)tid };
	size_t n = 1;

	strncpy((char *)&w[1], name, 15);
	n += 2;
	put_trailer(w, &n, tid, time);
	put_record(b, PERF_RECORD_COMM, 0, w, n);
}

static void put_kernel_map(struct buf *b)
{
	uint64_t w[12] = { (uint64_t)0 << 32 | 0xffffffffu, TEXT, 0x4000, TEXT };
	size_t n = 4;

	memcpy(&w[n], "[kernel.kallsyms]_text", 23);
	n += 3;
	put_trailer(w, &n, -1, 0);
	put_record(b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, w, n);
}

/* A kernel sample of tid (= pid) @tid: leaf <- mid <- top, or the chain given. */
static void put_ksample(struct buf *b, int32_t tid, uint64_t time, uint64_t period,
			const uint64_t *chain, size_t nr)
{
	static const uint64_t dflt[] = { (uint64_t)PERF_CONTEXT_KERNEL, LEAF + 0x10, MID + 0x20,
					 TOP + 0x30 };
	uint64_t w[32] = { 100 };
	size_t n = 1;

	if (!chain) {
		chain = dflt;
		nr = 4;
	}
	w[n++] = chain[1];
	w[n++] = (uint64_t)(uint32_t)tid << 32 | (uint32_t)tid;
	w[n++] = time;
	w[n++] = period;
	w[n++] = nr;
	for (size_t i = 0; i < nr; i++)
		w[n++] = chain[i];
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, n);
}

/*
 * tid 7 is "alpha" until t=20, then "beta". In the file the COMM at t=20 comes before the sample
 * at t=15 (another CPU's buffer); perf sorts them, so that sample is still alpha's.
 */
static void records_names(struct buf *b)
{
	uint64_t lost[] = { 100, 5, 0, 0, 100 };
	static const uint64_t bad_ctx[] = { (uint64_t)PERF_CONTEXT_KERNEL, LEAF + 0x10,
					    (uint64_t)PERF_CONTEXT_GUEST, MID };
	static const uint64_t nowhere[] = { (uint64_t)PERF_CONTEXT_KERNEL, LEAF + 0x10,
					    NOWHERE, TOP + 1 };

	put_kernel_map(b);
	put_comm(b, 7, "alpha", 5);
	put_ksample(b, 7, 10, 1000, NULL, 0);
	put_comm(b, 7, "beta", 20);
	put_ksample(b, 7, 15, 1000, NULL, 0);
	put_round(b);
	put_ksample(b, 7, 30, 3000, NULL, 0);
	put_ksample(b, 7, 31, 500, bad_ctx, 4);
	put_ksample(b, 8, 32, 200, nowhere, 4);
	put_record(b, PERF_RECORD_LOST, 0, lost, 5);
	put_record(b, PERF_RECORD_THROTTLE, 0, lost, 5);
	put_round(b);
}

struct seen {
	char		text[2048];
	size_t		len;
	uint64_t	period;
};

/* One line per stack: "comm pid tid: frame<-frame<-... period samples" */
static int describe(const struct cg_stack *st, void *arg)
{
	struct seen *s = arg;
	char line[512];
	int n = snprintf(line, sizeof(line), "%s %d %d:", st->task->comm, st->task->pid,
			 st->task->tid);

	for (size_t i = 0; i < st->nr && n < (int)sizeof(line); i++)
		n += snprintf(line + n, sizeof(line) - n, "%s%s", i ? "<-" : "",
			      st->frames[i].sym ? st->frames[i].sym :
			      st->frames[i].addr ? "0x" : "?");
	if (n < (int)sizeof(line))
		snprintf(line + n, sizeof(line) - n, " %llu %llu\n",
			 (unsigned long long)st->period, (unsigned long long)st->samples);
	if (s->len + strlen(line) < sizeof(s->text)) {
		strcpy(s->text + s->len, line);
		s->len += strlen(line);
	}
	s->period += st->period;
	return 0;
}

/* perf report's Self share (0..1) of @sym in the first event, from its LKP keys. */
static double lkp_self_of(const struct profile *p, const char *sym)
{
	struct lkp_profile_opts o = { .event = "cpu-clock", .calltrace_min = 0.5, .print_min = 0 };
	const struct callgraph *cg = p->events[0].cg;
	struct kv_list keys = { 0 };
	char key[128];
	const double *v;
	double share = -1;

	snprintf(key, sizeof(key), "perf-profile.self.cpu-clock.%s", sym);
	if (!lkp_profile_keys_multi(&cg, 1, &o, &keys) && (v = kv_list_get(&keys, key)))
		share = *v / 100;
	kv_list_release(&keys);
	return share;
}

static char dir[] = "/tmp/kprof-pipeline-XXXXXX";
static char data[64], syms[64];

static struct profile *load(const struct profile_load_opts *o, struct seen *s)
{
	struct profile *p;
	char err[256];
	int ret = profile_load(data, o, &p, err, sizeof(err));

	memset(s, 0, sizeof(*s));
	if (ret) {
		diag("profile_load: %s", err);
		return NULL;
	}
	if (p->nr_events)
		callgraph_for_each(p->events[0].cg, describe, s);
	return p;
}

/* Write a file of @nr_attrs events whose records @records makes. */
static void write_data(int nr_attrs, void (*records)(struct buf *b))
{
	struct file_opts fo = { sizeof(struct perf_event_attr), nr_attrs, true, records,
				SAMPLE_TYPE, 0, 0 };
	struct buf f = build(&fo);

	buf_write(&f, data);
	free(f.p);
}

static void test_names_and_frames(void)
{
	struct profile_load_opts o = { .kallsyms = syms };
	struct profile *p;
	struct seen s;

	write_data(1, records_names);
	p = load(&o, &s);
	ok(p != NULL, "loads");
	if (!p)
		return;
	is_int((int)p->nr_events, 1, "one event with samples");
	is_str(p->events[0].name, "cpu-clock", "its name");
	is_u64(p->nr_samples, 5, "five samples");
	is_u64(p->events[0].nr_samples, 5, "all of that event");
	is_u64(p->nr_lost, 5, "lost samples counted");
	is_u64(p->nr_lost_records, 1, "one LOST record");
	is_u64(p->nr_throttle, 1, "one THROTTLE record");
	is_str(p->hostname, "testhost", "hostname");
	is_u64(s.period, 5700, "every period is in the graph");
	ok(strstr(s.text, "alpha -1 -1:leaf<-mid<-top 2000 2\n") != NULL,
	   "both samples before t=20 are alpha's, leaf first, markers gone");
	ok(strstr(s.text, "beta -1 -1:leaf<-mid<-top 3000 1\n") != NULL, "the one after is beta's");
	ok(strstr(s.text, "beta -1 -1: 500 1\n") != NULL,
	   "an unknown context marker discards the chain: no frame, as perf script");
	is_double(lkp_self_of(p, "leaf"), 1.0, 1e-9,
		  "its Self still goes to the ip's symbol, as perf report (every sample's ip)");
	ok(strstr(s.text, ":8 -1 -1:leaf<-?<-top 200 1\n") != NULL,
	   "an unnamed thread is :TID, an unresolved frame stays unnamed");
	if (!ok(s.len && !strstr(s.text, "alpha -1 -1:leaf<-mid<-top 1000"), "stacks summed"))
		diag("%s", s.text);
	profile_free(p);

	o.keep_pid = o.keep_tid = o.keep_addrs = true;
	p = load(&o, &s);
	ok(p && strstr(s.text, "alpha 7 7:leaf<-mid<-top 2000 2\n") != NULL, "keep_pid/keep_tid");
	ok(p && strstr(s.text, ":8 8 8:leaf<-0x<-top 200 1\n") != NULL,
	   "keep_addrs keeps the address of an unresolved frame");
	profile_free(p);
}

/* Two events: samples go to the event their id names. */
static void records_two_events(struct buf *b)
{
	uint64_t w[16];

	put_kernel_map(b);
	put_ksample(b, 9, 10, 100, NULL, 0);
	put_ksample(b, 9, 11, 100, NULL, 0);
	memcpy(w, (uint64_t[]){ 110, LEAF, (uint64_t)9 << 32 | 9, 12, 1, 0 }, 6 * 8);
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, 6);
}

static void test_two_events(void)
{
	struct profile_load_opts o = { .kallsyms = syms };
	struct profile *p;
	struct seen s;

	write_data(2, records_two_events);
	p = load(&o, &s);
	ok(p && p->nr_events == 2, "two events with samples");
	if (p && p->nr_events == 2) {
		is_str(p->events[1].name, "dummy:HG", "the second by its EVENT_DESC name");
		ok(p->events[0].nr_samples == 2 && p->events[1].nr_samples == 1,
		   "samples by id");
		ok(strstr(s.text, ":9 -1 -1:leaf<-mid<-top 200 2\n") != NULL,
		   "first event's graph");
	}
	profile_free(p);
}

/* perf record without -g: samples without a call chain, the first one too. */
static void records_no_chain(struct buf *b)
{
	uint64_t w[] = { 100, MID + 4, (uint64_t)3 << 32 | 3, 10, 7, 0 };

	put_kernel_map(b);
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, 6);
	w[3] = 11;
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, 6);
}

/* perf record without -g: no PERF_SAMPLE_CALLCHAIN at all (the decoder's chain is NULL). */
static void records_no_callchain_bit(struct buf *b)
{
	uint64_t w[] = { 100, MID + 4, (uint64_t)3 << 32 | 3, 10, 7 };

	put_kernel_map(b);
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, 5);
	w[3] = 11;
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, 5);
}

static void test_no_chain(void)
{
	struct file_opts fo = { sizeof(struct perf_event_attr), 1, true, records_no_callchain_bit,
				SAMPLE_TYPE & ~(uint64_t)PERF_SAMPLE_CALLCHAIN, 0, 0 };
	struct profile_load_opts o = { .kallsyms = syms };
	struct buf f;
	struct profile *p;
	struct seen s;

	write_data(1, records_no_chain);
	p = load(&o, &s);
	ok(p && strstr(s.text, ":3 -1 -1:mid 14 2\n") != NULL,
	   "samples without call chains are their ip alone");
	profile_free(p);

	f = build(&fo);
	buf_write(&f, data);
	free(f.p);
	p = load(&o, &s);
	ok(p && strstr(s.text, ":3 -1 -1:mid 14 2\n") != NULL,
	   "without PERF_SAMPLE_CALLCHAIN too, identical samples summed");
	profile_free(p);
}

/*
 * PERF_SAMPLE_READ with PERF_FORMAT_GROUP|ID (leader sampling): each counter read is a sample
 * of its own event, with the period since that counter's last read; a period of 0 delivers
 * nothing, an id of no event is counted as unknown.
 */
static void put_read_sample(struct buf *b, uint64_t time, const uint64_t *vals, size_t nr)
{
	uint64_t w[32] = { 100, LEAF + 0x10, (uint64_t)5 << 32 | 5, time, 1 };
	size_t n = 5;

	w[n++] = nr;
	for (size_t i = 0; i < nr * 2; i++)
		w[n++] = vals[i];
	w[n++] = 2;
	w[n++] = (uint64_t)PERF_CONTEXT_KERNEL;
	w[n++] = LEAF + 0x10;
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, n);
}

static void records_group_read(struct buf *b)
{
	put_kernel_map(b);
	put_read_sample(b, 10, (uint64_t[]){ 1000, 100, 300, 110 }, 2);
	put_read_sample(b, 11, (uint64_t[]){ 2500, 101, 300, 111 }, 2);	/* other cpu's ids */
	put_read_sample(b, 12, (uint64_t[]){ 2600, 101, 300, 111 }, 2);
	put_read_sample(b, 13, (uint64_t[]){ 2700, 100, 7, 999 }, 2);
}

static void test_group_read(void)
{
	struct file_opts fo = { sizeof(struct perf_event_attr), 2, true, records_group_read,
				SAMPLE_TYPE | PERF_SAMPLE_READ,
				PERF_FORMAT_GROUP | PERF_FORMAT_ID, 0 };
	struct profile_load_opts o = { .kallsyms = syms };
	struct buf f = build(&fo);
	struct profile *p;
	struct seen s;

	buf_write(&f, data);
	free(f.p);
	p = load(&o, &s);
	ok(p && p->nr_events == 2, "both members of the group have samples");
	if (p && p->nr_events == 2) {
		is_u64(p->events[0].nr_samples, 4, "the leader: every read that counted");
		is_u64(callgraph_total_period(p->events[0].cg), 1000 + 2500 + 100 + 1700,
		       "periods since each counter's (id's) own last read");
		is_u64(p->events[1].nr_samples, 2, "the member: zero periods deliver nothing");
		is_u64(callgraph_total_period(p->events[1].cg), 600, "its own periods");
		is_u64(p->nr_unknown_id, 1, "a value of no known id is counted");
	}
	profile_free(p);
}

/*
 * --call-graph lbr: the chain up to its PERF_CONTEXT_USER marker, then the LBR's first target
 * and every source, instead of the user chain recorded. And a precise ip: the chain as
 * recorded, Self to the ip.
 */
static void records_lbr(struct buf *b)
{
	/* ip, tid, time, period, chain: kernel leaf, USER, a user frame the LBR replaces */
	uint64_t w[32] = { 100, LEAF + 0x10, (uint64_t)6 << 32 | 6, 10, 1, 4,
			   (uint64_t)PERF_CONTEXT_KERNEL, LEAF + 0x10,
			   (uint64_t)PERF_CONTEXT_USER, 0x1000 };
	size_t n = 10;

	put_kernel_map(b);
	/* branch stack: nr, {from, to, flags} newest first (user addresses: unresolved) */
	w[n++] = 2;
	memcpy(&w[n], (uint64_t[]){ 0x2000, 0x3000, 0, 0x4000, 0x2100, 0 }, 48);
	n += 6;
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, n);
}

static void records_skid(struct buf *b)
{
	static const uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL, LEAF + 0x10, MID + 0x20 };

	put_kernel_map(b);
	put_ksample(b, 4, 10, 100, chain, 3);	/* ip = LEAF + 0x10: the chain's first */
	{
		uint64_t w[] = { 100, LEAF + 0x11, (uint64_t)4 << 32 | 4, 11, 100, 3,
				 chain[0], chain[1], chain[2] };
		put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, 9);
		w[1] = TOP + 1;		/* skid into another function */
		w[3] = 12;
		put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, 9);
	}
}

static void test_lbr_and_skid(void)
{
	struct file_opts fo = { sizeof(struct perf_event_attr), 1, true, records_lbr,
				SAMPLE_TYPE | PERF_SAMPLE_BRANCH_STACK, 0,
				PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK };
	struct profile_load_opts o = { .kallsyms = syms, .keep_addrs = true };
	struct buf f = build(&fo);
	struct profile *p;
	struct seen s;

	buf_write(&f, data);
	free(f.p);
	p = load(&o, &s);
	ok(p && strstr(s.text, ":6 -1 -1:leaf<-0x<-0x<-0x 1 1\n") != NULL,
	   "LBR: kernel chain, the first target, every source; the recorded user chain dropped");
	if (p && !strstr(s.text, ":6 -1 -1:leaf<-0x<-0x<-0x 1 1\n"))
		diag("%s", s.text);
	profile_free(p);

	write_data(1, records_skid);
	p = load(&(struct profile_load_opts){ .kallsyms = syms }, &s);
	ok(p && strstr(s.text, ":4 -1 -1:leaf<-mid 200 2\n") != NULL,
	   "an ip in the chain's first function: the chain as recorded, no extra leaf");
	ok(p && strstr(s.text, ":4 -1 -1:leaf<-mid 100 1\n") != NULL,
	   "an ip elsewhere: the chain as recorded too (Self goes to the ip)");
	ok(p && !strstr(s.text, "leaf<-leaf") && !strstr(s.text, "top"), "no ip frame in a chain");
	ok(p && p->nr_self_elsewhere == 1, "the sample whose ip is elsewhere is counted");
	if (p && !strstr(s.text, "leaf<-mid 200 2"))
		diag("%s", s.text);
	profile_free(p);
}

/*
 * Depth: a recorded chain keeps its first 127 frames (perf's --max-stack), an LBR call stack
 * every entry (perf caps neither its kernel part nor its branches): 200 branches, 202 frames.
 */
#define DEEP	200

static void records_deep(struct buf *b)
{
	uint64_t w[8 + 3 * DEEP + 8], *chain;
	size_t n = 0;

	put_kernel_map(b);
	/* ip, tid, time, period, chain: kernel leaf, USER, a user frame the LBR replaces */
	memcpy(w, (uint64_t[]){ 100, LEAF + 0x10, (uint64_t)7 << 32 | 7, 10, 1, 4,
			       (uint64_t)PERF_CONTEXT_KERNEL, LEAF + 0x10,
			       (uint64_t)PERF_CONTEXT_USER, 0x1000 }, 10 * 8);
	n = 10;
	w[n++] = DEEP;
	for (int i = 0; i < DEEP; i++) {
		w[n++] = 0x10000 + 16 * (uint64_t)i;	/* from */
		w[n++] = 0x20000 + 16 * (uint64_t)i;	/* to */
		w[n++] = 0;
	}
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, n);
	/* a recorded chain of DEEP kernel frames, no branches (the LBR does not apply) */
	chain = w + 5;
	chain[0] = DEEP + 1;
	chain[1] = (uint64_t)PERF_CONTEXT_KERNEL;
	for (int i = 0; i < DEEP; i++)
		chain[2 + i] = (i % 2 ? MID : LEAF) + 0x10;
	w[2] = (uint64_t)8 << 32 | 8;
	chain[2 + DEEP] = 0;	/* branch nr */
	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, w, 5 + 2 + DEEP + 1);
}

/* The frames of each thread's stack, by its name (":TID", no COMM records; TIDs below 16). */
static int depth_of(const struct cg_stack *st, void *arg)
{
	size_t *depth = arg;
	int tid = st->task->comm[0] == ':' ? atoi(st->task->comm + 1) : -1;

	if (tid >= 0 && tid < 16)
		depth[tid] = st->nr;
	return 0;
}

static void test_depth(void)
{
	struct file_opts fo = { sizeof(struct perf_event_attr), 1, true, records_deep,
				SAMPLE_TYPE | PERF_SAMPLE_BRANCH_STACK, 0,
				PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK };
	struct profile_load_opts o = { .kallsyms = syms, .keep_addrs = true };
	struct buf f = build(&fo);
	size_t depth[16] = { 0 };
	struct profile *p;
	struct seen s;

	buf_write(&f, data);
	free(f.p);
	p = load(&o, &s);
	ok(p != NULL, "deep stacks load");
	if (p && p->nr_events)
		callgraph_for_each(p->events[0].cg, depth_of, depth);
	is_int((int)depth[7], 2 + DEEP, "LBR: the kernel leaf, the first target and all 200 sources");
	is_int((int)depth[8], 127, "a recorded chain: its first 127 frames");
	profile_free(p);
}

static void test_errors(void)
{
	struct profile_load_opts o = { .kallsyms = syms };
	struct profile *p = (struct profile *)1;
	char err[256] = "";

	is_int(profile_load("/nonexistent/perf.data", &o, &p, err, sizeof(err)), -ENOENT,
	       "a missing file");
	ok(p == NULL && strstr(err, "No such file"), "no profile, a reason (%s)", err);
	ok(pd_magic_ok("PERFILE2", 8) && pd_magic_ok("2ELIFREP", 8) &&
	   !pd_magic_ok("PERFILE", 7) && !pd_magic_ok("# comm", 6),
	   "pd_magic_ok");
}

int main(void)
{
	FILE *fp;

	if (!mkdtemp(dir))
		skip_all("no temporary directory");
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(syms, sizeof(syms), "%s/kallsyms", dir);
	fp = fopen(syms, "w");
	fputs(kallsyms, fp);
	fclose(fp);
	test_names_and_frames();
	test_two_events();
	test_no_chain();
	test_group_read();
	test_lbr_and_skid();
	test_depth();
	test_errors();
	unlink(data);
	unlink(syms);
	rmdir(dir);
	return done_testing();
}
