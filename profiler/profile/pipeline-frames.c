// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-frames.c - the frame cache of profile_load() (see pipeline-int.h): generations of
 * address spaces, per pid.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/profile/pipeline-int.h"

#define NO_PID			INT32_MIN
/* The generation of an address space never changed; empty cache entries have 0. */
#define FIRST_GEN		1

int frame_cache_init(struct frame_cache *c)
{
	memset(c, 0, sizeof(*c));
	c->e = zalloc_table((size_t)1 << FRAME_CACHE_BITS, sizeof(*c->e));
	c->next_gen = FIRST_GEN + 1;
	return c->e ? 0 : -ENOMEM;
}

void frame_cache_release(struct frame_cache *c)
{
	free(c->e);
	free(c->pids);
	free(c->gens);
	memset(c, 0, sizeof(*c));
}

static size_t pid_slot(const int32_t *pids, size_t alloc, int32_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (alloc - 1);

	while (pids[i] != NO_PID && pids[i] != pid)
		i = (i + 1) & (alloc - 1);
	return i;
}

uint32_t frame_cache_gen(struct frame_cache *c, int32_t pid)
{
	size_t i;

	uint32_t gen;

	if (pid == -1 && c->last_kok)
		return c->last_kgen;
	if (pid != -1 && c->last_ok && c->last_pid == pid)
		return c->last_gen;
	gen = FIRST_GEN;
	if (c->alloc_pids) {
		i = pid_slot(c->pids, c->alloc_pids, pid);
		if (c->pids[i] == pid)
			gen = c->gens[i];
	}
	if (pid == -1) {
		c->last_kgen = gen;
		c->last_kok = true;
	} else {
		c->last_pid = pid;
		c->last_gen = gen;
		c->last_ok = true;
	}
	return gen;
}

static int grow(struct frame_cache *c)
{
	size_t alloc = c->alloc_pids ? c->alloc_pids * 2 : 256;
	int32_t *pids = malloc(alloc * sizeof(*pids));
	uint32_t *gens = malloc(alloc * sizeof(*gens));

	if (!pids || !gens) {
		free(pids);
		free(gens);
		return -ENOMEM;
	}
	for (size_t i = 0; i < alloc; i++)
		pids[i] = NO_PID;
	for (size_t i = 0; i < c->alloc_pids; i++) {
		size_t j;

		if (c->pids[i] == NO_PID)
			continue;
		j = pid_slot(pids, alloc, c->pids[i]);
		pids[j] = c->pids[i];
		gens[j] = c->gens[i];
	}
	free(c->pids);
	free(c->gens);
	c->pids = pids;
	c->gens = gens;
	c->alloc_pids = alloc;
	return 0;
}

int frame_cache_invalidate(struct frame_cache *c, int32_t pid)
{
	size_t i;

	c->last_ok = c->last_kok = false;
	if ((c->nr_pids + 1) * 2 > c->alloc_pids && grow(c))
		return -ENOMEM;
	i = pid_slot(c->pids, c->alloc_pids, pid);
	if (c->pids[i] != pid) {
		c->pids[i] = pid;
		c->nr_pids++;
	}
	c->gens[i] = c->next_gen++;
	return 0;
}
