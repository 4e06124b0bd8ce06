// SPDX-License-Identifier: GPL-2.0
/*
 * unwind.c - DWARF unwinding of sampled user stacks (perf record --call-graph dwarf), the way
 * perf's util/unwind-libdw.c does it: libdwfl is attached to a "process" whose registers are
 * the sampled ones and whose memory is the copy of the stack (else the mapped file), and
 * dwfl_getthread_frames() walks the CFI (.eh_frame / .debug_frame) of the modules, each
 * reported at its load address as the unwinding reaches it.
 *
 * Unlike perf, which builds a Dwfl for every sample, one Dwfl is kept per process and reused
 * while the process's mappings stay as they were (a mapping change starts a new one): modules
 * are opened and their CFI parsed once per process instead of once per sample.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <gelf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

/* Processes whose Dwfl is kept at once; past that all are dropped and rebuilt on demand. */
#define UNWIND_MAX_PROCS	256

/* What unwind-perf.c needs of a module's ELF file, read once per module. */
struct perf_elf {
	Dwfl_Module	*mod;
	const char	*dso;		/* the name of the mapping it was reported for */
	uint64_t	bias, first_load, hdr_vaddr;
	bool		has_hdr;
};

/*
 * fde_at()'s answers, by file address and module: a CFI lookup per frame cost ~5% of a DWARF
 * report, and the same return addresses come back sample after sample.
 */
#define FDE_CACHE	512
struct fde_seen {
	Dwfl_Module	*mod;		/* NULL: empty */
	uint64_t	vaddr;
	bool		found;
	bool		signal;		/* its CIE has the 'S' augmentation (a signal frame) */
};

/* A process's libdwfl state (struct sym_proc.unwind). */
struct unwind_proc {
	uint32_t	gen;		/* the mapping generation it was built for */
	Dwfl		*dwfl;
	bool		attached;	/* dwfl_attach_state() done */
	struct perf_elf	*elves;		/* of the modules reported, in no order */
	size_t		nr_elves;
	struct fde_seen	fdes[FDE_CACHE];
};

/* One sample being unwound: what the callbacks read and where they write. */
struct unwind_ctx {
	struct sym_session	*s;
	struct unwind_proc	*p;
	pid_t			pid;
	const uint64_t		*regs;		/* SYM_UNWIND_NREGS DWARF registers */
	const unsigned char	*stack;
	size_t			stack_len;
	uint64_t		*ips;
	size_t			nr, max;
	int			err;		/* -ENOMEM seen in a callback */
	bool			guessed;	/* ended where perf guesses a caller */
	/* a file libdwfl could not place at a frame (report_module()): the chain ends there */
	const char		*unplaced;
	Dwfl_Module		*fde_mod;	/* fde_at()'s module */
	/*
	 * The process has perf's view of its maps (sym_session_add_perf_map): the chain is
	 * perf's libunwind's (unwind-perf.c), memory read as it reads it (view.proc etc.).
	 */
	bool			libunwind;
	struct perf_frame	view;
	bool			stopped;	/* frame_callback() ended the walk */
	/*
	 * libunwind's "ip - 1" rule: a caller's ip is looked up less one unless the frame below
	 * it has a signal frame's FDE (unw_is_signal_frame() tells of the frame stepped from):
	 * signal_below, of the last frame; frames, the walk's callbacks so far.
	 */
	bool			signal_below;
	size_t			frames;
	bool			read_zero;	/* a word read as 0 since the last frame */
	Dwarf_Addr		last_pc;	/* the last frame's (lookup) pc */
	Dwarf_Addr		last_ip;	/* ... and libunwind's ip of it (perf_frame.ip) */
	/*
	 * A guessed caller with CFI perf finds: the walk starts again from it with libunwind's
	 * registers for it (rbp, rsp, rip; the others unknown), its frame already recorded.
	 */
	bool			restart, restarted, nr_restart_seen;
	Dwarf_Word		restart_regs[SYM_UNWIND_NREGS];
	uint32_t		restart_known;	/* bit n: restart_regs[n] is set */
	Dwarf_Addr		restart_pc;
	bool			restart_exact;	/* restart_pc is the lookup pc already */
	Dwarf_Addr		restart_ip;	/* libunwind's ip of the restarted frame */
	/*
	 * libdw 0.188's x86-64 ABI defaults (backends/x86_64_cfi.c) make DWARF register 0 (%rax)
	 * "same value" where 3 (%rbx) was meant: a frame whose CFI does not mention %rbx leaves it
	 * undefined in its caller, where libunwind (and the ABI) keep it. A caller whose CFA is
	 * %rbx-based (glibc's _dl_runtime_resolve_* under _dl_fixup's prologue) then ends the walk.
	 * last_regs: the last frame's callee-saved registers and %rsp, %rbx as libunwind has it.
	 */
	Dwarf_Word		last_regs[SYM_UNWIND_NREGS];
	uint32_t		last_known;
	bool			rbx_carried;	/* libdwfl had no %rbx in the last frame */
	unsigned int		rbx_restarts;
};

/* The registers a walk can start again from: %rbx, %rbp, %rsp, %r12-%r15 (DWARF numbers). */
#define CALLEE_SAVED_MASK	((1u << 3) | (1u << 6) | (1u << 7) | (0xfu << 12))

struct sym_unwind {
	size_t			nr_procs;	/* with a Dwfl */
	struct unwind_ctx	ctx;		/* the sample in progress */
};

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo		= dwfl_standard_find_debuginfo,
	.debuginfo_path		= &debuginfo_path,
	.section_address	= dwfl_offline_section_address,
};

void unwind_proc_free(struct unwind_proc *p)
{
	if (p) {
		dwfl_end(p->dwfl);
		free(p->elves);
	}
	free(p);
}

void unwind_release(struct sym_unwind *u)
{
	free(u);
}

/* Every process's Dwfl dropped: a system-wide recording would keep thousands of files open. */
static void procs_drop(struct sym_unwind *u, struct proc_table *t)
{
	for (size_t i = 0; t->index.slots && i <= t->index.mask; i++) {
		struct sym_proc *p = t->index.slots[i];

		if (p && p->unwind) {
			unwind_proc_free(p->unwind);
			p->unwind = NULL;
		}
	}
	u->nr_procs = 0;
}

/* The process's Dwfl, new when there was none or its mappings changed. NULL on ENOMEM. */
static struct unwind_proc *proc_get(struct sym_session *s, struct sym_unwind *u,
				    struct sym_proc *sp)
{
	struct unwind_proc *p = sp->unwind;

	if (p && p->gen == sp->gen)
		return p;
	if (!p) {
		if (u->nr_procs >= UNWIND_MAX_PROCS)
			procs_drop(u, session_procs(s));
		p = calloc(1, sizeof(*p));
		if (!p)
			return NULL;
		sp->unwind = p;
		u->nr_procs++;
	}
	dwfl_end(p->dwfl);
	p->nr_elves = 0;
	memset(p->fdes, 0, sizeof(p->fdes));
	p->gen = sp->gen;
	p->attached = false;
	p->dwfl = dwfl_begin(&offline_callbacks);
	return p->dwfl ? p : NULL;
}

/*
 * perf's __report_module(): make sure the file mapped at @ip is a module of the Dwfl, at its
 * load address (mapping start - file offset). 0 when it is, or when no mapping covers @ip (the
 * address is kept, unnamed); -1 when the mapping has no ELF file to read (JIT code, a rebuilt
 * file, the vdso), which ends the chain as in perf.
 */
static int report_module(struct unwind_ctx *c, uint64_t ip)
{
	struct map_file mf;
	Dwfl_Module *mod;
	void **userdata;
	int ret = session_map_file(c->s, c->pid, ip, &mf);

	if (ret == -ENOENT)
		return 0;
	if (ret) {
		c->err = ret;
		return -1;
	}
	if (!mf.elf_path)
		return -1;
	mod = dwfl_addrmodule(c->p->dwfl, ip);
	if (mod) {
		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		/* the same file: it was reported for this mapping (the generation is unchanged) */
		if (*userdata == mf.elf_path)
			return 0;
		c->unplaced = mf.dso;
		return -1;
	}
	/*
	 * libdwfl places a whole file, holes included, and refuses one that overlaps another:
	 * a file mapped a second time elsewhere (node maps its embedded builtins again at a high
	 * address) may not fit. perf's maps have no such rule; the chain ends here, said.
	 */
	mod = dwfl_report_elf(c->p->dwfl, mf.dso, mf.elf_path, -1, mf.start - mf.pgoff, false);
	if (mod) {
		dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
		*userdata = (void *)mf.elf_path;
		if (dwfl_addrmodule(c->p->dwfl, ip) == mod)
			return 0;
	}
	c->unplaced = mf.dso;
	return -1;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	/* one thread: the sampled one */
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return dwfl_pid(dwfl);
}

/* A word outside the stack copy: from the mapped file, as perf's access_dso_mem(). */
static bool read_file_word(struct unwind_ctx *c, uint64_t addr, Dwarf_Word *out)
{
	struct map_file mf;
	ssize_t n;
	int fd;

	if (session_map_file(c->s, c->pid, addr, &mf) || !mf.elf_path)
		return false;
	fd = open_regular(mf.elf_path);
	if (fd < 0)
		return false;
	n = pread(fd, out, sizeof(*out), (off_t)(addr - mf.start + mf.pgoff));
	close(fd);
	return n == (ssize_t)sizeof(*out);
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct unwind_ctx *c = arg;
	uint64_t sp = c->regs[7];

	(void)dwfl;
	if (c->libunwind) {
		uint64_t v;

		if (!perf_read_word(&c->view, addr, &v))
			return false;
		*result = v;
		c->read_zero |= !v;
		return true;
	}
	if (addr + sizeof(*result) < addr)
		return false;
	if (addr < sp || addr + sizeof(*result) > sp + c->stack_len)
		return read_file_word(c, addr, result);
	memcpy(result, c->stack + (addr - sp), sizeof(*result));
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct unwind_ctx *c = arg;
	Dwarf_Word regs[SYM_UNWIND_NREGS];

	if (c->restarted) {
		dwfl_thread_state_register_pc(thread, c->restart_pc);
		for (int i = 0; i < SYM_UNWIND_NREGS; i++)
			if ((c->restart_known & (1u << i)) &&
			    !dwfl_thread_state_registers(thread, i, 1, &c->restart_regs[i]))
				return false;
		return true;
	}
	memcpy(regs, c->regs, sizeof(regs));
	return dwfl_thread_state_registers(thread, 0, SYM_UNWIND_NREGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread		= next_thread,
	.memory_read		= memory_read,
	.set_initial_registers	= set_initial_registers,
};

/*
 * The name of the mapping of @mod (at @pc), its bias, its file's first PT_LOAD and its
 * .eh_frame_hdr, as perf reads them, found once per module. NULL: no mapping, or ENOMEM
 * (c->err).
 */
static const struct perf_elf *perf_elf_of(struct unwind_ctx *c, Dwfl_Module *mod, Dwarf_Addr pc)
{
	struct unwind_proc *p = c->p;
	struct perf_elf *e, *v;
	struct map_file mf;
	Elf *elf;
	size_t n = 0, shstrndx;
	GElf_Phdr ph;
	Elf_Scn *scn = NULL;
	int ret;

	for (size_t i = 0; i < p->nr_elves; i++)
		if (p->elves[i].mod == mod)
			return &p->elves[i];
	ret = session_map_file(c->s, c->pid, pc, &mf);
	if (ret) {
		c->err = ret == -ENOMEM ? ret : 0;
		return NULL;
	}
	v = realloc(p->elves, (p->nr_elves + 1) * sizeof(*v));
	if (!v) {
		c->err = -ENOMEM;
		return NULL;
	}
	p->elves = v;
	e = &v[p->nr_elves++];
	*e = (struct perf_elf){ .mod = mod, .dso = mf.dso };
	elf = dwfl_module_getelf(mod, &e->bias);
	if (!elf)
		return e;
	/* perf's elf_base_address(): the first PT_LOAD's p_vaddr, page aligned */
	(void)elf_getphdrnum(elf, &n);
	for (size_t i = 0; i < n; i++) {
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			e->first_load = ph.p_vaddr & ~(uint64_t)0xfff;
			break;
		}
	}
	if (elf_getshdrstrndx(elf, &shstrndx))
		return e;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".eh_frame_hdr") && sh.sh_offset) {
			e->has_hdr = true;
			e->hdr_vaddr = sh.sh_addr;
			break;
		}
	}
	return e;
}

/* Record a frame: perf's libunwind output leaves a 0 out (get_entries: "ips[j] ? entry()"). */
static void record(struct unwind_ctx *c, uint64_t pc)
{
	if (pc || !c->libunwind)
		c->ips[c->nr++] = pc;
}

/* The FDE in c->fde_mod's .eh_frame for the file address @vaddr (cached). */
static const struct fde_seen *fde_lookup(struct unwind_ctx *c, uint64_t vaddr)
{
	struct fde_seen *e = &c->p->fdes[(vaddr ^ (vaddr >> 9)) % FDE_CACHE];
	Dwarf_Addr start, end;
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame;
	Dwarf_Addr bias;

	if (e->mod == c->fde_mod && e->vaddr == vaddr)
		return e;
	cfi = dwfl_module_eh_cfi(c->fde_mod, &bias);
	*e = (struct fde_seen){ .mod = c->fde_mod, .vaddr = vaddr };
	if (!cfi || dwarf_cfi_addrframe(cfi, vaddr, &frame))
		return e;
	e->found = true;
	dwarf_frame_info(frame, &start, &end, &e->signal);
	free(frame);
	return e;
}

/* unwind-perf.c's fde_at(): an FDE in the module's .eh_frame for the file address @vaddr. */
static bool fde_at(void *arg, uint64_t vaddr)
{
	return fde_lookup(arg, vaddr)->found;
}

/*
 * The frame at @pc, libunwind's @ip, for unwind-perf.c (its registers are the caller's to
 * fill): false when there is nothing to restate (no maps of perf's given, no module there), or
 * on ENOMEM.
 */
static bool perf_frame_at(struct unwind_ctx *c, Dwarf_Addr pc, Dwarf_Addr ip,
			  struct perf_frame *f)
{
	Dwfl_Module *mod = dwfl_addrmodule(c->p->dwfl, pc);
	struct sym_proc *sp = c->view.proc;
	const struct perf_elf *e;

	if (!mod || !sp || !sp->perf)
		return false;
	e = perf_elf_of(c, mod, pc);
	if (!e)
		return false;
	c->fde_mod = mod;
	*f = (struct perf_frame){
		.proc = sp, .dso = e->dso, .pc = pc, .ip = ip, .bias = e->bias,
		.first_load = e->first_load, .has_hdr = e->has_hdr, .hdr_vaddr = e->hdr_vaddr,
		.fde_at = fde_at, .arg = c,
		.stack_sp = c->regs[7], .stack = c->stack, .stack_len = c->stack_len,
	};
	return true;
}

/*
 * After recording the frame at @pc: whether libdwfl's next frame is perf's too. Where perf
 * finds no CFI, its fallback is followed instead (unwind-perf.c): the chain ends, or goes on
 * with callers guessed from %rbp -- each one's rbp the word its predecessor's pointed at, its
 * sp the predecessor's + 16, as libunwind's guessed frames -- until a frame where perf would
 * find CFI again (not restated: c->guessed) or where the fallback ends it.
 */
static bool perf_continues(struct unwind_ctx *c, Dwfl_Frame *state, Dwarf_Addr pc,
			   Dwarf_Addr ip)
{
	struct perf_frame f;
	Dwarf_Word rbp, rsp;
	uint64_t guess;

	if (!c->libunwind)
		return true;
	/* no file perf reads CFI from (none mapped, JIT code, gone): its lookup fails, no fallback */
	if (!perf_frame_at(c, pc, ip, &f))
		return false;
	c->signal_below = fde_lookup(c, pc - f.bias)->signal;
	if (dwfl_frame_reg(state, 7, &rsp))
		return false;
	f.rbp_known = dwfl_frame_reg(state, 6, &rbp) == 0;
	f.rbp = f.rbp_known ? rbp : 0;
	f.sp = rsp;
	for (bool first = true;; first = false) {
		switch (perf_step(&f, &guess)) {
		case PERF_STEP_CFI:
			if (first)
				return true;
			/* libunwind goes on by CFI from its guessed registers: so does the walk */
			c->restart = true;
			c->restart_regs[6] = f.rbp;
			c->restart_regs[7] = f.sp;
			c->restart_known = (1u << 6) | (1u << 7);
			c->restart_pc = guess + 1;
			c->restart_exact = false;
			c->restart_ip = guess + 1;
			c->last_known = 0;	/* libunwind's guessed frame: the others unknown */
			return false;
		case PERF_STEP_GUESS_END:
			record(c, guess);
			return false;
		case PERF_STEP_GUESS:
			record(c, guess);
			break;
		default:
			return false;
		}
		/* the guessed frame: its rbp from where the last one pointed (a failed read ends) */
		if (c->nr >= c->max || !perf_read_word(&f, f.rbp, &rbp))
			return false;
		rsp = f.sp + 16;
		report_module(c, guess);
		if (!perf_frame_at(c, guess, guess + 1, &f)) {
			c->guessed = !c->err;
			return false;
		}
		f.rbp_known = true;
		f.rbp = rbp;
		f.sp = rsp;
	}
}

/*
 * perf's get_entries() steps from its last frame before it checks the depth: that frame's CFI
 * is looked up too, and entered in libunwind's cache when found.
 */
static void perf_last_lookup(struct unwind_ctx *c, Dwarf_Addr pc, Dwarf_Addr ip)
{
	struct perf_frame f;
	uint64_t guess;

	/* no registers given: the fallback, if it comes to that, ends without reading */
	if (c->libunwind && perf_frame_at(c, pc, ip, &f))
		(void)perf_step(&f, &guess);
}

/*
 * The frame's callee-saved registers for a restart (rbx_restart): libdwfl's values, and where
 * it has no %rbx, the callee's (the ABI's "same value", which libdw 0.188 applies to %rax).
 */
static void note_registers(struct unwind_ctx *c, Dwfl_Frame *state)
{
	uint32_t read = 0;
	Dwarf_Word v;

	for (int i = 0; i < SYM_UNWIND_NREGS; i++) {
		if (!(CALLEE_SAVED_MASK & (1u << i)) || dwfl_frame_reg(state, (unsigned)i, &v))
			continue;
		c->last_regs[i] = v;
		read |= 1u << i;
	}
	/* %rbx not read: the callee's stays (last_regs[3] as it was), if there was one */
	c->rbx_carried = !(read & (1u << 3)) && (c->last_known & (1u << 3));
	c->last_known = read | (c->last_known & (1u << 3));
}

/* The CFI row of the frame at @pc, in its module's .eh_frame (free() it), or NULL. */
static Dwarf_Frame *eh_frame_at(struct unwind_ctx *c, Dwarf_Addr pc)
{
	Dwfl_Module *mod = dwfl_addrmodule(c->p->dwfl, pc);
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame;
	Dwarf_Addr bias;

	cfi = mod ? dwfl_module_eh_cfi(mod, &bias) : NULL;
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame))
		return NULL;
	return frame;
}

/*
 * Whether a CFI row has a rule for the return address: libdwfl ends a walk both where it is
 * undefined (clone3, _start: the outermost frame) and where the return address is 0; perf's
 * libunwind ends at the first, but records the second as a caller at ~0 (0 less one), one
 * "[unknown]" frame, before its next step fails. A 0 is what perf reads from a map without a
 * file (the stack beyond the copy), or a 0 in the copy.
 */
static bool frame_ra_defined(Dwarf_Frame *frame)
{
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;

	/* nops 0 with ops_mem: "undefined" (with NULL: same value, taken as defined) */
	return !dwarf_frame_register(frame, 16, ops_mem, &ops, &nops) && (nops || ops != ops_mem);
}

static bool ra_defined(struct unwind_ctx *c, Dwarf_Addr pc)
{
	Dwarf_Frame *frame = eh_frame_at(c, pc);
	bool defined = frame && frame_ra_defined(frame);

	free(frame);
	return defined;
}

/*
 * Whether the CFA of the frame at @pc (a caller) is %rbx-based and a return address is given:
 * the walk libdwfl ended there goes on with %rbx as libunwind has it.
 */
static bool cfa_needs_rbx(struct unwind_ctx *c, Dwarf_Addr pc)
{
	Dwarf_Frame *frame = eh_frame_at(c, pc);
	Dwarf_Op *ops;
	size_t nops;
	bool rbx;

	if (!frame)
		return false;
	rbx = !dwarf_frame_cfa(frame, &ops, &nops) && nops &&
	      (ops[0].atom == DW_OP_breg3 || (ops[0].atom == DW_OP_bregx && ops[0].number == 3)) &&
	      frame_ra_defined(frame);
	free(frame);
	return rbx;
}

/*
 * After a walk libdwfl ended as complete (@ret 0): when only libdw's missing %rbx default ended
 * it (see last_regs), start again from its last frame with the registers libunwind has there.
 */
static bool rbx_restart(struct unwind_ctx *c, int ret)
{
	if (ret || c->stopped || c->err || !c->libunwind || c->frames < 2 || c->nr >= c->max ||
	    c->rbx_restarts >= 8 || !c->rbx_carried || !(c->last_known & (1u << 7)) ||
	    !cfa_needs_rbx(c, c->last_pc))
		return false;
	c->rbx_restarts++;
	memcpy(c->restart_regs, c->last_regs, sizeof(c->restart_regs));
	c->restart_known = c->last_known;
	c->restart_pc = c->last_pc;
	c->restart_exact = true;
	c->restart_ip = c->last_ip;
	c->restart = true;
	return true;
}

/*
 * perf's frame_callback(): each frame's pc, less one for callers (the call instruction, not the
 * return address), until the chain ends, a frame is outside any readable module, or max frames;
 * and, as perf's libunwind, after a frame whose CFI perf does not find (unwind-perf.c).
 */
static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unwind_ctx *c = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(c, pc);
	/* asking for activation unwinds the caller's frame: its reads are the ones watched */
	c->read_zero = false;
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* libunwind's rule, not libdwfl's (which takes a signal frame's own pc as exact) */
	if (c->libunwind)
		activation = c->signal_below || (!c->restarted && !c->frames);
	c->frames++;
	note_registers(c, state);
	/* a restarted walk's first frame: recorded already, looked up as a caller (libunwind) */
	if (c->restarted && !c->nr_restart_seen) {
		c->nr_restart_seen = true;
		c->last_pc = c->restart_exact ? pc : --pc;
		c->last_ip = c->restart_ip;
		report_module(c, pc);
		if (perf_continues(c, state, pc, c->last_ip))
			return DWARF_CB_OK;
		c->stopped = true;
		return DWARF_CB_ABORT;
	}
	c->last_ip = pc;
	if (!activation)
		pc--;
	c->last_pc = pc;
	/*
	 * A frame in a mapping without a file to read: perf's libunwind keeps it and stops there
	 * (its step from it finds no CFI); perf's libdw unwinder leaves it out.
	 */
	if (report_module(c, pc) && (!c->libunwind || c->err))
		return DWARF_CB_ABORT;
	record(c, pc);
	if (c->nr >= c->max) {
		perf_last_lookup(c, pc, c->last_ip);
		return DWARF_CB_ABORT;
	}
	if (perf_continues(c, state, pc, c->last_ip))
		return DWARF_CB_OK;
	c->stopped = true;
	return DWARF_CB_ABORT;
}

const char *sym_session_unwind_unplaced(struct sym_session *s)
{
	struct sym_unwind **slot = session_unwind(s);

	return *slot ? (*slot)->ctx.unplaced : NULL;
}

bool sym_session_unwind_guessed(struct sym_session *s)
{
	struct sym_unwind **slot = session_unwind(s);

	return *slot && (*slot)->ctx.guessed;
}

/* No frame unwound: perf's libunwind has the sampled pc alone (get_entries' ips[0]). */
static int leaf_only(struct unwind_ctx *c)
{
	if (!c->libunwind)
		return 0;
	c->ips[0] = c->regs[16];
	return 1;
}

int sym_session_unwind(struct sym_session *s, pid_t pid, const uint64_t regs[SYM_UNWIND_NREGS],
		       const void *stack, size_t stack_len, uint64_t *ips, size_t max)
{
	struct sym_unwind **slot = session_unwind(s);
	struct unwind_ctx *c;
	struct sym_proc *sp;
	int ret;

	if (!regs || (!stack && stack_len) || !ips)
		return -EINVAL;
	if (!max)
		return 0;
	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot)
			return -ENOMEM;
	}
	c = &(*slot)->ctx;
	*c = (struct unwind_ctx){
		.s = s, .regs = regs, .stack = stack, .stack_len = stack_len,
		.ips = ips, .max = max,
	};
	sp = procs_find(session_procs(s), pid);
	c->libunwind = sp && sp->perf && sp->perf->nr;
	c->view = (struct perf_frame){
		.proc = sp, .stack_sp = regs[7], .stack = stack, .stack_len = stack_len,
	};
	/*
	 * Nothing mapped at the pc: perf's libunwind keeps the pc alone; its libdw unwinder (a
	 * fresh Dwfl with no module to tell libdwfl the machine) has no chain at all.
	 */
	if (!sp || !proc_map_find(sp, regs[16]))
		return leaf_only(c);
	c->pid = pid;
	c->p = proc_get(s, *slot, sp);
	if (!c->p)
		return -ENOMEM;
	/* the leaf's module first (it tells libdwfl the machine) */
	if (report_module(c, regs[16]))
		return c->err ? c->err : leaf_only(c);
	if (!c->p->attached) {
		if (!dwfl_attach_state(c->p->dwfl, NULL, pid, &thread_callbacks, c))
			return leaf_only(c);
		c->p->attached = true;
	}
	ret = dwfl_getthread_frames(c->p->dwfl, pid, frame_callback, c);
	do {
		while (c->restart && !c->err && c->nr < c->max) {
			c->restart = false;
			c->restarted = true;
			c->nr_restart_seen = false;
			c->stopped = false;
			ret = dwfl_getthread_frames(c->p->dwfl, pid, frame_callback, c);
		}
	} while (rbx_restart(c, ret));
	/* a chain that ends in an error (beyond the stack copy) keeps what it had, as perf */
	if (c->err)
		return c->err;
	if (c->libunwind && !ret && !c->stopped && c->read_zero && c->nr && c->nr < c->max &&
	    ra_defined(c, c->last_pc))
		c->ips[c->nr++] = UINT64_MAX;
	return ret && !c->nr ? leaf_only(c) : (int)c->nr;
}
