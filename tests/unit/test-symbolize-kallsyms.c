// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel names from a kallsyms text: which symbol types perf 6.1 keeps, how symbol ends are
 * computed, which of several symbols at one address wins, the skipped __pfx_/__cfi_ padding,
 * modules, the kernel map, and what unresolved addresses look like.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize.h"
#include "tests/tap.h"

/* Not sorted on purpose (the module block is first), and with lines perf skips. */
static const char kallsyms_text[] =
	"ffffffffc0002000 t mod_a_fn\t[mod_a]\n"
	"ffffffffc0002100 t mod_a_other\t[mod_a]\n"
	"ffffffffc0005000 T mod_b_fn\t[mod_b]\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 r some_rodata\n"
	"ffffffff81000200 t local_fn\n"
	"ffffffff81000300 T memset\n"
	"ffffffff81000300 T __memset\n"
	"ffffffff81000300 T __pi_memset\n"
	"ffffffff81000400 T strong_alias\n"
	"ffffffff81000400 W weak_alias\n"
	"ffffffff81000500 A absolute_sym\n"
	"ffffffff81000600 T SyS_read\n"
	"ffffffff81000600 T sys_read\n"
	"ffffffff810006f0 t __pfx_after_pad\n"
	"ffffffff81000700 t after_pad\n"
	"ffffffff810007f0 t __cfi_cfi_fn\n"
	"ffffffff81000800 t cfi_fn\n"
	"ffffffff81000900 T __entry_SYSCALL_64_trampoline\n"
	"ffffffff81000a00 W weak_fn\n"
	"ffffffff81000b00 d some_data\n"
	"ffffffff81000c00 U undefined_sym\n"
	"this is not a kallsyms line\n"
	"\n"
	"ffffffff81000d00 T\n"
	"zzzz T bad_address\n"
	"ffffffff81000e00 T last_kernel_fn\n"
	"ffffffff81100000 T _etext\n";

static char path[64];

static struct sym_session *session(const char *text)
{
	struct sym_opts o = { .kallsyms = path, .no_vmlinux_search = true };
	FILE *fp = fopen(path, "w");

	if (!fp || fputs(text, fp) < 0 || fclose(fp))
		return NULL;
	return sym_session_new(&o);
}

static const char *kname(struct sym_session *s, uint64_t addr)
{
	struct sym_result r;

	sym_session_resolve(s, -1, addr, true, &r);
	return r.sym;
}

static void test_types_and_ends(struct sym_session *s)
{
	struct sym_result r;

	is_str(kname(s, 0xffffffff81000000), "startup_64",
	       "_text/_stext/startup_64: the longest name without leading underscores wins");
	is_str(kname(s, 0xffffffff81000150), "startup_64", "'r' symbols are not kept: ends extend");
	is_str(kname(s, 0xffffffff81000200), "local_fn", "'t' local functions are kept");
	is_str(kname(s, 0xffffffff810002ff), "local_fn", "a symbol ends where the next begins");
	is_str(kname(s, 0xffffffff81000300), "__pi_memset",
	       "memset/__memset/__pi_memset: perf 6.1 keeps the last one (the only sized one)");
	is_str(kname(s, 0xffffffff81000400), "weak_alias",
	       "a global and a weak alias: the last (sized) one, as perf 6.1 does");
	is_str(kname(s, 0xffffffff81000550), "weak_alias", "'A' absolute symbols are not kept");
	is_str(kname(s, 0xffffffff81000600), "sys_read", "SyS_ aliases lose");
	is_str(kname(s, 0xffffffff81000a10), "weak_fn", "'W' symbols are kept");
	is_str(kname(s, 0xffffffff81000b10), "some_data", "'d' data symbols are kept, as in perf");
	is_str(kname(s, 0xffffffff81000c10), "some_data", "'U' symbols are not kept");
	is_str(kname(s, 0xffffffff81000e10), "last_kernel_fn", "malformed lines are skipped");

	is_int(sym_session_resolve(s, -1, 0xffffffff81000210, true, &r), 0, "rc 0 when named");
	is_u64(r.sym_start, 0xffffffff81000200, "sym_start is the symbol's address");
	is_u64(r.sym_id, r.sym_start, "... and its sym_id (the kernel has one address space)");
	is_str(r.dso, "[kernel.kallsyms]", "kernel dso");
}

static void test_padding(struct sym_session *s)
{
	is_str(kname(s, 0xffffffff810006f8), "sys_read",
	       "__pfx_ padding is skipped: its bytes belong to the function before");
	is_str(kname(s, 0xffffffff81000700), "after_pad", "the padded function starts as before");
	is_str(kname(s, 0xffffffff810007f4), "after_pad", "__cfi_ padding is skipped too");
	is_str(kname(s, 0xffffffff81000800), "cfi_fn", "the function after __cfi_");
	ok(!kname(s, 0xffffffff81000900),
	   "the entry trampoline is dropped after the end fix-up (perf: is_entry_trampoline)");
}

static void test_outside(struct sym_session *s)
{
	struct sym_result r;

	/* the dropped entry trampoline leaves a hole */
	is_int(sym_session_resolve(s, -1, 0xffffffff81000910, true, &r), 0,
	       "an address in the kernel map without a symbol is rc 0");
	ok(!r.sym, "... with no name");
	is_str(r.dso, "[kernel.kallsyms]", "... in [kernel.kallsyms]");
	is_int(sym_session_resolve(s, -1, 0xffffffff80000000, true, &r), -ENOENT,
	       "an address outside the kernel and every module is -ENOENT");
	is_str(r.dso, "[unknown]", "... in [unknown]");
	ok(!r.sym, "... with no name");
}

static void test_modules(struct sym_session *s)
{
	struct sym_result r;

	is_int(sym_session_resolve(s, -1, 0xffffffffc0002010, true, &r), 0, "module address");
	is_str(r.sym, "mod_a_fn", "module symbol name without the [module] suffix");
	is_str(r.dso, "[mod_a]", "module dso is [module]");
	is_str(kname(s, 0xffffffffc0002180), "mod_a_other", "module symbol end fix-up");
	is_int(sym_session_resolve(s, -1, 0xffffffffc0004000, true, &r), -ENOENT,
	       "the last symbol of a module ends at the next page, not at the next module");
	is_int(sym_session_resolve(s, -1, 0xffffffffc0005004, true, &r), 0, "second module");
	is_str(r.dso, "[mod_b]", "... its dso");

	/* once the recording names module mappings, they decide */
	is_int(sym_session_add_map(s, -1, 0xffffffffc0002000, 0x2800, 0,
				   "/lib/modules/6.1.0/kernel/fs/mod-a.ko.xz"), 0, "module MMAP");
	is_str(kname(s, 0xffffffffc0002180), "mod_a_other", "a symbol in a module mapping");
	is_int(sym_session_resolve(s, -1, 0xffffffffc0004100, true, &r), 0,
	       "an address in a module mapping but past its symbols is rc 0");
	is_str(r.dso, "[mod_a]", "the module dso comes from the path, '-' as '_'");
	ok(!r.sym, "... and has no name");
	is_int(sym_session_resolve(s, -1, 0xffffffffc0005004, true, &r), -ENOENT,
	       "a module without a mapping is unknown once mappings are known");
}

static void test_kernel_map(void)
{
	struct sym_session *s = session(kallsyms_text);
	struct sym_result r;

	is_int(sym_session_add_map(s, -1, 0xffffffff81000000, 0x800, 0xffffffff81000000,
				   "[kernel.kallsyms]_text"), 0, "kernel MMAP");
	is_str(kname(s, 0xffffffff81000700), "after_pad", "inside the recorded kernel map");
	is_int(sym_session_resolve(s, -1, 0xffffffff81000810, true, &r), 0,
	       "past the recorded kernel map: perf 6.1 widens the map to the kernel symbols");
	is_str(r.sym, "cfi_fn", "... and names it");
	is_int(sym_session_resolve(s, -1, 0xffffffff81000000 - 1, true, &r), -ENOENT,
	       "below the first kernel symbol is unknown");
	sym_session_free(s);
}

static void test_interning(struct sym_session *s)
{
	struct sym_result a, b;

	sym_session_resolve(s, -1, 0xffffffff81000210, true, &a);
	sym_session_resolve(s, -1, 0xffffffff81000220, true, &b);
	ok(a.sym == b.sym, "two addresses in one symbol give the same name pointer");
	ok(a.dso == b.dso, "... and the same dso pointer");
}

/*
 * This 6.18 kernel's start of text: four names at _text (the SRSO alias thunk, _stext, _text and
 * the startup code's __pi__text alias). perf 6.1 keeps the last of them (after its end fix-up the
 * others have length zero): a kernel-chain address there is __pi__text in perf script, checked
 * against perf 6.1 on a recording rewritten to sample exactly _text. (t4000's rare mismatch at
 * _text was a user-chain entry, which perf looks up in the process's maps: see t4000.)
 */
static void test_text_aliases(void)
{
	struct sym_session *s = session("ffffffff81000000 T srso_alias_untrain_ret\n"
					"ffffffff81000000 T _stext\n"
					"ffffffff81000000 T _text\n"
					"ffffffff81000000 T __pi__text\n"
					"ffffffff81000010 T __entry_text_start\n"
					"ffffffff81000040 T entry_SYSCALL_64\n"
					"ffffffff81100000 T _etext\n");
	struct sym_result r;

	ok(s, "a session over the start of a 6.18 kernel's text");
	if (!s)
		return;
	is_int(sym_session_add_map(s, -1, 0xffffffff81000000, 0x100000, 0xffffffff81000000,
				   "[kernel.kallsyms]_text"), 0, "the kernel MMAP from _text");
	is_int(sym_session_resolve(s, -1, 0xffffffff81000000, true, &r), 0, "exactly _text");
	is_str(r.sym, "__pi__text", "... is __pi__text, perf 6.1's choice among the four");
	is_str(kname(s, 0xffffffff8100000f), "__pi__text", "... up to the next symbol");
	is_int(sym_session_resolve(s, 1234, 0xffffffff81000000, false, &r), -ENOENT,
	       "the same address in a user chain (no mapping there) is unknown, as in perf");
	is_str(r.dso, "[unknown]", "... dso [unknown]");
	sym_session_free(s);
}

/* Bytes the heap holds after a session over @text is made (the session kept), into *bytes. */
static struct sym_session *session_held(const char *text, size_t *bytes)
{
	struct mallinfo2 a = mallinfo2(), b;
	struct sym_session *s = session(text);

	b = mallinfo2();
	/* big blocks are mappings of their own (hblkhd) */
	*bytes = b.uordblks + b.hblkhd - a.uordblks - a.hblkhd;
	return s;
}

/*
 * A kallsyms text of many chunks (kallsyms.c reads it 256 KiB at a time): lines across chunk
 * boundaries, a line longer than a chunk, a last line without a newline; and what the session
 * keeps of it is the names of the symbols kept, not the text (the text of a live kernel is
 * ~5 MB, mostly addresses and the symbols perf skips).
 */
static void test_chunks(void)
{
	size_t nr = 20000, cap = nr * 160 + (300 << 10), len = 0, held_small, held_big;
	char *text = malloc(cap), *longname = malloc((300 << 10) + 1), name[32];
	struct sym_session *s, *small;
	bool all = true;

	if (!text || !longname)
		skip_all("out of memory");
	memset(longname, 'x', 300 << 10);
	longname[300 << 10] = '\0';
	for (size_t i = 0; i < nr; i++) {
		/* one in 10 kept: the rest read-only data, with long names */
		len += (size_t)sprintf(text + len, "ffffffff81%06zx %c %s_%zu_with_a_long_rodata_name_"
				       "that_perf_does_not_keep_%s\n", i * 16,
				       i % 10 ? 'r' : 'T', i % 10 ? "data" : "fn", i,
				       i % 10 ? "padding_padding_padding" : "");
		if (i == nr / 2)
			len += (size_t)sprintf(text + len, "ffffffff81%06zx r %s\n", i * 16 + 8,
					       longname);
	}
	len += (size_t)sprintf(text + len, "ffffffff81%06zx T last_fn", nr * 16);
	small = session_held("ffffffff81000000 T fn_0\n", &held_small);
	s = session_held(text, &held_big);
	ok(s, "a session over a kallsyms text of %zu bytes", len);
	if (s) {
		for (size_t i = 0; i < nr; i += 10) {
			const char *k = kname(s, 0xffffffff81000000 + i * 16 + 4);

			snprintf(name, sizeof(name), "fn_%zu_with", i);
			if (!k || strncmp(k, name, strlen(name))) {
				all = false;
				diag("at %zu: %s", i, k ? k : "(none)");
				break;
			}
		}
		ok(all, "every kept symbol named, across chunk boundaries and the long line");
		is_str(kname(s, 0xffffffff81000000 + nr * 16), "last_fn",
		       "the last line, without a newline");
		if (held_small)
			ok(held_big - held_small < len / 4,
			   "the session holds %zu bytes more than over one line, for %zu bytes of "
			   "text: not the text", held_big - held_small, len);
		else
			skip(1, "mallinfo2 counts nothing here (another malloc)");
	}
	sym_session_free(s);
	sym_session_free(small);
	free(longname);
	free(text);
}

static void test_sources(void)
{
	struct sym_opts o = { .kallsyms = "/nonexistent/kallsyms", .no_vmlinux_search = true };
	struct sym_session *s;
	struct sym_result r;

	errno = 0;
	ok(!sym_session_new(&o) && errno == ENOENT, "a missing --kallsyms file is ENOENT");

	s = session("0000000000000000 T _text\n0000000000000000 T foo\n");
	ok(s, "a kallsyms read with kptr_restrict (all zero) is accepted");
	if (!s)
		return;
	is_str(sym_session_kernel_source(s), "none", "... and gives no kernel source");
	is_int(sym_session_resolve(s, -1, 0xffffffff81000000, true, &r), 0, "... addresses rc 0");
	ok(!r.sym, "... without names");
	is_str(r.dso, "[kernel.kallsyms]", "... in the kernel");
	sym_session_free(s);
}

int main(void)
{
	struct sym_session *s;
	char want[128];
	int fd;

	snprintf(path, sizeof(path), "/tmp/kprof-kallsyms-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		skip_all("cannot create a temporary file");
	close(fd);

	s = session(kallsyms_text);
	ok(s, "session over a synthetic kallsyms");
	if (!s)
		return done_testing();
	snprintf(want, sizeof(want), "kallsyms %s", path);
	is_str(sym_session_kernel_source(s), want, "kernel source names the kallsyms file");
	test_types_and_ends(s);
	test_padding(s);
	test_outside(s);
	test_interning(s);
	test_modules(s);
	sym_session_free(s);
	test_text_aliases();
	test_kernel_map();
	test_sources();
	test_chunks();
	unlink(path);
	return done_testing();
}
