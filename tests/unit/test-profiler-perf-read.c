// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader on files built here byte by byte: attrs of other sizes, ids and event
 * names, perf's time ordering across FINISHED_ROUND, and every kind of bad input (each one an
 * error with a message, never a crash -- run under ASan by make test SANITIZE=1).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "profiler/perf-read-local.h"
#include "tests/tap.h"

struct buf {
	unsigned char	*p;
	size_t		len, alloc;
};

static size_t put(struct buf *b, const void *data, size_t len)
{
	size_t at = b->len;

	if (b->len + len > b->alloc) {
		b->alloc = (b->len + len) * 2;
		b->p = realloc(b->p, b->alloc);
	}
	if (len)
		memcpy(b->p + b->len, data, len);
	b->len += len;
	return at;
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static void put_record(struct buf *b, uint32_t type, uint16_t misc, const uint64_t *w, size_t n)
{
	struct perf_event_header h = { type, misc, (uint16_t)(8 + n * 8) };

	put(b, &h, sizeof(h));
	put(b, w, n * 8);
}

/* A sample of sample_type IDENTIFIER|IP|TID|TIME|PERIOD. */
static void put_sample(struct buf *b, uint64_t id, uint64_t time)
{
	uint64_t w[] = { id, 0x401000, (uint64_t)7 << 32 | 7, time, 1000 };

	put_record(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, w, 5);
}

static void put_round(struct buf *b)
{
	put_record(b, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0);
}

static void put_string(struct buf *b, const char *s)
{
	uint32_t len = (uint32_t)(strlen(s) + 8) & ~7u;
	char pad[8] = { 0 };

	put(b, &len, 4);
	put(b, s, strlen(s));
	put(b, pad, len - strlen(s));
}

struct file_opts {
	size_t		attr_bytes;	/* on-disk struct perf_event_attr size */
	int		nr_attrs;
	bool		event_desc;
	void		(*records)(struct buf *b);
};

static const char *const names[] = { "cpu-clock", "dummy:HG" };

/* header | attrs | ids | data | feature table | HOSTNAME, NRCPUS, CMDLINE, EVENT_DESC */
static struct buf build(const struct file_opts *o)
{
	struct perf_file_header h = { .magic = PERF_FILE_MAGIC2, .size = sizeof(h) };
	struct buf b = { 0 }, d = { 0 }, feat[4] = { { 0 } };
	struct perf_event_attr a;
	size_t ids_at, nr_feat = 0;
	uint32_t u32;

	h.attr_size = o->attr_bytes + sizeof(struct perf_file_section);
	h.attrs.offset = sizeof(h);
	h.attrs.size = o->nr_attrs * h.attr_size;
	ids_at = h.attrs.offset + h.attrs.size;
	o->records(&d);
	h.data.offset = ids_at + o->nr_attrs * 16;
	h.data.size = d.len;
	h.adds_features[0] = 1ULL << PERF_FEAT_HOSTNAME | 1ULL << PERF_FEAT_NRCPUS |
			     1ULL << PERF_FEAT_CMDLINE;
	if (o->event_desc)
		h.adds_features[0] |= 1ULL << PERF_FEAT_EVENT_DESC;
	put(&b, &h, sizeof(h));
	for (int i = 0; i < o->nr_attrs; i++) {
		unsigned char disk[512] = { 0 };
		struct perf_file_section ids = { ids_at + i * 16, 16 };

		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.config = i ? PERF_COUNT_SW_DUMMY : PERF_COUNT_SW_CPU_CLOCK;
		a.size = (uint32_t)o->attr_bytes;
		a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		a.sample_id_all = 1;
		memcpy(disk, &a, o->attr_bytes < sizeof(a) ? o->attr_bytes : sizeof(a));
		put(&b, disk, o->attr_bytes);
		put(&b, &ids, sizeof(ids));
	}
	for (int i = 0; i < o->nr_attrs; i++) {
		put64(&b, 100 + 10 * i);	/* two ids per attr (one per cpu) */
		put64(&b, 101 + 10 * i);
	}
	put(&b, d.p, d.len);
	put_string(&feat[nr_feat++], "testhost");
	u32 = 2;
	put(&feat[nr_feat], &u32, 4);
	put(&feat[nr_feat++], &u32, 4);
	u32 = 2;
	put(&feat[nr_feat], &u32, 4);
	put_string(&feat[nr_feat], "perf");
	put_string(&feat[nr_feat++], "record");
	if (o->event_desc) {
		u32 = (uint32_t)o->nr_attrs;
		put(&feat[nr_feat], &u32, 4);
		u32 = sizeof(a);
		put(&feat[nr_feat], &u32, 4);
		/* in reverse order: names are matched by id, not by position */
		for (int i = o->nr_attrs - 1; i >= 0; i--) {
			put(&feat[nr_feat], &a, sizeof(a));
			u32 = 1;
			put(&feat[nr_feat], &u32, 4);
			put_string(&feat[nr_feat], names[i]);
			put64(&feat[nr_feat], 100 + 10 * i);
		}
		nr_feat++;
	}
	{
		uint64_t at = b.len + nr_feat * 16;

		for (size_t i = 0; i < nr_feat; i++) {
			struct perf_file_section s = { at, feat[i].len };

			put(&b, &s, sizeof(s));
			at += feat[i].len;
		}
		for (size_t i = 0; i < nr_feat; i++) {
			put(&b, feat[i].p, feat[i].len);
			free(feat[i].p);
		}
	}
	free(d.p);
	return b;
}

static char path[] = "/tmp/kprof-perf-read-XXXXXX";

static void write_file(const void *p, size_t len)
{
	FILE *fp = fopen(path, "w");

	if (len)
		fwrite(p, 1, len, fp);
	fclose(fp);
}

/* Read the whole file; 0 when it is all good, else the error, with its message in err. */
static int read_all(const void *p, size_t len, uint64_t *times, size_t *nr, char *err)
{
	struct perf_reader *r;
	struct perf_record rec;
	int ret;

	*err = 0;
	*nr = 0;
	write_file(p, len);
	ret = perf_reader_open(path, &r, err, 256);
	if (ret)
		return ret;
	while ((ret = perf_reader_next(r, &rec, err, 256)) > 0) {
		if (rec.hdr.type == PERF_RECORD_SAMPLE && times && *nr < 64)
			times[(*nr)++] = rec.time;
	}
	perf_reader_close(r);
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
	struct file_opts o = { sizeof(struct perf_event_attr), 2, true, records_ordering };
	struct buf f = build(&o);
	const uint64_t want[] = { 10, 15, 20, 30, 5, 40 };
	struct perf_reader *r;
	struct perf_record rec;
	uint64_t times[64];
	char err[256];
	size_t nr, i;
	int ret, attr_of[64] = { 0 };

	is_int(read_all(f.p, f.len, times, &nr, err), 0, "a good file reads (%s)", err);
	ok(nr == 6, "six known samples delivered (%zu)", nr);
	for (i = 0; i < nr && i < 6 && times[i] == want[i]; i++)
		;
	is_int((int)i, 6, "in perf's delivery order");

	ret = perf_reader_open(path, &r, err, sizeof(err));
	is_int(ret, 0, "open");
	if (ret)
		goto out;
	is_int((int)perf_reader_nr_attrs(r), 2, "two attrs");
	is_str(perf_reader_attr(r, 0)->name, "cpu-clock", "EVENT_DESC names attr 0 by id");
	is_str(perf_reader_attr(r, 1)->name, "dummy:HG", "EVENT_DESC names attr 1 by id");
	is_str(perf_reader_info(r)->hostname, "testhost", "HOSTNAME");
	is_str(perf_reader_info(r)->cmdline, "perf record", "CMDLINE joined");
	is_int(perf_reader_info(r)->nr_cpus_online, 2, "NRCPUS");
	nr = 0;
	while (perf_reader_next(r, &rec, err, sizeof(err)) > 0)
		if (rec.hdr.type == PERF_RECORD_SAMPLE && nr < 64)
			attr_of[nr++] = (int)rec.attr->idx;
	ok(attr_of[0] == 0 && attr_of[1] == 1 && attr_of[2] == 0 && attr_of[3] == 1,
	   "samples map to their attr by id");
	is_u64(perf_reader_stats(r)->unknown_id, 1, "unknown id counted");
	is_u64(perf_reader_stats(r)->unordered, 1, "late record counted");
	perf_reader_close(r);
out:
	free(f.p);
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
		struct file_opts o = { sizes[i], 1, false, records_few };
		struct buf f = build(&o);
		struct perf_reader *r;

		ok(read_all(f.p, f.len, times, &nr, err) == 0 && nr == 2,
		   "attr of %zu bytes (%s)", sizes[i], err);
		if (!perf_reader_open(path, &r, err, sizeof(err))) {
			is_str(perf_reader_attr(r, 0)->name, "cpu-clock", "name from type/config");
			perf_reader_close(r);
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
	struct file_opts o = { sizeof(struct perf_event_attr), 2, true, records_ordering };
	struct buf f = build(&o), g;
	size_t data_at = offsetof(struct perf_file_header, data);
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
	expect_error(g.p, g.len, "pipe-mode header", "pipe-mode");
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
	g.p[offsetof(struct perf_file_header, adds_features) + PERF_FEAT_COMPRESSED / 8] |=
		1 << (PERF_FEAT_COMPRESSED % 8);
	expect_error(g.p, g.len, "compressed feature", "compressed");
	RESET();
	patch64(&g, sizeof(struct perf_file_header) + sizeof(struct perf_event_attr) + 8, 1 << 30);
	expect_error(g.p, g.len, "ids section outside", "ids section");
	RESET();
	/* attr.size larger than the attr's room on disk */
	memcpy(g.p + sizeof(struct perf_file_header) + 4, &(uint32_t){ 4000 }, 4);
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
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_corrupt };
	struct buf f = build(&o);
	uint64_t data_off;
	size_t rec2;

	memcpy(&data_off, f.p + offsetof(struct perf_file_header, data), 8);
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
	expect_error(f.p, f.len, "compressed record", "compressed");
	free(f.p);
}

/* Cut the file at every byte: each prefix is an error, never a crash or a hang. */
static void test_truncation(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 2, true, records_ordering };
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
	test_bad_headers();
	test_bad_records();
	test_truncation();
	unlink(path);
	return done_testing();
}
