/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-read-check.h - read a whole perf.data file of samples (perf-data-build.h's put_sample)
 * and check what the reader's queue and its chunk pool (perf-read-data.c) did with them: every
 * sample delivered, in time order, its body still whole when it comes out, no chunk back in the
 * pool while records in it are queued, and no more chunks taken than @max_chunks. Included by
 * one test file each (static functions); needs tests/tap.h and perf-read-int.h.
 */
#ifndef KPROF_TEST_PERF_READ_CHECK_H
#define KPROF_TEST_PERF_READ_CHECK_H

#include "profiler/perfdata/perf-read-int.h"
#include "tests/tap.h"

static size_t nr_chunks(const struct pd_reader *r)
{
	size_t n = 0;

	for (const struct read_chunk *c = r->all_chunks; c; c = c->all)
		n++;
	return n;
}

/*
 * Chunks in the pool that still hold queued records, or the pool holding a chunk twice (a walk
 * longer than the chunks there are): each a chunk that reading could overwrite.
 */
static size_t pool_wrong(const struct pd_reader *r)
{
	size_t n = 0, wrong = 0, all = nr_chunks(r);

	for (const struct read_chunk *c = r->free_chunks; c; c = c->next) {
		if (++n > all)
			return wrong + 1;
		wrong += c->refs != 0;
	}
	return wrong;
}

static void read_check(const char *file, uint64_t want, size_t max_chunks, const char *what)
{
	uint64_t n = 0, last = 0, backwards = 0, bad = 0, pool = 0;
	struct pd_reader *r;
	struct pd_record rec;
	char err[256] = "";
	int ret;

	if (!ok(!pd_reader_open(file, &r, err, sizeof(err)), "%s: open (%s)", what, err))
		return;
	while ((ret = pd_reader_next(r, &rec, err, sizeof(err))) > 0) {
		struct pd_sample s;

		pool += pool_wrong(r);
		if (rec.hdr.type != PERF_RECORD_SAMPLE)
			continue;
		/* the body as it is now, not the time taken from it when it was queued */
		bad += pd_sample_decode(rec.body, rec.body_len, &rec.attr->attr, &s) ||
		       s.time != rec.time || s.ip != 0x401000;
		backwards += rec.time < last;
		last = rec.time;
		n++;
	}
	is_int(ret, 0, "%s: read to the end (%s)", what, err);
	is_u64(n, want, "%s: every sample delivered", what);
	is_u64(backwards, 0, "%s: in time order", what);
	is_u64(pool, 0, "%s: no chunk in the pool while records in it are queued", what);
	is_u64(bad, 0, "%s: each one whole", what);
	ok(nr_chunks(r) <= max_chunks, "%s: %zu chunks of 1 MiB", what, nr_chunks(r));
	pd_reader_close(r);
}

#endif
