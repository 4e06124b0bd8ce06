// SPDX-License-Identifier: GPL-2.0
/*
 * The (object, address) cache in front of every lookup (cache.c): 32-byte slots whose answers
 * are interned. 200,000 addresses of 3 objects with answers drawn from 60 distinct ones: each
 * found again with its own offset into its symbol and its answer, across the table's growths;
 * the answers stored once each; absent keys not found.
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
static int objs[3];

static struct cache_entry answer(size_t i)
{
	return (struct cache_entry){
		.sym = syms[i % 20], .dso = dsos[i % 3], .sym_off = i * 7 % 4096,
		.sym_id = syms[i % 20] ? 0x1000 * (i % 20) : 0, .rc = i % 20 == 19 ? -ENOENT : 0,
	};
}

static uint64_t key(size_t i)
{
	return i * 0x9e3779b97f4a7c15ULL >> 20;	/* distinct for i < NR */
}

int main(void)
{
	struct sym_cache c = { 0 };
	size_t bad_add = 0, bad_find = 0, absent = 0;

	is_int((int)sizeof(struct cache_slot), 32, "a slot is 32 bytes");
	for (size_t i = 0; i < NR; i++) {
		struct cache_entry e = answer(i);
		const struct cache_slot *s = cache_add(&c, &objs[i % 3], key(i), &e);

		if (!s || s->sym_off != e.sym_off || s->res->sym != e.sym || s->res->dso != e.dso)
			bad_add++;
	}
	is_int((int)bad_add, 0, "%d answers kept", NR);
	for (size_t i = 0; i < NR; i++) {
		struct cache_entry e = answer(i);
		const struct cache_slot *s = cache_find(&c, &objs[i % 3], key(i));

		if (!s || s->sym_off != e.sym_off || s->res->sym != e.sym || s->res->dso != e.dso ||
		    s->res->sym_id != e.sym_id || s->res->rc != e.rc)
			bad_find++;
		/* the same address in another object is another key */
		if (cache_find(&c, &objs[(i + 1) % 3], key(i)))
			absent++;
	}
	is_int((int)bad_find, 0, "every one found again after the table grew (%zu slots)",
	       c.mask + 1);
	is_int((int)absent, 0, "no key found under another object");
	is_int((int)c.res.nr, 60, "60 distinct answers stored once each");
	ok(!cache_find(&c, &objs[0], 1ULL << 62), "an absent address is not found");
	cache_release(&c);
	ok(!cache_find(&c, &objs[0], key(0)), "released: empty");
	return done_testing();
}
