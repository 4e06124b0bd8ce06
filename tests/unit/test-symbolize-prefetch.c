// SPDX-License-Identifier: GPL-2.0
/*
 * Files loaded ahead (sym_session_prefetch, prefetch.c): a session whose files a thread of its
 * own loads as they are mapped names every address exactly as a session that loads them on
 * first use, and counts the same files in its stats. Run under helgrind by make test-mem.
 */
#include <errno.h>
#include <inttypes.h>
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
	return done_testing();
}
