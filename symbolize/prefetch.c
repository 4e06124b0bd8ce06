// SPDX-License-Identifier: GPL-2.0
/*
 * prefetch.c - load mapped files in a thread of their own, ahead of their first lookup.
 *
 * Reading a file's symbols (libdwfl, the sort, the @plt stubs) is most of the cost of the first
 * lookup in it, and a profile of a build maps a new process every few milliseconds: a file is
 * queued when it is first mapped, and usually loaded by the time a stack needs it. Whoever comes
 * first loads an item: the loader thread, or the session's thread in prefetch_take(), which
 * waits only for an item the loader is in the middle of. A load gives the same result in either
 * thread, so what is named does not depend on the timing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

static void *loader(void *arg)
{
	struct sym_prefetch *p = arg;

	thread_name("kprof-elf");
	pthread_mutex_lock(&p->lock);
	for (;;) {
		void *item;

		while (!p->stop && p->head == p->nr)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->stop)
			break;
		item = p->queue[p->head++];
		if (*p->state(item) != PF_QUEUED)
			continue;	/* taken over by the session's thread */
		*p->state(item) = PF_LOADING;
		pthread_mutex_unlock(&p->lock);
		p->load(item, p->arg);
		pthread_mutex_lock(&p->lock);
		*p->state(item) = PF_DONE;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int prefetch_start(struct sym_prefetch *p, void (*load)(void *item, void *arg),
		   uint8_t *(*state)(void *item), void *arg)
{
	memset(p, 0, sizeof(*p));
	p->load = load;
	p->state = state;
	p->arg = arg;
	if (pthread_mutex_init(&p->lock, NULL))
		return -ENOMEM;
	if (pthread_cond_init(&p->work, NULL)) {
		pthread_mutex_destroy(&p->lock);
		return -ENOMEM;
	}
	if (pthread_cond_init(&p->done, NULL)) {
		pthread_cond_destroy(&p->work);
		pthread_mutex_destroy(&p->lock);
		return -ENOMEM;
	}
	p->inited = true;
	p->started = !pthread_create(&p->thread, NULL, loader, p);
	return p->started ? 0 : -EAGAIN;
}

void prefetch_queue(struct sym_prefetch *p, void *item)
{
	void **q;

	if (!p->started)
		return;
	pthread_mutex_lock(&p->lock);
	if (*p->state(item) == PF_NONE) {
		/* compact what the loader has taken before growing */
		if (p->nr == p->alloc && p->head) {
			memmove(p->queue, p->queue + p->head, (p->nr - p->head) * sizeof(*q));
			p->nr -= p->head;
			p->head = 0;
		}
		q = p->nr < p->alloc ? p->queue : grow_array(p->queue, &p->alloc, p->nr + 1,
							      sizeof(*q));
		if (q) {	/* without memory the item is loaded when it is needed */
			p->queue = q;
			q[p->nr++] = item;
			*p->state(item) = PF_QUEUED;
			pthread_cond_signal(&p->work);
		}
	}
	pthread_mutex_unlock(&p->lock);
}

bool prefetch_untouched(struct sym_prefetch *p, void *item)
{
	bool none;

	if (!p->started)	/* no loader: only the caller loads, and knows it */
		return !p->state || *p->state(item) == PF_NONE;
	pthread_mutex_lock(&p->lock);
	none = *p->state(item) == PF_NONE;
	pthread_mutex_unlock(&p->lock);
	return none;
}

void prefetch_take(struct sym_prefetch *p, void *item)
{
	bool load;

	if (!p->started) {
		if (*p->state(item) != PF_DONE) {
			p->load(item, p->arg);
			*p->state(item) = PF_DONE;
		}
		return;
	}
	pthread_mutex_lock(&p->lock);
	while (*p->state(item) == PF_LOADING)
		pthread_cond_wait(&p->done, &p->lock);
	load = *p->state(item) != PF_DONE;
	if (load)
		*p->state(item) = PF_LOADING;
	pthread_mutex_unlock(&p->lock);
	if (!load)
		return;
	p->load(item, p->arg);
	pthread_mutex_lock(&p->lock);
	*p->state(item) = PF_DONE;
	pthread_cond_broadcast(&p->done);
	pthread_mutex_unlock(&p->lock);
}

void prefetch_stop(struct sym_prefetch *p)
{
	if (p->started) {
		pthread_mutex_lock(&p->lock);
		p->stop = true;
		pthread_cond_signal(&p->work);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->thread, NULL);
	}
	if (p->inited) {
		pthread_cond_destroy(&p->done);
		pthread_cond_destroy(&p->work);
		pthread_mutex_destroy(&p->lock);
	}
	free(p->queue);
	memset(p, 0, sizeof(*p));
}
