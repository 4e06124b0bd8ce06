// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-inline.c - the frames perf 6.1 shows for a DWARF-unwound address: its inlined
 * functions. perf's unwind_entry() (util/machine.c append_inlines) asks `addr2line -i -f` (or
 * libbfd) about every unwound address that has a symbol and, when the file's DWARF answers,
 * shows the answer *instead of* the symbol: one frame per function, innermost first, the
 * outermost being the function that holds the code. A function whose name is not the symbol's
 * (an inlined one, or a clone such as "f.constprop.0" whose DWARF name is "f") is a made-up
 * symbol that perf prints as "NAME (inlined)". Frame-pointer chains get no such treatment.
 *
 * addr2line is restated with libdw: the scopes at the address (dwarf_getscopes), keeping
 * DW_TAG_inlined_subroutine and DW_TAG_subprogram ones, each named by its linkage name
 * (binutils prefers it) else its name, through abstract origins, then demangled as perf does.
 * The DWARF is the file's or its separate debug file's (/usr/lib/debug, by build-id or
 * .gnu_debuglink), which is where binutils finds it too. Answers are cached per (file, address).
 *
 * An assembler function has a DW_TAG_subprogram per alias (GNU as); binutils names the last
 * (last_alias()): glibc's clone3, ld.so's __GI_mprotect. Where DWARF names no function, binutils
 * names the address by the symbol table (symtab_bfd_name()): the symbol starting last below it,
 * a label inside the function too (node's construct_stub_create_deopt_addr in
 * Builtins_JSConstructStubGeneric), and of several there the first in the file's order of the
 * smallest, where the linker folded identical functions (node's
 * RegExpClassRanges::IsClassRanges and RegExpClassSetExpression::IsClassSetExpression). Where
 * that is not perf's own symbol, perf shows it as "NAME (inlined)", and so does kprof. Not restated: code with
 * DWARF lines but no function whose symbol binutils picks otherwise. See docs/symbolize.md.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

/* More nesting than this is not shown (perf's MAX_INLINE_NEST is 1024; none come close). */
#define INLINE_MAX	64

/* One file's DWARF, opened on first use; dwfl NULL when it cannot be read. */
struct inline_file {
	const char	*path;		/* interned */
	Dwfl		*dwfl;
	Dwfl_Module	*mod;
};

/* The answer for one (file, address): nr frames (0: none, show the symbol). */
struct inline_addr {
	const char		*path;
	uint64_t		vaddr;
	size_t			nr;
	struct sym_inline	v[];
};

struct sym_inlines {
	struct ptr_table	files;		/* of struct inline_file, by path pointer */
	struct ptr_table	addrs;		/* of struct inline_addr */
};

static char *debuginfo_path;

static const Dwfl_Callbacks callbacks = {
	.find_debuginfo	= dwfl_standard_find_debuginfo,
	.debuginfo_path	= &debuginfo_path,
};

static size_t hash_key(const char *path, uint64_t vaddr)
{
	return (size_t)(((uintptr_t)path >> 3 ^ vaddr) * 0x9e3779b97f4a7c15ULL >> 16);
}

static size_t hash_file(const void *elem)
{
	return hash_key(((const struct inline_file *)elem)->path, 0);
}

static bool same_file(const void *elem, const void *key)
{
	return ((const struct inline_file *)elem)->path == key;
}

static size_t hash_addr(const void *elem)
{
	const struct inline_addr *a = elem;

	return hash_key(a->path, a->vaddr);
}

static bool same_addr(const void *elem, const void *key)
{
	const struct inline_addr *a = elem, *b = key;

	return a->path == b->path && a->vaddr == b->vaddr;
}

void inlines_release(struct sym_inlines *in)
{
	if (!in)
		return;
	for (size_t i = 0; in->files.slots && i <= in->files.mask; i++) {
		struct inline_file *f = in->files.slots[i];

		if (f) {
			dwfl_end(f->dwfl);
			free(f);
		}
	}
	for (size_t i = 0; in->addrs.slots && i <= in->addrs.mask; i++)
		free(in->addrs.slots[i]);
	ptr_table_release(&in->files);
	ptr_table_release(&in->addrs);
	free(in);
}

/* The file's DWARF module (at its link addresses), or NULL. -ENOMEM in *err. */
static Dwfl_Module *file_module(struct sym_inlines *in, const char *path, int *err)
{
	struct inline_file *f;
	size_t i;

	if (ptr_table_reserve(&in->files, hash_file)) {
		*err = -ENOMEM;
		return NULL;
	}
	i = ptr_table_slot(&in->files, hash_key(path, 0), same_file, path);
	f = in->files.slots[i];
	if (f)
		return f->mod;
	f = calloc(1, sizeof(*f));
	if (!f) {
		*err = -ENOMEM;
		return NULL;
	}
	f->path = path;
	in->files.slots[i] = f;
	in->files.nr++;
	f->dwfl = dwfl_begin(&callbacks);
	if (f->dwfl) {
		f->mod = dwfl_report_elf(f->dwfl, path, path, -1, 0, false);
		dwfl_report_end(f->dwfl, NULL, NULL);
	}
	return f->mod;
}

/* addr2line's function name for a scope: the linkage name, else the name (via origins). */
static const char *scope_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return name;
}

static bool is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram;
}

/* Append @die's name (binutils prints "??" for a function without one). */
static void put_name(Dwarf_Die *die, const char **names, size_t *nr)
{
	if (*nr < INLINE_MAX) {
		names[*nr] = scope_name(die);
		if (!names[*nr])
			names[*nr] = "??";
		(*nr)++;
	}
}

/*
 * GNU as (2.40) writes one DW_TAG_subprogram per alias of an assembler function (glibc's clone3.S:
 * __clone3, __GI___clone3, clone3, all with the same range). binutils' function lookup
 * (dwarf2.c lookup_address_in_function_table) keeps, among the smallest ranges holding the
 * address, the function read last, so addr2line -f names the last alias (clone3) where
 * dwarf_getscopes gives the first. @fn becomes that last same-range sibling. Only assembler
 * units do this, so C units are not walked.
 */
static void last_alias(Dwarf_Die *cu, Dwarf_Die *fn)
{
	Dwarf_Word lang;
	Dwarf_Attribute attr;
	Dwarf_Addr low, high, l, h;
	Dwarf_Die die;

	if (dwarf_tag(fn) != DW_TAG_subprogram ||
	    dwarf_formudata(dwarf_attr(cu, DW_AT_language, &attr), &lang) ||
	    lang != DW_LANG_Mips_Assembler ||
	    dwarf_lowpc(fn, &low) || dwarf_highpc(fn, &high) || dwarf_child(cu, &die))
		return;
	do {
		if (dwarf_tag(&die) == DW_TAG_subprogram && dwarf_dieoffset(&die) > dwarf_dieoffset(fn) &&
		    !dwarf_lowpc(&die, &l) && !dwarf_highpc(&die, &h) && l == low && h == high)
			*fn = die;
	} while (dwarf_siblingof(&die, &die) == 0);
}

/*
 * The function names at @vaddr, innermost first, into @names; their number (0: none). The
 * scopes at an address stop at its innermost inlined instance (dwarf_getscopes continues with
 * the abstract definition's), so its callers are the scopes of that instance's DIE, walked
 * outwards up to the subprogram, as eu-addr2line -i does.
 */
static size_t dwarf_functions(Dwfl_Module *mod, uint64_t vaddr, const char **names)
{
	Dwarf_Die *cu, *scopes = NULL, *outer = NULL;
	Dwarf_Addr bias;
	size_t nr = 0;
	int n, i, m;

	cu = dwfl_module_addrdie(mod, vaddr, &bias);
	if (!cu)
		return 0;
	n = dwarf_getscopes(cu, vaddr - bias, &scopes);
	for (i = 0; i < n && !is_function(&scopes[i]); i++)
		;
	if (i < n) {
		last_alias(cu, &scopes[i]);
		put_name(&scopes[i], names, &nr);
		m = dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine ?
		    dwarf_getscopes_die(&scopes[i], &outer) : 0;
		for (int j = 1; j < m; j++) {
			if (!is_function(&outer[j]))
				continue;
			put_name(&outer[j], names, &nr);
			if (dwarf_tag(&outer[j]) == DW_TAG_subprogram)
				break;
		}
	}
	free(outer);
	free(scopes);
	return nr;
}

/* The cached answer for (@path, @vaddr), computed on first use. NULL with *err on ENOMEM. */
static const struct inline_addr *lookup(struct sym_session *s, struct sym_inlines *in,
					const char *path, uint64_t vaddr, const char *sym,
					const struct symtab *tab, int *err)
{
	const char *names[INLINE_MAX];
	char *alias = NULL;
	struct inline_addr key = { .path = path, .vaddr = vaddr }, *a;
	Dwfl_Module *mod;
	size_t i, nr = 0;

	if (ptr_table_reserve(&in->addrs, hash_addr))
		goto nomem;
	i = ptr_table_slot(&in->addrs, hash_key(path, vaddr), same_addr, &key);
	if (in->addrs.slots[i])
		return in->addrs.slots[i];
	mod = file_module(in, path, err);
	if (*err)
		return NULL;
	if (mod)
		nr = dwarf_functions(mod, vaddr, names);
	/* no function in the DWARF: addr2line's symbol, an inlined frame where not perf's */
	if (!nr && tab && (names[0] = symtab_bfd_name(tab, vaddr, &alias)) &&
	    strcmp(names[0], sym))
		nr = 1;
	a = malloc(sizeof(*a) + nr * sizeof(a->v[0]));
	if (!a) {
		free(alias);
		goto nomem;
	}
	*a = key;
	a->nr = nr;
	for (size_t j = 0; j < nr; j++) {
		char *dem = sym_demangle(names[j]), *label = NULL;
		const char *name = dem ? dem : names[j];

		a->v[j].inlined = strcmp(name, sym) != 0;
		if (a->v[j].inlined && asprintf(&label, "%s (inlined)", name) < 0)
			label = NULL;
		a->v[j].sym = a->v[j].inlined ? (label ? sym_strpool_intern(session_pool(s), label)
						      : NULL) : sym;
		free(label);
		free(dem);
		if (!a->v[j].sym) {
			free(alias);
			free(a);
			goto nomem;
		}
	}
	free(alias);
	in->addrs.slots[i] = a;
	in->addrs.nr++;
	return a;
nomem:
	*err = -ENOMEM;
	return NULL;
}

int sym_session_inlines(struct sym_session *s, pid_t pid, uint64_t addr,
			const struct sym_inline **out)
{
	struct sym_inlines **slot = session_inlines(s);
	const struct inline_addr *a;
	struct sym_result res;
	struct map_file mf;
	int err = 0;

	*out = NULL;
	/* perf: only an address with a symbol, in a file (not a JIT map, not "[vdso]") */
	if (sym_session_resolve(s, pid, addr, false, &res) || !res.sym)
		return 0;
	err = session_map_file(s, pid, addr, &mf);
	if (err)
		return err == -ENOENT ? 0 : err;
	if (!mf.elf_path)
		return 0;
	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot)
			return -ENOMEM;
	}
	/* the address in the file: the symbol's there, plus the offset into it */
	/* perf asks addr2line about no "[...]" dso (srcline.c dso__name): the vdso by DWARF only */
	a = lookup(s, *slot, mf.elf_path, res.sym_id + (addr - res.sym_start), res.sym,
		   mf.dso[0] == '[' ? NULL : mf.tab, &err);
	if (!a)
		return err;
	*out = a->v;
	return (int)a->nr;
}
