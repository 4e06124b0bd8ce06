/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-data-build.h - build small perf.data files byte by byte for the reader and pipeline
 * tests: header | attrs | ids | data | feature table | HOSTNAME, NRCPUS, CMDLINE, EVENT_DESC.
 * Included by one test file each (static functions).
 */
#ifndef KPROF_TEST_PERF_DATA_BUILD_H
#define KPROF_TEST_PERF_DATA_BUILD_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/perfdata/perfdata.h"

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
static __attribute__((unused)) void put_sample(struct buf *b, uint64_t id, uint64_t time)
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
	int		nr_attrs;	/* 1 or 2: cpu-clock (ids 100, 101), dummy:HG (110,
					 * 111) */
	bool		event_desc;
	void		(*records)(struct buf *b);
	uint64_t	sample_type;	/* 0: IDENTIFIER|IP|TID|TIME|PERIOD */
	uint64_t	read_format, branch_sample_type;
};

static const char *const names[] = { "cpu-clock", "dummy:HG" };

/* header | attrs | ids | data | feature table | HOSTNAME, NRCPUS, CMDLINE, EVENT_DESC */
static struct buf build(const struct file_opts *o)
{
	struct pd_file_header h = { .magic = PERF_FILE_MAGIC2, .size = sizeof(h) };
	struct buf b = { 0 }, d = { 0 }, feat[4] = { { 0 } };
	struct perf_event_attr a;
	size_t ids_at, nr_feat = 0;
	uint32_t u32;

	h.attr_size = o->attr_bytes + sizeof(struct pd_file_section);
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
		struct pd_file_section ids = { ids_at + i * 16, 16 };

		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.config = i ? PERF_COUNT_SW_DUMMY : PERF_COUNT_SW_CPU_CLOCK;
		a.size = (uint32_t)o->attr_bytes;
		a.sample_type = o->sample_type ? o->sample_type :
				PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
		a.sample_id_all = 1;
		a.read_format = o->read_format;
		a.branch_sample_type = o->branch_sample_type;
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
			struct pd_file_section s = { at, feat[i].len };

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

static void buf_write(const struct buf *b, const char *path)
{
	FILE *fp = fopen(path, "w");

	if (b->len)
		fwrite(b->p, 1, b->len, fp);
	fclose(fp);
}

#endif
