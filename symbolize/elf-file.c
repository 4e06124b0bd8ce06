// SPDX-License-Identifier: GPL-2.0
/*
 * elf-file.c - the symbols of one ELF file through libdwfl: its .symtab, a separate debug file
 * found by build-id or debuglink (dwfl_standard_find_debuginfo), .gnu_debugdata, else .dynsym;
 * whatever libdwfl picks as the module's symbol table. The symbols are filtered like perf 6.1's
 * dso__load_sym (functions, objects and visible text/data labels in allocated sections) and
 * finished like perf's dso (symtab.c), in the file's own address space.
 *
 * C++ (and other) names are demangled as perf 6.1 does (demangle.c), when first handed out.
 *
 * A file is reported at address 0 in a Dwfl of its own, read, and closed again, so every process
 * mapping it shares one table and no libdwfl state stays per file. The names of the file's own
 * symbol table are read again from the file when a profile first uses them (names-file.c);
 * others (a separate debug file's, .gnu_debugdata's, an in-memory image's) are copied:
 * a runtime address becomes a file offset through the mapping, then an address in the file
 * through its PT_LOAD headers.
 */
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

struct sym_load {
	Dwfl		*dwfl;
	Dwfl_Module	*mod;
	int		memfd;		/* backing an in-memory image, else -1 */
	struct stat	st;		/* the reported file, when it was opened */
};

/*
 * The string table of the main file's symbol table, as libdwfl loaded it: its bytes while the
 * file is open, and where they are in the file.
 */
struct strtab_bytes {
	const char	*base;		/* NULL: none whose names can be read again */
	size_t		len;
	uint64_t	off;
};

static char *debuginfo_path;	/* NULL: libdwfl's default (.debug, /usr/lib/debug) */

/*
 * libelf and libdwfl keep process-wide state (elf_version's, debuginfod's) that they do not
 * lock: one thread at a time reads ELF files (prefetch.c's loader, the session's own thread,
 * the kernel symbols' loading thread), each in a Dwfl of its own.
 */
static pthread_mutex_t libdw_lock = PTHREAD_MUTEX_INITIALIZER;

static const Dwfl_Callbacks callbacks = {
	.find_elf	= dwfl_build_id_find_elf,
	.find_debuginfo	= dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path	= &debuginfo_path,
};

/*
 * libdw 0.188 dlopens libdebuginfod -- and with it libcurl, gnutls, krb5, ldap, ssh2: some 25
 * libraries, their relocations and constructors, ~30 ms of CPU -- the first time a file's
 * separate debuginfo is not found by build-id or debuglink (dwfl_standard_find_debuginfo's
 * last step), even when no debuginfod server is configured; and libdebuginfod then answers
 * -ENOSYS without looking anywhere ("no DEBUGINFOD_URLS: don't even access the cache"). So this
 * program's dlopen(), which the dynamic linker binds every library's calls to before libc's,
 * refuses that one library while DEBUGINFOD_URLS is unset or empty (as elfutils 0.189 checks
 * before its dlopen): libdw has no client and finds exactly the files it would have found.
 * Everything else, and libdebuginfod with servers configured, goes to the real dlopen.
 */
static bool debuginfod_refused(const char *file)
{
	const char *base = file ? strrchr(file, '/') : NULL;
	const char *urls = getenv("DEBUGINFOD_URLS");

	base = base ? base + 1 : file;
	return base && !strncmp(base, "libdebuginfod", 13) && (!urls || !urls[0]);
}

void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	void *(*fn)(const char *, int) = __atomic_load_n(&real, __ATOMIC_ACQUIRE);

	if (debuginfod_refused(file))
		return NULL;
	if (!fn) {
		fn = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
		if (!fn)
			return NULL;
		__atomic_store_n(&real, fn, __ATOMIC_RELEASE);
	}
	return fn(file, mode);
}

/*
 * While a file's symbols are read (elf_syms_reading_symbols), libdwfl's elf_begin() of that
 * file and of its debug file reads them section by section (ELF_C_READ: the section headers,
 * then each section libdwfl asks for, pread into the heap) instead of mapping the whole file
 * (ELF_C_READ_MMAP_PRIVATE). On a virtual machine a mapped file page costs ~1.5-4 us to fault
 * in and ~0.5-1 us to unmap (munmap's TLB shootdown reaches the other threads' CPU): the
 * symbol and string tables of the ~85 files of a make -B recording cost the loading threads
 * ~35 ms in 135 munmaps and their faults; a pread copies a page in well under 1 us. A file kept
 * for DWARF (no symbols) is opened again mapped: its debug sections are read where needed.
 * The executable's elf_begin() is the one libdw's calls bind to, as with dlopen() above.
 */
static __thread bool reading_symbols;

/*
 * Only an ELF file is read by sections: anything else (a compressed file, locale-archive)
 * libdwfl tries to decompress, and 0.188's decompressors leak their 1 MiB input buffer when
 * they read a file instead of its mapping (LeakSanitizer: 3 MiB per such file).
 */
static bool is_elf(int fd)
{
	unsigned char magic[SELFMAG];

	return pread(fd, magic, SELFMAG, 0) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);
}

void elf_syms_reading_symbols(bool on)
{
	reading_symbols = on;
}

Elf *elf_begin(int fd, Elf_Cmd cmd, Elf *ref)
{
	static Elf *(*real)(int, Elf_Cmd, Elf *);
	Elf *(*fn)(int, Elf_Cmd, Elf *) = __atomic_load_n(&real, __ATOMIC_ACQUIRE);

	if (!fn) {
		fn = (Elf *(*)(int, Elf_Cmd, Elf *))dlsym(RTLD_NEXT, "elf_begin");
		if (!fn)
			return NULL;
		__atomic_store_n(&real, fn, __ATOMIC_RELEASE);
	}
	if (reading_symbols && !ref && (cmd == ELF_C_READ_MMAP || cmd == ELF_C_READ_MMAP_PRIVATE) &&
	    is_elf(fd))
		cmd = ELF_C_READ;
	return fn(fd, cmd, ref);
}

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

/* The kernel's placement markers, whatever their type. */
static void note_marker(struct elf_syms *e, const char *name, uint64_t addr)
{
	if (!strcmp(name, "_text") || (!strcmp(name, "_stext") && !e->text))
		e->text = addr;
	else if (!strcmp(name, "_etext"))
		e->etext = addr;
}

/* One symbol as libdwfl gives it (read_symbols). */
struct raw_sym {
	GElf_Sym	sym;
	GElf_Addr	addr;
	GElf_Word	shndx;
	Elf		*elf;
	const char	*name;
};

/*
 * How many symbols read_symbols() asks libdwfl for ahead of the one it keeps or drops: a
 * .dynsym comes in hash order, so each name is somewhere else in a string table of up to a few
 * MiB (libLLVM's .dynstr: 3.0 MiB for 45K symbols), and its first byte was a cache miss for
 * nearly every symbol (88% of the loop's own time). Fetched this far ahead, the names are in the
 * cache by the time they are read: loading libLLVM three times and cc1 twice, the loop's own
 * samples went from 727 to 177, and libLLVM's warm load from ~6.5 to ~5.7 ms. The order in
 * which symbols are kept is unchanged, and so is the table.
 */
#define NAMES_AHEAD	8

static void fetch_sym(Dwfl_Module *mod, int i, struct raw_sym *r)
{
	Dwarf_Addr bias;

	r->elf = NULL;
	r->name = dwfl_module_getsym_info(mod, i, &r->sym, &r->addr, &r->shndx, &r->elf, &bias);
	if (r->name)
		__builtin_prefetch(r->name);
}

/*
 * The string table of @elf's symbol table as libdwfl's find_symtab picks it (the .symtab, else
 * the .dynsym), when its names can be read again from the file: a section of the file, not
 * compressed, loaded whole. libdwfl has read it already: elf_getdata() returns that copy.
 */
static void main_strtab(Elf *elf, struct strtab_bytes *out)
{
	Elf_Scn *scn = NULL, *sym = NULL, *str;
	GElf_Shdr shdr;
	Elf_Data *d;

	out->base = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr))
			continue;
		if (shdr.sh_type == SHT_SYMTAB) {
			sym = scn;
			break;
		}
		if (shdr.sh_type == SHT_DYNSYM && !sym)
			sym = scn;
	}
	if (!sym || !gelf_getshdr(sym, &shdr) || !(str = elf_getscn(elf, shdr.sh_link)) ||
	    !gelf_getshdr(str, &shdr) || shdr.sh_type != SHT_STRTAB ||
	    (shdr.sh_flags & SHF_COMPRESSED))
		return;
	d = elf_getdata(str, NULL);
	if (!d || !d->d_buf || d->d_size != shdr.sh_size)
		return;
	*out = (struct strtab_bytes){ .base = d->d_buf, .len = d->d_size, .off = shdr.sh_offset };
}

/*
 * The symbols libdwfl gives, filtered and finished. Names in @main's string table (the main
 * file's, when it can be read again: see load_locked) are kept where libdwfl loaded them, to
 * be made lazy once the table is finished; the others are copied now.
 */
static int read_symbols(struct elf_syms *e, Dwfl_Module *mod, Elf *main_elf,
			struct strtab_bytes *main)
{
	struct raw_sym ring[NAMES_AHEAD];
	int n = dwfl_module_getsymtab(mod);
	bool main_seen = false;

	/*
	 * Every symbol of the file at most (perf keeps fewer): pages of the room never used are
	 * never touched, so they cost no memory.
	 */
	if (n > 0 && symtab_reserve(&e->tab, e->tab.nr + (size_t)n))
		return -ENOMEM;
	for (int i = 0; i < n && i < NAMES_AHEAD; i++)
		fetch_sym(mod, i, &ring[i]);
	for (int i = 0; i < n; i++) {
		/* symbol i, in file order as before; its slot then takes symbol i + NAMES_AHEAD */
		struct raw_sym r = ring[i % NAMES_AHEAD];
		const char *name = r.name;

		if (i + NAMES_AHEAD < n)
			fetch_sym(mod, i + NAMES_AHEAD, &ring[i % NAMES_AHEAD]);
		if (name && name[0] == '_')
			note_marker(e, name, r.addr);
		if (!perf_keeps(&r.sym, name, r.shndx, r.elf))
			continue;
		/* the main file's table is only looked up when its symbols are met */
		if (main && !main_seen && r.elf == main_elf) {
			main_strtab(main_elf, main);
			main_seen = true;
		}
		/*
		 * Neither interned nor demangled: that is done for the few symbols a profile hits
		 * (sym_entry_name).
		 */
		if (!main || !ptr_within(name, main->base, main->len)) {
			name = sym_strpool_copy(&e->names, name);
			if (!name)
				return -ENOMEM;
		}
		if (symtab_add(&e->tab, r.addr, r.sym.st_size, GELF_ST_BIND(r.sym.st_info), name,
			       NULL))
			return -ENOMEM;
		e->tab.v[e->tab.nr - 1].mangled = sym_maybe_mangled(name);
	}
	return symtab_finish(&e->tab, false);
}

static Elf_Scn *section_by_name(Elf *elf, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/*
 * perf 6.1's dso__synthesize_plt_symbols: "fn@plt" for each .rela.plt entry, laid out from the
 * .plt section's file offset after a header of one entry (x86_64), sh_entsize apart. Like perf,
 * added after the end fix-ups.
 */
static int synthesize_plt(struct elf_syms *e, Elf *elf, const struct strtab_bytes *main)
{
	GElf_Shdr rel_shdr, plt_shdr, dynsym_shdr;
	Elf_Scn *rel = section_by_name(elf, ".rela.plt", &rel_shdr), *dynsym;
	Elf_Data *rels, *syms;
	uint64_t start;

	if (!rel)
		rel = section_by_name(elf, ".rel.plt", &rel_shdr);
	dynsym = rel ? elf_getscn(elf, rel_shdr.sh_link) : NULL;
	if (!dynsym || !gelf_getshdr(dynsym, &dynsym_shdr) || dynsym_shdr.sh_type != SHT_DYNSYM ||
	    !section_by_name(elf, ".plt", &plt_shdr) || !rel_shdr.sh_entsize ||
	    !elf_syms_offset_to_vaddr(e, plt_shdr.sh_offset, &start))
		return 0;
	rels = elf_getdata(rel, NULL);
	syms = elf_getdata(dynsym, NULL);
	if (!rels || !syms)
		return 0;
	start += plt_shdr.sh_entsize;
	for (size_t i = 0; i < rel_shdr.sh_size / rel_shdr.sh_entsize; i++) {
		GElf_Rela rela;
		GElf_Rel r;
		GElf_Sym sym;
		const char *sname;
		uint64_t info;

		if (rel_shdr.sh_type == SHT_RELA && gelf_getrela(rels, (int)i, &rela))
			info = rela.r_info;
		else if (rel_shdr.sh_type == SHT_REL && gelf_getrel(rels, (int)i, &r))
			info = r.r_info;
		else
			break;
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym))
			break;
		sname = elf_strptr(elf, dynsym_shdr.sh_link, sym.st_name);
		if (!sname)
			break;
		/*
		 * NAME, shown as "NAME@plt" (sym_entry_demangled); lazy when .dynstr is the string
		 * table of the symbols (a stripped file), else copied.
		 */
		if (!main || !ptr_within(sname, main->base, main->len))
			sname = sym_strpool_copy(&e->names, sname);
		if (!sname || symtab_add(&e->tab, start, plt_shdr.sh_entsize, STB_GLOBAL, sname,
					 NULL))
			return -ENOMEM;
		e->tab.v[e->tab.nr - 1].plt = true;
		e->tab.v[e->tab.nr - 1].mangled = sym_maybe_mangled(sname);
		start += plt_shdr.sh_entsize;
	}
	return symtab_sort(&e->tab);
}

static int read_segments(struct elf_syms *e, Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	size_t n;

	if (!elf || elf_getphdrnum(elf, &n))
		return -ENOEXEC;
	e->segs = calloc(n ? n : 1, sizeof(*e->segs));
	if (!e->segs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		e->segs[e->nr_segs++] = (struct load_seg){
			.offset = ph.p_offset, .filesz = ph.p_filesz, .memsz = ph.p_memsz,
			.vaddr = ph.p_vaddr + bias,
		};
	}
	return 0;
}

static void load_close(struct sym_load *l)
{
	if (!l)
		return;
	if (l->dwfl)
		dwfl_end(l->dwfl);
	if (l->memfd >= 0)
		close(l->memfd);
	free(l);
}

static bool build_id_matches(Dwfl_Module *mod, const uint8_t *want, size_t want_len)
{
	const unsigned char *got;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &got, &vaddr);

	return n > 0 && build_id_equal(got, (size_t)n, want, want_len);
}

/*
 * @path reported at address 0 in a Dwfl of its own (l->dwfl, l->mod). Opened here, a regular
 * file only (open_regular: a recording can name a FIFO), and handed to libdwfl, which closes
 * it with the Dwfl -- or not at all when it fails.
 */
static int report_file(struct sym_load *l, const char *path)
{
	int fd;

	l->mod = NULL;
	l->dwfl = dwfl_begin(&callbacks);
	if (!l->dwfl)
		return -ENOMEM;
	fd = open_regular(path);
	if (fd < 0)
		return fd;
	if (fstat(fd, &l->st)) {
		close(fd);
		return -errno;
	}
	dwfl_report_begin(l->dwfl);
	l->mod = dwfl_report_elf(l->dwfl, path, path, fd, 0, false);
	dwfl_report_end(l->dwfl, NULL, NULL);
	if (!l->mod) {
		close(fd);
		return -ENOEXEC;
	}
	return 0;
}

/*
 * The finished table's names in the main file's string table are read from the file when first
 * used (names-file.c); without memory for that, copied. Before the file is closed.
 */
static int names_lazy(struct elf_syms *e, const char *path, const struct stat *st,
		      const struct strtab_bytes *main)
{
	struct sym_names_file *f;

	if (!main->base)
		return 0;
	f = names_file_new(path, st, main->off, main->len);
	return symtab_names_lazy(&e->tab, f, main->base, main->len, &e->names);
}

static int load_locked(struct elf_syms *e, const char *path, const void *image,
		       size_t image_len, const uint8_t *want_id, size_t want_len)
{
	struct sym_load *l = calloc(1, sizeof(*l));
	struct strtab_bytes main = { NULL, 0, 0 };
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
	elf_syms_reading_symbols(true);
	err = report_file(l, path);
	if (err)
		goto fail;
	if (want_id && !build_id_matches(l->mod, want_id, want_len)) {
		err = -ESTALE;
		goto fail;
	}
	err = read_segments(e, l->mod);
	if (!err) {
		Dwarf_Addr bias;
		Elf *elf = dwfl_module_getelf(l->mod, &bias);

		/* an image's memfd is closed with it: its names are copied */
		err = read_symbols(e, l->mod, elf, image ? NULL : &main);
		if (!err && e->tab.nr)
			err = synthesize_plt(e, elf, image ? NULL : &main);
		if (!err && e->tab.nr)
			err = names_lazy(e, path, &l->st, &main);
	}
	elf_syms_reading_symbols(false);
	if (err)
		goto fail;
	if (e->tab.nr) {
		load_close(l);
		return 0;
	}
	/* kept for its DWARF: again, mapped (see elf_begin) */
	dwfl_end(l->dwfl);
	err = report_file(l, path);
	if (err)
		goto fail;
	e->dwarf = l;
	return 0;
fail:
	elf_syms_reading_symbols(false);
	load_close(l);
	elf_syms_release(e);
	return err;
}

static int load(struct elf_syms *e, const char *path, const void *image, size_t image_len,
		const uint8_t *want_id, size_t want_len)
{
	int err;

	pthread_mutex_lock(&libdw_lock);
	err = load_locked(e, path, image, image_len, want_id, want_len);
	pthread_mutex_unlock(&libdw_lock);
	return err;
}

int elf_syms_load(struct elf_syms *e, const char *path, const void *image, size_t image_len)
{
	return load(e, path, image, image_len, NULL, 0);
}

int elf_syms_load_checked(struct elf_syms *e, const char *path, const uint8_t *id, size_t len)
{
	return load(e, path, NULL, 0, id, len);
}

int elf_syms_load_image_checked(struct elf_syms *e, const void *image, size_t image_len,
				const uint8_t *id, size_t len)
{
	return load(e, NULL, image, image_len, id, len);
}

/* The build-id of an ELF opened with libelf (its NT_GNU_BUILD_ID note): its length, or 0. */
static size_t elf_build_id(Elf *elf, uint8_t id[20])
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d = gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_NOTE ?
			      elf_getdata(scn, NULL) : NULL;
		size_t at = 0, name_at, desc_at;
		GElf_Nhdr nh;

		while (d && (at = gelf_getnote(d, at, &nh, &name_at, &desc_at)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name_at, "GNU", 4) && nh.n_descsz &&
			    nh.n_descsz <= 20) {
				memcpy(id, (char *)d->d_buf + desc_at, nh.n_descsz);
				return nh.n_descsz;
			}
		}
	}
	return 0;
}

/* The symbols of @text (section index) in @elf, at their offsets in it. */
static int read_kmod_symbols(struct elf_syms *e, Elf *elf, size_t text, const GElf_Shdr *tsh)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		size_t n;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB || !shdr.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		n = shdr.sh_size / shdr.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			const char *name;
			GElf_Sym sym;

			if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx != text)
				continue;
			name = elf_strptr(elf, shdr.sh_link, sym.st_name);
			if (!perf_keeps(&sym, name, sym.st_shndx, elf))
				continue;
			name = sym_strpool_copy(&e->names, name);
			if (!name || symtab_add(&e->tab, sym.st_value - tsh->sh_addr, sym.st_size,
						GELF_ST_BIND(sym.st_info), name, NULL))
				return -ENOMEM;
			e->tab.v[e->tab.nr - 1].mangled = sym_maybe_mangled(name);
		}
		break;
	}
	return symtab_finish(&e->tab, false);
}

/*
 * A kernel module file (.ko, uncompressed) as perf 6.1 places it (dso__process_kernel_symbol):
 * the module's map starts with its .text, so the symbols of .text are kept at their offsets in
 * that section; symbols of other sections are not placed. With @id, the file must have that
 * build-id (-ESTALE).
 */
static int load_kmod_locked(struct elf_syms *e, const char *path, const uint8_t *id,
			    size_t len)
{
	int fd = open_regular(path), err = -ENOEXEC;
	uint8_t got[20];
	size_t got_len;
	GElf_Shdr tsh;
	Elf_Scn *text;
	Elf *elf;

	memset(e, 0, sizeof(*e));
	if (fd < 0)
		return fd;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto out;
	got_len = elf_build_id(elf, got);
	if (id && !build_id_equal(got, got_len, id, len)) {
		err = -ESTALE;
		goto out;
	}
	text = section_by_name(elf, ".text", &tsh);
	err = text ? read_kmod_symbols(e, elf, elf_ndxscn(text), &tsh) : 0;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	if (err)
		elf_syms_release(e);
	return err;
}

bool elf_file_has_symtab(const char *path)
{
	int fd = open_regular(path);
	Elf_Scn *scn = NULL;
	bool found = false;
	GElf_Shdr shdr;
	Elf *elf;

	if (fd < 0)
		return false;
	pthread_mutex_lock(&libdw_lock);
	elf_version(EV_CURRENT);
	/* the section headers only: read, not the whole file mapped (see elf_begin) */
	elf = elf_begin(fd, ELF_C_READ, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn)))
		found = gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_SYMTAB && shdr.sh_size;
	if (elf)
		elf_end(elf);
	pthread_mutex_unlock(&libdw_lock);
	close(fd);
	return found;
}

int elf_syms_load_kmod(struct elf_syms *e, const char *path, const uint8_t *id, size_t len)
{
	int err;

	pthread_mutex_lock(&libdw_lock);
	err = load_kmod_locked(e, path, id, len);
	pthread_mutex_unlock(&libdw_lock);
	return err;
}

bool elf_syms_offset_to_vaddr(const struct elf_syms *e, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < e->nr_segs; i++) {
		const struct load_seg *s = &e->segs[i];

		if (off >= s->offset && off < s->offset + s->filesz) {
			*vaddr = off - s->offset + s->vaddr;
			return true;
		}
	}
	/* mappings are page granular: the page holding a segment's start belongs to it */
	for (size_t i = 0; i < e->nr_segs; i++) {
		const struct load_seg *s = &e->segs[i];

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

	if (!e->dwarf)
		return NULL;
	pthread_mutex_lock(&libdw_lock);
	cu = dwfl_module_addrdie(e->dwarf->mod, vaddr, &bias);
	n = cu ? dwarf_getscopes(cu, vaddr - bias, &scopes) : 0;
	for (int i = 0; i < n && !name; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
			continue;
		name = dwarf_diename(&scopes[i]);
		*start = dwarf_lowpc(&scopes[i], &lowpc) ? vaddr : lowpc + bias;
	}
	pthread_mutex_unlock(&libdw_lock);
	free(scopes);
	return name;
}

void elf_syms_release(struct elf_syms *e)
{
	load_close(e->dwarf);
	symtab_release(&e->tab);
	sym_strpool_release(&e->names);
	free(e->segs);
	memset(e, 0, sizeof(*e));
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
