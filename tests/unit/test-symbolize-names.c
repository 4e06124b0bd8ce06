// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol names read from their file when first used (names-file.c, symtab_names_lazy): names
 * anywhere in a string table, across its blocks, up to its end; a file changed after its
 * symbols were loaded gives no names, and a session counts them (sym_stats.names_unread).
 * A table keeps its file open between reads, NAMES_FDS_KEPT tables at most.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"
#include "tests/tap.h"

#define HEADER		100		/* bytes before the string table in the test file */
#define LONG_NAME	10000		/* a name over three blocks */

static char dir[] = "/tmp/kprof-names-XXXXXX";

__attribute__((noinline)) int names_probe_first(int x)
{
	return x * 5 + 2;
}

/*
 * A name of 16K characters: it spans five blocks of the string table, of which the reads for
 * names_probe_first (a short name, at most two blocks) leave three unread wherever the linker
 * put the two names.
 */
#define PASTE(a, b)	a##b
#define CAT(a, b)	PASTE(a, b)
#define X64		xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
#define X128		CAT(X64, X64)
#define X256		CAT(X128, X128)
#define X512		CAT(X256, X256)
#define X1K		CAT(X512, X512)
#define X2K		CAT(X1K, X1K)
#define X4K		CAT(X2K, X2K)
#define X8K		CAT(X4K, X4K)
#define X16K		CAT(X8K, X8K)
#define LONG_PROBE	CAT(names_probe_, X16K)

__attribute__((noinline)) int LONG_PROBE(int x)
{
	return x * 11 + 7;
}

static int write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	bool good = fd >= 0 && write(fd, buf, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return good ? 0 : -1;
}

/*
 * A string table: "", "alpha", a name across the first block's end, a LONG_NAME-byte one, and
 * "omega" last; the table given to names_file_new() is cut @cut bytes short.
 */
struct table {
	char	*buf;		/* the file: HEADER bytes, then the table */
	size_t	len;		/* the table's length */
	size_t	alpha, across, lng, omega;	/* offsets in the table */
};

static void make_table(struct table *t)
{
	size_t at = 0;
	char *s;

	t->buf = calloc(1, HEADER + 3 * NAMES_BLOCK + LONG_NAME);
	s = t->buf + HEADER;
	memset(t->buf, 'H', HEADER);
	s[at++] = '\0';
	t->alpha = at;
	at += (size_t)sprintf(s + at, "alpha") + 1;
	at = NAMES_BLOCK - 6;
	t->across = at;
	at += (size_t)sprintf(s + at, "across_the_block_end") + 1;
	t->lng = at;
	memset(s + at, 'L', LONG_NAME);
	at += LONG_NAME + 1;
	t->omega = at;
	at += (size_t)sprintf(s + at, "omega") + 1;
	t->len = at;
}

static bool reads_as(struct sym_names_file *f, uint64_t at, const char *want)
{
	char *owned;
	const char *got = names_file_read(f, at, &owned);
	bool same = got && !strcmp(got, want);

	free(owned);
	return same;
}

static void test_read(void)
{
	char path[256], lng[LONG_NAME + 1];
	struct sym_names_file *f;
	struct table t;
	struct stat st;
	char *owned;

	make_table(&t);
	snprintf(path, sizeof(path), "%s/table", dir);
	if (write_file(path, t.buf, HEADER + t.len) || stat(path, &st)) {
		skip(10, "cannot write %s", path);
		free(t.buf);
		return;
	}
	ok(!names_file_new(path, &st, HEADER, t.len + 1) && errno == EINVAL,
	   "a table past the file's end is refused");
	f = names_file_new(path, &st, HEADER, t.len);
	ok(reads_as(f, t.alpha, "alpha"), "a name in the first block");
	ok(reads_as(f, t.alpha + 2, "pha"), "... from inside it (a suffix shared by another)");
	ok(reads_as(f, 0, ""), "the empty name at 0");
	ok(reads_as(f, t.across, "across_the_block_end"), "a name across a block's end");
	memset(lng, 'L', LONG_NAME);
	lng[LONG_NAME] = '\0';
	ok(reads_as(f, t.lng, lng), "a %d-byte name over three blocks", LONG_NAME);
	ok(reads_as(f, t.omega, "omega"), "the last name");
	ok(!names_file_read(f, t.len, &owned) && !owned, "past the table: nothing");
	ok(!names_file_changed(f), "the file is the one loaded");
	names_file_free(f);

	/* a table without its last NUL: the last name has no end */
	f = names_file_new(path, &st, HEADER, t.len - 1);
	ok(!names_file_read(f, t.omega, &owned) && !owned, "a name not ended in the table: nothing");
	names_file_free(f);

	/* the same size, written again with another modification time */
	f = names_file_new(path, &st, HEADER, t.len);
	ok(reads_as(f, t.alpha, "alpha"), "read before the file changes");
	t.buf[HEADER + t.omega] = 'O';
	st.st_mtim.tv_sec -= 10;	/* the file as it was: written 10 s earlier */
	names_file_free(f);
	f = names_file_new(path, &st, HEADER, t.len);
	ok(!names_file_read(f, t.omega, &owned), "a file changed since: no name");
	ok(names_file_changed(f), "... and it says so");
	ok(!names_file_read(f, t.alpha, &owned), "... not even one read before");
	names_file_free(f);
	free(t.buf);
	unlink(path);
}

/*
 * The file stays open after a table's first read: it is read where it was opened even once
 * unlinked, a change in place still stops the reads, and past NAMES_FDS_KEPT tables the file
 * is opened for each read (so an unlinked one gives no more names).
 */
static void test_kept_open(void)
{
	enum { TABLES = NAMES_FDS_KEPT + 3 };
	struct sym_names_file *f[TABLES];
	char path[TABLES][256];
	char lng[LONG_NAME + 1];
	struct timespec times[2];
	size_t readable = 0;
	struct table t;
	struct stat st;
	char *owned;
	int i;

	make_table(&t);
	for (i = 0; i < TABLES; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/kept-%d", dir, i);
		if (write_file(path[i], t.buf, HEADER + t.len) || stat(path[i], &st)) {
			skip(6, "cannot write %s", path[i]);
			while (i >= 0)
				unlink(path[i--]);
			free(t.buf);
			return;
		}
		f[i] = names_file_new(path[i], &st, HEADER, t.len);
	}
	for (i = 0; i < TABLES; i++)
		reads_as(f[i], t.alpha, "alpha");
	for (i = 0; i < TABLES; i++) {
		unlink(path[i]);
		readable += reads_as(f[i], t.omega, "omega");
	}
	is_u64(readable, NAMES_FDS_KEPT, "%d of %d tables read a block after their file was "
	       "unlinked: the ones whose file stayed open", NAMES_FDS_KEPT, TABLES);
	ok(!names_file_changed(f[0]), "... an unlinked file is not a changed one");
	memset(lng, 'L', LONG_NAME);
	lng[LONG_NAME] = '\0';
	ok(reads_as(f[0], t.lng, lng), "... the first one reads blocks it had not read yet");
	ok(!reads_as(f[TABLES - 1], t.lng, lng), "... the last one, opened for each read, not");
	for (i = 0; i < TABLES; i++)
		names_file_free(f[i]);

	/* freed tables close their files: a new one keeps its file open again */
	if (write_file(path[0], t.buf, HEADER + t.len) || stat(path[0], &st)) {
		skip(2, "cannot write %s", path[0]);
		free(t.buf);
		return;
	}
	f[0] = names_file_new(path[0], &st, HEADER, t.len);
	reads_as(f[0], t.alpha, "alpha");
	/* the same size, another modification time: the open file is checked at each read */
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	times[1].tv_sec -= 10;
	if (utimensat(AT_FDCWD, path[0], times, 0)) {
		skip(2, "cannot set the modification time of %s", path[0]);
		names_file_free(f[0]);
		unlink(path[0]);
		free(t.buf);
		return;
	}
	ok(!names_file_read(f[0], t.omega, &owned) && !owned,
	   "a file changed in place while open: no name");
	ok(names_file_changed(f[0]), "... and it says so");
	names_file_free(f[0]);
	unlink(path[0]);
	free(t.buf);
}

/*
 * symtab_names_lazy(): the names in the loaded table are read from the file, others kept, and
 * binutils' names of folded symbols (aliases) copied.
 */
static void test_lazy_table(void)
{
	char path[256], longer[] = "longer_name_elsewhere";
	struct sym_strpool pool = { 0 };
	struct symtab tab = { 0 };
	const char *a, *b, *table;
	struct table t;
	struct stat st;
	char *owned;

	make_table(&t);
	table = t.buf + HEADER;
	snprintf(path, sizeof(path), "%s/lazy", dir);
	if (write_file(path, t.buf, HEADER + t.len) || stat(path, &st)) {
		skip(10, "cannot write %s", path);
		free(t.buf);
		return;
	}
	/*
	 * The names as libelf has them while loading: in the table's bytes, but one. At 0x1000
	 * perf keeps the longer name, binutils the smaller symbol ("alpha", an alias).
	 */
	symtab_add(&tab, 0x1000, 0x08, STB_GLOBAL, table + t.alpha, NULL);
	symtab_add(&tab, 0x1000, 0x10, STB_GLOBAL, longer, NULL);
	symtab_add(&tab, 0x2000, 0x10, STB_GLOBAL, table + t.omega, NULL);
	symtab_add(&tab, 0x3000, 0x10, STB_GLOBAL, table + t.across, NULL);
	symtab_finish(&tab, false);
	ok(tab.nr == 3 && tab.nr_aliases == 1, "three symbols, one alias (binutils' name)");
	/* a PLT stub of "alpha", added after the fix-ups as elf-file.c does */
	symtab_add(&tab, 0x0800, 0x10, STB_GLOBAL, table + t.alpha, NULL);
	tab.v[tab.nr - 1].plt = true;
	symtab_sort(&tab);
	is_int(symtab_names_lazy(&tab, names_file_new(path, &st, HEADER, t.len), table, t.len,
				 &pool), 0, "made lazy");
	ok(tab.v[0].lazy && tab.v[0].plt && !tab.v[1].lazy && tab.v[2].lazy && tab.v[3].lazy,
	   "the names in the table are lazy (a stub's too), the one elsewhere is not");
	ok(tab.v[1].name == longer, "... that one is still its pointer");
	ok(!strcmp(tab.aliases[0].name, "alpha") &&
	   (tab.aliases[0].name < table || tab.aliases[0].name >= table + t.len),
	   "the alias name is copied out of the table");
	/* the loaded bytes go away, as libelf's do when the file is closed */
	memset(t.buf, 0, HEADER + t.len);
	free(t.buf);
	a = sym_entry_demangled(&tab, &tab.v[3], &owned);
	ok(a && !strcmp(a, "across_the_block_end"), "a lazy name, read from the file");
	free(owned);
	a = sym_entry_demangled(&tab, &tab.v[0], &owned);
	ok(a && !strcmp(a, "alpha@plt"), "a lazy stub's name: its target's, @plt");
	free(owned);
	a = sym_entry_name(&tab, &tab.v[2], &pool);
	b = sym_entry_name(&tab, &tab.v[2], &pool);
	ok(a && a == b && !strcmp(a, "omega") && tab.v[2].named && !tab.v[2].lazy,
	   "named once, the interned name kept in the entry");
	ok(a == sym_strpool_intern(&pool, "omega"), "... the pool's pointer");
	a = symtab_bfd_name(&tab, 0x1004, &owned);
	ok(a && !strcmp(a, "alpha"), "binutils' name is the copied alias");
	free(owned);
	a = symtab_bfd_name(&tab, 0x2004, &owned);
	ok(a && !strcmp(a, "omega"), "binutils' name of a named symbol: its name");
	free(owned);
	symtab_release(&tab);
	sym_strpool_release(&pool);
	unlink(path);
}

/* A mangled lazy name is demangled; without a names file the names are copied instead. */
static void test_demangled_and_copied(void)
{
	char path[256], buf[64] = "\0_ZN2ns3fooEv\0plain";
	struct sym_strpool pool = { 0 };
	struct symtab tab = { 0 };
	struct stat st;
	const char *n;
	char *owned;

	snprintf(path, sizeof(path), "%s/mangled", dir);
	if (write_file(path, buf, 20) || stat(path, &st)) {
		skip(3, "cannot write %s", path);
		return;
	}
	symtab_add(&tab, 0x10, 4, STB_GLOBAL, buf + 1, NULL);
	tab.v[0].mangled = sym_maybe_mangled(buf + 1);
	symtab_finish(&tab, false);
	symtab_names_lazy(&tab, names_file_new(path, &st, 0, 20), buf, 20, &pool);
	n = sym_entry_demangled(&tab, &tab.v[0], &owned);
	ok(n && !strcmp(n, "ns::foo"), "a mangled lazy name is shown demangled");
	free(owned);
	symtab_release(&tab);

	symtab_add(&tab, 0x10, 4, STB_GLOBAL, buf + 14, NULL);
	symtab_finish(&tab, false);
	is_int(symtab_names_lazy(&tab, NULL, buf, 20, &pool), 0, "no names file: copied");
	memset(buf, 'x', sizeof(buf));
	ok(!tab.v[0].lazy && !strcmp(tab.v[0].name, "plain"), "... the copy outlives the bytes");
	symtab_release(&tab);
	sym_strpool_release(&pool);
	unlink(path);
}

/* The test's own code page from /proc/self/maps: its start and file offset. 0 or -1. */
static int own_code_map(uint64_t addr, uint64_t *start, uint64_t *pgoff)
{
	char line[4096];
	FILE *fp = fopen("/proc/self/maps", "re");
	int ret = -1;

	while (fp && ret && fgets(line, sizeof(line), fp)) {
		uint64_t end;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64, start, &end, pgoff) == 3 &&
		    addr >= *start && addr < end)
			ret = 0;
	}
	if (fp)
		fclose(fp);
	return ret;
}

/*
 * A session over a copy of this test: one function named, then the copy is touched (a rebuild
 * in place), and the other function's name (LONG_PROBE, so that the blocks read for the first
 * cannot hold it) cannot be read back: unnamed, counted.
 */
static void test_session_changed_file(void)
{
	uint64_t first = (uint64_t)(uintptr_t)names_probe_first;
	uint64_t second = (uint64_t)(uintptr_t)LONG_PROBE, start, pgoff;
	struct sym_opts o = { .no_vmlinux_search = true, .no_kernel = true };
	char copy[256], cmd[4400], exe[4096];
	ssize_t n;
	struct sym_session *s;
	struct sym_result r;
	struct sym_stats st;
	pid_t pid = 1 << 22;

	/* readlink, not a child's /proc/PID/exe: under valgrind that is valgrind's tool */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(copy, sizeof(copy), "%s/copy", dir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", exe, copy);
	if (n <= 0 || own_code_map(first, &start, &pgoff) || own_code_map(second, &start, &pgoff) ||
	    system(cmd) || !(s = sym_session_new(&o))) {
		skip(5, "no copy of this test or no session");
		return;
	}
	sym_session_add_map(s, pid, start, 1 << 20, pgoff, copy);
	sym_session_resolve(s, pid, first, false, &r);
	ok(r.sym && !strcmp(r.sym, "names_probe_first"), "a function of the copy is named (%s)",
	   r.sym ? r.sym : "NULL");
	snprintf(cmd, sizeof(cmd), "touch -d '2001-01-01' '%s'", copy);
	if (system(cmd)) {
		skip(4, "cannot touch the copy");
		sym_session_free(s);
		return;
	}
	sym_session_resolve(s, pid, second, false, &r);
	ok(!r.sym, "after the copy changed, another one is not");
	sym_session_resolve(s, pid, first, false, &r);
	ok(r.sym && !strcmp(r.sym, "names_probe_first"), "... the one named before still is");
	sym_session_stats(s, &st);
	is_u64(st.names_unread, 1, "one symbol counted unnamed");
	ok(st.first_names_unread && !strcmp(st.first_names_unread, copy), "... in the copy");
	sym_session_free(s);
	unlink(copy);
}

int main(void)
{
	if (!mkdtemp(dir))
		skip_all("no temporary directory");
	test_read();
	test_kept_open();
	test_lazy_table();
	test_demangled_and_copied();
	test_session_changed_file();
	rmdir(dir);
	return done_testing();
}
