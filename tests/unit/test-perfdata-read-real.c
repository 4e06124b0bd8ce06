// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader on a real recording from perf 6.x, cut and corrupted: every byte offset
 * of the header/attrs/ids region, a spread of offsets through the data section (both as a
 * shorter file and as a data section that ends mid-record), and corrupt record sizes. Each is
 * an error or a clean read; never a crash, an overread (ASan) or a hang.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/perfdata/perfdata.h"
#include "tests/tap.h"

static char dir[] = "/tmp/kprof-real-XXXXXX";
static char orig[64], path[64];

static unsigned char *slurp(const char *name, size_t *len)
{
	FILE *fp = fopen(name, "r");
	struct stat st;
	unsigned char *p;

	if (!fp || fstat(fileno(fp), &st))
		return NULL;
	p = malloc((size_t)st.st_size + 1);
	*len = fread(p, 1, (size_t)st.st_size, fp);
	fclose(fp);
	return p;
}

static void spit(const void *p, size_t len)
{
	FILE *fp = fopen(path, "w");

	fwrite(p, 1, len, fp);
	fclose(fp);
}

/* Read everything, decoding each sample. <0 on error (with a one-line message), else samples. */
static long read_all(const void *p, size_t len, bool *oneline)
{
	struct pd_reader *r;
	struct pd_record rec;
	struct pd_sample s;
	char err[256] = "";
	long samples = 0;
	int ret;

	spit(p, len);
	ret = pd_reader_open(path, &r, err, sizeof(err));
	if (!ret) {
		while ((ret = pd_reader_next(r, &rec, err, sizeof(err))) > 0) {
			if (rec.hdr.type != PERF_RECORD_SAMPLE)
				continue;
			if (pd_sample_decode(rec.body, rec.body_len, &rec.attr->attr, &s)) {
				snprintf(err, sizeof(err), "bad sample");
				ret = -EINVAL;
				break;
			}
			samples++;
			for (uint64_t i = 0; i < s.callchain_nr; i++)
				(void)pd_u64_at(s.callchain, i);
		}
		pd_reader_close(r);
	}
	*oneline = ret >= 0 || (err[0] && !strchr(err, '\n'));
	return ret < 0 ? ret : samples;
}

static bool record(void)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "perf record -q -g -e cpu-clock -F 2000 -o %s -- sh -c "
		 "'i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done' >/dev/null 2>&1", orig);
	return system(cmd) == 0 && access(orig, R_OK) == 0;
}

int main(void)
{
	struct pd_file_header h;
	unsigned char *f, *g;
	size_t len, bad = 0, lines = 0, tries = 0;
	long whole;
	bool oneline;

	if (!mkdtemp(dir))
		skip_all("no temporary directory");
	snprintf(orig, sizeof(orig), "%s/perf.data", dir);
	snprintf(path, sizeof(path), "%s/cut.data", dir);
	if (!record()) {
		rmdir(dir);
		skip_all("perf record -e cpu-clock does not work here");
	}
	f = slurp(orig, &len);
	g = malloc(len);
	memcpy(&h, f, sizeof(h));
	whole = read_all(f, len, &oneline);
	ok(whole > 0, "the real file reads (%ld samples)", whole);

	/* Every prefix up to the data section, and a spread of prefixes through the rest. */
	for (size_t cut = 0; cut < len; cut += cut < h.data.offset + 64 ? 1 : len / 400 + 1) {
		tries++;
		if (read_all(f, cut, &oneline) >= 0)
			bad++;
		lines += !oneline;
	}
	is_int((int)bad, 0, "all %zu shorter files are errors", tries);
	is_int((int)lines, 0, "with one-line messages");

	/* The data section claims to end anywhere: a clean read or an error, never more. */
	bad = lines = tries = 0;
	for (uint64_t end = 0; end <= h.data.size; end += h.data.size / 300 + 3) {
		struct pd_file_header cut = h;

		cut.data.size = end;
		memset(cut.adds_features, 0, sizeof(cut.adds_features));
		memcpy(g, f, len);
		memcpy(g, &cut, sizeof(cut));
		long n = read_all(g, len, &oneline);

		tries++;
		bad += n > whole;
		lines += !oneline;
	}
	is_int((int)bad, 0, "%zu data sections ending mid-way never give more samples", tries);
	is_int((int)lines, 0, "errors have one-line messages");

	/* Corrupt the size of records all through the data section. */
	bad = lines = tries = 0;
	for (uint64_t off = h.data.offset, nth = 0; off + 8 <= h.data.offset + h.data.size;
	     nth++) {
		static const uint16_t sizes[] = { 0, 1, 7, 9, 16, 24, 4096, 65535 };
		struct perf_event_header eh;

		memcpy(&eh, f + off, sizeof(eh));
		if (eh.size < 8)
			break;
		for (size_t i = 0; nth % 7 == 0 && i < sizeof(sizes) / sizeof(*sizes) &&
		     tries < 2000; i++) {
			memcpy(g, f, len);
			memcpy(g + off + 6, &sizes[i], 2);
			tries++;
			read_all(g, len, &oneline);
			lines += !oneline;
		}
		off += eh.size;
	}
	ok(tries > 0, "%zu corrupt record sizes read without a crash", tries);
	is_int((int)lines, 0, "errors have one-line messages");

	free(f);
	free(g);
	unlink(orig);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
