// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - the public API of symbolize.h: processes, their mappings, the files behind them,
 * and the cache in front of every lookup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

enum file_state { FILE_UNLOADED, FILE_LOADED, FILE_NO_SYMBOLS };

static bool is_special_mapping(const char *path);

/*
 * A mapped file (or special mapping), shared by every process that maps it. Loaded by the
 * prefetch thread or the session's (prefetch.c: @pf says which, under its lock); the outcome is
 * counted in the session's stats when the file is first used, so stats and the stale-file
 * warning do not depend on which files the loader got to.
 */
struct sym_file {
	const char	*path;		/* interned; also the dso name handed out */
	enum file_state	state;
	uint8_t		pf;		/* PF_NONE, PF_QUEUED, PF_LOADING, PF_DONE */
	bool		counted;	/* in the stats */
	bool		from_cache;	/* read from perf's build-id cache */
	int		load_err;	/* why it has no symbols (FILE_NO_SYMBOLS) */
	bool		perf_map;	/* a JIT map: addresses are looked up as they are */
	struct elf_syms	elf;		/* ELF files and the vdso */
	char		*perf_map_text;	/* perf_map: the file's text, names point into it */
	uint8_t		build_id[20];	/* as recorded; build_id_len 0: not known */
	uint8_t		build_id_len;
	/*
	 * An announced file (sym_session_announce): loaded ahead under its own path (owned), then
	 * taken over by the session's file of that path when it is first loaded.
	 */
	bool		shadow, taken;
	/* its key in the session's cache: 2 * (its number among the files), never 0 */
	uint32_t	cache_id;
};

struct sym_session {
	struct sym_strpool		pool;
	struct kernel_syms	kernel;
	struct proc_table	procs;
	struct ptr_table	files;		/* of struct sym_file, by path pointer */
	struct sym_cache	cache;
	struct sym_stats	stats;
	struct sym_unwind	*unwind;	/* unwind.c's per-process Dwfl, on first use */
	struct sym_inlines	*inlines;	/* unwind-inline.c's files and answers */
	const char		*vdso_path;	/* the vdso image as a file, for unwinding */
	int			vdso_fd;	/* its memfd (when vdso_path is set) */
	const char		*unknown;
	/*
	 * Kernel results depend on the kernel and module maps: a map change starts a new
	 * generation, and the cache key of kernel addresses is odd (never a file pointer).
	 */
	uintptr_t		kernel_gen;
	struct sym_prefetch	prefetch;	/* files loaded ahead (sym_session_prefetch) */
	/*
	 * Announced files (shadows, by path text): the only part of a session another thread
	 * touches, under early_lock, before the session's own thread maps them.
	 */
	pthread_mutex_t		early_lock;
	struct ptr_table	early;
	bool			early_inited;
};

const char *sym_entry_name(const struct symtab *t, struct sym_entry *e, struct sym_strpool *pool)
{
	const char *name, *interned;
	char *owned;

	if (e->named)
		return e->name;
	name = sym_entry_demangled(t, e, &owned);
	interned = name ? sym_strpool_intern(pool, name) : NULL;
	free(owned);
	if (!interned)
		return NULL;
	/* the entry keeps the name it hands out: a table has no room for a second pointer */
	e->name = interned;
	e->lazy = false;
	e->named = true;
	return interned;
}

struct sym_session *sym_session_new(const struct sym_opts *opts)
{
	struct sym_session *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return NULL;
	if (opts && opts->no_kernel) {
		s->kernel.source = strdup("none");
		err = s->kernel.source ? 0 : -ENOMEM;
	} else {
		err = kernel_syms_init(&s->kernel, opts, &s->pool);
	}
	s->unknown = sym_strpool_intern(&s->pool, UNKNOWN_DSO);
	if (!err && !s->unknown)
		err = -ENOMEM;
	if (!err && pthread_mutex_init(&s->early_lock, NULL))
		err = -ENOMEM;
	s->early_inited = !err;
	if (err) {
		sym_session_free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

void sym_session_free(struct sym_session *s)
{
	if (!s)
		return;
	prefetch_stop(&s->prefetch);
	for (size_t i = 0; s->early.slots && i <= s->early.mask; i++) {
		struct sym_file *f = s->early.slots[i];

		if (f) {
			elf_syms_release(&f->elf);
			free((char *)f->path);
			free(f);
		}
	}
	ptr_table_release(&s->early);
	if (s->early_inited)
		pthread_mutex_destroy(&s->early_lock);
	for (size_t i = 0; s->files.slots && i <= s->files.mask; i++) {
		struct sym_file *f = s->files.slots[i];

		if (f) {
			elf_syms_release(&f->elf);
			free(f->perf_map_text);
			free(f);
		}
	}
	unwind_release(s->unwind);
	inlines_release(s->inlines);
	if (s->vdso_path && s->vdso_fd >= 0)
		close(s->vdso_fd);
	ptr_table_release(&s->files);
	cache_release(&s->cache);
	procs_release(&s->procs);
	kernel_syms_release(&s->kernel);
	sym_strpool_release(&s->pool);
	free(s);
}

static size_t hash_ptr(const void *p)
{
	return (size_t)(((uintptr_t)p >> 3) * 0x9e3779b97f4a7c15ULL);
}

static size_t hash_file(const void *elem)
{
	return hash_ptr(((const struct sym_file *)elem)->path);
}

static bool same_path(const void *elem, const void *key)
{
	return ((const struct sym_file *)elem)->path == key;
}

/* The file for an interned path, created unloaded on first sight. */
static struct sym_file *file_get(struct ptr_table *t, const char *path)
{
	struct sym_file *f;
	size_t i;

	if (ptr_table_reserve(t, hash_file))
		return NULL;
	i = ptr_table_slot(t, hash_ptr(path), same_path, path);
	if (t->slots[i])
		return t->slots[i];
	/* its cache id must fit (see cache_id) */
	if (t->nr >= INT32_MAX)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = path;
	t->slots[i] = f;
	t->nr++;
	f->cache_id = (uint32_t)t->nr * 2;
	return f;
}

/*
 * perf's is_anon_memory() and is_no_dso_memory(): executable mappings of these are JIT code,
 * named after and looked up in /tmp/perf-PID.map.
 */
static bool is_jit_mapping(const char *name)
{
	return !strcmp(name, "//anon") || !strncmp(name, "/dev/zero", 9) ||
	       !strncmp(name, "/anon_hugepage", 14) || !strncmp(name, "[stack", 6) ||
	       !strncmp(name, "/SYSV", 5) || !strcmp(name, "[heap]");
}

int sym_session_add_map(struct sym_session *s, pid_t pid, uint64_t start, uint64_t len,
			uint64_t pgoff, const char *filename)
{
	struct sym_proc *p;
	struct sym_map m = { .start = start, .end = start + len, .pgoff = pgoff };
	char jit_map[64];
	const char *path;

	if (!filename)
		return -EINVAL;
	if (pid == -1) {
		s->kernel_gen++;
		return kernel_add_map(&s->kernel, start, len, pgoff, filename, &s->pool);
	}
	if (!len || start + len < start)
		return -EINVAL;
	if (is_jit_mapping(filename)) {
		snprintf(jit_map, sizeof(jit_map), "/tmp/perf-%d.map", (int)pid);
		filename = jit_map;
		m.pgoff = 0;
	}
	path = sym_strpool_intern(&s->pool, filename);
	m.file = path ? file_get(&s->files, path) : NULL;
	p = procs_get(&s->procs, pid);
	if (!m.file || !p)
		return -ENOMEM;
	if (filename == jit_map)
		m.file->perf_map = true;
	m.dso = path;
	prefetch_queue(&s->prefetch, m.file);
	return proc_map_insert(p, &m);
}

int sym_session_fork(struct sym_session *s, pid_t parent, pid_t child)
{
	struct sym_proc *pp = procs_find(&s->procs, parent), *cp;

	if (parent == child)
		return 0;
	cp = procs_get(&s->procs, child);
	if (!cp)
		return -ENOMEM;
	/* procs_get may have moved slots, never the procs themselves */
	if (!pp) {
		cp->nr = 0;
		cp->gen++;
		if (cp->perf)
			cp->perf->nr = 0;
		return 0;
	}
	return proc_copy_maps(cp, pp);
}

static size_t hash_text(const char *p)
{
	size_t h = 0xcbf29ce484222325ULL;

	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	return h;
}

static size_t hash_shadow(const void *elem)
{
	return hash_text(((const struct sym_file *)elem)->path);
}

static bool same_text(const void *elem, const void *key)
{
	return !strcmp(((const struct sym_file *)elem)->path, key);
}

/* The shadow of @path, made when missing (with @make); NULL when missing, or on ENOMEM. */
static struct sym_file *early_lookup(struct sym_session *s, const char *path, bool make)
{
	struct sym_file *f = NULL;
	size_t i;

	pthread_mutex_lock(&s->early_lock);
	if (make && ptr_table_reserve(&s->early, hash_shadow))
		goto out;
	if (!s->early.slots)
		goto out;
	i = ptr_table_slot(&s->early, hash_text(path), same_text, path);
	f = s->early.slots[i];
	if (f || !make)
		goto out;
	f = calloc(1, sizeof(*f));
	if (f && !(f->path = strdup(path))) {
		free(f);
		f = NULL;
	}
	if (f) {
		f->shadow = true;
		s->early.slots[i] = f;
		s->early.nr++;
	}
out:
	pthread_mutex_unlock(&s->early_lock);
	return f;
}

static struct sym_file *early_get(struct sym_session *s, const char *path)
{
	return early_lookup(s, path, true);
}

int sym_session_set_build_id(struct sym_session *s, const char *filename, const uint8_t *id,
			     size_t len)
{
	const char *path;
	struct sym_file *f;

	if (!filename || !id || !len || len > sizeof(f->build_id))
		return -EINVAL;
	path = sym_strpool_intern(&s->pool, filename);
	f = path ? file_get(&s->files, path) : NULL;
	if (!f)
		return -ENOMEM;
	/* a file loaded already (an MMAP2's build-id, given late) keeps what it was loaded as */
	if (f->counted || !prefetch_untouched(&s->prefetch, f))
		return 0;
	memcpy(f->build_id, id, len);
	f->build_id_len = (uint8_t)len;
	/* once files are announced, their announcer gives the build-ids */
	if (s->prefetch.started)
		return 0;
	f = early_get(s, filename);
	if (!f)
		return -ENOMEM;
	memcpy(f->build_id, id, len);
	f->build_id_len = (uint8_t)len;
	return 0;
}

int sym_session_set_module_build_id(struct sym_session *s, const char *filename,
				    const uint8_t *id, size_t len)
{
	if (!filename || !id || !len)
		return -EINVAL;
	return kernel_set_module_build_id(&s->kernel, filename, id, len, &s->pool);
}

int sym_session_announce(struct sym_session *s, const char *filename)
{
	return sym_session_announce_build_id(s, filename, NULL, 0);
}

int sym_session_announce_build_id(struct sym_session *s, const char *filename,
				  const uint8_t *id, size_t len)
{
	struct sym_file *f;

	if (!s->prefetch.started || !filename || is_jit_mapping(filename) ||
	    is_special_mapping(filename))
		return 0;
	if (len > sizeof(f->build_id))
		return -EINVAL;
	f = early_get(s, filename);
	if (!f)
		return -ENOMEM;
	/* the recording's build-id (a BUILD_ID entry's, given before) is not replaced */
	if (id && len && !f->build_id_len && prefetch_untouched(&s->prefetch, f)) {
		memcpy(f->build_id, id, len);
		f->build_id_len = (uint8_t)len;
	}
	prefetch_queue(&s->prefetch, f);	/* once: it stays queued, loading or done */
	return 0;
}

/* perf's build-id cache entry for @f: $PERF_BUILDID_DIR (else ~/.debug)/.build-id/NN/REST/elf */
static bool build_id_cache_path(const struct sym_file *f, char *path, size_t size)
{
	return build_id_cache_file(f->build_id, f->build_id_len, "%s/.build-id/%.2s/%s/elf", path,
				   size);
}

/*
 * A file with a recorded build-id: itself if it still has it, else the build-id cache's copy
 * (perf record leaves one there), else nothing: -ESTALE. perf reads the first of its candidates
 * that has a .symtab, the cache's copy before the file (dso__load's binary types): a copy cached
 * before the file was stripped names what the file's .dynsym cannot (static functions, the
 * ".symver" names such as foo@@VER_2 that only .symtab has), so it is read first then.
 */
static int load_checked(struct sym_file *f)
{
	char cached[4096];
	bool have_cached = build_id_cache_path(f, cached, sizeof(cached)) && !access(cached, R_OK);
	int err;

	if (have_cached && elf_file_has_symtab(cached) && !elf_file_has_symtab(f->path) &&
	    !elf_syms_load_checked(&f->elf, cached, f->build_id, f->build_id_len)) {
		f->from_cache = true;
		return 0;
	}
	err = elf_syms_load_checked(&f->elf, f->path, f->build_id, f->build_id_len);
	/* another file, none, or one that is not a regular file (-EINVAL) now */
	if (err != -ESTALE && err != -ENOENT && err != -EINVAL)
		return err;
	if (!have_cached)
		return err;
	if (elf_syms_load_checked(&f->elf, cached, f->build_id, f->build_id_len))
		return err;
	f->from_cache = true;
	return 0;
}

/*
 * Another kernel's vdso (its build-id is not the live one's): the copy perf record put in the
 * build-id cache, .build-id/NN/REST/vdso. 0, or -ESTALE when there is none.
 */
static int load_cached_vdso(struct sym_file *f)
{
	char cached[4096];

	if (!build_id_cache_file(f->build_id, f->build_id_len, "%s/.build-id/%.2s/%s/vdso",
				 cached, sizeof(cached)) || access(cached, R_OK) ||
	    elf_syms_load_checked(&f->elf, cached, f->build_id, f->build_id_len))
		return -ESTALE;
	f->from_cache = true;
	return 0;
}

/*
 * The vdso as a file that libdwfl can open for unwinding: the build-id cache's copy it was
 * loaded from, else the live image written to a memfd (/proc/self/fd/N) once per session.
 * NULL when there is none; -ENOMEM in *err.
 */
static const char *vdso_file(struct sym_session *s, const struct sym_file *f, int *err)
{
	char path[4096];
	void *image;
	size_t len;
	int fd;

	if (s->vdso_path) {
		return s->vdso_path;
	} else if (f->from_cache) {
		if (!build_id_cache_file(f->build_id, f->build_id_len,
					 "%s/.build-id/%.2s/%s/vdso", path, sizeof(path)))
			return NULL;
		s->vdso_fd = -1;
	} else {
		image = elf_live_vdso(&len);
		fd = image ? memfd_create("kprof-vdso", MFD_CLOEXEC) : -1;
		if (fd >= 0 && write(fd, image, len) != (ssize_t)len) {
			close(fd);
			fd = -1;
		}
		free(image);
		if (fd < 0)
			return NULL;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		s->vdso_fd = fd;
	}
	s->vdso_path = sym_strpool_intern(&s->pool, path);
	if (!s->vdso_path) {
		*err = -ENOMEM;
		if (s->vdso_fd >= 0)
			close(s->vdso_fd);
		return NULL;
	}
	return s->vdso_path;
}

/* Mappings that are not ELF files: never opened, their addresses have no symbol. */
static bool is_special_mapping(const char *path)
{
	return path[0] != '/' || !strncmp(path, "/dev/", 5) || !strncmp(path, "/memfd:", 7);
}

/* prefetch.c's load: in either thread, touching nothing but @item. */
static void file_load(void *item, void *arg)
{
	struct sym_file *f = item;
	void *image = NULL;
	size_t image_len = 0;
	int err = -ENOENT;

	(void)arg;	/* a prefetch callback: the item is all it needs */

	if (f->perf_map) {
		err = perfmap_load(&f->elf.tab, &f->perf_map_text, f->path);
	} else if (!strcmp(f->path, "[vdso]")) {
		/* the recording's vdso is this kernel's if we report on the recording machine */
		image = elf_live_vdso(&image_len);
		if (image && f->build_id_len)
			err = elf_syms_load_image_checked(&f->elf, image, image_len, f->build_id,
							  f->build_id_len);
		else if (image)
			err = elf_syms_load(&f->elf, NULL, image, image_len);
		free(image);
		if (err && f->build_id_len && load_cached_vdso(f) == 0)
			err = 0;
	} else if (!is_special_mapping(f->path)) {
		err = f->build_id_len ? load_checked(f) :
		      elf_syms_load(&f->elf, f->path, NULL, 0);
	}
	f->load_err = err;
	f->state = err ? FILE_NO_SYMBOLS : FILE_LOADED;
}

/*
 * prefetch.c's load: a shadow is loaded as it is; a session's file takes over the result of its
 * announced shadow (loading it now if nobody has yet), the same load under the same path and
 * build-id, so what is named does not depend on whether or when the file was announced.
 */
static void file_load_item(void *item, void *arg)
{
	struct sym_session *s = arg;
	struct sym_file *f = item, *sh;

	if (!s->prefetch.started || f->shadow || f->perf_map ||
	    !(sh = early_lookup(s, f->path, false)) || sh->taken ||
	    sh->build_id_len != f->build_id_len ||
	    memcmp(sh->build_id, f->build_id, f->build_id_len)) {
		file_load(f, NULL);
		return;
	}
	prefetch_take(&s->prefetch, sh);
	f->elf = sh->elf;
	memset(&sh->elf, 0, sizeof(sh->elf));
	f->load_err = sh->load_err;
	f->from_cache = sh->from_cache;
	f->state = sh->state;
	sh->taken = true;
}

static uint8_t *file_pf_state(void *item)
{
	return &((struct sym_file *)item)->pf;
}

/* @f loaded, and counted in the stats the first time. */
static void file_use(struct sym_session *s, struct sym_file *f)
{
	if (f->counted)
		return;
	if (s->prefetch.load)
		prefetch_take(&s->prefetch, f);
	else
		file_load_item(f, s);
	f->counted = true;
	if (f->state == FILE_LOADED) {
		s->stats.files_loaded++;
		s->stats.files_from_cache += f->from_cache;
		return;
	}
	s->stats.files_failed++;
	if (f->load_err == -ESTALE && !s->stats.files_stale++)
		s->stats.first_stale = f->path;
}

int sym_session_prefetch(struct sym_session *s)
{
	return prefetch_start(&s->prefetch, file_load_item, file_pf_state, s);
}

/* A stub perf may name otherwise (symtab_plt_shadow): counted, the first one kept. */
static void note_plt_shadow(struct sym_session *s, const struct sym_file *f, const char *stub,
			    uint64_t vaddr)
{
	struct sym_entry *by = symtab_plt_shadow(&f->elf.tab, vaddr);

	if (!by || !stub)
		return;
	if (!s->stats.plt_shadowed) {
		s->stats.first_plt_shadow = sym_entry_name(&f->elf.tab, by, &s->pool);
		if (!s->stats.first_plt_shadow)
			return;	/* out of memory: not counted, rather than said without names */
		s->stats.first_plt_stub = stub;
		s->stats.first_plt_file = f->path;
	}
	s->stats.plt_shadowed++;
}

static void file_resolve(struct sym_session *s, struct sym_file *f, uint64_t off,
			 struct cache_entry *e)
{
	struct sym_entry *sym;
	uint64_t vaddr, start;
	const char *name;

	e->rc = 0;
	e->dso = f->path;
	e->sym = NULL;
	e->sym_off = 0;
	e->sym_id = 0;
	file_use(s, f);
	if (f->state != FILE_LOADED)
		return;
	if (f->perf_map)
		vaddr = off;
	else if (!elf_syms_offset_to_vaddr(&f->elf, off, &vaddr))
		return;
	if (f->elf.tab.nr) {
		sym = symtab_find(&f->elf.tab, vaddr);
		if (sym) {
			e->sym = sym_entry_name(&f->elf.tab, sym, &s->pool);
			/* still lazy: its name could not be read (or, out of memory, interned) */
			if (!e->sym && sym->lazy && !s->stats.names_unread++)
				s->stats.first_names_unread = f->path;
			e->sym_off = vaddr - sym->start;
			e->sym_id = sym->start;
			if (sym->plt)
				note_plt_shadow(s, f, e->sym, vaddr);
		}
		return;
	}
	name = elf_syms_dwarf_name(&f->elf, vaddr, &start);
	if (name) {
		e->sym = sym_strpool_intern(&s->pool, name);
		e->sym_off = vaddr - start;
		e->sym_id = start;
	}
}

int sym_session_resolve(struct sym_session *s, pid_t pid, uint64_t addr, bool kernel,
			struct sym_result *out)
{
	const struct sym_map *m = NULL;
	struct cache_res *e;
	struct cache_entry fill;
	struct sym_proc *p;
	uint64_t off, sym_off;
	uint32_t obj;

	s->stats.resolves++;
	out->sym = NULL;
	out->dso = s->unknown;
	out->sym_start = 0;
	out->sym_id = 0;
	out->dso_addr = addr;
	out->owner = NULL;
	if (kernel) {
		/*
		 * The kernel's answers are good for its map generation: odd ids (files have
		 * even ones); after 2^31 kernel map changes an id is that of an old one.
		 */
		obj = (uint32_t)(s->kernel_gen * 2 + 1);
		off = addr;
	} else {
		p = procs_find(&s->procs, pid);
		m = p ? proc_map_find(p, addr) : NULL;
		if (!m)
			return perf_view_name(p, addr, out);
		/* JIT maps hold addresses, files are keyed by offset (perf's map_ip) */
		off = m->file->perf_map ? addr : addr - m->start + m->pgoff;
		out->dso_addr = off;
		obj = m->file->cache_id;
	}
	e = cache_find(&s->cache, obj, off, &sym_off);
	if (e) {
		s->stats.cache_hits++;
	} else {
		memset(&fill, 0, sizeof(fill));
		if (kernel)
			kernel_resolve(&s->kernel, addr, &fill, &s->pool);
		else
			file_resolve(s, m->file, off, &fill);
		e = cache_add(&s->cache, obj, off, &fill, &sym_off);
		if (!e)
			return -ENOMEM;
		s->stats.lookups++;
	}
	/* a failed intern leaves the name out rather than handing out NULL as a dso */
	out->dso = e->dso ? e->dso : s->unknown;
	out->sym = e->sym;
	out->sym_start = e->sym ? addr - sym_off : 0;
	/* a file's symbols are identified in the file; the kernel has one address space */
	out->sym_id = !e->sym ? 0 : kernel ? out->sym_start : e->sym_id;
	/* a kernel symbol's identity is its address (above), not the interned answer's */
	if (!kernel)
		out->owner = &e->owner;
	return e->rc;
}

int session_map_file(struct sym_session *s, pid_t pid, uint64_t addr, struct map_file *out)
{
	struct sym_proc *p = procs_find(&s->procs, pid);
	const struct sym_map *m = p ? proc_map_find(p, addr) : NULL;
	struct sym_file *f = m ? m->file : NULL;
	char cached[4096];

	memset(out, 0, sizeof(*out));
	if (!m)
		return -ENOENT;
	out->start = m->start;
	out->pgoff = m->pgoff;
	out->dso = f->path;
	out->gen = p->gen;
	if (f->perf_map || (is_special_mapping(f->path) && strcmp(f->path, "[vdso]")))
		return 0;
	file_use(s, f);
	if (f->state != FILE_LOADED)
		return 0;
	out->tab = &f->elf.tab;
	if (!strcmp(f->path, "[vdso]")) {
		int err = 0;

		out->elf_path = vdso_file(s, f, &err);
		return err;
	}
	if (!f->from_cache) {
		out->elf_path = f->path;
	} else if (build_id_cache_path(f, cached, sizeof(cached))) {
		out->elf_path = sym_strpool_intern(&s->pool, cached);
		if (!out->elf_path)
			return -ENOMEM;
	}
	return 0;
}

struct sym_unwind **session_unwind(struct sym_session *s)
{
	return &s->unwind;
}

struct proc_table *session_procs(struct sym_session *s)
{
	return &s->procs;
}

struct sym_inlines **session_inlines(struct sym_session *s)
{
	return &s->inlines;
}

struct sym_strpool *session_pool(struct sym_session *s)
{
	return &s->pool;
}

const char *sym_session_kernel_source(const struct sym_session *s)
{
	return s->kernel.source;
}

void sym_session_stats(const struct sym_session *s, struct sym_stats *out)
{
	*out = s->stats;
	out->kernel_build_id_missing = s->kernel.stale_build_id;
	out->modules_stale = s->kernel.kmods_stale;
	out->first_stale_module = s->kernel.first_stale_kmod;
	out->modules_early = s->kernel.kmods_early;
	out->first_early_module = s->kernel.first_early_kmod;
	out->first_early_symbol = s->kernel.kernel_met ? s->kernel.first_early_sym : NULL;
	out->kernel_symbols = s->kernel.have_vmlinux ? s->kernel.vmlinux.tab.nr :
			      s->kernel.ksyms.tab.nr;
}
