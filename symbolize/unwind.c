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
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

/* Processes whose Dwfl is kept at once; past that all are dropped and rebuilt on demand. */
#define UNWIND_MAX_PROCS	256

/* A process's libdwfl state (struct sym_proc.unwind). */
struct unwind_proc {
	uint32_t	gen;		/* the mapping generation it was built for */
	Dwfl		*dwfl;
	bool		attached;	/* dwfl_attach_state() done */
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
};

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
	if (p)
		dwfl_end(p->dwfl);
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
		return *userdata == mf.elf_path ? 0 : -1;
	}
	mod = dwfl_report_elf(c->p->dwfl, mf.dso, mf.elf_path, -1, mf.start - mf.pgoff, false);
	if (!mod)
		return -1;
	dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = (void *)mf.elf_path;
	return dwfl_addrmodule(c->p->dwfl, ip) == mod ? 0 : -1;
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
	fd = open(mf.elf_path, O_RDONLY | O_CLOEXEC);
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

	memcpy(regs, c->regs, sizeof(regs));
	return dwfl_thread_state_registers(thread, 0, SYM_UNWIND_NREGS, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread		= next_thread,
	.memory_read		= memory_read,
	.set_initial_registers	= set_initial_registers,
};

/*
 * perf's frame_callback(): each frame's pc, less one for callers (the call instruction, not the
 * return address), until the chain ends, a frame is outside any readable module, or max frames.
 */
static int frame_callback(Dwfl_Frame *state, void *arg)
{
	struct unwind_ctx *c = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(c, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	if (report_module(c, pc))
		return DWARF_CB_ABORT;
	c->ips[c->nr++] = pc;
	return c->nr < c->max ? DWARF_CB_OK : DWARF_CB_ABORT;
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
	/*
	 * Nothing mapped at the pc: perf's fresh Dwfl then has no module to tell libdwfl the
	 * machine and dwfl_attach_state() fails, so there is no chain at all.
	 */
	if (!sp || !proc_map_find(sp, regs[16]))
		return 0;
	c->pid = pid;
	c->p = proc_get(s, *slot, sp);
	if (!c->p)
		return -ENOMEM;
	/* as perf: the leaf's module first (it tells libdwfl the machine), else no chain */
	if (report_module(c, regs[16]))
		return c->err;
	if (!c->p->attached) {
		if (!dwfl_attach_state(c->p->dwfl, NULL, pid, &thread_callbacks, c))
			return 0;
		c->p->attached = true;
	}
	ret = dwfl_getthread_frames(c->p->dwfl, pid, frame_callback, c);
	/* a chain that ends in an error (beyond the stack copy) keeps what it had, as perf */
	if (c->err)
		return c->err;
	return ret && !c->nr ? 0 : (int)c->nr;
}
