// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-perf-cache.c - libunwind's cache of register states, as perf 6.1's unwinder has it.
 *
 * perf gives each process's map list one libunwind address space, with UNW_CACHE_GLOBAL
 * (util/unwind-libunwind-local.c). Before libunwind 1.6 looks a frame's CFI up, it looks the
 * frame's ip -- the sampled pc, or a caller's return address, not less one -- up in that
 * space's cache of register states (src/dwarf/Gparser.c, find_reg_state()), and a hit is used
 * as found, whatever the maps say now. Every lookup that finds CFI enters its ip in the next of
 * 128 slots, round robin (rs_new(); a hit moves nothing). perf flushes the cache at an exec
 * (unwind__flush_access() from __thread__set_comm()) and nowhere else, so a frame whose CFI was
 * found before a lower map of its file was given -- a process that maps its libc again low,
 * then resolves its execve's PLT slot -- still unwinds by CFI until 128 other ips have come in.
 * Only which ips are in the cache is kept: what a hit unwinds by is the CFI libdwfl finds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

#define NONE	0xff	/* no slot: the end of a hash chain */

/* libunwind's hash of an ip (Gparser.c): the top bits of ip times 2^64 / the golden ratio */
static unsigned rs_hash(uint64_t ip)
{
	return (unsigned)((ip * 0x9e3779b97f4a7c16ULL) >> (64 - PERF_RS_LOG_HASH));
}

int perf_rs_cache_new(struct perf_rs_cache **out)
{
	*out = malloc(sizeof(**out));
	if (!*out)
		return -ENOMEM;
	perf_rs_flush(*out);
	return 0;
}

void perf_rs_flush(struct perf_rs_cache *c)
{
	if (!c)
		return;
	/* dwarf_flush_rs_cache(): every slot invalid, the round robin back to slot 0 */
	memset(c->ip, 0, sizeof(c->ip));
	memset(c->chain, NONE, sizeof(c->chain));
	memset(c->hash, NONE, sizeof(c->hash));
	c->head = 0;
}

bool perf_rs_cached(const struct perf_rs_cache *c, uint64_t ip)
{
	if (!c || !ip)
		return false;
	for (unsigned i = c->hash[rs_hash(ip)]; i != NONE; i = c->chain[i])
		if (c->ip[i] == ip)
			return true;
	return false;
}

void perf_rs_enter(struct perf_rs_cache *c, uint64_t ip)
{
	unsigned slot, h;

	if (!c || !ip)
		return;
	slot = c->head;
	c->head = (uint8_t)((slot + 1) % PERF_RS_SLOTS);
	/* the slot's old ip leaves its chain */
	if (c->ip[slot]) {
		uint8_t *p = &c->hash[rs_hash(c->ip[slot])];

		while (*p != NONE && *p != slot)
			p = &c->chain[*p];
		if (*p == slot)
			*p = c->chain[slot];
	}
	h = rs_hash(ip);
	c->chain[slot] = c->hash[h];
	c->hash[h] = (uint8_t)slot;
	c->ip[slot] = ip;
}
