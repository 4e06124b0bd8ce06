// SPDX-License-Identifier: GPL-2.0
/* str_sums_sort (str-sort.c): strcmp's order, on the keys folded stacks have and on bad ones. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"
#include "tests/tap.h"

/* A test that cannot allocate says so and stops. */
#define NEED(p) do { if (!(p)) { diag("out of memory"); exit(1); } } while (0)

static int by_strcmp(const void *a, const void *b)
{
	return strcmp(((const struct str_sum *)a)->key, ((const struct str_sum *)b)->key);
}

/* Equal keys may come in any order: their values, sorted, for the comparison. */
static void sort_equal_runs(struct str_sum *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j && !strcmp(v[j - 1].key, v[j].key) &&
				   v[j - 1].value > v[j].value; j--) {
			struct str_sum t = v[j - 1];

			v[j - 1] = v[j];
			v[j] = t;
		}
}

/*
 * Sort @v both ways and compare: keys in the same order, each with its own value. @max_depth:
 * str_sums_sort_bounded()'s (UINT_MAX: str_sums_sort()).
 */
static void same_as_qsort_at(struct str_sum *v, size_t n, unsigned int max_depth,
			     const char *what)
{
	struct str_sum *want = malloc((n ? n : 1) * sizeof(*want));
	size_t bad = 0;

	NEED(want);
	if (n)
		memcpy(want, v, n * sizeof(*v));
	qsort(want, n, sizeof(*want), by_strcmp);
	if (max_depth == UINT_MAX)
		str_sums_sort(v, n);
	else
		str_sums_sort_bounded(v, n, max_depth);
	sort_equal_runs(want, n);
	sort_equal_runs(v, n);
	for (size_t i = 0; i < n; i++)
		bad += strcmp(v[i].key, want[i].key) != 0 || v[i].value != want[i].value;
	is_int((long long)bad, 0, "%s: %zu keys in strcmp's order", what, n);
	free(want);
}

static void same_as_qsort(struct str_sum *v, size_t n, const char *what)
{
	same_as_qsort_at(v, n, UINT_MAX, what);
}

/* Folded-stack-like keys: a few roots, long shared frames, bytes above 0x7f (unsigned order). */
static void test_folded_keys(void)
{
	static const char *const frames[] = {
		"cc1", "_start", "__libc_start_main", "main", "toplev::main", "compile_file",
		"\xc3\xa9t\xc3\xa9", "a", "ab", "", "[unknown]", "do_syscall_64",
	};
	size_t n = 5000, nf = sizeof(frames) / sizeof(frames[0]);
	struct str_sum *v = calloc(n, sizeof(*v));
	unsigned int seed = 1;

	NEED(v);
	for (size_t i = 0; i < n; i++) {
		char buf[4096];
		size_t len = 0, depth = 1 + (size_t)rand_r(&seed) % 40;

		/* a shared spine, then a random tail: long common prefixes of every length */
		for (size_t d = 0; d < depth && len < sizeof(buf) - 64; d++) {
			const char *f = d < 6 && rand_r(&seed) % 8 ? frames[d] :
					frames[(size_t)rand_r(&seed) % nf];

			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", d ? ";" : "", f);
		}
		v[i].key = strdup(buf);
		v[i].value = i;
		NEED(v[i].key);
	}
	same_as_qsort(v, n, "folded-stack keys (duplicates among them)");
	for (size_t i = 0; i < n; i++)
		free((char *)v[i].key);
	free(v);
}

/* Few keys, one key, none, keys that are prefixes of each other, a 20K-byte shared prefix. */
static void test_edges(void)
{
	struct str_sum few[] = {
		{ "b", 1 }, { "a", 2 }, { "ab", 3 }, { "", 4 }, { "a;b", 5 }, { "\xff", 6 },
		{ "a;", 7 }, { "\x01", 8 },
	};
	struct str_sum one = { "x", 1 };
	size_t n = 300, plen = 20000;
	struct str_sum *v = calloc(n, sizeof(*v));
	char *prefix = malloc(plen + 1);

	NEED(v && prefix);
	same_as_qsort(few, sizeof(few) / sizeof(few[0]), "a few keys");
	same_as_qsort(&one, 1, "one key");
	same_as_qsort(NULL, 0, "no key");
	memset(prefix, 'p', plen);
	prefix[plen] = '\0';
	for (size_t i = 0; i < n; i++) {
		char *k = malloc(plen + 16);

		NEED(k);
		/* i and its prefixes: "p...p", "p...p7", "p...p71", ... in no order */
		snprintf(k, plen + 16, "%s%zu", prefix, (i * 7919) % n);
		if (i % 10 == 0)
			k[plen] = '\0';
		v[i] = (struct str_sum){ k, i };
	}
	same_as_qsort(v, n, "a 20,000-byte shared prefix, keys prefixes of others");
	for (size_t i = 0; i < n; i++)
		free((char *)v[i].key);
	free(v);
	free(prefix);
}

/*
 * With the recursion bounded (pivots bad all the way down), qsort() sorts what is left of each
 * part at the bound: the order is the same at every bound.
 */
static void test_bounded(void)
{
	size_t n = 3000;
	struct str_sum *v = calloc(n, sizeof(*v));
	unsigned int seed = 3;
	char name[64];

	NEED(v);
	for (unsigned int depth = 0; depth <= 4; depth++) {
		for (size_t i = 0; i < n; i++) {
			char *k = malloc(64);

			NEED(k);
			snprintf(k, 64, "comm;f%u;g%u;h%u", (unsigned int)rand_r(&seed) % 7,
				 (unsigned int)rand_r(&seed) % 300, (unsigned int)rand_r(&seed) % 9);
			v[i] = (struct str_sum){ k, i };
		}
		snprintf(name, sizeof(name), "recursion bounded at %u level(s)", depth);
		same_as_qsort_at(v, n, depth, name);
		for (size_t i = 0; i < n; i++)
			free((char *)v[i].key);
	}
	free(v);
}

int main(void)
{
	test_folded_keys();
	test_edges();
	test_bounded();
	return done_testing();
}
