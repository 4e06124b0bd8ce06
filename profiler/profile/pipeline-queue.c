// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-queue.c - batches of work from the reading side of profile_load() to the resolving
 * side (see pipeline-int.h): one producer, one consumer, at most PIPE_DEPTH full batches in
 * flight, emptied batches handed back so that their pages are not faulted in again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/pipeline-int.h"

struct consumer_start {
	struct pipe_queue	*q;
	int			(*start)(void *arg);
	const char		*name;
};

uint64_t *pipe_batch_grow(struct pipe_batch *b, size_t words)
{
	uint64_t *w;

	if (!b->w && !b->alloc)
		b->alloc = PIPE_BATCH_ALLOC;
	w = grow_array(b->w, &b->alloc, b->nr + words, sizeof(*w));

	if (!w)
		return NULL;
	b->w = w;
	return w + b->nr;
}

/* The stack message at @w[at] when there is one whole before @nr, else NULL. */
static struct pipe_stack *stack_at(uint64_t *w, size_t at, size_t nr)
{
	struct pipe_stack *st;
	uint32_t type;

	if (at + sizeof(*st) / 8 > nr)
		return NULL;
	memcpy(&type, &w[at], sizeof(type));
	st = (void *)&w[at];
	if (type != PIPE_STACK || at + sizeof(*st) / 8 + st->nr > nr)
		return NULL;
	return st;
}

int pipe_batch_walk_ahead(uint64_t *w, size_t nr,
			  int (*stack)(void *arg, struct pipe_stack *st, uint64_t *chain),
			  int (*record)(void *arg, const struct pipe_record *rec, const char *body),
			  void (*ahead)(void *arg, const struct pipe_stack *st,
					const uint64_t *chain),
			  void *arg)
{
	size_t at = 0;
	int ret = 0;

	while (!ret && at < nr) {
		uint32_t type;

		memcpy(&type, &w[at], sizeof(type));
		if (type == PIPE_STACK || type == PIPE_UNWIND) {
			struct pipe_stack *st = (void *)&w[at], *next;
			size_t words;

			at += sizeof(*st) / 8;
			words = type == PIPE_UNWIND ? unwind_msg_words(st, &w[at]) : st->nr;
			if (ahead && (next = stack_at(w, at + words, nr)))
				ahead(arg, next, (const uint64_t *)(next + 1));
			/* the registers and stack copy after an unwind message's chain go along */
			ret = stack(arg, st, &w[at]);
			at += words;
		} else {
			const struct pipe_record *rec = (const void *)&w[at];

			at += sizeof(*rec) / 8;
			ret = record(arg, rec, (const char *)&w[at]);
			at += (rec->body_len + 7) / 8;
		}
	}
	return ret;
}

int pipe_batch_walk(uint64_t *w, size_t nr,
		    int (*stack)(void *arg, struct pipe_stack *st, uint64_t *chain),
		    int (*record)(void *arg, const struct pipe_record *rec, const char *body),
		    void *arg)
{
	return pipe_batch_walk_ahead(w, nr, stack, record, NULL, arg);
}

void pipe_batch_release(struct pipe_batch *b)
{
	free(b->w);
	memset(b, 0, sizeof(*b));
}

/* Give back an emptied batch (under the lock). */
static void put_spare(struct pipe_queue *q, struct pipe_batch *b)
{
	b->nr = 0;
	if (q->nr_spare < PIPE_DEPTH + 1)
		q->spare[q->nr_spare++] = *b;
	else
		pipe_batch_release(b);
	memset(b, 0, sizeof(*b));
}

void pipe_queue_recycle(struct pipe_queue *q, struct pipe_batch *b)
{
	if (!q->threaded) {
		pipe_batch_release(b);
		return;
	}
	pthread_mutex_lock(&q->lock);
	put_spare(q, b);
	pthread_mutex_unlock(&q->lock);
}

static void fail(struct pipe_queue *q, int ret)
{
	pthread_mutex_lock(&q->lock);
	if (!q->failed) {
		q->failed = true;
		q->ret = ret;
	}
	pthread_cond_broadcast(&q->changed);
	pthread_mutex_unlock(&q->lock);
}

static void *consumer(void *arg)
{
	struct consumer_start *cs = arg;
	struct pipe_queue *q = cs->q;
	int ret;

	thread_name(cs->name);
	ret = cs->start(q->arg);

	free(cs);
	if (ret)
		fail(q, ret);
	pthread_mutex_lock(&q->lock);
	for (;;) {
		struct pipe_batch b;

		while (!q->nr && !q->closed)
			pthread_cond_wait(&q->changed, &q->lock);
		if (!q->nr)
			break;
		b = q->full[q->head];
		q->head = (q->head + 1) % PIPE_DEPTH;
		q->nr--;
		pthread_cond_broadcast(&q->changed);
		/* after a failure the rest is only drained, so that the producer never waits */
		if (!q->failed) {
			pthread_mutex_unlock(&q->lock);
			ret = q->consume(q->arg, &b);
			if (ret)
				fail(q, ret);
			pthread_mutex_lock(&q->lock);
		}
		put_spare(q, &b);
	}
	/* what the consumer kept, now that no batch follows */
	if (!q->failed && q->drain) {
		pthread_mutex_unlock(&q->lock);
		ret = q->drain(q->arg);
		if (ret)
			fail(q, ret);
		return NULL;
	}
	pthread_mutex_unlock(&q->lock);
	return NULL;
}

int pipe_queue_init(struct pipe_queue *q, const char *name, int (*start)(void *arg),
		    int (*consume)(void *arg, struct pipe_batch *b), int (*drain)(void *arg),
		    void *arg)
{
	struct consumer_start *cs;
	int ret;

	memset(q, 0, sizeof(*q));
	q->consume = consume;
	q->drain = drain;
	q->arg = arg;
	if (pthread_mutex_init(&q->lock, NULL))
		return -ENOMEM;
	if (pthread_cond_init(&q->changed, NULL)) {
		pthread_mutex_destroy(&q->lock);
		return -ENOMEM;
	}
	cs = malloc(sizeof(*cs));
	if (cs) {
		*cs = (struct consumer_start){ .q = q, .start = start, .name = name };
		q->threaded = !pthread_create(&q->thread, NULL, consumer, cs);
		if (q->threaded)
			return 0;
		free(cs);
	}
	/* No thread (a one-CPU container, a thread limit): the producer does it all, in order. */
	ret = start(arg);
	if (ret)
		q->failed = true, q->ret = ret;
	return 0;
}

int pipe_queue_push(struct pipe_queue *q, struct pipe_batch *b, size_t min_words)
{
	int ret;

	if (b->nr < min_words || !b->nr)
		return 0;
	if (!q->threaded) {
		if (!q->failed && (ret = q->consume(q->arg, b)))
			q->failed = true, q->ret = ret;
		b->nr = 0;
		return q->failed ? q->ret : 0;
	}
	pthread_mutex_lock(&q->lock);
	while (q->nr == PIPE_DEPTH && !q->failed)
		pthread_cond_wait(&q->changed, &q->lock);
	if (q->failed) {
		ret = q->ret;
		b->nr = 0;
		pthread_mutex_unlock(&q->lock);
		return ret;
	}
	q->full[(q->head + q->nr) % PIPE_DEPTH] = *b;
	q->nr++;
	pthread_cond_broadcast(&q->changed);
	if (q->nr_spare)
		*b = q->spare[--q->nr_spare];
	else
		memset(b, 0, sizeof(*b));
	pthread_mutex_unlock(&q->lock);
	return 0;
}

int pipe_queue_finish(struct pipe_queue *q)
{
	int ret;

	if (q->threaded) {
		pthread_mutex_lock(&q->lock);
		q->closed = true;
		pthread_cond_broadcast(&q->changed);
		pthread_mutex_unlock(&q->lock);
		pthread_join(q->thread, NULL);
		q->threaded = false;
	} else if (!q->failed && q->drain && (ret = q->drain(q->arg))) {
		q->failed = true, q->ret = ret;
	}
	for (size_t i = 0; i < q->nr_spare; i++)
		pipe_batch_release(&q->spare[i]);
	q->nr_spare = 0;
	ret = q->failed ? q->ret : 0;
	pthread_cond_destroy(&q->changed);
	pthread_mutex_destroy(&q->lock);
	return ret;
}
