/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbolize-int.h - the pieces behind symbolize.h, private to symbolize/.
 *
 *   strpool.c   interned strings: one pointer per distinct name, freed with the session
 *   names-file.c  an ELF file's symbol names, read from the file when first used
 *   demangle.c  C++/Rust/D names demangled like perf 6.1, on first use
 *   symtab.c    a sorted symbol table with perf's end fix-ups, duplicate choice and lookup
 *   kallsyms.c  a kallsyms text into a symtab (read by chunks, kept names in one pool)
 *   elf-file.c  an ELF file (or the live vdso) into a symtab, through libdwfl
 *   perfmap.c   a JIT's /tmp/perf-PID.map into a symtab
 *   kernel.c    which kernel symbol source is used, and naming kernel addresses
 *   kmod.c      naming addresses in kernel modules (the .ko or kallsyms with their build-id)
 *   maps.c      per-process address spaces: sorted mappings, replacement, fork
 *   cache.c     (object, address) -> result hash, so a repeated address is one lookup
 *   unwind.c    DWARF unwinding of sampled user stacks (libdwfl), one Dwfl per process
 *   unwind-inline.c  the inlined-function frames perf shows for an unwound address
 *   prefetch.c  mapped files loaded in a thread of their own, ahead of their first lookup
 *   session.c   the public API
 */
#ifndef KPROF_SYMBOLIZE_INT_H
#define KPROF_SYMBOLIZE_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profiler/lib/lib.h"
#include "symbolize/symbolize.h"

#define KERNEL_DSO	"[kernel.kallsyms]"
#define UNKNOWN_DSO	"[unknown]"

/* ---- util.c ---------------------------------------------------------------------------------- */
/* perf's dso__build_id_equal: equal, or @want is @got padded with zeros (a 20-byte record). */
bool build_id_equal(const uint8_t *got, size_t got_len, const uint8_t *want, size_t want_len);
/*
 * A path in perf's build-id cache ($PERF_BUILDID_DIR, else ~/.debug) for build-id @id: @fmt is
 * printed with the cache directory, the id's first two hex digits, the others, and all of them
 * ("%s/.build-id/%.2s/%s/elf", "%s/[kernel.kallsyms]/%4$s/kallsyms"). False when it cannot be.
 */
bool build_id_cache_file(const uint8_t *id, size_t len, const char *fmt, char *path,
			 size_t size);
/*
 * The GNU build-id in a file of ELF notes (/sys/kernel/notes,
 * /sys/module/NAME/notes/.note.gnu.build-id): its length, 0 when there is none or no file.
 */
size_t notes_build_id(const char *path, uint8_t id[20]);
/* True when @p points into the @len bytes at @base (names still in libelf's copy of a table). */
bool ptr_within(const void *p, const void *base, size_t len);
/* Hex digits at *p (no "0x"), advancing *p; the number of digits (0: none). */
size_t parse_hex(const char **p, uint64_t *v);

/* ---- ptrtable.c ------------------------------------------------------------------------------ */
struct ptr_table {
	void		**slots;	/* power-of-two size, NULL = empty */
	size_t		mask, nr;
};
/* Make room for one more element, rehashing with @hash. 0 or -ENOMEM. */
int ptr_table_reserve(struct ptr_table *t, size_t (*hash)(const void *elem));
/* The slot of the element @match-ing @key, or the empty slot where it belongs. */
size_t ptr_table_slot(const struct ptr_table *t, size_t hash,
		      bool (*match)(const void *elem, const void *key), const void *key);
void ptr_table_release(struct ptr_table *t);	/* the table, not the elements */

/* ---- strpool.c ------------------------------------------------------------------------------- */
struct sym_strpool_chunk;
struct sym_strpool {
	struct ptr_table	index;		/* of the interned strings */
	struct sym_strpool_chunk	*chunks;	/* the bytes, freed together */
};
/* The pool's copy of @s (equal strings give equal pointers), or NULL with errno ENOMEM. */
const char *sym_strpool_intern(struct sym_strpool *p, const char *s);
/* A copy of @s in the pool's memory, not interned (no hashing): for names that only need to
 * outlive their source. NULL with errno ENOMEM. */
const char *sym_strpool_copy(struct sym_strpool *p, const char *s);
void sym_strpool_release(struct sym_strpool *p);

/* ---- names-file.c ---------------------------------------------------------------------------- */
struct stat;
struct sym_names_file;
/* The table is read by blocks of this many bytes, each when a name in it is first used. */
#define NAMES_BLOCK	4096
/*
 * Tables whose file stays open between their block reads, at once over the process (a process
 * may have 1024 descriptors in all); the others open it for each block.
 */
#define NAMES_FDS_KEPT	SYM_NAMES_FDS_MAX
/*
 * The string table at [@off, @off + @len) of the file @path, which is @st now: names are read
 * from it by their offset in the table. NULL with errno (ENOMEM, EINVAL: not inside @st's size).
 */
struct sym_names_file *names_file_new(const char *path, const struct stat *st, uint64_t off,
				      uint64_t len);
/*
 * The name at @at in the table: in the file's blocks (good until names_file_free()), or, when
 * it spans two, malloc'd into *@owned (free it). NULL when it cannot be read: the file changed
 * since (names_file_changed()), a read failed, no NUL before the table's end, ENOMEM. One
 * thread at a time per file.
 */
const char *names_file_read(struct sym_names_file *f, uint64_t at, char **owned);
/* True once the file was found to be another than when the table was loaded. NULL-safe. */
bool names_file_changed(const struct sym_names_file *f);
void names_file_free(struct sym_names_file *f);	/* NULL-safe */

/* ---- demangle.c ------------------------------------------------------------------------------ */
/* False when cplus_demangle() would certainly leave @name as it is (not mangled). */
bool sym_maybe_mangled(const char *name);
/* cplus_demangle(@name, DMGL_NO_OPTS) as perf 6.1 does: malloc'd, NULL when not mangled. */
char *sym_demangle(const char *name);

/* ---- symtab.c -------------------------------------------------------------------------------- */
/*
 * 32 bytes: a make -B profile loads ~140K symbols from ~80 files and kallsyms' ~70K, and every
 * byte of a table is memory a run touches fresh (docs/report.md).
 */
struct sym_entry {
	uint64_t	start, end;	/* [start, end); end == start: exactly start (perf) */
	union {
		/*
		 * Borrowed from the table's owner (buffer, pool, libelf data while loading); once
		 * @named, the name handed out (sym_entry_name: interned, demangled).
		 */
		const char	*name;
		uint64_t	name_at;	/* @lazy: its offset in the table's names file */
	};
	uint16_t	dso;		/* module symbols: 1 + index in the table's dsos, else 0 */
	uint8_t		binding;	/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
	bool		sized : 1;	/* the end was given, not fixed up */
	/*
	 * The name is as the file has it and may be mangled: the name perf shows is
	 * sym_demangle(name) when that is not NULL (see sym_entry_name, sym_entry_demangled).
	 */
	bool		mangled : 1;
	/*
	 * A synthesized PLT stub of NAME: @name is NAME (the stub's target in .dynsym), @mangled
	 * says whether it may be, and the name shown is perf's "%s@plt" of NAME demangled (in 1024
	 * bytes), made on first use.
	 */
	bool		plt : 1;
	/* The name is read from the table's names file when first used (symtab_names_lazy). */
	bool		lazy : 1;
	/* @name is the name shown, interned: sym_entry_name() was here. */
	bool		named : 1;
	/* A __pfx_/__cfi_ padding symbol (sym_is_padding), known without reading a lazy name. */
	bool		padding : 1;
};
/* A start whose symbols binutils names otherwise than perf (symtab.c note_alias). */
struct sym_alias {
	uint64_t	start;
	const char	*name;		/* as the file has it (borrowed, like sym_entry.name) */
	bool		mangled;
};
struct symtab {
	struct sym_entry	*v;
	size_t			nr, alloc;
	struct sym_alias	*aliases;	/* by start */
	size_t			nr_aliases, alloc_aliases;
	struct sym_names_file	*names;		/* where @lazy names are read, or NULL; owned */
	const char		**dsos;		/* the module names of sym_entry.dso (borrowed) */
	size_t			nr_dsos;
	uint16_t		*dso_slots;	/* index of dsos by pointer: 1 + index, 0 empty */
	size_t			dso_mask;
};
/* @e's module name (interned "[mod]", as given to symtab_add), NULL for a kernel symbol. */
static inline const char *sym_entry_dso(const struct symtab *t, const struct sym_entry *e)
{
	return e->dso ? t->dsos[e->dso - 1] : NULL;
}
/*
 * Room for @nr symbols in all, allocated at once: a large table grown by doubling copies every
 * entry again, and faults in its pages twice. 0 or -ENOMEM.
 */
int symtab_reserve(struct symtab *t, size_t nr);
/*
 * Append a symbol (@len 0 = unknown size, fixed up by symtab_finish), of module @dso (kallsyms;
 * at most 65535 distinct ones) or none. 0 or -ENOMEM.
 */
int symtab_add(struct symtab *t, uint64_t start, uint64_t len, uint8_t binding,
	       const char *name, const char *dso);
/*
 * Sort, then give zero-sized symbols an end (perf's symbols__fixup_end, @kallsyms selecting its
 * kernel/module boundary rule) and keep one symbol per start (symbols__fixup_duplicate).
 * 0 or -ENOMEM (the table is as it was).
 */
int symtab_finish(struct symtab *t, bool kallsyms);
/*
 * Only sort (perf keeps a JIT map's symbols as written): by start, equal starts in the order
 * they were added. 0 or -ENOMEM (the table is as it was).
 */
int symtab_sort(struct symtab *t);
/*
 * The symbol containing @addr, or NULL. When symbols overlap (a label inside a function, its end
 * fixed up to the next symbol), a symbol with its own size wins over fixed-up ones, then the
 * latest start. (perf's answer there depends on the shape of its rbtree.)
 */
struct sym_entry *symtab_find(const struct symtab *t, uint64_t addr);
/*
 * For @addr in a PLT stub: the symbol without a size whose fixed-up end covers @addr too (the
 * stubs are added after the end fix-ups, as perf adds them; typically _init, before .plt), or
 * NULL. perf 6.1's rb-tree search meets one of the two first, by the tree's shape, and names
 * the address by it: the stub, or that symbol.
 */
struct sym_entry *symtab_plt_shadow(const struct symtab *t, uint64_t addr);
void symtab_release(struct symtab *t);
/*
 * The name binutils' addr2line gives @addr when no DWARF names it (bfd's elf_find_function):
 * the symbol starting last at or below @addr, wherever it ends (a label inside a function
 * too), and of several starting there the first in the file's order of the smallest -- which
 * is not always perf's choice (identical code folded by the linker). Demangled as perf shows
 * it (malloc'd into *@owned when it differs, free it); NULL when bfd names nothing.
 */
const char *symtab_bfd_name(const struct symtab *t, uint64_t addr, char **owned);
/*
 * The name as perf shows it: @e's (of table @t) demangled name (malloc'd into *@owned, free
 * it) or its name. NULL when a lazy name cannot be read (names_file_read()).
 */
const char *sym_entry_demangled(const struct symtab *t, const struct sym_entry *e,
				char **owned);
/*
 * Once the table is finished: the names that lie in @names' string table, whose bytes were
 * loaded at @base (@len bytes), are read from @names when first used, and the alias names
 * copied into @pool. The table owns @names from then on (also on error). 0 or -ENOMEM.
 */
int symtab_names_lazy(struct symtab *t, struct sym_names_file *names, const char *base,
		      size_t len, struct sym_strpool *pool);
/* True for the __pfx_/__cfi_ padding symbols in front of kernel functions (skipped). */
bool sym_is_padding(const char *name);

/* ---- kallsyms.c ------------------------------------------------------------------------------ */
struct kallsyms {
	struct sym_strpool names;	/* the kept symbols' names */
	struct symtab	tab;		/* kernel and module symbols perf keeps */
	uint64_t	text_start;	/* _text (else _stext), 0 when absent */
	uint64_t	text_end;	/* _etext, 0 when absent */
};
/* Parse the kallsyms text at @path. 0 or -errno (-ENODATA: no usable address in it). */
int kallsyms_load(struct kallsyms *k, const char *path, struct sym_strpool *pool);
void kallsyms_release(struct kallsyms *k);

/* ---- elf-file.c ------------------------------------------------------------------------------ */
struct sym_load;
struct load_seg {
	uint64_t	offset, filesz, memsz, vaddr;
};
/*
 * One ELF file's symbols, loaded on first use and shared by every process mapping it. Once the
 * table is built the file is closed (a system-wide profile maps thousands of files): the names
 * of its own symbol table are read from it again when first used (tab.names), the others were
 * copied; only a file without symbols stays open, for DWARF names.
 */
struct elf_syms {
	struct symtab	tab;		/* in the file's own address space (link addresses) */
	struct sym_strpool	names;		/* the table's names that are not lazy */
	struct load_seg	*segs;		/* PT_LOAD headers, for file offset -> address */
	size_t		nr_segs;
	uint64_t	text, etext;	/* _text (else _stext) and _etext, 0 when absent */
	struct sym_load	*dwarf;		/* libdwfl state kept for DWARF names, or NULL */
};
/* Load @path (NULL with @image: an in-memory ELF such as the vdso). 0 or -errno. */
int elf_syms_load(struct elf_syms *e, const char *path, const void *image, size_t image_len);
/* The same for a file that must have build-id @id: -ESTALE when it has another (or none). */
int elf_syms_load_checked(struct elf_syms *e, const char *path, const uint8_t *id, size_t len);
int elf_syms_load_image_checked(struct elf_syms *e, const void *image, size_t image_len,
				const uint8_t *id, size_t len);
/* True when @path is an ELF file with a (non-empty) .symtab section. */
bool elf_file_has_symtab(const char *path);
/*
 * A kernel module file (.ko, uncompressed): the symbols of its .text at their offsets in .text,
 * where perf 6.1 places them (the module map starts with .text). With @id it must have that
 * build-id (-ESTALE). 0 or -errno (-ENOEXEC: not ELF).
 */
int elf_syms_load_kmod(struct elf_syms *e, const char *path, const uint8_t *id, size_t len);
/* Translate a file offset to the file's address space; false when no PT_LOAD covers it. */
bool elf_syms_offset_to_vaddr(const struct elf_syms *e, uint64_t off, uint64_t *vaddr);
/* Name @vaddr from DWARF when the file has no symbol table. NULL when it cannot. */
const char *elf_syms_dwarf_name(const struct elf_syms *e, uint64_t vaddr, uint64_t *start);
void elf_syms_release(struct elf_syms *e);
/* Copy of the running process's vdso image (malloc'd), or NULL. */
void *elf_live_vdso(size_t *len);
/*
 * While on (this thread), elf_begin() reads an ELF file section by section instead of mapping
 * it whole (elf-file.c): elf_syms_load* turn it on while they read a file's symbols.
 */
void elf_syms_reading_symbols(bool on);

/* ---- perfmap.c ------------------------------------------------------------------------------- */
/* "START SIZE NAME" hex lines, as perf's dso__load_perf_map reads them. *buf owns the names. */
int perfmap_load(struct symtab *t, char **buf, const char *path);

/* ---- cache.c --------------------------------------------------------------------------------- */
/* An answer being made: what kernel_resolve(), kmod_resolve() and the session fill in. */
struct cache_entry {
	const char	*sym, *dso;
	uint64_t	sym_off;	/* addr - symbol start */
	uint64_t	sym_id;		/* sym_result.sym_id for files (kernel: from sym_off) */
	int		rc;
};
/*
 * An answer as kept: interned, shared by every address that has it. The addresses of one symbol
 * share it with their symbol's start in the key's space (@key_start), from which each one's
 * offset into the symbol follows.
 */
struct cache_res {
	const char	*sym, *dso;
	uint64_t	sym_id;
	uint64_t	key_start;	/* key - offset into the symbol; 0 without a symbol */
	int		rc;
	uint32_t	index;		/* its index, which slots hold */
	void		*owner;		/* the caller's (struct sym_result.owner) */
};
/*
 * 16 bytes: the key and the index of its answer. A system-wide profile of many short processes
 * fills ~100K slots, and the naming thread's probes wait on them more than on anything else.
 */
struct cache_slot {
	uint64_t	addr;	/* key: file offset (user) or address (kernel) */
	uint32_t	obj;	/* key: the object (a file, the kernel), 0: free */
	uint32_t	res;	/* the answer: its index */
};
struct cache_res_chunk;
struct sym_cache {
	struct cache_slot	*slots;
	size_t			mask, nr;
	struct ptr_table	res;		/* the answers (struct cache_res) */
	struct cache_res_chunk	**chunks;	/* where they live, never moved: by index */
	size_t			nr_res, alloc_chunks;
};
/*
 * The answer kept for (@obj, @addr) (@obj not 0) and, in *@sym_off, the address's offset into
 * its symbol; NULL when it has none yet. Answers stay where they are until cache_release(); the
 * caller may write their owner.
 */
struct cache_res *cache_find(const struct sym_cache *c, uint32_t obj, uint64_t addr,
			     uint64_t *sym_off);
/*
 * Keep the answer @e for (@obj, @addr), which has none yet: the kept answer (valid until
 * cache_release()), and @e's offset in *@sym_off; NULL on ENOMEM.
 */
struct cache_res *cache_add(struct sym_cache *c, uint32_t obj, uint64_t addr,
			    const struct cache_entry *e, uint64_t *sym_off);
void cache_release(struct sym_cache *c);

/* ---- maps.c ---------------------------------------------------------------------------------- */
struct sym_file;
struct unwind_proc;
struct kmod;
struct sym_map {
	uint64_t	start, end, pgoff;
	struct sym_file	*file;		/* user mappings: the mapped file */
	struct kmod	*kmod;		/* kernel module mappings: the module */
	const char	*dso;		/* interned: the name shown ("/usr/lib/…", "[ext4]") */
	/*
	 * unwind-perf.c's maps: which of perf's map objects this is within its process (the
	 * perf view's gen when it was given; a fork's copy is another view). 0 elsewhere.
	 */
	uint32_t	serial;
};
struct sym_proc {
	pid_t		pid;
	struct sym_map	*maps;		/* sorted by start, never overlapping */
	size_t		nr, alloc;
	size_t		last;		/* index of the last hit, tried first */
	uint32_t	gen;		/* changes with every mapping change (unwind.c's Dwfl) */
	struct unwind_proc *unwind;	/* unwind.c's libdwfl state, or NULL; owned */
	/*
	 * unwind-perf.c: every mapping as perf's map list holds it (data and anonymous ones, and
	 * those left from before an exec), .file NULL; NULL until the first is given. Owned.
	 */
	struct sym_proc	*perf;
	/* the perf view's: libunwind's cache of register states (unwind-perf-cache.c). Owned. */
	struct perf_rs_cache *rs;
};
struct proc_table {
	struct ptr_table index;		/* of struct sym_proc, by pid */
	/* the last process found: processes are never removed, so the pointer stays valid */
	struct sym_proc	*last;
};
struct sym_proc *procs_find(struct proc_table *t, pid_t pid);
/* Find or create. NULL with errno on ENOMEM. */
struct sym_proc *procs_get(struct proc_table *t, pid_t pid);
/* Insert [start, end), trimming or splitting what it overlaps. 0 or -ENOMEM. */
int proc_map_insert(struct sym_proc *p, const struct sym_map *m);
int proc_copy_maps(struct sym_proc *dst, const struct sym_proc *src);
const struct sym_map *proc_map_find(struct sym_proc *p, uint64_t addr);
void procs_release(struct proc_table *t);

/* ---- kernel.c -------------------------------------------------------------------------------- */
struct kernel_syms {
	struct kallsyms	ksyms;		/* always tried: modules, placement, fallback names */
	bool		have_kallsyms;
	struct elf_syms	vmlinux;
	bool		have_vmlinux;
	uint64_t	vmlinux_text;	/* _text in the vmlinux (link address) */
	uint64_t	vmlinux_delta;	/* runtime - link address (KASLR), modulo 2^64 */
	/* the [kernel.kallsyms] map: the recording's MMAP, else _text.._etext */
	uint64_t	map_start, map_end;
	bool		map_from_record;
	struct sym_proc	modules;	/* module mappings given by the recording */
	struct kmod	**kmods;	/* every module named by a mapping or build-id (kmod.c) */
	size_t		nr_kmods, alloc_kmods;
	bool		kallsyms_live;	/* ksyms is this machine's now: module build-ids checked */
	const char	*sysfs;		/* where the module notes are read ("/sys") */
	uint64_t	kmods_stale;	/* modules with another build-id now, and nothing saved */
	const char	*first_stale_kmod;	/* the first of them ("[name]", interned) */
	/*
	 * perf 6.1 loads the kernel's symbols when it first resolves an address in the kernel
	 * map; a kallsyms-named module met before that (kmod.c) is named differently by perf.
	 */
	bool		kernel_met;
	uint64_t	kmods_early;	/* kallsyms-named modules first met before the kernel */
	const char	*first_early_kmod;	/* the first of them ("[name]", interned) */
	const char	*first_early_sym;	/* its first kallsyms symbol (interned), or NULL */
	char		*source;	/* "vmlinux PATH", "kallsyms PATH" or "none" */
	/* the recorded kernel build-id matched nothing to be had: no kernel names */
	bool		stale_build_id;
};
/* Load kallsyms and the vmlinux (given or searched). 0 or -errno (an explicit file is bad). */
int kernel_syms_init(struct kernel_syms *k, const struct sym_opts *o, struct sym_strpool *pool);
/* A pid -1 mapping: the kernel's "[kernel.kallsyms]_text" or a module. 0 or -errno. */
int kernel_add_map(struct kernel_syms *k, uint64_t start, uint64_t len, uint64_t pgoff,
		   const char *filename, struct sym_strpool *pool);
/* Give the module named @filename (a path or "[name]") the recorded build-id @id. 0 or -errno. */
int kernel_set_module_build_id(struct kernel_syms *k, const char *filename, const uint8_t *id,
			       size_t len, struct sym_strpool *pool);
/* Fill @e (sym, dso, sym_off, rc) for kernel address @addr. */
void kernel_resolve(struct kernel_syms *k, uint64_t addr, struct cache_entry *e,
		    struct sym_strpool *pool);
void kernel_syms_release(struct kernel_syms *k);

/* ---- kmod.c ---------------------------------------------------------------------------------- */
enum kmod_state { KMOD_UNCHECKED, KMOD_ELF, KMOD_KALLSYMS, KMOD_NONE, KMOD_STALE };
struct kmod {
	const char	*name;		/* interned "[name]": the key, kallsyms' module name */
	/*
	 * Interned: the name its frames are shown under, perf's dso name: its BUILD_ID entry's
	 * file name when it has one ("/lib/modules/…/ext4.ko"), else @name; and the .ko file to
	 * read (perf's long name): that entry's path, else what its first MMAP names.
	 */
	const char	*shown, *file;
	uint8_t		build_id[20];	/* as recorded; build_id_len 0: none */
	uint8_t		build_id_len;
	enum kmod_state	state;		/* where the names come from, decided on first use */
	struct elf_syms	elf;		/* KMOD_ELF: the .ko's .text symbols, offsets in .text */
	bool		met;		/* an address in it was resolved */
};
/* The module of short name @name (interned), created on first sight. NULL on ENOMEM. */
struct kmod *kmod_get(struct kernel_syms *k, const char *name);
/* Fill @e for @addr in module mapping @m (m->kmod set). */
void kmod_resolve(struct kernel_syms *k, const struct sym_map *m, uint64_t addr,
		  struct cache_entry *e, struct sym_strpool *pool);
void kmods_release(struct kernel_syms *k);

/* ---- prefetch.c ------------------------------------------------------------------------------ */
/* Where an item stands (a byte of the item's, read and written under the lock once started). */
enum { PF_NONE, PF_QUEUED, PF_LOADING, PF_DONE };
struct sym_prefetch {
	pthread_mutex_t	lock;
	pthread_cond_t	work, done;	/* an item queued / an item loaded (or stop) */
	void		**queue;
	size_t		head, nr, alloc;
	bool		inited, started, stop;
	pthread_t	thread;
	void		(*load)(void *item, void *arg);
	uint8_t		*(*state)(void *item);
	void		*arg;
};
/*
 * Start the loader thread: it calls @load on queued items, in order, unless the session's
 * thread took them first. 0, or -errno when no thread could start: then prefetch_take() loads.
 */
int prefetch_start(struct sym_prefetch *p, void (*load)(void *item, void *arg),
		   uint8_t *(*state)(void *item), void *arg);
/* Queue @item (state PF_NONE) for loading; nothing without a loader thread or memory. */
void prefetch_queue(struct sym_prefetch *p, void *item);
/*
 * True when @item was never queued nor loaded. Only the thread that queues @item may ask: then
 * it stays so until that thread queues or takes it.
 */
bool prefetch_untouched(struct sym_prefetch *p, void *item);
/* Return once @item is loaded: by the loader, or now by the caller. */
void prefetch_take(struct sym_prefetch *p, void *item);
/* Stop the loader (items not yet loaded stay so) and free the queue. Zeroed p: nothing. */
void prefetch_stop(struct sym_prefetch *p);

/* ---- session.c ------------------------------------------------------------------------------- */
/*
 * The name to hand out for @e of table @t: interned on first use so equal names give equal
 * pointers. NULL on ENOMEM or when a lazy name cannot be read.
 */
const char *sym_entry_name(const struct symtab *t, struct sym_entry *e, struct sym_strpool *pool);
/* What unwind.c needs of the mapping covering an address. Strings owned by the session. */
struct map_file {
	uint64_t	start, pgoff;	/* the mapping */
	const char	*dso;		/* the name shown */
	const char	*elf_path;	/* the ELF file to read (the build-id cache copy when the
					 * file was rebuilt), NULL when there is none to read */
	const struct symtab *tab;	/* its symbols (link addresses), NULL when not loaded */
	uint32_t	gen;		/* the process's mapping generation */
};
/* Fill @out for @addr in @pid: 0, -ENOENT (no mapping) or -ENOMEM. */
int session_map_file(struct sym_session *s, pid_t pid, uint64_t addr, struct map_file *out);
/* The session's unwinder slot (unwind.c creates it on first use), and its processes. */
struct sym_unwind **session_unwind(struct sym_session *s);
struct proc_table *session_procs(struct sym_session *s);
struct sym_inlines **session_inlines(struct sym_session *s);
struct sym_strpool *session_pool(struct sym_session *s);

/* ---- unwind.c -------------------------------------------------------------------------------- */
struct sym_unwind;
struct unwind_proc;
void unwind_release(struct sym_unwind *u);	/* NULL-safe */
void unwind_proc_free(struct unwind_proc *p);	/* NULL-safe (procs_release) */

/* ---- unwind-perf.c --------------------------------------------------------------------------- */
/* What perf 6.1's libunwind does when it steps from a frame (see unwind-perf.c). */
enum perf_step {
	PERF_STEP_CFI,		/* it finds the frame's CFI: the step is libdwfl's too */
	PERF_STEP_END,		/* it finds none and its fallback ends the chain here */
	PERF_STEP_GUESS_END,	/* it finds none, guesses one caller from %rbp, and ends */
	PERF_STEP_GUESS,	/* the same, and it goes on from there: not restated */
};
/* One frame as unwind.c sees it, for perf_step(). */
struct perf_frame {
	struct sym_proc	*proc;		/* the process (its ->perf view) */
	const char	*dso;		/* interned name of the file mapped at the pc */
	uint64_t	pc;		/* the address looked up (a caller's: return address - 1) */
	uint64_t	ip;		/* libunwind's (its cache's key): the pc, or a return address */
	uint64_t	bias;		/* where libdwfl loaded the file */
	uint64_t	first_load;	/* the file's first PT_LOAD p_vaddr, page aligned */
	bool		has_hdr;	/* the file has an .eh_frame_hdr section, at: */
	uint64_t	hdr_vaddr;
	/* whether the file's .eh_frame has an FDE for the file address @vaddr */
	bool		(*fde_at)(void *arg, uint64_t vaddr);
	void		*arg;
	bool		rbp_known;
	uint64_t	rbp, sp;	/* the frame's %rbp and %rsp */
	uint64_t	stack_sp;	/* the sample's stack copy: its address, bytes, length */
	const unsigned char *stack;
	size_t		stack_len;
};
/* What perf does after frame @f; the guessed caller (GUESS, GUESS_END) in *@guess. */
enum perf_step perf_step(const struct perf_frame *f, uint64_t *guess);
/* A word of memory as perf's libunwind reads it: false where that fails (nothing mapped). */
bool perf_read_word(const struct perf_frame *f, uint64_t addr, uint64_t *val);
void perf_view_free(struct sym_proc *p);	/* NULL-safe */
/* sym_session_resolve() of a user address in no executable map: -ENOENT, named by @p's view */
int perf_view_name(struct sym_proc *p, uint64_t addr, struct sym_result *out);
int perf_view_copy(struct sym_proc *dst, const struct sym_proc *src);

/* ---- unwind-perf-cache.c --------------------------------------------------------------------- */
/* Which frames' CFI libunwind has cached, by ip, in one process's address space of perf's. */
#define PERF_RS_SLOTS		128	/* DWARF_DEFAULT_UNW_CACHE_SIZE */
#define PERF_RS_LOG_HASH	8	/* DWARF_DEFAULT_LOG_UNW_HASH_SIZE */
struct perf_rs_cache {
	uint64_t	ip[PERF_RS_SLOTS];		/* 0: an empty slot */
	uint8_t		chain[PERF_RS_SLOTS];		/* the next slot of the same hash */
	uint8_t		hash[1u << PERF_RS_LOG_HASH];	/* each hash's first slot */
	uint8_t		head;				/* the slot the next ip goes to */
};
/* An empty cache in *@out: 0 or -ENOMEM. Free with free(). */
int perf_rs_cache_new(struct perf_rs_cache **out);
void perf_rs_flush(struct perf_rs_cache *c);	/* NULL-safe */
/* Whether @ip is cached (NULL: never); enter it in the next slot (NULL: nothing). */
bool perf_rs_cached(const struct perf_rs_cache *c, uint64_t ip);
void perf_rs_enter(struct perf_rs_cache *c, uint64_t ip);

/* ---- unwind-inline.c ------------------------------------------------------------------------- */
struct sym_inlines;
void inlines_release(struct sym_inlines *in);	/* NULL-safe */

#endif
