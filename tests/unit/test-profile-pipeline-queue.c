// SPDX-License-Identifier: GPL-2.0
/*
 * The queue between the two sides of profile_load(): batches arrive whole and in order, the
 * producer's batch comes back empty, a consumer that fails (at start or on a batch) makes every
 * later push and the finish return its error without the producer ever waiting forever.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "profiler/profile/pipeline-int.h"
#include "tests/tap.h"

/* the consumer thread's name, as `top -H` shows it */
#define QNAME	"test-queue"

struct sink {
	char		name[16];	/* the consumer thread's name, seen from the thread */
	uint64_t	next;		/* the value the next word must have */
	size_t		batches;
	bool		in_order;
	int		start_ret;	/* what start returns */
	size_t		fail_at;	/* fail on this batch (1-based); 0: never */
};

static int sink_start(void *arg)
{
	struct sink *s = arg;

	(void)prctl(PR_GET_NAME, (unsigned long)s->name, 0UL, 0UL, 0UL);
	return s->start_ret;
}

static int sink_consume(void *arg, struct pipe_batch *b)
{
	struct sink *s = arg;

	if (++s->batches == s->fail_at)
		return -EIO;
	for (size_t i = 0; i < b->nr; i++)
		if (b->w[i] != s->next++)
			s->in_order = false;
	return 0;
}

/* Push @n batches of @words counting words each; returns the first error, or 0. */
static int push_counting(struct pipe_queue *q, struct pipe_batch *b, size_t n, size_t words,
			 uint64_t *value)
{
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		uint64_t *w = pipe_batch_room(b, words);

		if (!w)
			return -ENOMEM;
		for (size_t j = 0; j < words; j++)
			w[j] = (*value)++;
		b->nr += words;
		ret = pipe_queue_push(q, b, 1);
		if (!ret && b->nr)
			return -EPROTO;	/* the batch must come back empty */
	}
	return ret;
}

static void test_order(void)
{
	struct sink s = { .in_order = true };
	struct pipe_batch b = { 0 };
	struct pipe_queue q;
	uint64_t value = 0;

	is_int(pipe_queue_init(&q, QNAME, sink_start, sink_consume, NULL, &s), 0, "queue starts");
	is_int(push_counting(&q, &b, 500, 1000, &value), 0,
	       "500 batches pushed, each handed back empty");
	/* below the threshold nothing moves */
	pipe_batch_room(&b, 1)[0] = value++;
	b.nr = 1;
	is_int(pipe_queue_push(&q, &b, 2), 0, "a short batch is kept ...");
	is_int((int)b.nr, 1, "... as it is");
	is_int(pipe_queue_push(&q, &b, 1), 0, "and goes once it is long enough");
	is_int(pipe_queue_finish(&q), 0, "finish waits for the consumer");
	is_int((int)s.batches, 501, "every batch consumed");
	ok(s.in_order && s.next == value, "every word, in order (%llu)",
	   (unsigned long long)s.next);
	is_str(s.name, QNAME, "the consumer thread is named");
	pipe_batch_release(&b);
}

static void test_consumer_fails(void)
{
	struct sink s = { .in_order = true, .fail_at = 3 };
	struct pipe_batch b = { 0 };
	struct pipe_queue q;
	uint64_t value = 0;
	int ret;

	is_int(pipe_queue_init(&q, QNAME, sink_start, sink_consume, NULL, &s), 0, "queue starts");
	/*
	 * Far more than PIPE_DEPTH batches after the failing one: pushes must not block, and
	 * once PIPE_DEPTH are in flight the producer waits for the consumer, so it sees the error.
	 */
	ret = push_counting(&q, &b, 200, 10, &value);
	is_int(ret, -EIO, "a push after the failure returns its error");
	is_int(pipe_queue_finish(&q), -EIO, "finish returns the consumer's error");
	is_int((int)s.next, 20, "nothing consumed after the failing batch");
	pipe_batch_release(&b);
}

static void test_start_fails(void)
{
	struct sink s = { .in_order = true, .start_ret = -ENOENT };
	struct pipe_batch b = { 0 };
	struct pipe_queue q;
	uint64_t value = 0;

	is_int(pipe_queue_init(&q, QNAME, sink_start, sink_consume, NULL, &s), 0, "queue starts");
	push_counting(&q, &b, 50, 10, &value);
	is_int(pipe_queue_finish(&q), -ENOENT, "a failed start is the queue's error");
	is_int((int)s.batches, 0, "no batch consumed after a failed start");
	pipe_batch_release(&b);
}

/* A consumer that keeps every other batch until the drain, which must come once, last. */
struct keeper {
	struct pipe_batch	kept[64];
	size_t			nr_kept, batches, drains, checked;
	uint64_t		next;
	bool			in_order;
};

static int keeper_start(void *arg)
{
	(void)arg;
	return 0;
}

static void keeper_check(struct keeper *k, const struct pipe_batch *b)
{
	for (size_t i = 0; i < b->nr; i++)
		if (b->w[i] != k->next++)
			k->in_order = false;
	k->checked++;
}

static int keeper_consume(void *arg, struct pipe_batch *b)
{
	struct keeper *k = arg;

	if (k->drains)
		k->in_order = false;
	if (k->batches++ % 2 == 0 && k->nr_kept < 64) {
		k->kept[k->nr_kept++] = *b;
		memset(b, 0, sizeof(*b));
		return 0;
	}
	for (size_t i = 0; i < k->nr_kept; i++) {
		keeper_check(k, &k->kept[i]);
		pipe_batch_release(&k->kept[i]);
	}
	k->nr_kept = 0;
	keeper_check(k, b);
	return 0;
}

static int keeper_drain(void *arg)
{
	struct keeper *k = arg;

	k->drains++;
	for (size_t i = 0; i < k->nr_kept; i++) {
		keeper_check(k, &k->kept[i]);
		pipe_batch_release(&k->kept[i]);
	}
	k->nr_kept = 0;
	return 0;
}

static void test_keep_and_drain(void)
{
	struct keeper k = { .in_order = true };
	struct pipe_batch b = { 0 };
	struct pipe_queue q;
	uint64_t value = 0;

	is_int(pipe_queue_init(&q, QNAME, keeper_start, keeper_consume, keeper_drain, &k), 0,
	       "queue starts");
	is_int(push_counting(&q, &b, 301, 100, &value), 0,
	       "301 batches pushed, every other kept by the consumer");
	is_int(pipe_queue_finish(&q), 0, "finish");
	is_int((int)k.drains, 1, "the drain once, after the last batch");
	is_int((int)k.checked, 301, "every batch seen, the kept ones at the next or the drain");
	ok(k.in_order && k.next == value, "every word, in order (%llu)",
	   (unsigned long long)k.next);
	pipe_batch_release(&b);
}

/*
 * The batches that can wait at once for the kernel's symbols on a recording of many short
 * processes (the adding thread's backlog, then both queues full): memory a run may touch for the
 * first time, which on a virtual machine with free page reporting costs ~1.5 ms per MB
 * (docs/report.md). 4 MiB at most (with 8 per queue and a backlog of 32 it was 51 MB; with 1 MiB
 * batches, 6.4 MiB).
 */
static void test_waiting_bound(void)
{
	size_t waiting = (size_t)EARLY_MAX_BACKLOG + 2 * PIPE_DEPTH;
	size_t bytes = waiting * PIPE_BATCH_ALLOC * sizeof(uint64_t);

	ok(bytes <= (4u << 20), "batches waiting for the kernel's symbols: %zu, %zu bytes",
	   waiting, bytes);
}

/* ---- walking a batch, looking one stack ahead ------------------------------------------- */

struct walk_log {
	char	text[256];
};

static void log_put(struct walk_log *l, const char *what, uint64_t id)
{
	size_t len = strlen(l->text);

	snprintf(l->text + len, sizeof(l->text) - len, "%s%llu ", what, (unsigned long long)id);
}

/* A stack's id is its ip; a record's, its rec_type. */
static int walk_stack(void *arg, struct pipe_stack *st, uint64_t *chain)
{
	(void)chain;
	log_put(arg, "S", st->ip);
	return 0;
}

static int walk_record(void *arg, const struct pipe_record *rec, const char *body)
{
	(void)body;
	log_put(arg, "R", rec->rec_type);
	return 0;
}

static void walk_ahead(void *arg, const struct pipe_stack *st, const uint64_t *chain)
{
	/* the chain given is the stack's own: its first word is the ip + 100 (put_stack) */
	log_put(arg, "A", st->nr ? chain[0] - 100 : st->ip);
}

static void put_stack(struct pipe_batch *b, uint64_t ip, uint32_t nr)
{
	struct pipe_stack st = { .type = PIPE_STACK, .nr = nr, .ip = ip };
	uint64_t *w = pipe_batch_room(b, sizeof(st) / 8 + nr);

	if (!w)
		return;
	memcpy(w, &st, sizeof(st));
	for (uint32_t i = 0; i < nr; i++)
		w[sizeof(st) / 8 + i] = ip + 100;
	b->nr += sizeof(st) / 8 + nr;
}

static void put_record(struct pipe_batch *b, uint32_t rec_type)
{
	struct pipe_record rec = { .type = PIPE_RECORD, .rec_type = rec_type, .body_len = 5 };
	uint64_t *w = pipe_batch_room(b, sizeof(rec) / 8 + 1);

	if (!w)
		return;
	memcpy(w, &rec, sizeof(rec));
	w[sizeof(rec) / 8] = 0;
	b->nr += sizeof(rec) / 8 + 1;
}

/*
 * The stack after the one being walked is shown first when it is a stack (not a record, not
 * past the batch's end, not cut short by it), and every message is walked as by
 * pipe_batch_walk().
 */
static void test_walk_ahead(void)
{
	struct pipe_batch b = { 0 };
	struct walk_log l = { "" }, plain = { "" };
	size_t cut;

	put_stack(&b, 1, 2);
	put_record(&b, 7);
	put_stack(&b, 2, 3);
	put_stack(&b, 3, 0);
	put_stack(&b, 4, 1);
	is_int(pipe_batch_walk_ahead(b.w, b.nr, walk_stack, walk_record, walk_ahead, &l), 0,
	       "walked");
	is_str(l.text, "S1 R7 A3 S2 A4 S3 S4 ", "each next stack ahead of the one walked");
	pipe_batch_walk(b.w, b.nr, walk_stack, walk_record, &plain);
	is_str(plain.text, "S1 R7 S2 S3 S4 ", "the same messages without looking ahead");
	/* the batch ends inside the last stack's chain: that stack is not shown ahead */
	cut = b.nr - 1;
	memset(&l, 0, sizeof(l));
	pipe_batch_walk_ahead(b.w, cut, walk_stack, walk_record, walk_ahead, &l);
	is_str(l.text, "S1 R7 A3 S2 S3 S4 ", "a stack cut by the batch's end is not shown ahead");
	/* nor one whose header is cut */
	memset(&l, 0, sizeof(l));
	pipe_batch_walk_ahead(b.w, cut - 2, walk_stack, walk_record, walk_ahead, &l);
	is_str(l.text, "S1 R7 A3 S2 S3 S4 ", "nor a stack whose header the end cuts");
	pipe_batch_release(&b);
}

int main(void)
{
	test_walk_ahead();
	test_order();
	test_keep_and_drain();
	test_consumer_fails();
	test_start_fails();
	test_waiting_bound();
	return done_testing();
}
