// SPDX-License-Identifier: GPL-2.0
/*
 * The symbol table (symtab.c) with ELF-style input: sized and unsized symbols, perf's end
 * fix-up and duplicate choice, and which symbol wins when ranges overlap.
 */
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"
#include "tests/tap.h"

static const char *find(const struct symtab *t, uint64_t addr)
{
	struct sym_entry *e = symtab_find(t, addr);

	return e ? e->name : NULL;
}

/* The name shown for a symbol, as sym_entry_name hands it out. */
static void is_shown(const struct symtab *t, const struct sym_entry *e, const char *want,
		     const char *what)
{
	char *owned;

	is_str(sym_entry_demangled(t, e, &owned), want, "%s", what);
	free(owned);
}

/*
 * Sorting: a table in hash order (.dynsym) and a sorted table with entries appended (the @plt
 * symbols) both come out by start, equal starts in the order they were in. @plt names are
 * perf's "%s@plt" of the demangled name, in 1024 bytes, made when shown.
 */
/* An entry's input order, as the tests below add them: its length is that order + 1. */
static uint64_t input_order(const struct sym_entry *e)
{
	return e->end - e->start - 1;
}

/* Sorted by start, and equal starts in input order. */
static bool sorted_stably(const struct symtab *t)
{
	for (size_t i = 1; i < t->nr; i++) {
		const struct sym_entry *a = &t->v[i - 1], *b = &t->v[i];

		if (a->start > b->start ||
		    (a->start == b->start && input_order(a) > input_order(b)))
			return false;
	}
	return true;
}

/* Both sorts (radix for a table in hash order, a merge for an appended run): every entry comes
 * out once, stably, for many equal starts. */
static void test_sort_stable(void)
{
	struct symtab t = { 0 };
	uint64_t seed = 42, sum = 0, want = 0;

	for (uint32_t i = 0; i < 20000; i++) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		symtab_add(&t, (seed >> 33) % 700, i + 1, STB_GLOBAL, "f", NULL);
		want += input_order(&t.v[t.nr - 1]) * 3 + t.v[t.nr - 1].start;
	}
	is_int(symtab_sort(&t), 0, "sorted");
	for (size_t i = 0; i < t.nr; i++)
		sum += input_order(&t.v[i]) * 3 + t.v[i].start;
	ok(sorted_stably(&t) && sum == want && t.nr == 20000,
	   "20000 entries, 700 starts: sorted, equal starts in input order, none lost");
	symtab_release(&t);

	/* a sorted run, then a sorted run appended with starts equal to the first's */
	for (uint64_t i = 0; i < 3000; i++)
		symtab_add(&t, i / 3 * 16, i + 1, STB_GLOBAL, "f", NULL);
	for (uint64_t i = 0; i < 40; i++)
		symtab_add(&t, i * 64 + (i & 1) * 8, 3000 + i + 1, STB_GLOBAL, "f@plt", NULL);
	symtab_sort(&t);
	ok(sorted_stably(&t) && t.nr == 3040 && !strcmp(t.v[3].name, "f@plt") &&
	   !strcmp(t.v[t.nr - 1].name, "f"),
	   "two runs merged: an appended entry after the equal starts before it");
	symtab_release(&t);
}

static void test_sort_and_plt(void)
{
	struct symtab t = { 0 };
	char long_name[1100], *owned;
	uint64_t prev = 0;
	bool in_order = true;

	for (uint64_t i = 0; i < 5000; i++)
		symtab_add(&t, ((i * 7919) % 5000) * 16 + 0x400000, 16, STB_GLOBAL, "f", NULL);
	symtab_add(&t, 0x400000, 16, STB_WEAK, "g", NULL);
	symtab_sort(&t);
	for (size_t i = 0; i < t.nr; i++) {
		in_order &= t.v[i].start >= prev;
		prev = t.v[i].start;
	}
	ok(in_order && t.nr == 5001, "hash-ordered symbols sort by start");
	ok(t.v[0].start == 0x400000 && t.v[0].binding == STB_GLOBAL &&
	   t.v[1].start == 0x400000 && t.v[1].binding == STB_WEAK,
	   "equal starts keep their order");
	symtab_release(&t);

	symtab_add(&t, 0x1000, 16, STB_GLOBAL, "a", NULL);
	symtab_add(&t, 0x3000, 16, STB_GLOBAL, "c", NULL);
	/* a stub's entry has its target's name, shown with "@plt" */
	symtab_add(&t, 0x0800, 16, STB_GLOBAL, "_ZN2ns3barEv", NULL);
	symtab_add(&t, 0x1000, 16, STB_GLOBAL, "bar", NULL);
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	symtab_add(&t, 0x4000, 16, STB_GLOBAL, long_name, NULL);
	for (size_t i = 2; i < t.nr; i++) {
		t.v[i].plt = true;
		t.v[i].mangled = sym_maybe_mangled(t.v[i].name);
	}
	symtab_sort(&t);
	ok(t.v[0].start == 0x0800 && !strcmp(t.v[1].name, "a") && !strcmp(t.v[2].name, "bar") &&
	   t.v[3].start == 0x3000 && t.v[4].start == 0x4000, "appended @plt symbols merge in");
	is_shown(&t, &t.v[0], "ns::bar@plt",
		 "a mangled @plt name is shown demangled (no parameters)");
	is_shown(&t, &t.v[2], "bar@plt", "a plain one as it is");
	is_int((int)strlen(sym_entry_demangled(&t, &t.v[4], &owned)), 1023,
	       "a long one is cut at 1023 bytes, as perf's snprintf does");
	free(owned);
	symtab_release(&t);
}

/* parse_hex() (a lookup table since kallsyms loads on the critical path) against strtoull. */
/*
 * A binary's layout: _init (no size) at .init, then .plt (header, two stubs), then _start. _init's
 * end is fixed up to _start before the stubs are added (perf's order), so it covers them too:
 * perf may name a stub _init+OFF. symtab_find names the stub; symtab_plt_shadow finds _init.
 */
static void test_plt_shadow(void)
{
	struct symtab t = { 0 };
	struct sym_entry *e;

	symtab_add(&t, 0x1000, 0, STB_GLOBAL, "_init", NULL);
	symtab_add(&t, 0x1060, 0x22, STB_GLOBAL, "_start", NULL);
	symtab_add(&t, 0x2000, 0x10, STB_GLOBAL, "main", NULL);
	symtab_finish(&t, false);
	symtab_add(&t, 0x1030, 0x10, STB_GLOBAL, "atof", NULL);
	symtab_add(&t, 0x1040, 0x10, STB_GLOBAL, "clock_gettime", NULL);
	t.v[t.nr - 2].plt = t.v[t.nr - 1].plt = true;
	symtab_sort(&t);
	e = symtab_find(&t, 0x1044);
	ok(e && e->plt && !strcmp(e->name, "clock_gettime"), "an address in a stub: the stub");
	is_shown(&t, e, "clock_gettime@plt", "... shown as NAME@plt");
	e = symtab_plt_shadow(&t, 0x1044);
	ok(e && !strcmp(e->name, "_init"), "... which _init's fixed-up end covers too");
	e = symtab_plt_shadow(&t, 0x1034);
	ok(e && !strcmp(e->name, "_init"), "... the first stub too");
	ok(!symtab_plt_shadow(&t, 0x1070), "_start has a size: it covers no stub");
	symtab_release(&t);

	symtab_add(&t, 0x1000, 0x17, STB_GLOBAL, "_init", NULL);
	symtab_add(&t, 0x1060, 0x22, STB_GLOBAL, "_start", NULL);
	symtab_finish(&t, false);
	symtab_add(&t, 0x1030, 0x10, STB_GLOBAL, "atof", NULL);
	t.v[t.nr - 1].plt = true;
	symtab_sort(&t);
	ok(!symtab_plt_shadow(&t, 0x1034), "an _init with its size: nothing to say");
	symtab_release(&t);
}

static void test_parse_hex(void)
{
	static const char digits[] = "0123456789abcdefABCDEFxg \t\n-+";
	unsigned int seed = 7, bad = 0;

	for (int i = 0; i < 20000; i++) {
		char buf[24];
		size_t len = (size_t)(rand_r(&seed) % 17);
		const char *p = buf;
		uint64_t v;
		size_t n, want_n;

		for (size_t j = 0; j < len; j++)
			buf[j] = digits[rand_r(&seed) % (j < 2 ? 22 : sizeof(digits) - 1)];
		buf[len] = '\0';
		want_n = strspn(buf, "0123456789abcdefABCDEF");
		n = parse_hex(&p, &v);
		bad += n != want_n || p != buf + want_n ||
		       v != (want_n ? strtoull(strndupa(buf, want_n), NULL, 16) : 0);
	}
	is_int(bad, 0, "parse_hex agrees with strtoull on 20000 random strings");
	{
		const char *p = "ffffffffc0002000 t x";
		uint64_t v;

		is_int(parse_hex(&p, &v), 16, "sixteen digits");
		ok(v == 0xffffffffc0002000ULL && *p == ' ', "... their value, stopping at the blank");
	}
}

/* Room reserved once: the adds that fit never move the table, the entries before are kept. */
static void test_reserve(void)
{
	struct symtab t = { 0 };
	const struct sym_entry *v;
	bool moved = false;

	symtab_add(&t, 0x10, 4, STB_GLOBAL, "first", NULL);
	is_int(symtab_reserve(&t, 5000), 0, "room for 5000 symbols");
	ok(t.alloc >= 5000 && t.nr == 1 && !strcmp(t.v[0].name, "first"),
	   "the symbol before is kept");
	v = t.v;
	for (uint64_t i = 1; i < 5000; i++) {
		symtab_add(&t, 0x10 + i * 16, 4, STB_GLOBAL, "more", NULL);
		moved |= t.v != v;
	}
	ok(!moved && t.nr == 5000, "4999 adds within it, the table never moved");
	is_int(symtab_reserve(&t, 10), 0, "a smaller reserve ...");
	ok(t.v == v && t.alloc >= 5000, "... changes nothing");
	symtab_finish(&t, false);
	ok(symtab_find(&t, 0x10 + 4999 * 16 + 2) && symtab_find(&t, 0x12) &&
	   !strcmp(symtab_find(&t, 0x12)->name, "first"), "all of them found");
	symtab_release(&t);
}

/*
 * The name binutils' addr2line gives an address without DWARF (symtab_bfd_name): the symbol
 * starting last at or below it, a label inside a function too; of several at one start the
 * first in the file's order of the smallest, where perf keeps the longest name.
 */
static void test_bfd_name(void)
{
	struct symtab t = { 0 };
	char *owned = NULL;
	const char *n;

	symtab_add(&t, 0x1000, 6, STB_GLOBAL, "IsClassRanges", NULL);
	symtab_add(&t, 0x1000, 6, STB_GLOBAL, "IsClassSetExpression", NULL);
	symtab_add(&t, 0x2000, 0x100, STB_GLOBAL, "JSConstructStub", NULL);
	symtab_add(&t, 0x2040, 0, STB_GLOBAL, "deopt_addr", NULL);
	symtab_add(&t, 0x3000, 0x10, STB_GLOBAL, "alone", NULL);
	symtab_finish(&t, false);
	is_str(symtab_find(&t, 0x1002)->name, "IsClassSetExpression", "perf keeps the longest");
	n = symtab_bfd_name(&t, 0x1002, &owned);
	is_str(n, "IsClassRanges", "binutils the first of the folded ones");
	free(owned);
	n = symtab_bfd_name(&t, 0x2044, &owned);
	is_str(n, "deopt_addr", "a label inside the function, past its start");
	free(owned);
	n = symtab_bfd_name(&t, 0x2010, &owned);
	is_str(n, "JSConstructStub", "before the label, the function");
	free(owned);
	n = symtab_bfd_name(&t, 0x3004, &owned);
	is_str(n, "alone", "one symbol: its own name");
	free(owned);
	ok(!symtab_bfd_name(&t, 0x800, &owned) && !owned, "below every symbol: nothing");
	symtab_release(&t);
	ok(!t.aliases && !t.nr_aliases, "released");
}

/*
 * Module names (kallsyms): an entry keeps a 16-bit index of its module's name, so 65535
 * distinct modules at most; a name given again gets its index again.
 */
static void test_dsos(void)
{
	enum { NR = 65536 };
	struct symtab t = { 0 };
	char *names = malloc(NR);
	size_t bad = 0;
	int err = 0;

	for (size_t i = 0; i < NR - 1 && !err; i++)
		err = symtab_add(&t, i * 16, 16, STB_GLOBAL, "f", names + i);
	is_int(err, 0, "65535 modules");
	for (size_t i = 0; i < NR - 1; i += 7)
		err |= symtab_add(&t, i * 16 + 8, 4, STB_GLOBAL, "g", names + i);
	is_int(err, 0, "... each given again");
	is_int(symtab_add(&t, 0, 1, STB_GLOBAL, "h", names + NR - 1), -EOVERFLOW,
	       "a 65536th: refused");
	is_int(symtab_add(&t, 0, 1, STB_GLOBAL, "k", NULL), 0, "... a kernel symbol is not");
	for (size_t i = 0; i < NR - 1; i++)
		bad += sym_entry_dso(&t, &t.v[i]) != names + i;
	for (size_t i = 0, at = NR - 1; i < NR - 1; i += 7, at++)
		bad += t.v[at].dso != t.v[i].dso;
	bad += sym_entry_dso(&t, &t.v[t.nr - 1]) != NULL;
	is_int((int)bad, 0, "every entry's module is its own, the same index again");
	is_int((int)t.nr_dsos, NR - 1, "each stored once");
	symtab_release(&t);
	free(names);
}

int main(void)
{
	struct symtab t = { 0 };

	test_dsos();
	test_bfd_name();
	test_sort_stable();
	test_sort_and_plt();
	test_plt_shadow();
	test_reserve();
	test_parse_hex();

	/* out of order on purpose */
	symtab_add(&t, 0x3000, 0x100, STB_GLOBAL, "func_c", NULL);
	symtab_add(&t, 0x1000, 0x200, STB_GLOBAL, "func_a", NULL);
	symtab_add(&t, 0x1080, 0, STB_GLOBAL, "label_in_a", NULL);
	symtab_add(&t, 0x2000, 0x80, STB_WEAK, "weak_b", NULL);
	symtab_add(&t, 0x2000, 0x80, STB_GLOBAL, "global_b", NULL);
	symtab_add(&t, 0x2100, 0x10, STB_LOCAL, "__local_d", NULL);
	symtab_add(&t, 0x2100, 0x10, STB_LOCAL, "local_d", NULL);
	symtab_add(&t, 0x2200, 0x10, STB_GLOBAL, "short_e", NULL);
	symtab_add(&t, 0x2200, 0x10, STB_GLOBAL, "longer_e", NULL);
	symtab_add(&t, 0x2300, 0x10, STB_GLOBAL, "SyS_f", NULL);
	symtab_add(&t, 0x2300, 0x10, STB_GLOBAL, "sys_f", NULL);
	symtab_add(&t, 0x5000, 0, STB_GLOBAL, "last_unsized", NULL);
	symtab_finish(&t, false);

	is_str(find(&t, 0x1000), "func_a", "sized symbol, first byte");
	is_str(find(&t, 0x107f), "func_a", "sized symbol, before the label");
	is_str(find(&t, 0x1090), "func_a",
	       "a label inside a sized function: the function wins (perf: rbtree shape)");
	is_str(find(&t, 0x1300), "label_in_a",
	       "past the function the label's fixed-up end (next symbol) still covers");
	ok(!find(&t, 0x0fff), "before every symbol: nothing");
	ok(!find(&t, 0x2080), "a gap after a sized symbol: nothing");
	is_str(find(&t, 0x2000), "global_b", "same start: global beats weak");
	is_str(find(&t, 0x2100), "local_d", "same start: fewer leading underscores");
	is_str(find(&t, 0x2200), "longer_e", "same start: the longer name");
	is_str(find(&t, 0x2300), "sys_f", "same start: not the SyS alias");
	is_str(find(&t, 0x30ff), "func_c", "last byte of a sized symbol");
	ok(!find(&t, 0x3100), "one past its end: nothing");
	is_str(find(&t, 0x5fff), "last_unsized", "the last unsized symbol ends a page later");
	ok(!find(&t, 0x6000), "... and not after");
	is_int(t.nr, 8, "duplicates were dropped");
	symtab_release(&t);
	return done_testing();
}
