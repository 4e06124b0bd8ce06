// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader on what perf writes besides a plain file, built here byte by byte:
 * pipe-mode streams (from a file and from a pipe; attrs, features and names as records, the
 * payloads that follow TRACING_DATA and AUXTRACE records), zstd-compressed records whose
 * decompressed records cross from one COMPRESSED record to the next, and each of them cut short.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "profiler/perfdata/perf-read-int.h"
#include "tests/tap.h"
#include "tests/unit/perf-data-build.h"
#include "tests/unit/perf-read-check.h"

static char path[] = "/tmp/kprof-perf-pipe-XXXXXX";

static void put_hdr(struct buf *b, uint32_t type, size_t body)
{
	struct perf_event_header h = { type, 0, (uint16_t)(8 + body) };

	put(b, &h, sizeof(h));
}

static void put_attr_record(struct buf *b)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK, .size = sizeof(a),
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
		.sample_id_all = 1,
	};

	put_hdr(b, PERF_RECORD_HEADER_ATTR, sizeof(a) + 16);
	put(b, &a, sizeof(a));
	put64(b, 100);
	put64(b, 101);
}

/* header, ATTR, FEATURE, TRACING_DATA + payload, samples, EVENT_UPDATE, AUXTRACE + payload */
static struct buf pipe_stream(bool attr)
{
	struct pd_file_header h = { .magic = PERF_FILE_MAGIC2, .size = 16 };
	unsigned char ff[64];
	struct buf b = { 0 }, s = { 0 };
	uint32_t u32 = 5;

	memset(ff, 0xff, sizeof(ff));
	put(&b, &h, 16);
	if (attr)
		put_attr_record(&b);
	put_string(&s, "pipehost");
	put_hdr(&b, PERF_RECORD_HEADER_FEATURE, 8 + s.len);
	put64(&b, PERF_FEAT_HOSTNAME);
	put(&b, s.p, s.len);
	free(s.p);
	put_hdr(&b, PERF_RECORD_HEADER_TRACING_DATA, 8);	/* u32 size, pad; then 5 + 3 bytes */
	put(&b, &u32, 4);
	put(&b, ff, 4);
	put(&b, ff, 8);
	put_sample(&b, 100, 10);
	put_hdr(&b, PERF_RECORD_EVENT_UPDATE, 24);
	put64(&b, PERF_EVENT_UPDATE_NAME);
	put64(&b, 100);
	put(&b, "mycpu\0\0", 8);
	put_hdr(&b, PERF_RECORD_AUXTRACE, 40);	/* size, offset, reference, idx, tid, cpu, rsv */
	put64(&b, sizeof(ff));
	put64(&b, 0);
	put64(&b, 0);
	put64(&b, 0);
	put64(&b, 0);
	put(&b, ff, sizeof(ff));
	put_sample(&b, 101, 20);
	put_round(&b);
	put_sample(&b, 100, 30);
	return b;
}

/*
 * Samples queued, then an AUXTRACE payload larger than the read buffer: skipping it reads the
 * pipe into the buffer again, which must not be where the queued samples are.
 */
static struct buf pipe_big_payload(void)
{
	struct pd_file_header h = { .magic = PERF_FILE_MAGIC2, .size = 16 };
	struct buf b = { 0 };
	size_t payload = (2u << 20) + 64;

	put(&b, &h, 16);
	put_attr_record(&b);
	put_sample(&b, 100, 10);
	put_sample(&b, 100, 5);
	put_hdr(&b, PERF_RECORD_AUXTRACE, 40);
	put64(&b, payload);
	for (int i = 0; i < 4; i++)
		put64(&b, 0);
	for (size_t i = 0; i < payload / 8; i++)
		put64(&b, ~0ULL);
	put_sample(&b, 100, 20);
	put_round(&b);
	return b;
}

struct result {
	int		ret;
	char		err[256];
	uint64_t	times[8];
	size_t		nr;
	char		name[32], host[32];
	uint64_t	aux, aux_bytes;
	size_t		bad;		/* samples whose body no longer says their time */
};

static void read_stream(const char *p, struct result *res)
{
	struct pd_reader *r;
	struct pd_record rec;

	memset(res, 0, sizeof(*res));
	res->ret = pd_reader_open(p, &r, res->err, sizeof(res->err));
	if (res->ret)
		return;
	while ((res->ret = pd_reader_next(r, &rec, res->err, sizeof(res->err))) > 0) {
		struct pd_sample s;

		if (rec.hdr.type != PERF_RECORD_SAMPLE)
			continue;
		/* the body as it is now: reading a payload must not write over a queued sample */
		res->bad += pd_sample_decode(rec.body, rec.body_len, &rec.attr->attr, &s) ||
			    s.time != rec.time;
		if (res->nr < 8)
			res->times[res->nr++] = rec.time;
	}
	snprintf(res->name, sizeof(res->name), "%s", pd_reader_attr(r, 0)->name);
	snprintf(res->host, sizeof(res->host), "%s",
		 pd_reader_info(r)->hostname ? pd_reader_info(r)->hostname : "");
	res->aux = pd_reader_stats(r)->auxtrace;
	res->aux_bytes = pd_reader_stats(r)->auxtrace_bytes;
	pd_reader_close(r);
}

static void check_stream(const struct result *res, const char *how)
{
	is_int(res->ret, 0, "%s: read (%s)", how, res->err);
	if (res->nr != 3 || res->times[0] != 10)
		diag("nr %zu: %llu %llu %llu", res->nr, (unsigned long long)res->times[0],
		     (unsigned long long)res->times[1], (unsigned long long)res->times[2]);
	ok(res->nr == 3 && res->times[0] == 10 && res->times[1] == 20 && res->times[2] == 30,
	   "%s: three samples in order, the payloads skipped", how);
	is_int((int)res->bad, 0, "%s: each sample whole", how);
	is_str(res->name, "mycpu", "%s: the EVENT_UPDATE name, after the first sample", how);
	is_str(res->host, "pipehost", "%s: a HEADER_FEATURE", how);
	ok(res->aux == 1 && res->aux_bytes == 64, "%s: the AUXTRACE record counted", how);
}

/* The stream through a real pipe, written by a child process @piece bytes at a time. */
static void read_through_pipe(const struct buf *b, size_t piece, struct result *res)
{
	char dev[32];
	int fds[2];
	pid_t pid;

	if (pipe(fds)) {
		res->ret = -errno;
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		for (size_t at = 0; at < b->len;) {
			ssize_t n = write(fds[1], b->p + at, b->len - at < piece ? b->len - at : piece);

			if (n <= 0)
				_exit(1);
			at += (size_t)n;
		}
		_exit(0);
	}
	close(fds[1]);
	snprintf(dev, sizeof(dev), "/dev/fd/%d", fds[0]);
	read_stream(dev, res);
	close(fds[0]);
	waitpid(pid, NULL, 0);
}

static void test_pipe_mode(void)
{
	struct buf b = pipe_stream(true);
	struct result res;
	size_t errors = 0, bad_msgs = 0, whole = 0;

	buf_write(&b, path);
	read_stream(path, &res);
	check_stream(&res, "from a file");
	/* in small pieces: records arrive split */
	read_through_pipe(&b, 7, &res);
	check_stream(&res, "from a pipe");

	for (size_t len = 0; len < b.len; len++) {
		struct buf cut = { b.p, len, len };

		buf_write(&cut, path);
		read_stream(path, &res);
		if (res.ret < 0) {
			errors++;
			bad_msgs += !res.err[0] || strchr(res.err, '\n') != NULL;
		} else {
			whole++;
		}
	}
	ok(errors > whole && whole > 0, "cut streams: %zu errors, %zu ending at a record", errors,
	   whole);
	is_int((int)bad_msgs, 0, "each error one line");
	free(b.p);

	b = pipe_big_payload();
	read_through_pipe(&b, 65536, &res);
	is_int(res.ret, 0, "a 2 MiB payload through a pipe: read (%s)", res.err);
	ok(res.nr == 3 && res.times[0] == 5 && res.times[1] == 10 && res.times[2] == 20,
	   "a 2 MiB payload through a pipe: the samples in order");
	is_int((int)res.bad, 0, "a 2 MiB payload through a pipe: the queued samples whole");
	free(b.p);

	b = pipe_stream(false);
	buf_write(&b, path);
	read_stream(path, &res);
	ok(res.ret < 0 && strstr(res.err, "without event attrs"), "no HEADER_ATTR: %s", res.err);
	free(b.p);

	b = pipe_stream(true);
	put_attr_record(&b);
	buf_write(&b, path);
	read_stream(path, &res);
	ok(res.ret < 0 && strstr(res.err, "after the first sample"), "a late attr: %s", res.err);
	free(b.p);
}

/*
 * 50 samples compressed as perf does (one stream, flushed, never ended), cut in two COMPRESSED
 * records mid-record.
 */
static unsigned char frame[8192];
static size_t frame_len;
static size_t frame_cut;	/* how much of the frame goes into the records */

static size_t compress_flushed(const void *p, size_t len)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	ZSTD_inBuffer in = { p, len, 0 };
	ZSTD_outBuffer out = { frame, sizeof(frame), 0 };
	size_t ret = cs ? ZSTD_initCStream(cs, 1) : 1;

	while (!ZSTD_isError(ret) && in.pos < in.size)
		ret = ZSTD_compressStream(cs, &out, &in);
	if (!ZSTD_isError(ret))
		ret = ZSTD_flushStream(cs, &out);
	ZSTD_freeCStream(cs);
	return ZSTD_isError(ret) || ret ? 0 : out.pos;
}

static void records_compressed(struct buf *b)
{
	size_t half = frame_cut / 2;

	put_hdr(b, PERF_RECORD_COMPRESSED, half);
	put(b, frame, half);
	put_hdr(b, PERF_RECORD_COMPRESSED, frame_cut - half);
	put(b, frame + half, frame_cut - half);
	put_round(b);
}

static void read_file(const struct buf *f, struct result *res)
{
	buf_write(f, path);
	read_stream(path, res);
}

/* The file of @o (the whole frame) is an error: one line holding @needle. */
static void expect_error(const struct file_opts *o, const char *needle, const char *what)
{
	struct buf f;
	struct result res;

	frame_cut = frame_len;
	f = build(o);
	read_file(&f, &res);
	ok(res.ret < 0 && strstr(res.err, needle) && !strchr(res.err, '\n'), "%s: %s", what,
	   res.err);
	free(f.p);
}

static void test_zstd(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_compressed, 0, 0,
			       0 };
	struct buf inner = { 0 }, f;
	struct pd_reader *r;
	struct pd_record rec;
	char err[256] = "";
	uint64_t n = 0, last = 0;
	bool ordered = true;

	for (uint64_t i = 0; i < 50; i++)
		put_sample(&inner, 100, 1000 + (i % 2 ? i : 100 - i));
	frame_len = compress_flushed(inner.p, inner.len);
	if (!ok(frame_len, "zstd compresses the records as perf does (flushed, not ended)")) {
		free(inner.p);
		return;
	}
	frame_cut = frame_len;
	f = build(&o);
	buf_write(&f, path);
	if (ok(!pd_reader_open(path, &r, err, sizeof(err)), "open (%s)", err)) {
		while (pd_reader_next(r, &rec, err, sizeof(err)) > 0) {
			ordered &= rec.time >= last;
			last = rec.time;
			n += rec.hdr.type == PERF_RECORD_SAMPLE;
		}
		is_u64(n, 50, "every compressed sample, across the two COMPRESSED records");
		ok(ordered, "in time order");
		is_u64(pd_reader_stats(r)->compressed, 2, "two COMPRESSED records");
		pd_reader_close(r);
	}
	free(f.p);

	/* the stream ends inside a record */
	frame_len = compress_flushed(inner.p, inner.len - 20);
	free(inner.p);
	expect_error(&o, "ends inside a record", "a stream that ends inside a record");
	frame[0] ^= 0x55;	/* not a zstd frame (without a checksum, corrupt data can decode) */
	expect_error(&o, "compressed record", "a corrupt frame");
}

/*
 * Rounds of decompressed records out of time order, compressed as perf does (one stream,
 * flushed at the end of each round, FINISHED_ROUND outside, COMPRESSED records of at most
 * 32 KiB): the queued ones are copied out of the decompression buffer, and the chunks they are
 * copied into go back to the pool once their records are out, and not before (rounds larger
 * than a chunk keep several).
 */
static uint64_t zstd_rounds, zstd_per_round;

static void put_compressed(struct buf *b, ZSTD_outBuffer *o)
{
	if (!o->pos)
		return;
	put_hdr(b, PERF_RECORD_COMPRESSED, o->pos);
	put(b, o->dst, o->pos);
	o->pos = 0;
}

static void records_many_compressed(struct buf *b)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	static unsigned char out[32768];
	ZSTD_outBuffer o = { out, sizeof(out), 0 };
	size_t ret = cs ? ZSTD_initCStream(cs, 1) : 1;

	for (uint64_t round = 0; round < zstd_rounds && !ZSTD_isError(ret); round++) {
		struct buf inner = { 0 };
		ZSTD_inBuffer in;

		for (uint64_t j = 0; j < zstd_per_round; j++)
			put_sample(&inner, 100, 1 + round * 1000000 + (j * 7919) % zstd_per_round);
		in = (ZSTD_inBuffer){ inner.p, inner.len, 0 };
		while (!ZSTD_isError(ret) && in.pos < in.size) {
			ret = ZSTD_compressStream(cs, &o, &in);
			if (o.pos == o.size)
				put_compressed(b, &o);
		}
		do {
			ret = ZSTD_isError(ret) ? ret : ZSTD_flushStream(cs, &o);
			put_compressed(b, &o);
		} while (!ZSTD_isError(ret) && ret);
		free(inner.p);
		put_round(b);
	}
	ZSTD_freeCStream(cs);
}

static void zstd_in_order(uint64_t rounds, uint64_t per_round, size_t max_chunks,
			  const char *what)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_many_compressed,
			       0, 0, 0 };
	struct buf f;

	zstd_rounds = rounds;
	zstd_per_round = per_round;
	f = build(&o);
	buf_write(&f, path);
	free(f.p);
	read_check(path, rounds * per_round, max_chunks, what);
}

static void test_zstd_many_rounds(void)
{
	zstd_in_order(1000, 120, 4, "~6 MB in 1,000 rounds");
	/* two rounds queued: ~2.4 MB, in 3 or 4 chunks besides the read buffer */
	zstd_in_order(6, 25000, 6, "~7 MB in rounds of 1.2 MB");
}

/* An AUXTRACE payload past the end of the data section (file mode). */
static void records_aux_past_end(struct buf *b)
{
	put_sample(b, 100, 10);
	put_hdr(b, PERF_RECORD_AUXTRACE, 40);
	put64(b, 1 << 20);
	for (int i = 0; i < 4; i++)
		put64(b, 0);
}

static void test_aux_past_end(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_aux_past_end, 0,
			       0, 0 };
	struct buf f = build(&o);
	struct result res;

	read_file(&f, &res);
	ok(res.ret < 0 && strstr(res.err, "past the end of the data section"),
	   "an AUXTRACE payload past the data section: %s", res.err);
	free(f.p);
}

/* A HEADER_ATTR in a file's data section: the header's attrs stay, the record is counted. */
static void records_file_attr(struct buf *b)
{
	put_sample(b, 100, 10);
	put_attr_record(b);
	put_sample(b, 101, 20);
}

static void test_file_mode_attr(void)
{
	struct file_opts o = { sizeof(struct perf_event_attr), 1, false, records_file_attr, 0, 0,
			       0 };
	struct buf f = build(&o);
	struct pd_reader *r;
	struct pd_record rec;
	char err[256] = "";
	size_t n = 0;

	buf_write(&f, path);
	free(f.p);
	if (!ok(!pd_reader_open(path, &r, err, sizeof(err)), "open (%s)", err))
		return;
	while (pd_reader_next(r, &rec, err, sizeof(err)) > 0)
		n += rec.hdr.type == PERF_RECORD_SAMPLE;
	ok(n == 2 && pd_reader_nr_attrs(r) == 1, "file mode: the attrs stay the header's");
	is_u64(pd_reader_stats(r)->late_headers, 1, "the HEADER_ATTR record is counted");
	pd_reader_close(r);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		skip_all("cannot create a temporary file");
	close(fd);
	test_pipe_mode();
	test_zstd();
	test_zstd_many_rounds();
	test_aux_past_end();
	test_file_mode_attr();
	unlink(path);
	return done_testing();
}
