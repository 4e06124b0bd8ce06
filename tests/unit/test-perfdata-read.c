// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader on files built here byte by byte: attrs of other sizes, ids and event
 * names, perf's time ordering across FINISHED_ROUND, and every kind of bad input (each one an
 * error with a message, never a crash -- run under ASan by make test SANITIZE=1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profiler/perfdata/perf-read-int.h"
#include "profiler/perfdata/perfdata.h"
#include "tests/tap.h"
#include "tests/unit/perf-data-build.h"
#include "tests/unit/perf-read-check.h"

static char path[] = "/tmp/kprof-perf-read-XXXXXX";

static void write_file(const void *p, size_t len)
{
	struct buf b = { (unsigned char *)p, len, len };

	buf_write(&b, path);
}

/* Read the whole file; 0 when it is all good, else the error, with its message in err. */
static int read_all(const void *p, size_t len, uint64_t *times, size_t *nr, char *err)
{
	struct pd_reader *r;
	struct pd_record rec;
	int ret;

	*err = 0;
	*nr = 0;
	write_file(p, len);
	ret = pd_reader_open(path, &r, err, 256);
	if (ret)
		return ret;
	while ((ret = pd_reader_next(r, &rec, err, 256)) > 0) {
		if (rec.hdr.type == PERF_RECORD_SAMPLE && times && *nr < 64)
			times[(*nr)++] = rec.time;
	}
	pd_reader_close(r);
	return ret;
}

/*
 * perf's ordered_events: the first round sets the flush limit only, each later round releases
 * what is older than the previous round's newest record, the end releases the rest.
 */
static void records_ordering(struct buf *b)
{
	uint64_t comm[] = { (uint64_t)7 << 32 | 7, 0x6c6c6568 /* "hell" */, 0, 0 };

	put_record(b, PERF_RECORD_COMM, 0, comm, 4);	/* trailer time 0: goes out at once */
	put_sample(b, 100, 10);
	put_sample(b, 110, 30);
	put_sample(b, 100, 20);
	put_round(b);
	put_sample(b, 111, 15);
	put_sample(b, 100, 40);
	put_round(b);
	put_sample(b, 100, 5);		/* older than the last flush: late, but kept */
	put_sample(b, 999, 50);		/* an id of no attr: skipped */
}

static void test_good_file(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 2, true, records_ordering, 0, 0, 0 };
	struct buf f = build(&o);
	const uint64_t want[] = { 10, 15, 20, 30, 5, 40 };
	struct pd_reader *r;
	struct pd_record rec;
	uint64_t times[64];
	char err[256];
	size_t nr, i;
	int ret, attr_of[64] = { 0 };

	is_int(read_all(f.p, f.len, times, &nr, err), 0, "a good file reads (%s)", err);
	ok(nr == 6, "six known samples delivered (%zu)", nr);
	for (i = 0; i < nr && i < 6 && times[i] == want[i]; i++)
		;
	is_int((int)i, 6, "in perf's delivery order");

	ret = pd_reader_open(path, &r, err, sizeof(err));
	is_int(ret, 0, "open");
	if (ret)
		goto out;
	is_int((int)pd_reader_nr_attrs(r), 2, "two attrs");
	is_str(pd_reader_attr(r, 0)->name, "cpu-clock", "EVENT_DESC names attr 0 by id");
	is_str(pd_reader_attr(r, 1)->name, "dummy:HG", "EVENT_DESC names attr 1 by id");
	is_str(pd_reader_info(r)->hostname, "testhost", "HOSTNAME");
	is_str(pd_reader_info(r)->cmdline, "perf record", "CMDLINE joined");
	is_int(pd_reader_info(r)->nr_cpus_online, 2, "NRCPUS");
	nr = 0;
	while (pd_reader_next(r, &rec, err, sizeof(err)) > 0)
		if (rec.hdr.type == PERF_RECORD_SAMPLE && nr < 64)
			attr_of[nr++] = (int)rec.attr->idx;
	ok(attr_of[0] == 0 && attr_of[1] == 1 && attr_of[2] == 0 && attr_of[3] == 1,
	   "samples map to their attr by id");
	is_u64(pd_reader_stats(r)->unknown_id, 1, "unknown id counted");
	is_u64(pd_reader_stats(r)->unordered, 1, "late record counted");
	pd_reader_close(r);
out:
	free(f.p);
}

/* No FINISHED_ROUND at all: past the queue limit the older half goes out, in time order. */
static void records_no_rounds(struct buf *b)
{
	for (uint64_t i = 0; i < 100; i++)
		put_sample(b, 100, 1000 + (i % 2 ? i : 200 - i));
}

/* 3,000 rounds of 50 samples, out of order within each round: ~7 MB of records. */
static void records_many_rounds(struct buf *b)
{
	for (uint64_t round = 0; round < 3000; round++) {
		for (uint64_t j = 0; j < 50; j++)
			put_sample(b, 100, 1 + round * 100 + (j * 37) % 50);
		put_round(b);
	}
}

/* 6 rounds of 30,000 samples (1.4 MB each), out of order within each round. */
static void records_big_rounds(struct buf *b)
{
	for (uint64_t round = 0; round < 6; round++) {
		for (uint64_t j = 0; j < 30000; j++)
			put_sample(b, 100, 1 + round * 100000 + (j * 7919) % 30000);
		put_round(b);
	}
}

/*
 * A file of many 1 MiB buffers: every record comes out in order and whole, those the queue kept
 * across a refill of the buffer too; the buffer's chunks go back to the pool once their queued
 * records are out, and not before (rounds larger than a chunk keep several).
 */
static void read_in_order(void (*records)(struct buf *b), uint64_t want, size_t max_chunks,
			  const char *what)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records, 0, 0, 0 };
	struct buf f = build(&o);

	write_file(f.p, f.len);
	free(f.p);
	read_check(path, want, max_chunks, what);
}

static void test_many_rounds(void)
{
	read_in_order(records_many_rounds, 150000, 3, "~7 MB in 3,000 rounds");
	/* two rounds queued: ~2.9 MB, in 3 or 4 chunks */
	read_in_order(records_big_rounds, 180000, 5, "~8.6 MB in rounds of 1.4 MB");
}

/*
 * A file cut short by another program while it is read (a perf record still writing, a disk
 * full): an error naming the offset, where a mapping of the file would have ended the process
 * with SIGBUS.
 */
static void test_file_shrinks(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_many_rounds,
			       0, 0, 0 };
	struct buf f = build(&o);
	struct pd_reader *r;
	struct pd_record rec;
	char err[256] = "";
	uint64_t n = 0;
	int ret;

	write_file(f.p, f.len);
	free(f.p);
	if (!ok(pd_reader_open(path, &r, err, sizeof(err)) == 0, "open (%s)", err))
		return;
	ok(truncate(path, 3u << 20) == 0, "cut to 3 MiB while open");
	while ((ret = pd_reader_next(r, &rec, err, sizeof(err))) > 0)
		n++;
	is_int(ret, -EINVAL, "an error, not a signal");
	ok(strstr(err, "file shrank while reading") != NULL, "saying so (%s)", err);
	ok(n > 10000, "the records before the cut were read (%llu)", (unsigned long long)n);
	pd_reader_close(r);
}

static void test_queue_limit(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_no_rounds, 0, 0, 0 };
	struct buf f = build(&o);
	struct pd_reader *r;
	struct pd_record rec;
	uint64_t last = 0, n = 0, backwards = 0;
	char err[256] = "";

	write_file(f.p, f.len);
	free(f.p);
	if (!ok(pd_reader_open(path, &r, err, sizeof(err)) == 0, "open (%s)", err))
		return;
	pd_reader_set_queue_limit(r, 10 * 48);	/* ten samples */
	while (pd_reader_next(r, &rec, err, sizeof(err)) > 0) {
		if (r->nr_queued > 12)
			break;
		backwards += rec.time < last;
		last = rec.time;
		n++;
	}
	is_u64(n, 100, "every record delivered, the queue never above the limit");
	ok(backwards > 0 && backwards < 50, "mostly in order (%llu steps back)",
	   (unsigned long long)backwards);
	pd_reader_close(r);
}

/*
 * No FINISHED_ROUND, and one sample in 2,000 with a time (the others go out at once): each
 * queued sample keeps its 1 MiB chunk, ~12 MB in all.
 */
static void records_sparse(struct buf *b)
{
	for (uint64_t i = 0; i < 250000; i++)
		put_sample(b, 100, i % 2000 ? 0 : 1 + i);
}

static void test_sparse_queue(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_sparse, 0, 0, 0 };
	struct buf f = build(&o);
	uint64_t n = 0, timed = 0, last = 0, backwards = 0;
	size_t chunks = 0;
	struct pd_reader *r;
	struct pd_record rec;
	char err[256] = "";

	write_file(f.p, f.len);
	free(f.p);
	if (!ok(pd_reader_open(path, &r, err, sizeof(err)) == 0, "open (%s)", err))
		return;
	pd_reader_set_queue_limit(r, 4u << 20);
	while (pd_reader_next(r, &rec, err, sizeof(err)) > 0) {
		n++;
		if (!rec.time)
			continue;
		timed++;
		backwards += rec.time < last;
		last = rec.time;
	}
	is_u64(n, 250000, "sparse queue: every sample delivered (%s)", err);
	ok(timed == 125 && !backwards, "sparse queue: the timed ones in order");
	for (const struct read_chunk *c = r->all_chunks; c; c = c->all)
		chunks++;
	ok(chunks <= 5, "sparse queue: %zu chunks of 1 MiB for a 4 MiB limit, not one per queued "
	   "sample", chunks);
	pd_reader_close(r);
}

static void records_few(struct buf *b)
{
	put_sample(b, 100, 10);
	put_round(b);
	put_sample(b, 100, 20);
}

static void test_attr_sizes(void)
{
	size_t sizes[] = { PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER5, sizeof(struct perf_event_attr),
			   sizeof(struct perf_event_attr) + 64 };
	uint64_t times[64];
	char err[256];
	size_t nr;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		struct file_opts o = { sizes[i], 1, false, records_few, 0, 0, 0 };
		struct buf f = build(&o);
		struct pd_reader *r;

		ok(read_all(f.p, f.len, times, &nr, err) == 0 && nr == 2,
		   "attr of %zu bytes (%s)", sizes[i], err);
		if (!pd_reader_open(path, &r, err, sizeof(err))) {
			is_str(pd_reader_attr(r, 0)->name, "cpu-clock", "name from type/config");
			pd_reader_close(r);
		}
		free(f.p);
	}
}

static void expect_error(const void *p, size_t len, const char *what, const char *needle)
{
	uint64_t times[64];
	char err[256];
	size_t nr;
	int ret = read_all(p, len, times, &nr, err);

	ok(ret < 0 && strstr(err, needle) && !strchr(err, '\n'),
	   "%s: error '%s'", what, err);
}

static void patch64(struct buf *f, size_t at, uint64_t v)
{
	memcpy(f->p + at, &v, 8);
}

static void test_bad_headers(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 2, true, records_ordering, 0, 0, 0 };
	struct buf f = build(&o), g;
	size_t data_at = offsetof(struct pd_file_header, data);
	uint64_t data_off;

	memcpy(&data_off, f.p + data_at, 8);
	g.p = malloc(f.len);
	g.len = f.len;
#define RESET() memcpy(g.p, f.p, f.len)
	expect_error(f.p, 0, "empty file", "empty");
	expect_error(f.p, 7, "7 bytes", "too short");
	RESET();
	memcpy(g.p, "PERFILE3", 8);
	expect_error(g.p, g.len, "wrong magic", "bad magic");
	RESET();
	patch64(&g, 0, PERF_FILE_MAGIC2_SWAPPED);
	expect_error(g.p, g.len, "byte-swapped magic", "big-endian");
	RESET();
	patch64(&g, 8, 16);
	expect_error(g.p, g.len, "pipe-mode header on a file-mode body", "bad record size");
	RESET();
	patch64(&g, 8, 4096);
	expect_error(g.p, g.len, "bad header size", "header size");
	RESET();
	patch64(&g, 16, 0);
	expect_error(g.p, g.len, "attr_size 0", "attr_size");
	RESET();
	patch64(&g, 16, 1ULL << 40);
	expect_error(g.p, g.len, "attr_size huge", "attr_size");
	RESET();
	patch64(&g, 24, UINT64_MAX - 8);
	expect_error(g.p, g.len, "attrs offset overflows", "attrs section");
	RESET();
	patch64(&g, 32, 7);
	expect_error(g.p, g.len, "attrs size not a multiple", "attrs section");
	RESET();
	patch64(&g, data_at + 8, UINT64_MAX);
	expect_error(g.p, g.len, "data size huge", "data section");
	RESET();
	patch64(&g, data_at, 8);
	expect_error(g.p, g.len, "data inside the header", "data section");
	RESET();
	g.p[offsetof(struct pd_file_header, adds_features) + PERF_FEAT_COMPRESSED / 8] |=
		1 << (PERF_FEAT_COMPRESSED % 8);
	expect_error(g.p, g.len, "compressed feature bit shifts the sections", "feature");
	RESET();
	patch64(&g, sizeof(struct pd_file_header) + sizeof(struct perf_event_attr) + 8, 1 << 30);
	expect_error(g.p, g.len, "ids section outside", "ids section");
	RESET();
	/* attr.size larger than the attr's room on disk */
	memcpy(g.p + sizeof(struct pd_file_header) + 4, &(uint32_t){ 4000 }, 4);
	expect_error(g.p, g.len, "attr.size too large", "attr.size");
	RESET();
	/* the first feature section points past the end */
	{
		uint64_t data_size;

		memcpy(&data_size, f.p + data_at + 8, 8);
		patch64(&g, data_off + data_size, f.len + 100);
	}
	expect_error(g.p, g.len, "feature section outside", "feature 3");
	free(g.p);
	free(f.p);
}

static void records_corrupt(struct buf *b)
{
	put_sample(b, 100, 10);
	put_sample(b, 100, 20);
	put_sample(b, 100, 30);
}

/* Patch the size (or type) of the second record and expect a clean error. */
static void test_bad_records(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_corrupt, 0, 0, 0 };
	struct buf f = build(&o);
	uint64_t data_off;
	size_t rec2;

	memcpy(&data_off, f.p + offsetof(struct pd_file_header, data), 8);
	rec2 = data_off + 48;
	f.p[rec2 + 6] = 0;
	f.p[rec2 + 7] = 0;
	expect_error(f.p, f.len, "record of size 0", "bad record size");
	f.p[rec2 + 6] = 200;
	expect_error(f.p, f.len, "record past the data section", "past the end");
	f.p[rec2 + 6] = 16;	/* a sample too short for its own fields: decoded later */
	expect_error(f.p, f.len, "record split mid-way", "record");
	f.p[rec2 + 6] = 48;
	f.p[rec2] = PERF_RECORD_COMPRESSED;
	expect_error(f.p, f.len, "garbage compressed record", "decompress");
	free(f.p);
}

/* Cut the file at every byte: each prefix is an error, never a crash or a hang. */
static void test_truncation(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 2, true, records_ordering, 0, 0, 0 };
	struct buf f = build(&o);
	uint64_t times[64];
	char err[256];
	size_t nr, quiet = 0, multiline = 0;

	for (size_t len = 0; len < f.len; len++) {
		if (read_all(f.p, len, times, &nr, err) >= 0)
			quiet++;
		if (!*err || strchr(err, '\n'))
			multiline++;
	}
	is_int((int)quiet, 0, "every one of %zu truncations is an error", f.len);
	is_int((int)multiline, 0, "each with a one-line message");
	free(f.p);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		skip_all("cannot create a temporary file");
	close(fd);
	test_good_file();
	test_attr_sizes();
	test_queue_limit();
	test_sparse_queue();
	test_many_rounds();
	test_file_shrinks();
	test_bad_headers();
	test_bad_records();
	test_truncation();
	unlink(path);
	return done_testing();
}
