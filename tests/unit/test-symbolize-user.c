// SPDX-License-Identifier: GPL-2.0
/*
 * User-space names through libdwfl, over this test's own address space (/proc/self/maps fed in
 * as mappings): its functions, libc's, special mappings, unknown addresses, fork inheritance,
 * one load per file across processes, and the (file, offset) cache.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "symbolize/symbolize.h"
#include "tests/tap.h"
#include "tests/unit/self-maps.h"

#define OTHER_PID	(1 << 22)	/* above pid_max's default: not a real process */

__attribute__((noinline)) int symfix_user_target(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) static int symfix_user_local(int x)
{
	return x ^ 0x55;
}

static void test_own_functions(struct sym_session *s, pid_t pid)
{
	uint64_t target = (uint64_t)(uintptr_t)symfix_user_target;
	uint64_t local = (uint64_t)(uintptr_t)symfix_user_local;
	struct sym_result r;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	is_int(sym_session_resolve(s, pid, target, false, &r), 0, "own global function");
	is_str(r.sym, "symfix_user_target", "... named");
	is_str(r.dso, exe, "... in this executable");
	is_u64(r.sym_start, target, "... starting at its address");
	is_int(sym_session_resolve(s, pid, target + 2, false, &r), 0, "inside the function");
	is_str(r.sym, "symfix_user_target", "... same name");
	is_u64(r.sym_start, target, "... same start");
	sym_session_resolve(s, pid, local, false, &r);
	is_str(r.sym, "symfix_user_local", "own static function");
}

/* The /proc/self/maps line covering @addr: its start, pgoff and path. 0 or -1. */
static int self_map_of(uint64_t addr, uint64_t *start, uint64_t *pgoff, char *path, size_t len)
{
	char line[4096];
	FILE *fp = fopen("/proc/self/maps", "re");
	int ret = -1;

	while (fp && ret && fgets(line, sizeof(line), fp)) {
		uint64_t end;
		int off = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %n", start, &end,
			   pgoff, &off) != 3 || addr < *start || addr >= end)
			continue;
		snprintf(path, len, "%s", line + off);
		path[strcspn(path, "\n")] = '\0';
		ret = 0;
	}
	if (fp)
		fclose(fp);
	return ret;
}

/*
 * sym_id identifies a symbol within its file: the same in a process that maps the file
 * elsewhere (a library under ASLR), different for another symbol of the file.
 */
static void test_sym_id(struct sym_session *s, pid_t pid)
{
	uint64_t target = (uint64_t)(uintptr_t)symfix_user_target;
	uint64_t local = (uint64_t)(uintptr_t)symfix_user_local;
	uint64_t start, pgoff, moved = 0x100000000000ULL;	/* the other process's mapping */
	pid_t other = OTHER_PID + 2;
	struct sym_result a, b, c;
	char path[4096];

	if (self_map_of(target, &start, &pgoff, path, sizeof(path))) {
		skip(6, "no /proc/self/maps line for the test's own code");
		return;
	}
	sym_session_resolve(s, pid, target + 1, false, &a);
	sym_session_resolve(s, pid, local, false, &c);
	ok(a.sym_id, "a function has a sym_id (%#" PRIx64 ")", a.sym_id);
	ok(c.sym_id != a.sym_id, "... another function of the file has another");
	pgoff += (target & ~4095ULL) - start;	/* the page of the function, elsewhere */
	is_int(sym_session_add_map(s, other, (target & ~4095ULL) + moved, 8192, pgoff, path), 0,
	       "another process maps the file elsewhere");
	is_int(sym_session_resolve(s, other, target + moved + 1, false, &b), 0,
	       "... the function resolves there");
	is_u64(b.sym_start, target + moved, "... sym_start is where that process has it");
	is_u64(b.sym_id, a.sym_id, "... sym_id is the same in both processes");
}

static void test_libc(struct sym_session *s, pid_t pid)
{
	uint64_t fn = (uint64_t)(uintptr_t)&getppid;
	struct sym_result r;

	is_int(sym_session_resolve(s, pid, fn, false, &r), 0, "a libc function");
	ok(r.sym && strstr(r.sym, "getppid"), "... named after getppid (got %s)",
	   r.sym ? r.sym : "NULL");
	ok(strstr(r.dso, "libc.so"), "... in libc (got %s)", r.dso);
	is_u64(r.sym_start, fn, "... starting at the function's address");
}

static void test_special(struct sym_session *s, pid_t pid, uint64_t stack_addr)
{
	unsigned long vdso = getauxval(AT_SYSINFO_EHDR);
	struct sym_result r;

	char jit_map[64];

	snprintf(jit_map, sizeof(jit_map), "/tmp/perf-%d.map", (int)pid);
	is_int(sym_session_resolve(s, pid, stack_addr, false, &r), 0, "[stack] address");
	ok(!r.sym, "... has no name");
	is_str(r.dso, jit_map, "... dso /tmp/perf-PID.map, as perf names anonymous code");
	if (vdso) {
		is_int(sym_session_resolve(s, pid, vdso + 1, false, &r), 0, "[vdso] address");
		is_str(r.dso, "[vdso]", "... dso [vdso]");
	} else {
		skip(2, "no vdso");
	}
	is_int(sym_session_resolve(s, pid, 0x1000, false, &r), -ENOENT, "unmapped: -ENOENT");
	is_str(r.dso, "[unknown]", "... dso [unknown]");
	ok(!r.sym, "... no name");
	is_int(sym_session_resolve(s, 12345678, 0x1000, false, &r), -ENOENT, "unknown pid");
	is_str(r.dso, "[unknown]", "... dso [unknown]");

	is_int(sym_session_add_map(s, pid, 0x10000, 0x1000, 0, "/nonexistent/libgone.so"), 0,
	       "a mapping of a file that no longer exists");
	is_int(sym_session_resolve(s, pid, 0x10010, false, &r), 0, "... resolves rc 0");
	ok(!r.sym, "... without a name");
	is_str(r.dso, "/nonexistent/libgone.so", "... in the mapping's path");
	is_int(sym_session_add_map(s, pid, 0x20000, 0x1000, 0, "/etc/hostname"), 0,
	       "a mapping of a file that is not ELF");
	is_int(sym_session_resolve(s, pid, 0x20010, false, &r), 0, "... resolves rc 0, no crash");
	ok(!r.sym, "... without a name");
}

static void test_jit_map(struct sym_session *s)
{
	pid_t jit_pid = OTHER_PID + 1;
	struct sym_result r;
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)jit_pid);
	fp = fopen(path, "w");
	if (!fp) {
		skip(8, "cannot write %s", path);
		return;
	}
	fprintf(fp, "7f0000001000 100 jit_alpha\n7f0000001100 80 LazyCompile:*beta app.js:3\n"
		"garbage line\n7f0000002000 0 jit_zero_size\n");
	fclose(fp);
	is_int(sym_session_add_map(s, jit_pid, 0x7f0000000000, 0x10000, 0, "//anon"), 0,
	       "an anonymous executable mapping");
	is_int(sym_session_resolve(s, jit_pid, 0x7f0000001010, false, &r), 0, "JIT address");
	is_str(r.sym, "jit_alpha", "... named from /tmp/perf-PID.map");
	is_str(r.dso, path, "... dso is the map file");
	is_u64(r.sym_start, 0x7f0000001000, "... start as written");
	is_u64(r.sym_id, r.sym_start, "... which is its sym_id (one address space)");
	sym_session_resolve(s, jit_pid, 0x7f0000001110, false, &r);
	is_str(r.sym, "LazyCompile:*beta app.js:3", "names keep their spaces");
	sym_session_resolve(s, jit_pid, 0x7f0000002001, false, &r);
	ok(!r.sym, "a zero-sized JIT symbol covers only its first byte (perf does no end fix-up)");
	unlink(path);
}

static void test_cache_and_fork(struct sym_session *s, pid_t pid)
{
	uint64_t target = (uint64_t)(uintptr_t)symfix_user_target + 1;
	struct sym_result a, b;
	struct sym_stats st0, st1, st2;

	sym_session_stats(s, &st0);
	sym_session_resolve(s, pid, target, false, &a);
	sym_session_stats(s, &st1);
	sym_session_resolve(s, pid, target, false, &b);
	sym_session_stats(s, &st2);
	ok(a.sym && a.sym == b.sym, "the same address twice gives the same name pointer");
	ok(a.dso == b.dso, "... and the same dso pointer");
	is_u64(st2.lookups, st1.lookups, "the second lookup searches nothing");
	is_u64(st2.cache_hits, st1.cache_hits + 1, "... it is a cache hit");
	is_u64(st2.files_loaded, st0.files_loaded, "... and loads nothing");

	is_int(sym_session_fork(s, pid, OTHER_PID), 0, "fork");
	is_int(sym_session_resolve(s, OTHER_PID, target, false, &b), 0, "the child resolves");
	ok(b.sym == a.sym, "... the parent's mappings, same name");
	sym_session_stats(s, &st1);
	is_u64(st1.lookups, st2.lookups, "... the child shares the file and its cache");
	is_int(sym_session_add_map(s, OTHER_PID, target & ~4095ULL, 4096, 0, "[anon:child]"), 0,
	       "the child maps over the function");
	sym_session_resolve(s, OTHER_PID, target, false, &b);
	is_str(b.dso, "[anon:child]", "... the child sees its new mapping");
	sym_session_resolve(s, pid, target, false, &b);
	is_str(b.sym, "symfix_user_target", "... the parent still sees the function");
}

static int open_fds(void)
{
	char path[64];
	int n = 0;

	for (int fd = 0; fd < 1024; fd++) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n += access(path, F_OK) == 0;
	}
	return n;
}

int main(void)
{
	int fds;

	struct sym_opts o = { .no_vmlinux_search = true };
	struct sym_session *s;
	struct sym_stats st;
	uint64_t stack_addr = 0;
	pid_t pid = getpid();

	s = sym_session_new(&o);
	if (!s)
		skip_all("no session: %s", strerror(errno));
	ok(add_self_maps(s, pid, &stack_addr) > 0, "mappings of /proc/self/maps added");
	fds = open_fds();
	test_own_functions(s, pid);
	test_sym_id(s, pid);
	test_libc(s, pid);
	test_special(s, pid, stack_addr);
	test_cache_and_fork(s, pid);
	test_jit_map(s);
	sym_session_stats(s, &st);
	ok(st.files_loaded >= 3, "the executable, libc and a JIT map were loaded (%" PRIu64 ")",
	   st.files_loaded);
	/* the two -ENOENT resolves (unmapped address, unknown pid) neither search nor hit */
	ok(st.resolves == st.lookups + st.cache_hits + 2,
	   "every resolve with a mapping is a lookup or a cache hit");
	sym_session_free(s);
	/* not before: the files names are read from stay open while the session lives */
	is_int(open_fds(), fds, "files read for their symbols are closed, at the latest when the "
	       "session is freed");
	return done_testing();
}
