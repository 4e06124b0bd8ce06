// SPDX-License-Identifier: GPL-2.0
/*
 * elf-file.c - the symbols of one ELF file through libdwfl: its .symtab, a separate debug file
 * found by build-id or debuglink (dwfl_standard_find_debuginfo), .gnu_debugdata, else .dynsym;
 * whatever libdwfl picks as the module's symbol table. The symbols are filtered like perf 6.1's
 * dso__load_sym (functions, objects and visible text/data labels in allocated sections) and
 * finished like perf's dso (symtab.c), in the file's own address space.
 *
 * A file is reported at address 0 in a Dwfl of its own, so every process mapping it shares it:
 * a runtime address becomes a file offset through the mapping, then an address in the file
 * through its PT_LOAD headers.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbolize/symbolize-local.h"

struct load_seg {
	uint64_t	offset, filesz, memsz, vaddr;
};

struct sym_load {
	Dwfl		*dwfl;
	Dwfl_Module	*mod;
	struct load_seg	*segs;
	size_t		nr_segs;
	int		memfd;		/* backing an in-memory image, else -1 */
};

static char *debuginfo_path;	/* NULL: libdwfl's default (.debug, /usr/lib/debug) */

static const Dwfl_Callbacks callbacks = {
	.find_elf	= dwfl_build_id_find_elf,
	.find_debuginfo	= dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path	= &debuginfo_path,
};

/* elf_sym__is_function/is_object/is_label and the section checks of perf's dso__load_sym. */
static bool perf_keeps(const GElf_Sym *sym, const char *name, GElf_Word shndx, Elf *elf)
{
	int type = GELF_ST_TYPE(sym->st_info), vis = GELF_ST_VISIBILITY(sym->st_other);
	bool label = type == STT_NOTYPE && vis != STV_HIDDEN && vis != STV_INTERNAL;
	size_t shstrndx;
	GElf_Shdr shdr;
	Elf_Scn *scn;
	const char *secname;

	if (!name || !*name || shndx == SHN_UNDEF || shndx == SHN_ABS)
		return false;
	if (!label && type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT)
		return false;
	scn = elf ? elf_getscn(elf, shndx) : NULL;
	if (!scn || !gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
		return false;
	if (!label)
		return true;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	secname = elf_strptr(elf, shstrndx, shdr.sh_name);
	return secname && (strstr(secname, "text") || strstr(secname, "data"));
}

static int read_symbols(struct elf_syms *e)
{
	Dwfl_Module *mod = e->priv->mod;
	int n = dwfl_module_getsymtab(mod);

	for (int i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf = NULL;
		Dwarf_Addr bias;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx, &elf, &bias);

		if (!perf_keeps(&sym, name, shndx, elf))
			continue;
		if (symtab_add(&e->tab, addr, sym.st_size, GELF_ST_BIND(sym.st_info), name, NULL))
			return -ENOMEM;
	}
	symtab_finish(&e->tab, false);
	return 0;
}

static int read_segments(struct sym_load *l)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(l->mod, &bias);
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	l->segs = calloc(n ? n : 1, sizeof(*l->segs));
	if (!l->segs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		l->segs[l->nr_segs++] = (struct load_seg){
			.offset = ph.p_offset, .filesz = ph.p_filesz, .memsz = ph.p_memsz,
			.vaddr = ph.p_vaddr + bias,
		};
	}
	return 0;
}

int elf_syms_load(struct elf_syms *e, const char *path, const void *image, size_t image_len)
{
	struct sym_load *l = calloc(1, sizeof(*l));
	char fdpath[64];
	int err;

	memset(e, 0, sizeof(*e));
	if (!l)
		return -ENOMEM;
	l->memfd = -1;
	if (image) {
		/* libdwfl reads files: give the image a name in /proc/self/fd */
		l->memfd = memfd_create("kprof-elf-image", MFD_CLOEXEC);
		if (l->memfd < 0 || write(l->memfd, image, image_len) != (ssize_t)image_len) {
			err = l->memfd < 0 ? -errno : -EIO;
			goto fail;
		}
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", l->memfd);
		path = fdpath;
	}
	l->dwfl = dwfl_begin(&callbacks);
	if (!l->dwfl) {
		err = -ENOMEM;
		goto fail;
	}
	dwfl_report_begin(l->dwfl);
	l->mod = dwfl_report_elf(l->dwfl, path, path, -1, 0, false);
	dwfl_report_end(l->dwfl, NULL, NULL);
	if (!l->mod) {
		err = access(path, R_OK) ? -errno : -ENOEXEC;
		goto fail;
	}
	e->priv = l;
	err = read_segments(l);
	if (!err)
		err = read_symbols(e);
	if (err)
		goto fail_loaded;
	return 0;
fail:
	e->priv = l;
fail_loaded:
	elf_syms_release(e);
	return err;
}

bool elf_syms_offset_to_vaddr(const struct elf_syms *e, uint64_t off, uint64_t *vaddr)
{
	const struct sym_load *l = e->priv;

	if (!l)
		return false;
	for (size_t i = 0; i < l->nr_segs; i++) {
		const struct load_seg *s = &l->segs[i];

		if (off >= s->offset && off < s->offset + s->filesz) {
			*vaddr = off - s->offset + s->vaddr;
			return true;
		}
	}
	/* mappings are page granular: the page holding a segment's start belongs to it */
	for (size_t i = 0; i < l->nr_segs; i++) {
		const struct load_seg *s = &l->segs[i];

		if (off >= (s->offset & ~4095ULL) && off < s->offset + s->memsz) {
			*vaddr = off - s->offset + s->vaddr;
			return true;
		}
	}
	return false;
}

const char *elf_syms_dwarf_name(const struct elf_syms *e, uint64_t vaddr, uint64_t *start)
{
	const char *name = NULL;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Addr bias, lowpc;
	int n;

	if (!e->priv)
		return NULL;
	cu = dwfl_module_addrdie(e->priv->mod, vaddr, &bias);
	if (!cu)
		return NULL;
	n = dwarf_getscopes(cu, vaddr - bias, &scopes);
	for (int i = 0; i < n && !name; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
			continue;
		name = dwarf_diename(&scopes[i]);
		*start = dwarf_lowpc(&scopes[i], &lowpc) ? vaddr : lowpc + bias;
	}
	free(scopes);
	return name;
}

bool elf_syms_value(const struct elf_syms *e, const char *name, uint64_t *value)
{
	int n;

	if (!e->priv)
		return false;
	n = dwfl_module_getsymtab(e->priv->mod);
	for (int i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *s = dwfl_module_getsym_info(e->priv->mod, i, &sym, &addr, NULL, NULL,
							NULL);

		if (s && !strcmp(s, name)) {
			*value = addr;
			return true;
		}
	}
	return false;
}

void elf_syms_release(struct elf_syms *e)
{
	struct sym_load *l = e->priv;

	symtab_release(&e->tab);
	if (l) {
		if (l->dwfl)
			dwfl_end(l->dwfl);
		if (l->memfd >= 0)
			close(l->memfd);
		free(l->segs);
		free(l);
	}
	e->priv = NULL;
}

void *elf_live_vdso(size_t *len)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	uint64_t start, end;
	char line[256];
	void *copy = NULL;
	FILE *fp;

	if (!base)
		return NULL;
	fp = fopen("/proc/self/maps", "re");
	if (!fp)
		return NULL;
	while (fgets(line, sizeof(line), fp)) {
		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%" SCNx64 "-%" SCNx64, &start, &end) != 2 || start != base)
			continue;
		copy = malloc(end - start);
		if (copy) {
			memcpy(copy, (const void *)base, end - start);
			*len = end - start;
		}
		break;
	}
	fclose(fp);
	return copy;
}
