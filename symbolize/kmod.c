// SPDX-License-Identifier: GPL-2.0
/*
 * kmod.c - naming addresses in kernel modules, checking their build-ids as perf 6.1 does.
 *
 * A module is keyed by perf's short name "[ext4]", which is also kallsyms' module name, and shown
 * as perf shows it: under its BUILD_ID entry's file name ("/lib/modules/R/…/ext4.ko") when it
 * has one, else "[ext4]". Its names come,
 * when first needed, from the first of (perf's dso__load for a module, then the kallsyms split
 * of dso__load_kernel_sym):
 *
 *   1. the .ko in perf's build-id cache, .build-id/NN/REST/elf, with the recorded build-id;
 *   2. the .ko the recording names (a path), with the recorded build-id when there is one;
 *   3. the kallsyms the kernel's names come from. When that is this machine's live kallsyms and
 *      a build-id was recorded, only if the module loaded now has it
 *      (/sys/module/NAME/notes/.note.gnu.build-id); else none, and the module is counted as
 *      stale (report and collapse say so). The kallsyms copy perf record saves with a module
 *      named "[name]" (.build-id/NN/REST/kallsyms) is not read: perf 6.1 does not read it
 *      either (it takes the module's cache entry for an ELF file and finds none).
 *
 * A kallsyms saved at record time (perf's cached kallsyms of the recorded kernel, kprof
 * record's snapshot, --kallsyms) holds the modules loaded then: their names are used as they
 * are, as perf does.
 *
 * perf 6.1 differs from that in one case, which is counted (sym_stats.modules_early), not
 * reproduced: a kallsyms-named module whose first address is resolved before any kernel
 * address. perf loads the kernel's kallsyms lazily, at the first kernel address; until then
 * the module's own dso__load has failed, and when kallsyms comes, maps__split_kallsyms drops
 * the module's first symbol (it checks the dso's loaded flag only when it switches modules).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/symbolize-int.h"

struct kmod *kmod_get(struct kernel_syms *k, const char *name)
{
	struct kmod *km, **v;

	for (size_t i = 0; i < k->nr_kmods; i++)
		if (k->kmods[i]->name == name)
			return k->kmods[i];
	v = grow_array(k->kmods, &k->alloc_kmods, k->nr_kmods + 1, sizeof(*v));
	if (!v)
		return NULL;
	k->kmods = v;
	km = calloc(1, sizeof(*km));
	if (!km)
		return NULL;
	km->name = name;
	km->shown = name;
	km->file = name;
	k->kmods[k->nr_kmods++] = km;
	return km;
}

/* Where @km's names come from (kmod.c's header), decided once. */
static void kmod_choose(struct kernel_syms *k, struct kmod *km)
{
	const uint8_t *id = km->build_id_len ? km->build_id : NULL;
	size_t len = km->build_id_len, n;
	char path[4096];
	uint8_t running[20];

	km->state = KMOD_ELF;
	if (id && build_id_cache_file(id, len, "%s/.build-id/%.2s/%s/elf", path, sizeof(path)) &&
	    !elf_syms_load_kmod(&km->elf, path, id, len))
		return;
	if (km->file[0] == '/' && !elf_syms_load_kmod(&km->elf, km->file, id, len))
		return;
	km->state = KMOD_NONE;
	if (!k->have_kallsyms)
		return;
	km->state = KMOD_KALLSYMS;
	if (!id || !k->kallsyms_live)
		return;
	/* "[ext4]" is /sys/module/ext4 */
	snprintf(path, sizeof(path), "%s/module/%.*s/notes/.note.gnu.build-id", k->sysfs,
		 (int)strlen(km->name) - 2, km->name + 1);
	n = notes_build_id(path, running);
	if (n && build_id_equal(running, n, id, len))
		return;
	km->state = KMOD_STALE;
	if (!k->kmods_stale++)
		k->first_stale_kmod = km->name;
}

/* The first symbol of module @name in kallsyms' order, which perf's split meets first. */
static const char *first_symbol_name(struct symtab *t, const char *name,
				     struct sym_strpool *pool)
{
	for (size_t i = 0; i < t->nr; i++)
		if (sym_entry_dso(t, &t->v[i]) == name)
			return sym_entry_name(t, &t->v[i], pool);
	return NULL;
}

void kmod_resolve(struct kernel_syms *k, const struct sym_map *m, uint64_t addr,
		  struct cache_entry *e, struct sym_strpool *pool)
{
	struct kmod *km = m->kmod;
	struct sym_entry *sym = NULL;
	const struct symtab *tab = NULL;
	uint64_t at = addr;

	if (km->state == KMOD_UNCHECKED)
		kmod_choose(k, km);
	if (!km->met && !k->kernel_met && km->state == KMOD_KALLSYMS && !k->kmods_early++) {
		k->first_early_kmod = km->name;
		k->first_early_sym = first_symbol_name(&k->ksyms.tab, km->name, pool);
	}
	km->met = true;
	if (km->state == KMOD_ELF) {
		/* the map starts with .text (its file offset is perf's pgoff, not ours) */
		at = addr - m->start;
		tab = &km->elf.tab;
		sym = symtab_find(tab, at);
	} else if (km->state == KMOD_KALLSYMS) {
		tab = &k->ksyms.tab;
		sym = symtab_find(tab, addr);
		if (sym && sym_entry_dso(tab, sym) != km->name)
			sym = NULL;
	}
	e->rc = 0;
	e->dso = m->dso;
	e->sym = sym ? sym_entry_name(tab, sym, pool) : NULL;
	e->sym_off = sym && e->sym ? at - sym->start : 0;
}

void kmods_release(struct kernel_syms *k)
{
	for (size_t i = 0; i < k->nr_kmods; i++) {
		elf_syms_release(&k->kmods[i]->elf);
		free(k->kmods[i]);
	}
	free(k->kmods);
	k->kmods = NULL;
	k->nr_kmods = k->alloc_kmods = 0;
}
