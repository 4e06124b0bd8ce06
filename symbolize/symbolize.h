/* SPDX-License-Identifier: GPL-2.0 */
/*
 * symbolize.h - addresses to names, for kernel and user call chains.
 *
 * Knows nothing of perf: it is told about process address spaces (mappings of files at
 * addresses, fork inheritance) and asked to name addresses. Kernel addresses resolve through a
 * vmlinux (libdwfl: symtab and/or DWARF) when one is given or found in the usual places,
 * otherwise through a kallsyms text (a /proc/kallsyms snapshot); `__pfx_`/`__cfi_` padding
 * symbols are skipped. User addresses resolve through libdwfl over the ELF files of each
 * mapping (symtab, .gnu_debugdata, separate debug files), cached per (module, address).
 *
 * Names agree with perf on the same input: an address is looked up as given (no "return
 * address - 1" adjustment), like perf's thread__find_symbol.
 *
 * Ownership: every string handed out (sym_result.sym, .dso) is owned by the sym_session and
 * stays valid until sym_session_free(). Pointers returned for the same name are equal, so a
 * caller may intern by pointer. A session keeps the files it reads symbol names from open
 * (O_CLOEXEC; at most SYM_NAMES_FDS_MAX over the process) until sym_session_free().
 *
 * Errors: 0 or a negative errno; constructors return NULL with errno set. Nothing here prints.
 * A session is not thread-safe: use one per thread, or lock around it (its prefetch thread, if
 * started, is its own business). The exception is sym_session_announce(), which any one other
 * thread may call while the session's thread uses it.
 * See docs/symbolize.md for where names come from and how they match perf 6.1.
 */
#ifndef KPROF_SYMBOLIZE_H
#define KPROF_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Files kept open to read symbol names from, over all sessions of the process (see above). */
#define SYM_NAMES_FDS_MAX	32

struct sym_session;

struct sym_opts {
	/* vmlinux with symbols or DWARF; NULL: look in the usual places, then use kallsyms. */
	const char	*vmlinux;
	/* kallsyms text to use; NULL: /proc/kallsyms. */
	const char	*kallsyms;
	/*
	 * The user named @kallsyms: a file without one usable symbol (empty, not kallsyms, all
	 * addresses 0) is an error (-ENODATA) instead of "no kernel names" as for a snapshot.
	 */
	bool		kallsyms_required;
	/* Do not search the usual vmlinux locations (tests, reports of foreign recordings). */
	bool		no_vmlinux_search;
	/* Kernel release for the vmlinux search (perf.data's OSRELEASE); NULL: uname -r. */
	const char	*osrelease;
	/*
	 * The kernel build-id of the recording (perf.data's BUILD_ID of [kernel.kallsyms]), or
	 * length 0. With one, and no kallsyms given, the kernel's symbols come only from where
	 * they have that build-id, as in perf: a vmlinux in perf's build-id cache or where perf
	 * looks, /proc/kallsyms if this machine runs that kernel, the kallsyms perf record saved
	 * in the build-id cache ($PERF_BUILDID_DIR, else ~/.debug: [kernel.kallsyms]/ID/kallsyms);
	 * else kernel addresses stay unnamed (sym_stats.kernel_build_id_missing). An explicit
	 * vmlinux with another build-id is refused (-ESTALE).
	 */
	const uint8_t	*kernel_build_id;
	size_t		kernel_build_id_len;
	/*
	 * @kallsyms is a copy of this machine's /proc/kallsyms made now, not at record time (as
	 * /proc/kallsyms itself is): a module with a recorded build-id is named from it only
	 * when the module loaded now has that build-id (@sysfs/module/NAME/notes). Tests.
	 */
	bool		kallsyms_live;
	/* Where this machine's /sys is read (module build-ids); NULL: "/sys". */
	const char	*sysfs;
	/*
	 * User space only: no kernel symbols are loaded (kernel addresses and pid -1 maps are
	 * for another session), the source is "none". For a caller that names kernel frames in
	 * a session of their own, on another thread.
	 */
	bool		no_kernel;
};

struct sym_result {
	const char	*sym;		/* function name, or NULL when unresolved */
	const char	*dso;		/* "[kernel.kallsyms]", a module as its MMAP names it
					 * ("/lib/modules/…/ext4.ko", "[ext4]"), "/usr/lib/…/libc.so.6",
					 * or "[unknown]" when no mapping covers the address */
	uint64_t	sym_start;	/* start address of the symbol (0 when unresolved) */
	/*
	 * The symbol's identity within its dso (0 when unresolved): its start in the module's
	 * own address space. For a user file that is the address in the ELF file (link time),
	 * the same in every process however the file is mapped; for the kernel, modules and
	 * JIT maps (one address space) it is sym_start. (dso, sym_id) tells apart same-named
	 * symbols of one module (C++ overloads, static functions) as perf's (dso, start) does.
	 */
	uint64_t	sym_id;
	/*
	 * The address as perf script prints it: for a user address in a file mapping, its offset
	 * in the file (perf's map_ip: addr - start + pgoff); else (the kernel, JIT maps, no
	 * mapping) the address itself.
	 */
	uint64_t	dso_addr;
	/*
	 * A pointer the caller may keep with this answer of a user address (NULL for the kernel
	 * and for an address no mapping covers): NULL until the caller sets it, then the same for
	 * every address of every process that resolves to the same symbol, module and identity,
	 * while the session lives. A caller that makes something of each distinct answer finds it
	 * here instead of hashing the answer again.
	 */
	void		**owner;
};

/*
 * A session for one recording. NULL with errno on failure: ENOENT/EACCES/ENOEXEC for an
 * explicit vmlinux or kallsyms file that cannot be used, ENOMEM.
 */
struct sym_session *sym_session_new(const struct sym_opts *opts);
/* NULL-safe. Invalidates every string handed out. */
void sym_session_free(struct sym_session *s);

/*
 * Tell the session that @pid maps @filename at [start, start + len) with file offset @pgoff
 * (an MMAP/MMAP2 record, or a /proc/PID/maps line). Later mappings over the same range replace
 * earlier ones. Kernel mappings (pid -1, names like "[kernel.kallsyms]_text" or module paths)
 * are accepted and used to place the kernel and modules: for "[kernel.kallsyms]_text", @pgoff
 * is where _text was at record time (perf's convention), used for a vmlinux's KASLR slide.
 * Give executable mappings only (MMAP2 with PROT_EXEC, MMAP without PERF_RECORD_MISC_MMAP_DATA):
 * anonymous ones ("//anon", "[stack]", "[heap]", ...) are taken as JIT code and named
 * "/tmp/perf-PID.map" as perf names them. Returns 0, -EINVAL (empty or wrapping range) or
 * -ENOMEM.
 */
int sym_session_add_map(struct sym_session *s, pid_t pid, uint64_t start, uint64_t len,
			uint64_t pgoff, const char *filename);
/*
 * The build-id the recording saw for @filename (perf's BUILD_ID feature), before its addresses
 * are resolved. The file is then used only if it still has that build-id, else perf's build-id
 * cache copy ($PERF_BUILDID_DIR, else ~/.debug: .build-id/NN/REST/elf) when there is one: a file
 * rebuilt since the recording leaves its addresses unnamed rather than misnamed, as in perf.
 * An id shorter than @len bytes in the file matches when the rest is zeros. After
 * sym_session_prefetch(), for a build-id the recording gives with a mapping (an MMAP2), it is
 * taken only by a file not used yet (one used keeps what it was loaded as), and an announced
 * file gets it from sym_session_announce_build_id(). 0, -EINVAL, -ENOMEM.
 */
int sym_session_set_build_id(struct sym_session *s, const char *filename, const uint8_t *id,
			     size_t len);
/*
 * The build-id the recording saw for the kernel module @filename ("/lib/modules/…/ext4.ko" or
 * "[ext4]": perf's BUILD_ID entries of the kernel, or an MMAP2 with a build-id), before its
 * addresses are resolved. The module is then named from, in perf's order: its .ko in perf's
 * build-id cache (.build-id/NN/REST/elf), the .ko the recording names if it has that build-id,
 * else the kernel's kallsyms: a saved one (perf's cached kallsyms of the recorded kernel, a
 * snapshot) as it is, this machine's live one only when the module loaded now has that build-id
 * (/sys/module/NAME/notes); else its addresses stay unnamed (sym_stats.modules_stale).
 * 0, -EINVAL or -ENOMEM.
 */
int sym_session_set_module_build_id(struct sym_session *s, const char *filename,
				    const uint8_t *id, size_t len);
/*
 * Load mapped files ahead, in a thread of the session's own: each file is queued when first
 * given to sym_session_add_map(), and a lookup in it waits only if the file is being loaded
 * at that moment (else it is loaded there and then, as without prefetching). Names, stats and
 * warnings are the same either way; files mapped but never looked up are read for nothing.
 * Give build-ids (sym_session_set_build_id) before the mappings. 0, or -errno when no thread
 * can start (the session then loads on first use, as before).
 */
int sym_session_prefetch(struct sym_session *s);
/*
 * Tell the prefetch thread about a file that is going to be mapped (@filename as in an MMAP
 * record), before sym_session_add_map() gets it: it is loaded ahead under that name (with the
 * build-id given for it), and handed over when the session first needs it. The one call that
 * may come from another thread than the session's, at any time after sym_session_prefetch()
 * and the build-ids; names, stats and warnings are the same as without it. 0 or -ENOMEM.
 */
int sym_session_announce(struct sym_session *s, const char *filename);
/*
 * The same for a mapping that carries the file's build-id (an MMAP2 with
 * PERF_RECORD_MISC_MMAP_BUILD_ID): the file is loaded ahead with that build-id, unless one was
 * given for it before (sym_session_set_build_id). The session's thread gives it too, with
 * sym_session_set_build_id() before sym_session_add_map(). 0, -EINVAL or -ENOMEM.
 */
int sym_session_announce_build_id(struct sym_session *s, const char *filename,
				  const uint8_t *id, size_t len);
/* @child starts with a copy of @parent's mappings (FORK record; threads share the parent's). */
int sym_session_fork(struct sym_session *s, pid_t parent, pid_t child);

/*
 * Name @addr in @pid's address space, or in the kernel when @kernel is true. Returns 0 and fills
 * *out (out->sym may be NULL for an address in a known mapping without a symbol), or -ENOENT
 * when nothing covers the address (out->sym NULL, out->dso "[unknown]").
 */
int sym_session_resolve(struct sym_session *s, pid_t pid, uint64_t addr, bool kernel,
			struct sym_result *out);

/*
 * DWARF unwinding of a sampled user stack (perf record --call-graph dwarf: the registers and a
 * copy of the stack from the stack pointer up), through the CFI of the files @pid maps, as
 * perf's unwind-libdw does. x86_64 only: @regs are DWARF registers 0..16 (rax, rdx, rcx, rbx,
 * rsi, rdi, rbp, rsp, r8..r15, rip). Fills @ips (leaf first) with the sampled rip, then each
 * caller's return address minus one (the call, as perf shows it), at most @max. The chain ends
 * where the CFI ends it, where memory is neither in the stack copy nor in a mapped file, or at
 * a frame in a mapping without an ELF file to read (JIT code, the vdso, a file rebuilt since the
 * recording and not in perf's build-id cache), which is left out as perf leaves it out.
 * Returns the number of frames (0: nothing could be unwound), -EINVAL or -ENOMEM. One libdwfl
 * state is kept per process while its mappings stay the same.
 */
#define SYM_UNWIND_NREGS	17
int sym_session_unwind(struct sym_session *s, pid_t pid, const uint64_t regs[SYM_UNWIND_NREGS],
		       const void *stack, size_t stack_len, uint64_t *ips, size_t max);
/*
 * Every mapping of the recording as perf's map list holds it, for the unwinder to end chains
 * where perf 6.1 (libunwind) ends them: give each MMAP/MMAP2 of a process here too, data and
 * anonymous ones included (sym_session_fork copies them; nothing is dropped at an exec, as in
 * perf). perf looks a frame's CFI up in the .eh_frame_hdr of its file placed at the lowest
 * address any map of that file starts at; when that is not where the file is loaded (a map
 * left from before an exec, or no read-only map recorded), or the file has no FDE for the
 * pc, it finds none and its fallback ends the chain (%rbp 0 or no frame pointer) or guesses
 * a caller from %rbp. The unwinder then ends the chain after that frame, as perf does, and
 * in the guessing case says so through sym_session_unwind_guessed(). Without any map given
 * for a process, perf is taken to find what libdwfl finds. 0, -EINVAL or -ENOMEM.
 */
int sym_session_add_perf_map(struct sym_session *s, pid_t pid, uint64_t start, uint64_t len,
			     uint64_t pgoff, const char *filename);
/*
 * An exec in @pid (a COMM record with PERF_RECORD_MISC_COMM_EXEC), for the unwinder: perf 6.1
 * flushes its libunwind cache of the process's frames there, so frames found before by CFI
 * are looked up again in the maps as they are now. 0 or -EINVAL.
 */
int sym_session_perf_exec(struct sym_session *s, pid_t pid);
/*
 * Which of perf's map objects (struct map) holds @addr in @pid's map list given by
 * sym_session_add_perf_map(): perf makes one per MMAP record, and a forked process gets
 * copies of its parent's (new objects); threads share their process's. Two results are the
 * same object when both fields are equal. False when no such map holds @addr.
 */
struct sym_perf_map {
	const void	*view;
	uint32_t	serial;
};
bool sym_session_perf_map(struct sym_session *s, pid_t pid, uint64_t addr,
			  struct sym_perf_map *out);

/*
 * Whether the last sym_session_unwind() ended where perf 6.1 finds no CFI and goes on with
 * frames guessed from %rbp (libunwind's frame-chain fallback, not restated): its chain is then
 * shorter than perf's.
 */
bool sym_session_unwind_guessed(struct sym_session *s);
/*
 * The file (its name as mapped, owned by the session) that the last sym_session_unwind()
 * reached at a frame and could not unwind through because libdwfl could not place it -- it
 * overlaps a file placed already, e.g. one mapped a second time elsewhere --, or NULL. Its
 * chain ends at that frame; perf's goes on.
 */
const char *sym_session_unwind_unplaced(struct sym_session *s);

/*
 * The frames perf 6.1 shows instead of a DWARF-unwound user address (and only for those: frame
 * pointer chains are shown as they are): the functions at @addr from the file's DWARF, innermost
 * first, as `addr2line -i -f` names them. A function that is not the symbol sym_session_resolve()
 * gives (an inlined one, or a clone's DWARF name) has sym "NAME (inlined)" and inlined set, as
 * perf prints it; the one that is has the symbol's name. Returns their number, with *out
 * pointing at them (owned by the session), or 0 when the address has no symbol or no DWARF
 * (show the symbol), or -ENOMEM.
 */
struct sym_inline {
	const char	*sym;		/* interned, as sym_result.sym */
	bool		inlined;
};
int sym_session_inlines(struct sym_session *s, pid_t pid, uint64_t addr,
			const struct sym_inline **out);

/* Which kernel symbol source is in use: "vmlinux PATH", "kallsyms PATH", or "none". Owned. */
const char *sym_session_kernel_source(const struct sym_session *s);

/* Counters, for tests and -v output. */
struct sym_stats {
	uint64_t	resolves;	/* sym_session_resolve() calls */
	uint64_t	cache_hits;	/* answered from the (object, address) cache */
	uint64_t	lookups;	/* symbol table or DWARF searches (cache misses) */
	uint64_t	files_loaded;	/* ELF files read through libdwfl */
	uint64_t	files_failed;	/* mapped files that could not be read (no symbols) */
	uint64_t	files_stale;	/* of those, rebuilt since the recording (build-id) */
	const char	*first_stale;	/* the first of them (owned by the session), or NULL */
	uint64_t	files_from_cache; /* read from perf's build-id cache */
	/*
	 * Symbols whose names could not be read back from their file when first used (names are
	 * read then, not copied when the symbols load): the file was changed or replaced since,
	 * or a read failed. Their addresses are unnamed. The first such file (owned), or NULL.
	 */
	uint64_t	names_unread;
	const char	*first_names_unread;
	uint64_t	kernel_symbols;	/* kernel and module symbols in the table in use */
	bool		kernel_build_id_missing;	/* nothing has the recorded kernel's id */
	uint64_t	modules_stale;	/* modules loaded now with another build-id (or none),
					 * nothing saved: their addresses are unnamed */
	const char	*first_stale_module;	/* the first of them, "[name]" (owned), or NULL */
	/*
	 * Addresses in PLT stubs that a symbol without a size covers too once its end is fixed up
	 * (typically _init, right before .plt): perf 6.1 adds the stubs after that fix-up, and its
	 * rb-tree search names such an address by whichever of the two it meets first, which
	 * depends on the tree's shape; kprof names the stub. The first one's stub, the covering
	 * symbol and the file (owned), or NULL.
	 */
	uint64_t	plt_shadowed;
	const char	*first_plt_stub, *first_plt_shadow, *first_plt_file;
	/*
	 * Modules named from kallsyms whose first address was resolved before any address in the
	 * kernel map, in the order the caller resolved them (perf's, when the caller keeps the
	 * recording's order). perf 6.1 loads the kernel's kallsyms only when it first resolves a
	 * kernel address: a module address met before that finds the module's own load failed
	 * (no .ko), and stays unnamed; when the kernel's kallsyms then comes, the module's first
	 * symbol is dropped for good (maps__split_kallsyms drops the symbol at which it finds the
	 * module's dso loaded already, then moves the rest). kprof names them all.
	 */
	uint64_t	modules_early;
	const char	*first_early_module;	/* the first of them, "[name]" (owned), or NULL */
	/*
	 * That module's first symbol, the one perf drops (owned), or NULL when no kernel address
	 * was resolved at all: perf then names nothing in the module.
	 */
	const char	*first_early_symbol;
};
void sym_session_stats(const struct sym_session *s, struct sym_stats *out);

#endif
