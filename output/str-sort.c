// SPDX-License-Identifier: GPL-2.0
/*
 * str-sort.c - string sums sorted bytewise (strcmp's order), by multikey quicksort (Bentley and
 * Sedgewick, "Fast algorithms for sorting and searching strings", 1997).
 *
 * Folded stacks share long prefixes ("cc1;_start;__libc_start_main;main;toplev::main;..."), so
 * qsort() with strcmp() compares the same prefix again at every comparison: sorting the 29,719
 * lines of a make -B recording took 9.4-13 ms of `kprof collapse`'s last step, which runs alone.
 * A multikey quicksort partitions on one byte position at a time and looks at a shared prefix
 * once per partition level instead: 4.9-5.7 ms on the same lines. (Keeping 8 bytes of each key
 * next to it, to partition without reading the keys, was no faster: 5.1-9 ms, for a 24-byte copy
 * of every line.)
 */
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"

/* Below this many lines a partition costs more than it saves: insertion sort from @depth. */
#define SMALL	12

static unsigned char byte_at(const struct str_sum *s, size_t depth)
{
	return (unsigned char)s->key[depth];
}

static void swap(struct str_sum *a, struct str_sum *b)
{
	struct str_sum t = *a;

	*a = *b;
	*b = t;
}

/* Keys that are equal in their first @depth bytes, by strcmp from there (unsigned bytes). */
static void insertion(struct str_sum *v, size_t n, size_t depth)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j && strcmp(v[j - 1].key + depth, v[j].key + depth) > 0; j--)
			swap(&v[j - 1], &v[j]);
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct str_sum *)a)->key, ((const struct str_sum *)b)->key);
}

static unsigned char median3(const struct str_sum *v, size_t n, size_t depth)
{
	unsigned char a = byte_at(&v[0], depth), b = byte_at(&v[n / 2], depth),
		      c = byte_at(&v[n - 1], depth);

	if (a < b)
		return b < c ? b : a < c ? c : a;
	return a < c ? a : b < c ? c : b;
}

/*
 * @v[0..n), equal in their first @depth bytes. The part of equal bytes is sorted by a loop one
 * byte deeper, the smaller and larger parts by recursion, whose depth @budget bounds (pivots
 * bad every time): past it, qsort() sorts what is left. The loop is progress and costs no
 * budget, whatever the length of a shared prefix.
 */
static void mkq(struct str_sum *v, size_t n, size_t depth, unsigned int budget)
{
	if (!budget) {
		qsort(v, n, sizeof(*v), cmp_key);
		return;
	}
	while (n > SMALL) {
		unsigned char pivot = median3(v, n, depth);
		size_t lt = 0, i = 0, gt = n;

		/* [0, lt) < pivot, [lt, i) == pivot, [gt, n) > pivot */
		while (i < gt) {
			unsigned char c = byte_at(&v[i], depth);

			if (c < pivot)
				swap(&v[lt++], &v[i++]);
			else if (c > pivot)
				swap(&v[i], &v[--gt]);
			else
				i++;
		}
		mkq(v, lt, depth, budget - 1);
		mkq(v + gt, n - gt, depth, budget - 1);
		if (!pivot)
			return;		/* the equal part ended at this byte: equal keys */
		v += lt;
		n = gt - lt;
		depth++;
	}
	insertion(v, n, depth);
}

void str_sums_sort_bounded(struct str_sum *v, size_t n, unsigned int max_depth)
{
	if (n > 1)
		mkq(v, n, 0, max_depth + 1);
}

/*
 * Each level of recursion splits off at least one byte value at one position, so real keys stay
 * far from the bound; a few dozen bytes of stack per level keep it well inside any thread's.
 */
void str_sums_sort(struct str_sum *v, size_t n)
{
	str_sums_sort_bounded(v, n, 1024);
}
