// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF unwinding over this test's own stack: the registers from getcontext() and a copy of
 * the stack from there up to main's frame, as perf record --call-graph dwarf would sample them,
 * with the mappings of /proc/self/maps. The unwinder must walk capture -> level_b ->
 * level_a -> main by .eh_frame alone, give callers as return address - 1, stop where the copy
 * ends, give nothing for a pc outside every mapping, and name frames without inlines here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "symbolize/symbolize.h"
#include "tests/tap.h"
#include "tests/unit/self-maps.h"

static uint64_t regs[SYM_UNWIND_NREGS];
static unsigned char stack_copy[16384];
static size_t stack_len;
static uintptr_t stack_top;	/* a little above main's frame */

/* DWARF register numbers 0..16 of x86_64 from a ucontext. */
static void dwarf_regs(const ucontext_t *uc)
{
	static const int order[SYM_UNWIND_NREGS] = {
		REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
		REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP,
	};

	for (int i = 0; i < SYM_UNWIND_NREGS; i++)
		regs[i] = (uint64_t)uc->uc_mcontext.gregs[order[i]];
}

/*
 * The raw stack, byte by byte as the kernel copies it: redzones and all, so not through ASan's
 * checked memcpy.
 */
__attribute__((no_sanitize_address, noinline)) static void copy_stack(uintptr_t from, size_t len)
{
	for (size_t i = 0; i < len; i++)
		stack_copy[i] = ((const volatile unsigned char *)from)[i];
}

__attribute__((noinline)) void unwind_capture(void)
{
	ucontext_t uc;

	getcontext(&uc);
	dwarf_regs(&uc);
	stack_len = stack_top - (uintptr_t)regs[7];
	if (stack_len > sizeof(stack_copy))
		stack_len = sizeof(stack_copy);
	copy_stack((uintptr_t)regs[7], stack_len);
}

/* volatile calls after the callee: no tail calls, so every frame stays on the stack */
static volatile int sink;

__attribute__((noinline)) void unwind_level_b(void)
{
	unwind_capture();
	sink++;
}

__attribute__((noinline)) void unwind_level_a(void)
{
	unwind_level_b();
	sink++;
}

static const char *name_of(struct sym_session *s, pid_t pid, uint64_t addr)
{
	struct sym_result r;

	sym_session_resolve(s, pid, addr, false, &r);
	return r.sym ? r.sym : "(none)";
}

int main(void)
{
	static const char *const want[] = {
		"unwind_capture", "unwind_level_b", "unwind_level_a", "main",
	};
	struct sym_opts o = { .no_vmlinux_search = true };
	const struct sym_inline *in;
	uint64_t ips[64], bad[SYM_UNWIND_NREGS];
	struct sym_session *s;
	uint64_t stack_addr = 0;
	pid_t pid = getpid();
	int n;

	s = sym_session_new(&o);
	if (!s)
		skip_all("no session: %s", strerror(errno));
	ok(add_self_maps(s, pid, &stack_addr) > 0, "mappings of /proc/self/maps added");
	/* main's frame on the real stack (a local may live on ASan's fake stack) */
	stack_top = (uintptr_t)__builtin_frame_address(0) + 512;
	unwind_level_a();
	ok(stack_len > 0, "registers and %zu bytes of stack captured", stack_len);

	n = sym_session_unwind(s, pid, regs, stack_copy, stack_len, ips, 64);
	ok(n >= 4, "unwound %d frames", n);
	for (int i = 0; i < 4 && i < n; i++)
		is_str(name_of(s, pid, ips[i]), want[i], "frame %d", i);
	is_u64(ips[0], regs[16], "the leaf is the sampled pc itself");
	ok(n >= 2 && name_of(s, pid, ips[1] + 1) == name_of(s, pid, ips[1]),
	   "a caller is its return address - 1, inside the call");
	is_int(sym_session_unwind(s, pid, regs, stack_copy, stack_len, ips, 2), 2,
	       "at most max frames");
	n = sym_session_unwind(s, pid, regs, stack_copy, stack_len, ips, 64);
	ok(n >= 4, "again, from the kept per-process state: %d frames", n);

	is_int(sym_session_unwind(s, pid, regs, stack_copy, 0, ips, 64), 1,
	       "no stack copy: the sampled pc alone");
	memcpy(bad, regs, sizeof(bad));
	bad[16] = 0x10;
	is_int(sym_session_unwind(s, pid, bad, stack_copy, stack_len, ips, 64), 0,
	       "a pc outside every mapping: nothing");
	is_int(sym_session_unwind(s, pid + 1, regs, stack_copy, stack_len, ips, 64), 0,
	       "a process without mappings: nothing");
	is_int(sym_session_unwind(s, pid, NULL, stack_copy, stack_len, ips, 64), -EINVAL,
	       "no registers: -EINVAL");

	n = sym_session_inlines(s, pid, (uint64_t)(uintptr_t)unwind_level_a + 1, &in);
	ok(n == 0 || (n == 1 && !in[0].inlined &&
		      in[0].sym == name_of(s, pid, (uint64_t)(uintptr_t)unwind_level_a + 1)),
	   "a function without inlines is its own symbol (%d frames)", n);
	is_int(sym_session_inlines(s, pid, 0x10, &in), 0, "no inlines outside every mapping");
	sym_session_free(s);
	return done_testing();
}
