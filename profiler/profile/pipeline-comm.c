// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-comm.c - the name (comm) of each thread while a perf.data file is replayed: set by
 * COMM records, inherited on FORK, ":TID" for threads never named, "swapper" for TID 0 -- the
 * names perf report and perf script show. Names are interned: the pointer handed out for a name
 * is the same every time and lives until comm_table_release(), so stacks can be keyed by it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/profile/pipeline-int.h"

static uint64_t str_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* The pooled copy of @s, added when missing; NULL on ENOMEM. */
static const char *intern(struct comm_table *t, const char *s)
{
	uint64_t h = str_hash(s);
	size_t i;

	if ((t->nr_names + 1) * 2 > t->alloc_names) {
		size_t alloc = t->alloc_names ? t->alloc_names * 2 : 256;
		char **names = zalloc_table(alloc, sizeof(*names));

		if (!names)
			return NULL;
		for (size_t j = 0; j < t->alloc_names; j++) {
			if (!t->names[j])
				continue;
			i = str_hash(t->names[j]) & (alloc - 1);
			while (names[i])
				i = (i + 1) & (alloc - 1);
			names[i] = t->names[j];
		}
		free(t->names);
		t->names = names;
		t->alloc_names = alloc;
	}
	for (i = h & (t->alloc_names - 1); t->names[i]; i = (i + 1) & (t->alloc_names - 1))
		if (!strcmp(t->names[i], s))
			return t->names[i];
	t->names[i] = strdup(s);
	if (t->names[i])
		t->nr_names++;
	return t->names[i];
}

static size_t slot_of(const struct comm_table *t, int32_t tid)
{
	size_t i = ((uint32_t)tid * 2654435761u) & (t->alloc - 1);

	while (t->slots[i].comm && t->slots[i].tid != tid)
		i = (i + 1) & (t->alloc - 1);
	return i;
}

static int grow(struct comm_table *t)
{
	size_t alloc = t->alloc ? t->alloc * 2 : 256;
	struct comm_slot *slots = zalloc_table(alloc, sizeof(*slots)), *old = t->slots;
	size_t old_alloc = t->alloc;

	if (!slots)
		return -ENOMEM;
	t->slots = slots;
	t->alloc = alloc;
	for (size_t i = 0; i < old_alloc; i++) {
		if (old[i].comm)
			slots[slot_of(t, old[i].tid)] = old[i];
	}
	free(old);
	return 0;
}

int comm_table_set(struct comm_table *t, int32_t tid, const char *comm)
{
	const char *name;
	size_t i;

	if ((t->nr + 1) * 2 > t->alloc && grow(t))
		return -ENOMEM;
	name = intern(t, comm);
	if (!name)
		return -ENOMEM;
	i = slot_of(t, tid);
	if (!t->slots[i].comm)
		t->nr++;
	t->slots[i] = (struct comm_slot){ tid, name };
	return 0;
}

static const char *comm_table_get(const struct comm_table *t, int32_t tid)
{
	if (!t->alloc)
		return NULL;
	return t->slots[slot_of(t, tid)].comm;
}

const char *comm_table_name(struct comm_table *t, int32_t tid)
{
	const char *comm = comm_table_get(t, tid);
	char buf[16];

	if (comm)
		return comm;
	if (tid == 0)
		return intern(t, "swapper");
	snprintf(buf, sizeof(buf), ":%d", tid);
	return intern(t, buf);
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
	for (size_t i = 0; i < t->alloc_names; i++)
		free(t->names[i]);
	free(t->names);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
