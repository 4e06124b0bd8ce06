/* SPDX-License-Identifier: GPL-2.0 */
/*
 * export-int.h - internals shared by the writers of export/: a map from small fixed keys
 * (pointers and numbers, up to four words) to dense indices, and a string table that hands
 * out indices for texts. The call graph interns its strings, so equal frames have equal
 * pointers and a frame is a key of words, never of text.
 */
#ifndef KPROF_EXPORT_INT_H
#define KPROF_EXPORT_INT_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profiler/lib/lib.h"

struct wkey {
	uint64_t	w[4];
};

/* Open addressing; values are dense indices 0..nr-1 in insertion order. Zeroed is empty. */
struct wmap {
	struct wkey	*keys;		/* [nr], insertion order */
	uint32_t	*slots;		/* index + 1, 0: free */
	size_t		nr, alloc_keys, nr_slots;
};

/*
 * The index of @k, inserting it when new (*added set). Returns 0 or -ENOMEM.
 */
int wmap_get(struct wmap *m, const struct wkey *k, uint32_t *idx, bool *added);
void wmap_release(struct wmap *m);

/* Texts -> indices in first-use order; index 0 is always "" (pprof's rule). Zeroed: empty. */
struct stab {
	char		**texts;	/* owned copies */
	size_t		nr, alloc;
	uint32_t	*slots;		/* index + 1 */
	size_t		nr_slots;
};

int stab_init(struct stab *t);
/* The index of @s (copied when new); 0 or -ENOMEM. */
int stab_index(struct stab *t, const char *s, int64_t *idx);
void stab_release(struct stab *t);

/* lib's grow_array() on the array pointer @arr points to: 0, or -ENOMEM (array unchanged). */
static inline int xgrow(void *arr, size_t *alloc, size_t need, size_t size)
{
	void *p = grow_array(*(void **)arr, alloc, need, size);

	if (!p)
		return -ENOMEM;
	*(void **)arr = p;
	return 0;
}

#endif
