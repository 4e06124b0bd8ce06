// SPDX-License-Identifier: GPL-2.0
/*
 * The (object, address) cache in front of every lookup (cache.c): 16-byte slots whose answers
 * are interned. 200,000 addresses of 3 objects with answers drawn from 60 distinct ones: each
 * found again with its own offset into its symbol and its answer, across the table's growths;
 * the answers stored once per symbol; absent keys not found.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"
#include "tests/tap.h"

#define NR	200000

static const char *syms[20] = {
	"a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
	"k", "l", "m", "n", "o", "p", "q", "r", "s", NULL,	/* NULL: unresolved */
};
static const char *dsos[3] = { "/usr/lib/libc.so.6", "/usr/bin/cc1", "[kernel.kallsyms]" };
static const uint32_t objs[3] = { 2, 4, 7 };

static uint64_t key(size_t i)
{
	return i * 0x9e3779b97f4a7c15ULL >> 20;	/* distinct for i < NR */
}

/*
 * Address i's answer: one of 60, and an offset into its symbol that places the symbol's start
 * at one of 60 places in the key's space (so every address of one answer has one start).
 */
static struct cache_entry answer(size_t i)
{
	uint64_t start = 0x1000 * (i % 60);

	return (struct cache_entry){
		.sym = syms[i % 20], .dso = dsos[i % 3], .sym_off = key(i) - start,
		.sym_id = syms[i % 20] ? 0x1000 * (i % 20) : 0, .rc = i % 20 == 19 ? -ENOENT : 0,
	};
}

static bool same(const struct cache_res *r, uint64_t sym_off, const struct cache_entry *e)
{
	return r && r->sym == e->sym && r->dso == e->dso && r->sym_id == e->sym_id &&
	       r->rc == e->rc && (!e->sym || sym_off == e->sym_off);
}

int main(void)
{
	struct sym_cache c = { 0 };
	size_t bad_add = 0, bad_find = 0, absent = 0;
	uint64_t sym_off;

	is_int((int)sizeof(struct cache_slot), 16, "a slot is 16 bytes");
	for (size_t i = 0; i < NR; i++) {
		struct cache_entry e = answer(i);
		const struct cache_res *r = cache_add(&c, objs[i % 3], key(i), &e, &sym_off);

		bad_add += !same(r, sym_off, &e);
	}
	is_int((int)bad_add, 0, "%d answers kept", NR);
	for (size_t i = 0; i < NR; i++) {
		struct cache_entry e = answer(i);
		const struct cache_res *r = cache_find(&c, objs[i % 3], key(i), &sym_off);

		bad_find += !same(r, sym_off, &e);
		/* the same address in another object is another key */
		if (cache_find(&c, objs[(i + 1) % 3], key(i), &sym_off))
			absent++;
	}
	is_int((int)bad_find, 0, "every one found again, its own offset, after the table grew "
	       "(%zu slots)", c.mask + 1);
	is_int((int)absent, 0, "no key found under another object");
	/* 57 with a symbol (each one start), the 3 unresolved ones whatever their offsets */
	is_int((int)c.res.nr, 60, "60 distinct answers stored once each");
	is_int((int)c.nr_res, 60, "... and numbered");
	ok(!cache_find(&c, objs[0], 1ULL << 62, &sym_off), "an absent address is not found");
	{
		/* one symbol, two starts (a file mapped twice): two answers, each its offsets */
		struct cache_entry e = { .sym = "a", .dso = dsos[0], .sym_off = 0x10, .sym_id = 1 };
		const struct cache_res *x = cache_add(&c, 9, 0x5010, &e, &sym_off), *y;

		e.sym_off = 0x20;
		y = cache_add(&c, 9, 0x7020, &e, &sym_off);
		ok(x && y && x != y && x->key_start == 0x5000 && y->key_start == 0x7000,
		   "one symbol at two starts: two answers");
		y = cache_find(&c, 9, 0x5010, &sym_off);
		ok(y == x && sym_off == 0x10, "... each address its own offset");
	}
	cache_release(&c);
	ok(!cache_find(&c, objs[0], key(0), &sym_off), "released: empty");
	return done_testing();
}
