// SPDX-License-Identifier: GPL-2.0
/*
 * The symbol table (symtab.c) with ELF-style input: sized and unsized symbols, perf's end
 * fix-up and duplicate choice, and which symbol wins when ranges overlap.
 */
#include <elf.h>
#include <string.h>

#include "symbolize/symbolize-int.h"
#include "tests/tap.h"

static const char *find(const struct symtab *t, uint64_t addr)
{
	struct sym_entry *e = symtab_find(t, addr);

	return e ? e->name : NULL;
}

int main(void)
{
	struct symtab t = { 0 };

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
