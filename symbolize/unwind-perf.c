// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-perf.c - where perf 6.1's DWARF unwinder finds no CFI, and what it does then.
 *
 * Debian's perf 6.1 unwinds --call-graph dwarf samples with libunwind 1.6
 * (util/unwind-libunwind-local.c), not with libdw. Its find_proc_info() looks a frame's pc up
 * in the .eh_frame_hdr table of the file mapped there, placed at
 *
 *	base = (the lowest start of any map of that file in the thread's map list)
 *	       - (the file's first PT_LOAD p_vaddr, page aligned)
 *
 * (read_unwind_spec_eh_frame). perf's map list keeps every map it was told of: data maps,
 * and the maps of the program a process ran before an exec (perf drops none at exec; a new
 * map only trims what it overlaps). So when a parent had the same file (libc, say) mapped
 * lower than the exec'd program has it -- ASLR decides, run to run -- perf looks the table up
 * at the wrong place, finds no FDE (libunwind's -UNW_ENOINFO) and falls back to
 * src/x86_64/Gstep.c's frame-chain code:
 *
 *   - %rbp of the frame is 0 ("x86_64 ABI specifies that end of call-chain is marked with a
 *     NULL RBP"): the chain ends with this frame. glibc's clone3 clears %rbp before calling
 *     start_thread, and _start clears it too, so a thread's chain ends at start_thread and
 *     the main thread's at __libc_start_call_main: perf's chains of `kprof run` workers,
 *     one run ending at clone3 and the next at start_thread;
 *   - else it takes %rbp as a frame pointer when it lies in [sp, sp + 0x4000] and can be
 *     read, and records the guessed caller [rbp + 8]; its next step, with a CFA of its own
 *     making, fails when that address is in no file (the "[unknown]" frames perf shows after
 *     ld.so's start-up code) and is not restated otherwise (the chain ends there and the
 *     caller counts the sample);
 *   - else the chain ends with this frame.
 *
 * The same placement rule is why a process recorded without its read-only maps has every
 * chain end after its first frame: the lowest map is then the executable one, the table
 * address lands where nothing is mapped, and the read fails (an error, not ENOINFO: no
 * fallback). A file without .eh_frame_hdr fails the same way. What perf does for a frame
 * with no FDE in a correctly placed table (hand-written code without CFI) is the fallback
 * above. A frame whose CFI libunwind found once in the process is found again from its cache,
 * whatever the maps say since, until the cache is flushed at an exec or the ip is pushed out
 * (unwind-perf-cache.c). Not restated: perf's .debug_frame retry (x86_64 files carry
 * .eh_frame), and the fallback's PLT and signal-trampoline cases (a frame in a PLT stub or in
 * __restore_rt of a misplaced file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

/* perf's frame-pointer heuristic: %rbp at most this far above the frame's stack pointer. */
#define PERF_FP_MAX_GAP	0x4000

void perf_view_free(struct sym_proc *p)
{
	if (p) {
		free(p->maps);
		free(p->rs);
	}
	free(p);
}

/* A process's view of perf's, with its address space's empty cache. NULL on ENOMEM. */
static struct sym_proc *perf_view_new(void)
{
	struct sym_proc *v = calloc(1, sizeof(*v));

	if (v && perf_rs_cache_new(&v->rs)) {
		free(v);
		return NULL;
	}
	return v;
}

int perf_view_copy(struct sym_proc *dst, const struct sym_proc *src)
{
	int ret;

	/*
	 * perf's FORK drops a thread it had of the child's id (a pid used again) and makes a new
	 * one: its map list gets a new address space (maps__clone -> unwind__prepare_access),
	 * whose cache is empty.
	 */
	if (dst->perf)
		perf_rs_flush(dst->perf->rs);
	if (!src->perf) {
		if (dst->perf)
			dst->perf->nr = 0;
		return 0;
	}
	if (!dst->perf) {
		dst->perf = perf_view_new();
		if (!dst->perf)
			return -ENOMEM;
	}
	ret = proc_copy_maps(dst->perf, src->perf);
	/* the copies' serials stay below what the child's own maps get next */
	if (dst->perf->gen < src->perf->gen)
		dst->perf->gen = src->perf->gen;
	return ret;
}

int sym_session_add_perf_map(struct sym_session *s, pid_t pid, uint64_t start, uint64_t len,
			     uint64_t pgoff, const char *filename)
{
	struct sym_map m = { .start = start, .end = start + len, .pgoff = pgoff };
	struct sym_proc *p;

	if (!filename || pid == -1 || !len || start + len < start)
		return -EINVAL;
	m.dso = sym_strpool_intern(session_pool(s), filename);
	p = procs_get(session_procs(s), pid);
	if (!m.dso || !p)
		return -ENOMEM;
	if (!p->perf) {
		p->perf = perf_view_new();
		if (!p->perf)
			return -ENOMEM;
	}
	/* one of perf's map objects per MMAP (map__new), told apart by when it was given */
	m.serial = p->perf->gen + 1;
	return proc_map_insert(p->perf, &m);
}

int sym_session_perf_exec(struct sym_session *s, pid_t pid)
{
	struct sym_proc *p;

	if (pid == -1)
		return -EINVAL;
	p = procs_find(session_procs(s), pid);
	if (p && p->perf)
		perf_rs_flush(p->perf->rs);
	return 0;
}

bool sym_session_perf_map(struct sym_session *s, pid_t pid, uint64_t addr,
			  struct sym_perf_map *out)
{
	struct sym_proc *p = procs_find(session_procs(s), pid);
	const struct sym_map *m = p && p->perf ? proc_map_find(p->perf, addr) : NULL;

	if (!m)
		return false;
	/* a forked process's maps are its own view's: perf's maps__clone made new objects */
	out->view = p->perf;
	out->serial = m->serial;
	return true;
}

/* A mapping's name that perf opens as a file (dso__data_read_addr), not "//anon", "[stack]". */
static bool is_path(const char *name)
{
	return name[0] == '/' && name[1] != '/';
}

int perf_view_name(struct sym_proc *p, uint64_t addr, struct sym_result *out)
{
	const struct sym_map *m = p && p->perf ? proc_map_find(p->perf, addr) : NULL;

	/* perf names an address in a data map by its map too ("[stack]", "libc.so.6") */
	if (m) {
		out->dso = m->dso;
		if (is_path(m->dso))
			out->dso_addr = addr - m->start + m->pgoff;
	}
	return -ENOENT;
}

/* The lowest start of @dso's maps in perf's list, or UINT64_MAX (perf's initial value). */
static uint64_t lowest_start(const struct sym_proc *view, const char *dso)
{
	/* sorted by start: the first one of the file is the lowest */
	for (size_t i = 0; i < view->nr; i++)
		if (view->maps[i].dso == dso)
			return view->maps[i].start;
	return UINT64_MAX;
}

/*
 * libunwind's read of the word at @addr through perf's access_mem(): from the stack copy
 * (perf takes a word ending at its last byte as outside it), else from the file of the map
 * there -- a map without a readable file reads as 0 without failing (access_dso_mem()'s 1 is
 * not an error to libunwind) --; false (an error) only where nothing is mapped.
 */
bool perf_read_word(const struct perf_frame *f, uint64_t addr, uint64_t *val)
{
	const struct sym_map *m;
	int fd;

	if (addr + 8 < addr)
		return false;	/* perf's overflow check: -EINVAL */
	if (addr >= f->stack_sp && addr + 8 < f->stack_sp + f->stack_len) {
		memcpy(val, f->stack + (addr - f->stack_sp), 8);
		return true;
	}
	m = proc_map_find(f->proc->perf, addr);
	if (!m)
		return false;
	*val = 0;
	if (!is_path(m->dso))
		return true;
	fd = open_regular(m->dso);
	if (fd >= 0) {
		if (pread(fd, val, 8, (off_t)(addr - m->start + m->pgoff)) != 8)
			*val = 0;
		close(fd);
	}
	return true;
}

/*
 * libunwind's fallback (Gstep.c, after dwarf_step() failed with -UNW_ENOINFO): the chain
 * ends at a 0 %rbp, or at one that is no frame pointer of this frame; else a caller at
 * [rbp + 8], recorded (less one, as every caller) in *@guess. From there perf steps with a
 * CFA of the fallback's making (the frame's sp + 16, not rbp + 16); that step is restated
 * only where it fails: the guessed address in no file perf can read.
 */
static enum perf_step fallback(const struct perf_frame *f, uint64_t *guess)
{
	const struct sym_map *m;
	uint64_t word;

	if (!f->rbp_known || !f->rbp)
		return PERF_STEP_END;
	if (f->rbp < f->sp || f->rbp - f->sp > PERF_FP_MAX_GAP || !perf_read_word(f, f->rbp, &word))
		return PERF_STEP_END;
	if (!perf_read_word(f, f->rbp + 8, &word))
		return PERF_STEP_END;
	*guess = word - 1;
	m = proc_map_find(f->proc->perf, word - 1);
	return m && is_path(m->dso) ? PERF_STEP_GUESS : PERF_STEP_GUESS_END;
}

/* libunwind found the frame's CFI: it enters the frame's ip in its cache. */
static enum perf_step found(struct sym_proc *view, const struct perf_frame *f, enum perf_step step)
{
	perf_rs_enter(view->rs, f->ip);
	return step;
}

enum perf_step perf_step(const struct perf_frame *f, uint64_t *guess)
{
	struct sym_proc *view = f->proc->perf;
	const struct sym_map *m;
	uint64_t base;

	/* no maps given: perf is assumed to find what libdwfl finds */
	if (!view || !view->nr)
		return PERF_STEP_CFI;
	/* cached before the maps changed: no lookup (unwind-perf-cache.c) */
	if (perf_rs_cached(view->rs, f->ip))
		return PERF_STEP_CFI;
	if (!f->has_hdr)
		return PERF_STEP_END;
	base = lowest_start(view, f->dso) - f->first_load;
	if (base == f->bias)
		return f->fde_at(f->arg, f->pc - base) ? found(view, f, PERF_STEP_CFI) :
							 fallback(f, guess);
	/*
	 * Misplaced: the table is read at base + its address. Where nothing is mapped the read
	 * fails and the chain ends; where the same file is mapped at that base (a map left from
	 * before an exec) the table is read right and holds no entry for the pc, unless the pc
	 * minus that base falls in another function of the file (then its CFI would be used: not
	 * restated); anything else there is read as garbage (not restated either).
	 */
	m = proc_map_find(view, base + f->hdr_vaddr);
	if (!m)
		return PERF_STEP_END;
	if (m->dso != f->dso || m->start - m->pgoff != base)
		return PERF_STEP_GUESS;
	if (f->fde_at(f->arg, f->pc - base))
		return found(view, f, PERF_STEP_GUESS);
	return fallback(f, guess);
}
