// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.c - naming kernel addresses. Names come from a vmlinux through libdwfl when one is given
 * or found where perf looks, else from the kallsyms text; module symbols always come from
 * kallsyms. The kernel map is what perf 6.1 ends up with: the recording's "[kernel.kallsyms]_text"
 * MMAP ([_text, _etext) on x86_64, else _text/_etext from kallsyms), widened to the kernel
 * symbols once they are loaded (map__fixup_start/end), so init text past _etext is named too.
 * Addresses outside it and outside every module are unknown, as in perf.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

/* perf's vmlinux_path, minus the current directory. %s is the kernel release. */
static const char *const vmlinux_paths[] = {
	"/usr/lib/debug/boot/vmlinux-%s",
	"/boot/vmlinux-%s",
	"/lib/modules/%s/build/vmlinux",
	"/usr/lib/debug/lib/modules/%s/vmlinux",
	"/usr/lib/debug/boot/vmlinux-%s.debug",
};

/* "[ext4]" from "/lib/modules/x/kernel/fs/ext4/ext4.ko.xz", "[ext4]", or "[prog]" for another
 * file, like perf. Interned. */
static const char *kmod_dso_name(const char *path, struct sym_strpool *pool)
{
	const char *base = strrchr(path, '/');
	char name[256];

	if (!kmod_short_name(path, name, sizeof(name)))
		snprintf(name, sizeof(name), "[%.250s]", base ? base + 1 : path);
	return sym_strpool_intern(pool, name);
}

/* The padding symbols are skipped whatever the source (see kallsyms.c). */
static void drop_padding(struct symtab *t)
{
	size_t out = 0;

	for (size_t i = 0; i < t->nr; i++)
		if (!t->v[i].padding)
			t->v[out++] = t->v[i];
	t->nr = out;
}

/* A vmlinux, which must have the recorded kernel build-id when there is one (-ESTALE). */
static int load_vmlinux(struct kernel_syms *k, const char *path, const struct sym_opts *o)
{
	int err = o && o->kernel_build_id_len ?
		  elf_syms_load_checked(&k->vmlinux, path, o->kernel_build_id,
					o->kernel_build_id_len) :
		  elf_syms_load(&k->vmlinux, path, NULL, 0);

	if (err)
		return err;
	drop_padding(&k->vmlinux.tab);
	k->vmlinux_text = k->vmlinux.text;
	k->have_vmlinux = true;
	if (asprintf(&k->source, "vmlinux %s", path) < 0) {
		k->source = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void drop_vmlinux(struct kernel_syms *k)
{
	free(k->source);
	k->source = NULL;
	elf_syms_release(&k->vmlinux);
	k->have_vmlinux = false;
}

static void search_vmlinux(struct kernel_syms *k, const struct sym_opts *o)
{
	const char *release = o ? o->osrelease : NULL;
	struct utsname u;
	char path[512];

	if (!release) {
		if (uname(&u))
			return;
		release = u.release;
	}
	for (size_t i = 0; i < sizeof(vmlinux_paths) / sizeof(*vmlinux_paths); i++) {
		snprintf(path, sizeof(path), vmlinux_paths[i], release);
		if (access(path, R_OK))
			continue;
		if (!load_vmlinux(k, path, o) && k->vmlinux.tab.nr)
			return;
		drop_vmlinux(k);
	}
}

/* The first module symbol's address: where an open-ended kernel map stops. */
static uint64_t first_module_start(const struct kallsyms *ks)
{
	uint64_t first = UINT64_MAX;

	for (size_t i = 0; i < ks->tab.nr; i++) {
		const struct sym_entry *e = &ks->tab.v[i];

		if (e->dso && e->start < first && e->start > ks->text_start)
			first = e->start;
	}
	return first;
}

static void place_default_map(struct kernel_syms *k)
{
	if (k->have_kallsyms && k->ksyms.text_start) {
		k->map_start = k->ksyms.text_start;
		k->map_end = k->ksyms.text_end ? k->ksyms.text_end : first_module_start(&k->ksyms);
		if (k->have_vmlinux && k->vmlinux_text)
			k->vmlinux_delta = k->ksyms.text_start - k->vmlinux_text;
	} else if (k->have_vmlinux) {
		k->map_start = k->vmlinux_text;
		k->map_end = k->vmlinux.etext ? k->vmlinux.etext : UINT64_MAX;
	} else {
		k->map_start = 0;
		k->map_end = UINT64_MAX;
	}
}

/*
 * The kernel's symbols for a recording with a kernel build-id, from where perf's
 * dso__load_kernel_sym() finds them with that build-id: a vmlinux in the build-id cache or where
 * perf looks (checked, loaded into k); /proc/kallsyms when this machine runs that kernel, else
 * the kallsyms perf record saved in the build-id cache. Returns the kallsyms text to read
 * (static or in @buf), or NULL; nothing at all sets k->stale_build_id.
 */
static const char *find_kernel(struct kernel_syms *k, const struct sym_opts *o, char *buf,
			       size_t size)
{
	const uint8_t *id = o->kernel_build_id;
	size_t len = o->kernel_build_id_len;
	uint8_t running[20];
	size_t running_len = notes_build_id("/sys/kernel/notes", running);
	char elf[4096];

	if (build_id_cache_file(id, len, "%s/.build-id/%.2s/%s/elf", elf, sizeof(elf)) &&
	    !access(elf, R_OK) && !load_vmlinux(k, elf, o) && k->vmlinux.tab.nr)
		;
	else if (k->have_vmlinux || k->source)
		drop_vmlinux(k);
	if (!k->have_vmlinux && !o->no_vmlinux_search)
		search_vmlinux(k, o);
	if (running_len && build_id_equal(running, running_len, id, len))
		return "/proc/kallsyms";
	if (build_id_cache_file(id, len, "%s/[kernel.kallsyms]/%4$s/kallsyms", buf, size) &&
	    !access(buf, R_OK))
		return buf;
	k->stale_build_id = !k->have_vmlinux;
	return NULL;
}

int kernel_syms_init(struct kernel_syms *k, const struct sym_opts *o, struct sym_strpool *pool)
{
	const char *kallsyms = o && o->kallsyms ? o->kallsyms : "/proc/kallsyms";
	bool check = o && !o->kallsyms && !o->vmlinux && o->kernel_build_id_len;
	char cached[4096];
	int err;

	memset(k, 0, sizeof(*k));
	k->sysfs = o && o->sysfs ? o->sysfs : "/sys";
	if (check) {
		/* the recording's kernel, wherever perf would find it */
		kallsyms = find_kernel(k, o, cached, sizeof(cached));
		if (!kallsyms && !k->have_vmlinux)
			return asprintf(&k->source, "none") < 0 ? -ENOMEM : (place_default_map(k), 0);
	}
	err = kallsyms ? kallsyms_load(&k->ksyms, kallsyms, pool) : -ENODATA;
	if (err == -ENOMEM || (err && err != -ENODATA && o && o->kallsyms) ||
	    (err == -ENODATA && kallsyms && o && o->kallsyms_required))
		return err;
	k->have_kallsyms = !err;
	/* this machine's modules now, not the recording's: their build-ids are checked */
	k->kallsyms_live = k->have_kallsyms && (!strcmp(kallsyms, "/proc/kallsyms") ||
						(o && o->kallsyms_live));

	if (check) {
		/* found above */
	} else if (o && o->vmlinux) {
		err = load_vmlinux(k, o->vmlinux, o);
		if (err)
			return err;
	} else if (!o || !o->no_vmlinux_search) {
		search_vmlinux(k, o);
	}
	if (!k->source) {
		if (k->have_kallsyms)
			err = asprintf(&k->source, "kallsyms %s", kallsyms);
		else
			err = asprintf(&k->source, "none");
		if (err < 0) {
			k->source = NULL;
			return -ENOMEM;
		}
	}
	place_default_map(k);
	return 0;
}

int kernel_add_map(struct kernel_syms *k, uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *filename, struct sym_strpool *pool)
{
	const char *suffix, *name;
	struct sym_map m;

	if (!strncmp(filename, KERNEL_DSO, strlen(KERNEL_DSO))) {
		suffix = filename + strlen(KERNEL_DSO);
		/* other "[kernel.kallsyms]…" maps (PTI entry trampolines) are not placed */
		if (*suffix && strcmp(suffix, "_text") && strcmp(suffix, "_stext"))
			return 0;
		k->map_start = start;
		k->map_end = len && start + len > start ? start + len : UINT64_MAX;
		k->map_from_record = true;
		/* pgoff is where _text was at record time: the KASLR offset for the vmlinux */
		if (pgoff && k->have_vmlinux && k->vmlinux_text)
			k->vmlinux_delta = pgoff - k->vmlinux_text;
		return 0;
	}
	m = (struct sym_map){ .start = start, .end = start + len, .pgoff = pgoff };
	name = kmod_dso_name(filename, pool);
	m.kmod = name ? kmod_get(k, name) : NULL;
	if (!m.kmod)
		return -ENOMEM;
	/* the .ko perf would read: its BUILD_ID entry's, else the first MMAP's */
	if (m.kmod->file == name && filename[0] == '/' &&
	    !(m.kmod->file = sym_strpool_intern(pool, filename)))
		return -ENOMEM;
	m.dso = m.kmod->shown;
	return proc_map_insert(&k->modules, &m);
}

int kernel_set_module_build_id(struct kernel_syms *k, const char *filename, const uint8_t *id,
			       size_t len, struct sym_strpool *pool)
{
	const char *name = kmod_dso_name(filename, pool);
	struct kmod *km = name ? kmod_get(k, name) : NULL;

	if (!km)
		return -ENOMEM;
	if (len > sizeof(km->build_id))
		return -EINVAL;
	/* a BUILD_ID entry names the module's dso (perf creates it under that name) */
	if (filename[0] == '/' && km->file == km->name &&
	    !(km->file = km->shown = sym_strpool_intern(pool, filename)))
		return -ENOMEM;
	memcpy(km->build_id, id, len);
	km->build_id_len = (uint8_t)len;
	return 0;
}

static void set_entry(struct cache_entry *e, const struct symtab *t, struct sym_entry *sym,
		      uint64_t addr, const char *dso, struct sym_strpool *pool)
{
	e->rc = 0;
	e->dso = dso;
	e->sym = sym ? sym_entry_name(t, sym, pool) : NULL;
	e->sym_off = sym && e->sym ? addr - sym->start : 0;
}

static void resolve_in_kernel_map(struct kernel_syms *k, uint64_t addr, struct cache_entry *e,
				  struct sym_strpool *pool)
{
	const char *dso = sym_strpool_intern(pool, KERNEL_DSO);
	uint64_t link = addr - k->vmlinux_delta, start;
	struct sym_entry *sym;
	const char *name;

	if (!k->have_vmlinux) {
		sym = k->have_kallsyms ? symtab_find(&k->ksyms.tab, addr) : NULL;
		set_entry(e, &k->ksyms.tab, sym && !sym->dso ? sym : NULL, addr, dso, pool);
		return;
	}
	if (k->vmlinux.tab.nr) {
		set_entry(e, &k->vmlinux.tab, symtab_find(&k->vmlinux.tab, link), link, dso, pool);
		return;
	}
	/* a vmlinux without symbols: DWARF subprogram names */
	set_entry(e, NULL, NULL, addr, dso, pool);
	name = elf_syms_dwarf_name(&k->vmlinux, link, &start);
	if (name && !sym_is_padding(name)) {
		e->sym = sym_strpool_intern(pool, name);
		e->sym_off = e->sym ? link - start : 0;
	}
}

/* The first and last kernel (not module) symbols of @t, shifted by @delta. */
static void kernel_symbol_range(const struct symtab *t, uint64_t delta, uint64_t *lo,
				uint64_t *hi)
{
	size_t i;

	for (i = 0; i < t->nr && t->v[i].dso; i++)
		;
	if (i < t->nr && t->v[i].start + delta < *lo)
		*lo = t->v[i].start + delta;
	for (i = t->nr; i > 0 && t->v[i - 1].dso; i--)
		;
	if (i > 0 && t->v[i - 1].end + delta > *hi)
		*hi = t->v[i - 1].end + delta;
}

void kernel_resolve(struct kernel_syms *k, uint64_t addr, struct cache_entry *e,
		    struct sym_strpool *pool)
{
	uint64_t lo = k->map_start, hi = k->map_end;
	const struct sym_map *mod;
	struct sym_entry *sym;

	if (k->have_vmlinux)
		kernel_symbol_range(&k->vmlinux.tab, k->vmlinux_delta, &lo, &hi);
	else if (k->have_kallsyms)
		kernel_symbol_range(&k->ksyms.tab, 0, &lo, &hi);
	if (addr >= lo && addr < hi) {
		k->kernel_met = true;
		resolve_in_kernel_map(k, addr, e, pool);
		return;
	}
	mod = proc_map_find(&k->modules, addr);
	if (mod) {
		kmod_resolve(k, mod, addr, e, pool);
		return;
	}
	sym = k->have_kallsyms ? symtab_find(&k->ksyms.tab, addr) : NULL;
	/* no module maps recorded: kallsyms says which module an address is in */
	if (!k->modules.nr && sym && sym->dso) {
		set_entry(e, &k->ksyms.tab, sym, addr, sym_entry_dso(&k->ksyms.tab, sym), pool);
		return;
	}
	e->rc = -ENOENT;
	e->sym = NULL;
	e->sym_off = 0;
	e->dso = sym_strpool_intern(pool, UNKNOWN_DSO);
}

void kernel_syms_release(struct kernel_syms *k)
{
	kmods_release(k);
	kallsyms_release(&k->ksyms);
	elf_syms_release(&k->vmlinux);
	free(k->modules.maps);
	free(k->source);
	memset(k, 0, sizeof(*k));
}
