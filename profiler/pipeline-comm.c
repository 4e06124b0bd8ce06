// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-comm.c - the name (comm) of each thread while a perf.data file is replayed: set by
 * COMM records, inherited on FORK, ":TID" for threads never named, "swapper" for TID 0 -- the
 * names perf report and perf script show.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/pipeline-local.h"

static size_t slot_of(const struct comm_table *t, int32_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (t->alloc - 1);

	while (t->slots[i].comm && t->slots[i].tid != tid)
		i = (i + 1) & (t->alloc - 1);
	return i;
}

static int grow(struct comm_table *t)
{
	struct comm_table bigger = { .alloc = t->alloc ? t->alloc * 2 : 256 };

	bigger.slots = calloc(bigger.alloc, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->alloc; i++) {
		if (t->slots[i].comm)
			bigger.slots[slot_of(&bigger, t->slots[i].tid)] = t->slots[i];
	}
	bigger.nr = t->nr;
	free(t->slots);
	*t = bigger;
	return 0;
}

int comm_table_set(struct comm_table *t, int32_t tid, const char *comm)
{
	char *copy;
	size_t i;

	if ((t->nr + 1) * 2 > t->alloc && grow(t))
		return -ENOMEM;
	copy = strdup(comm);
	if (!copy)
		return -ENOMEM;
	i = slot_of(t, tid);
	if (t->slots[i].comm)
		free(t->slots[i].comm);
	else
		t->nr++;
	t->slots[i] = (struct comm_slot){ tid, copy };
	return 0;
}

const char *comm_table_get(const struct comm_table *t, int32_t tid)
{
	size_t i;

	if (!t->alloc)
		return NULL;
	i = slot_of(t, tid);
	return t->slots[i].comm;
}

const char *comm_table_name(const struct comm_table *t, int32_t tid, char *buf, size_t len)
{
	const char *comm = comm_table_get(t, tid);

	if (comm)
		return comm;
	if (tid == 0)
		return "swapper";
	snprintf(buf, len, ":%d", tid);
	return buf;
}

int comm_table_fork(struct comm_table *t, int32_t parent, int32_t child)
{
	const char *comm = comm_table_get(t, parent);

	if (!comm)
		return 0;
	return comm_table_set(t, child, comm);
}

void comm_table_release(struct comm_table *t)
{
	for (size_t i = 0; i < t->alloc; i++)
		free(t->slots[i].comm);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
