// SPDX-License-Identifier: GPL-2.0
/*
 * Files loaded ahead (sym_session_prefetch, prefetch.c): a session whose files a thread of its
 * own loads as they are mapped names every address exactly as a session that loads them on
 * first use, and counts the same files in its stats; so does one whose files another thread
 * announces (sym_session_announce) while it maps and resolves, stale build-ids included. Run
 * under helgrind by make test-mem.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize.h"
#include "tests/tap.h"

struct map {
	uint64_t	start, end;
};

/* This process's mappings into @s; the executable ones into @maps. */
static size_t add_self_maps(struct sym_session *s, struct map *maps, size_t max)
{
	char line[4096], path[4096], perms[8];
	FILE *fp = fopen("/proc/self/maps", "re");
	size_t n = 0;

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		uint64_t start, end, pgoff;
		int off = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &start, &end,
			   perms, &pgoff, &off) != 4)
			continue;
		snprintf(path, sizeof(path), "%s", line + off);
		path[strcspn(path, "\n")] = '\0';
		if (!path[0] || perms[2] != 'x')
			continue;
		if (sym_session_add_map(s, getpid(), start, end - start, pgoff, path) == 0 &&
		    n < max)
			maps[n++] = (struct map){ start, end };
	}
	fclose(fp);
	return n;
}

struct announcer {
	struct sym_session	*s;
	char			(*paths)[4096];
	size_t			nr;
	int			ret;
};

/* This process's executable mappings' files, up to @max. */
static size_t self_paths(char (*paths)[4096], size_t max)
{
	char line[4096], perms[8];
	FILE *fp = fopen("/proc/self/maps", "re");
	size_t n = 0;

	if (!fp)
		return 0;
	while (n < max && fgets(line, sizeof(line), fp)) {
		int off = 0;

		if (sscanf(line, "%*x-%*x %7s %*x %*s %*s %n", perms, &off) != 1 || perms[2] != 'x')
			continue;
		snprintf(paths[n], sizeof(paths[n]), "%s", line + off);
		paths[n][strcspn(paths[n], "\n")] = '\0';
		n += paths[n][0] != '\0';
	}
	fclose(fp);
	return n;
}

static void *announce_all(void *arg)
{
	struct announcer *a = arg;

	/* twice, and a file never mapped: each is loaded once, the unused one freed with it */
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < a->nr && !a->ret; i++)
			a->ret = sym_session_announce(a->s, a->paths[i]);
	if (!a->ret)
		a->ret = sym_session_announce(a->s, "/bin/sh");
	return NULL;
}

/*
 * A session whose files are announced by another thread while it maps and resolves names every
 * address as one that loads them itself, with the same stats, a stale build-id included.
 */
static void test_announced(void)
{
	static const uint8_t bogus[20] = { 1, 2, 3 };
	struct sym_opts o = { .no_kernel = true };
	struct sym_session *plain = sym_session_new(&o), *told = sym_session_new(&o);
	struct announcer a = { .s = told };
	struct map maps[256];
	struct sym_stats x, y;
	size_t nr, differ = 0;
	pthread_t t;

	a.paths = calloc(256, sizeof(*a.paths));
	a.nr = a.paths ? self_paths(a.paths, 256) : 0;
	if (!plain || !told || a.nr < 3) {
		ok(0, "sessions and this process's files");
		return;
	}
	/* libc as recorded is not this one: its recorded id says stale */
	for (size_t i = 0; i < a.nr; i++) {
		if (strstr(a.paths[i], "/libc.so")) {
			sym_session_set_build_id(plain, a.paths[i], bogus, sizeof(bogus));
			sym_session_set_build_id(told, a.paths[i], bogus, sizeof(bogus));
		}
	}
	is_int(sym_session_prefetch(told), 0, "a session with a prefetch thread");
	ok(!pthread_create(&t, NULL, announce_all, &a), "another thread announces its files");
	nr = add_self_maps(plain, maps, 256);
	ok(nr > 2 && add_self_maps(told, maps, 256) == nr, "while it maps them (%zu)", nr);
	for (size_t i = 0; i < nr; i++) {
		for (uint64_t addr = maps[i].start; addr < maps[i].end; addr += 512) {
			struct sym_result r1, r2;
			int ret1 = sym_session_resolve(plain, getpid(), addr, false, &r1);
			int ret2 = sym_session_resolve(told, getpid(), addr, false, &r2);

			differ += ret1 != ret2 || strcmp(r1.dso, r2.dso) || !r1.sym != !r2.sym ||
				  (r1.sym && strcmp(r1.sym, r2.sym)) || r1.sym_id != r2.sym_id;
		}
	}
	pthread_join(t, NULL);
	is_int(a.ret, 0, "every announcement taken");
	is_int((int)differ, 0, "every address named alike, announced or not");
	sym_session_stats(plain, &x);
	sym_session_stats(told, &y);
	ok(x.files_stale >= 1 && x.files_stale == y.files_stale &&
	   x.files_loaded == y.files_loaded && x.files_failed == y.files_failed &&
	   !strcmp(x.first_stale ? x.first_stale : "", y.first_stale ? y.first_stale : ""),
	   "the same files counted, the stale one too (%" PRIu64 " loaded, %" PRIu64 " stale)",
	   y.files_loaded, y.files_stale);
	is_int(sym_session_announce(told, "/tmp/perf-1.map"), 0,
	       "a JIT map is not announced (nothing to load ahead)");
	sym_session_free(told);
	sym_session_free(plain);
	free(a.paths);
}

static const uint8_t other_id[20] = { 9, 8, 7 };

/* The middle of @path's first executable mapping in this process (not &strlen: ASan's). */
static uint64_t exec_middle(const char *path)
{
	char line[4096], perms[8];
	FILE *fp = fopen("/proc/self/maps", "re");
	uint64_t start, end, mid = 0;
	int off;

	while (fp && !mid && fgets(line, sizeof(line), fp)) {
		off = 0;
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %*x %*s %*s %n", &start, &end, perms,
			   &off) == 3 && off && perms[2] == 'x' && !strcmp(line + off, path))
			mid = start + (end - start) / 2;
	}
	if (fp)
		fclose(fp);
	return mid;
}

struct id_announcer {
	struct sym_session	*s;
	const char		*path;
	int			ret;
};

static void *announce_with_id(void *arg)
{
	struct id_announcer *a = arg;

	a->ret = sym_session_announce_build_id(a->s, a->path, other_id, sizeof(other_id));
	return NULL;
}

/*
 * Build-ids that come with a mapping (an MMAP2 of perf record --buildid-mmap): the reading
 * thread announces the file with it, the session's thread gives it before mapping. A file with
 * another build-id is not used; one used already keeps what it was loaded as.
 */
static void test_mapped_build_id(void)
{
	struct sym_opts o = { .no_kernel = true };
	struct sym_session *s = sym_session_new(&o);
	char (*paths)[4096] = calloc(256, sizeof(*paths));
	struct id_announcer a = { .s = s };
	size_t nr = paths ? self_paths(paths, 256) : 0;
	const char *self = NULL;
	struct sym_result r;
	struct sym_stats st;
	struct map maps[256];
	pthread_t t;

	for (size_t i = 0; i < nr; i++) {
		if (strstr(paths[i], "/libc.so"))
			a.path = paths[i];
		else if (strstr(paths[i], "test-symbolize-prefetch"))
			self = paths[i];
	}
	if (!s || !a.path || !self || sym_session_prefetch(s)) {
		ok(0, "a prefetching session and this process's libc");
		sym_session_free(s);
		free(paths);
		return;
	}
	ok(!pthread_create(&t, NULL, announce_with_id, &a), "libc announced with another build-id");
	pthread_join(t, NULL);
	is_int(a.ret, 0, "... taken");
	is_int(sym_session_set_build_id(s, a.path, other_id, sizeof(other_id)), 0,
	       "... and given with its mapping");
	ok(add_self_maps(s, maps, 256) > 2, "this process mapped");
	is_int(sym_session_resolve(s, getpid(), exec_middle(a.path), false, &r), 0,
	       "an address in libc's code");
	ok(!r.sym && !strcmp(r.dso, a.path), "libc with another build-id is not used (%s)",
	   r.sym ? r.sym : "unnamed");
	is_int(sym_session_resolve(s, getpid(), (uint64_t)(uintptr_t)&test_mapped_build_id, false,
				   &r), 0, "an address in this program");
	is_str(r.sym, "test_mapped_build_id", "named");
	is_int(sym_session_set_build_id(s, self, other_id, sizeof(other_id)), 0,
	       "a build-id given after it was used");
	sym_session_resolve(s, getpid(), (uint64_t)(uintptr_t)&test_mapped_build_id + 1, false, &r);
	is_str(r.sym, "test_mapped_build_id", "... changes nothing (it keeps what it was loaded as)");
	sym_session_stats(s, &st);
	is_int((int)st.files_stale, 1, "one stale file");
	ok(st.first_stale && !strcmp(st.first_stale, a.path), "... libc");
	sym_session_free(s);
	free(paths);
}

int main(void)
{
	struct sym_opts o = { .no_kernel = true };
	struct sym_session *plain = sym_session_new(&o), *ahead = sym_session_new(&o);
	struct map maps[256];
	struct sym_stats a, b;
	size_t nr, checked = 0, named = 0, differ = 0;

	if (!plain || !ahead)
		skip_all("no session: %s", strerror(errno));
	is_int(sym_session_prefetch(ahead), 0, "the prefetch thread starts");
	nr = add_self_maps(plain, maps, 256);
	ok(nr > 2 && add_self_maps(ahead, maps, 256) == nr, "the same mappings in both (%zu)", nr);
	/* an address every 256 bytes of every executable mapping: files in load order or not */
	for (size_t i = nr; i-- > 0;) {
		for (uint64_t addr = maps[i].start; addr < maps[i].end; addr += 256) {
			struct sym_result x, y;
			int rx = sym_session_resolve(plain, getpid(), addr, false, &x);
			int ry = sym_session_resolve(ahead, getpid(), addr, false, &y);

			checked++;
			named += x.sym != NULL;
			differ += rx != ry || strcmp(x.dso, y.dso) || !x.sym != !y.sym ||
				  (x.sym && strcmp(x.sym, y.sym)) || x.sym_id != y.sym_id ||
				  x.sym_start != y.sym_start;
		}
	}
	ok(named > 100, "%zu of %zu addresses named", named, checked);
	is_int((int)differ, 0, "every address named alike with and without prefetching");
	sym_session_stats(plain, &a);
	sym_session_stats(ahead, &b);
	ok(a.files_loaded == b.files_loaded && a.files_failed == b.files_failed &&
	   a.files_stale == b.files_stale && a.lookups == b.lookups,
	   "the same files counted (%" PRIu64 " loaded, %" PRIu64 " failed)", b.files_loaded,
	   b.files_failed);
	sym_session_free(ahead);
	sym_session_free(plain);

	/* freed while the loader may still be busy: it stops, nothing leaks */
	ahead = sym_session_new(&o);
	ok(ahead && sym_session_prefetch(ahead) == 0 && add_self_maps(ahead, maps, 256) > 2,
	   "a session freed with files still queued");
	sym_session_free(ahead);
	test_announced();
	test_mapped_build_id();
	return done_testing();
}
