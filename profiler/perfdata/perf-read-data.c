// SPDX-License-Identifier: GPL-2.0
/*
 * perf-read-data.c - stream the records of the data section in the order `perf report`
 * delivers them.
 *
 * The data section is read through a 1 MiB buffer (a record is at most 64 KiB), with pread()
 * from a regular file and read() from a pipe. A record the ordering queue keeps stays where it
 * was read: the buffer is one chunk of a pool, and reading goes on in another chunk while the
 * queue holds records of this one (a decompressed record, whose buffer is reused, is copied
 * into a chunk of its own). The records were copied into an arena, and those still queued at
 * each release copied again into a fresh one: ~75 MB moved for a 51 MB make -B recording,
 * which took 32-34 ms to read alone with the copies, 27-28 ms without (3 alternating rounds of
 * 5 runs).
 * The data section was mapped once (each record used where it lay, the pages populated ahead
 * of the reader and given back behind it): on a virtual machine that was the slower way, by
 * far. Each 4 KiB page of the mapping is a page-table entry for the kernel to set
 * and to clear again with a TLB shootdown of the process's other CPUs, and a first touch the
 * hypervisor may have to map too; the buffer is mapped once. On a 2-vCPU PVM guest a 51 MB
 * recording took 28 ms to read through such a mapping and 16-17 ms through a buffer, and
 * `kprof report` on it 0.278 -> 0.253 s wall, 0.417 -> 0.376 s CPU (interleaved runs right after
 * a `perf` run, as in bench/report.sh). A file that shrinks while it is read is now an error
 * ("file shrank while reading"), where the mapping ended kprof with SIGBUS.
 * Every record size is checked: at least a header, not past the end of the data section.
 *
 * Ordering is perf's ordered_events (tools/perf/util/ordered-events.c): kernel records with a
 * timestamp (samples, and others through their sample_id_all trailer) are queued; at each
 * FINISHED_ROUND the queue is sorted (stably) and the records up to the previous round's
 * largest timestamp are released; the rest when the file ends. Records without a timestamp
 * (synthesized ones have 0) and perf's own records go out at once. The queue holds at most two
 * rounds of records, so memory does not grow with the file.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perf-read-int.h"

#define READ_BUF_SIZE	(1u << 20)	/* >= the largest possible record, 64 KiB */
/*
 * A file without FINISHED_ROUND records would queue everything: past this many bytes the older
 * half of the queue goes out (perf's OE_FLUSH__HALF when its queue is full).
 */
#define QUEUE_LIMIT	(256u << 20)
/*
 * A queued record keeps its whole chunk: where few records are queued among many that are not
 * (a file without FINISHED_ROUND whose records mostly carry no time), the chunks kept would be
 * far more than the bytes queued. Past this many chunks out of the pool (and at least a few),
 * the older half goes out too: memory stays within the queue limit, as when the records were
 * copied.
 */
#define MIN_CHUNKS_KEPT	4

/* A chunk from the pool, or a new one; NULL on ENOMEM. */
static struct read_chunk *chunk_get(struct pd_reader *r)
{
	struct read_chunk *c = r->free_chunks;

	if (c) {
		r->free_chunks = c->next;
	} else {
		c = malloc(sizeof(*c) + READ_BUF_SIZE);
		if (!c)
			return NULL;
		c->all = r->all_chunks;
		r->all_chunks = c;
	}
	r->chunks_out++;
	c->next = NULL;
	c->refs = c->used = 0;
	return c;
}

static void chunk_to_pool(struct pd_reader *r, struct read_chunk *c)
{
	c->next = r->free_chunks;
	r->free_chunks = c;
	r->chunks_out--;
}

/* Back to the pool once nothing is in it: no queued record, and it is not being filled. */
static void chunk_put(struct pd_reader *r, struct read_chunk *c)
{
	if (!--c->refs && c != r->cur && c != r->copy)
		chunk_to_pool(r, c);
}

/* The chunk given up by reading or copying: to the pool unless records in it are queued. */
static void chunk_retire(struct pd_reader *r, struct read_chunk *c)
{
	if (c && !c->refs)
		chunk_to_pool(r, c);
}

/*
 * Make the read buffer free to be written from its start, keeping the @keep bytes at buf_pos:
 * moved to its front, or to a fresh chunk when queued records are in this one.
 */
static int own_buffer(struct pd_reader *r, size_t keep)
{
	struct read_chunk *c = r->cur;

	if (c->refs) {
		c = chunk_get(r);
		if (!c)
			return -ENOMEM;
		memcpy(c->data, r->cur->data + r->buf_pos, keep);
		r->cur = c;
	} else {
		memmove(c->data, c->data + r->buf_pos, keep);
	}
	return 0;
}

int reader_data_init(struct pd_reader *r, char *err, size_t errlen)
{
	pd_reader_set_queue_limit(r, QUEUE_LIMIT);
	r->buf_off = r->header.data.offset;
	r->data_end = r->header.data.offset + r->header.data.size;
	r->cur = chunk_get(r);
	if (!r->cur)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	return 0;
}

void reader_data_release(struct pd_reader *r)
{
	struct read_chunk *c = r->all_chunks, *next;

	for (; c; c = next) {
		next = c->all;
		free(c);
	}
	r->all_chunks = r->free_chunks = r->cur = r->copy = r->held = NULL;
	free(r->queue);
	free(r->sort_tmp);
	free(r->runs);
	reader_zstd_release(r);
}

static int corrupt(const struct pd_record *rec, char *err, size_t errlen)
{
	return err_set(err, errlen, -EINVAL, "corrupt record at offset %llu (type %u, size %u)",
			   (unsigned long long)rec->offset, rec->hdr.type, rec->hdr.size);
}

int reader_read_stream(struct pd_reader *r, void *buf, size_t len, size_t *got,
		       size_t min, char *err, size_t errlen)
{
	*got = 0;
	while (*got < min) {
		ssize_t n = read(r->fd, (char *)buf + *got, len - *got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return err_set(err, errlen, -errno, "read error: %s", strerror(errno));
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* Buffer up to @n bytes of the data section at buf + buf_pos (fewer at its end). */
static int refill(struct pd_reader *r, size_t n, char *err, size_t errlen)
{
	uint64_t want;
	size_t got;
	int ret;

	if (r->buf_len - r->buf_pos >= n)
		return 0;
	if (own_buffer(r, r->buf_len - r->buf_pos))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	r->buf_off += r->buf_pos;
	r->buf_len -= r->buf_pos;
	r->buf_pos = 0;
	want = r->data_end - (r->buf_off + r->buf_len);
	if (want > READ_BUF_SIZE - r->buf_len)
		want = READ_BUF_SIZE - r->buf_len;
	if (!r->stream) {
		ret = reader_pread(r, r->cur->data + r->buf_len, (size_t)want, r->buf_off + r->buf_len,
				   err, errlen);
		if (!ret)
			r->buf_len += (size_t)want;
		return ret;
	}
	/* a pipe: take what is there, block only for what this record still needs */
	ret = reader_read_stream(r, r->cur->data + r->buf_len, READ_BUF_SIZE - r->buf_len, &got,
				 n - r->buf_len, err, errlen);
	r->buf_len += got;
	return ret;
}

size_t reader_avail(struct pd_reader *r, size_t n, char *err, size_t errlen, int *ret)
{
	size_t have;

	*ret = refill(r, n, err, errlen);
	have = r->buf_len - r->buf_pos;
	return have < n ? have : n;
}

int reader_fill(struct pd_reader *r, size_t n, char *err, size_t errlen)
{
	int ret = refill(r, n, err, errlen);

	if (ret)
		return ret;
	return r->buf_len - r->buf_pos >= n ? 0 :
	       err_set(err, errlen, -EINVAL, "truncated data section");
}

int reader_skip(struct pd_reader *r, uint64_t n, char *err, size_t errlen)
{
	size_t have = r->buf_len - r->buf_pos, got;
	int ret;

	if (n <= have) {
		r->buf_pos += (size_t)n;
		return 0;
	}
	n -= have;
	r->buf_off += r->buf_len;
	r->buf_pos = r->buf_len = 0;
	if (!r->stream) {
		if (n > r->data_end - r->buf_off)
			return err_set(err, errlen, -EINVAL,
				       "a payload at offset %llu runs past the end of the data "
				       "section", (unsigned long long)r->buf_off);
		r->buf_off += n;
		return 0;
	}
	/* the pipe is read into the buffer: not over queued records */
	if (own_buffer(r, 0))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	while (n) {
		got = n < READ_BUF_SIZE ? (size_t)n : READ_BUF_SIZE;
		ret = reader_read_stream(r, r->cur->data, got, &got, got, err, errlen);
		if (ret)
			return ret;
		if (!got)
			return err_set(err, errlen, -EINVAL, "truncated stream (in a payload)");
		r->buf_off += got;
		n -= got;
	}
	return 0;
}

/*
 * The payload that follows some of perf's records outside their size: AUXTRACE's trace data,
 * pipe mode's TRACING_DATA. Skipped (and counted). 1 when @rec was one of them.
 */
static int skip_payload(struct pd_reader *r, const struct pd_record *rec, char *err,
			size_t errlen)
{
	uint64_t n;
	uint32_t n32;

	if (rec->hdr.type == PERF_RECORD_AUXTRACE) {
		/* u64 size, offset, reference; u32 idx, tid, cpu, reserved */
		if (rec->body_len < 40)
			return corrupt(rec, err, errlen);
		n = pd_u64_at(rec->body, 0);
		r->stats.auxtrace++;
		r->stats.auxtrace_bytes += n;
	} else if (rec->hdr.type == PERF_RECORD_HEADER_TRACING_DATA) {
		if (rec->body_len < 4)
			return corrupt(rec, err, errlen);
		memcpy(&n32, rec->body, 4);
		n = ((uint64_t)n32 + 7) & ~7ULL;
	} else {
		return 0;
	}
	r->stats.records++;
	return reader_skip(r, n, err, errlen) ?: 1;
}

/* The next record in file order: 1, 0 at the end of the data section, or -errno. */
static int next_raw(struct pd_reader *r, struct pd_record *rec, char *err, size_t errlen)
{
	uint64_t off;
	size_t have;
	int ret;

again:
	/* the calls only when needed: a record costs little more than them otherwise */
	ret = r->zstd ? reader_zstd_next(r, rec, err, errlen) : 0;
	if (ret)
		return ret;
	off = r->buf_off + r->buf_pos;
	if (off >= r->data_end)
		return reader_zstd_finish(r, err, errlen);
	if (r->buf_len - r->buf_pos >= sizeof(rec->hdr))
		have = sizeof(rec->hdr);
	else
		have = reader_avail(r, sizeof(rec->hdr), err, errlen, &ret);
	if (ret)
		return ret;
	if (!have && r->stream)
		return reader_zstd_finish(r, err, errlen);
	if (have < sizeof(rec->hdr))
		return err_set(err, errlen, -EINVAL, "truncated record header at offset %llu",
				   (unsigned long long)off);
	memcpy(&rec->hdr, r->cur->data + r->buf_pos, sizeof(rec->hdr));
	if (rec->hdr.size < sizeof(rec->hdr))
		return err_set(err, errlen, -EINVAL,
				   "bad record size %u at offset %llu (type %u)", rec->hdr.size,
				   (unsigned long long)off, rec->hdr.type);
	if (rec->hdr.size > r->data_end - off)
		return err_set(err, errlen, -EINVAL,
				   "record at offset %llu (type %u, size %u) runs past the end "
				   "of the data section", (unsigned long long)off, rec->hdr.type,
				   rec->hdr.size);
	ret = r->buf_len - r->buf_pos >= rec->hdr.size ? 0 : reader_fill(r, rec->hdr.size, err, errlen);
	if (ret)
		return r->stream ? err_set(err, errlen, ret,
					   "record at offset %llu (type %u, size %u) is cut "
					   "short by the end of the stream", (unsigned long long)off,
					   rec->hdr.type, rec->hdr.size) : ret;
	rec->body = r->cur->data + r->buf_pos + sizeof(rec->hdr);
	rec->body_len = rec->hdr.size - sizeof(rec->hdr);
	rec->offset = off;
	rec->time = UINT64_MAX;
	rec->attr = NULL;
	r->buf_pos += rec->hdr.size;
	ret = skip_payload(r, rec, err, errlen);
	if (ret < 0)
		return ret;
	if (ret && !r->prescan_done && r->pipe_mode)
		return 2;	/* to reader_pipe_open(), which must not take the next record */
	if (ret)
		goto again;
	if (rec->hdr.type == PERF_RECORD_COMPRESSED) {
		r->stats.records++;
		ret = reader_zstd_feed(r, rec, err, errlen);
		if (ret)
			return ret;
		goto again;
	}
	return 1;
}

int reader_peek_type(struct pd_reader *r, uint32_t *type, char *err, size_t errlen)
{
	struct perf_event_header h;
	size_t have;
	int ret;

	if (r->buf_off + r->buf_pos >= r->data_end)
		return 0;
	have = reader_avail(r, sizeof(h), err, errlen, &ret);
	if (ret || !have)
		return ret;
	if (have < sizeof(h))
		return err_set(err, errlen, -EINVAL, "truncated record header at offset %llu",
			       (unsigned long long)(r->buf_off + r->buf_pos));
	memcpy(&h, r->cur->data + r->buf_pos, sizeof(h));
	*type = h.type;
	return 1;
}

int reader_next_raw(struct pd_reader *r, struct pd_record *rec, char *err, size_t errlen)
{
	return next_raw(r, rec, err, errlen);
}

/* Find a sample's attr (by its id when there are several) and its time. */
static int classify_sample(struct pd_reader *r, struct pd_record *rec, char *err,
			   size_t errlen)
{
	uint64_t type;
	size_t at;

	if (r->nr_attrs > 1) {
		uint64_t id;

		if (rec->body_len < ((size_t)r->id_pos + 1) * 8)
			return corrupt(rec, err, errlen);
		id = pd_u64_at(rec->body, (size_t)r->id_pos);
		if (r->last_id_ok && id == r->last_id) {
			rec->attr = &r->attrs[r->last_id_attr];
		} else {
			rec->attr = reader_attr_by_id(r, id);
			if (!rec->attr)
				return 0;
			r->last_id = id;
			r->last_id_attr = rec->attr->idx;
			r->last_id_ok = true;
		}
	} else {
		rec->attr = &r->attrs[0];
	}
	type = rec->attr->attr.sample_type;
	if (!(type & PERF_SAMPLE_TIME))
		return 0;
	at = !!(type & PERF_SAMPLE_IDENTIFIER) + !!(type & PERF_SAMPLE_IP) +
	     !!(type & PERF_SAMPLE_TID);
	if (rec->body_len < (at + 1) * 8)
		return corrupt(rec, err, errlen);
	rec->time = pd_u64_at(rec->body, at);
	return 0;
}

/* A kernel record other than a sample: attr and time from its sample_id_all trailer. */
static int classify_other(struct pd_reader *r, struct pd_record *rec, char *err,
			  size_t errlen)
{
	const struct pd_evattr *ev = &r->attrs[0];
	struct pd_sample id;

	if (!ev->attr.sample_id_all)
		return 0;
	if (r->nr_attrs > 1) {
		if (rec->body_len < (size_t)r->is_pos * 8)
			return corrupt(rec, err, errlen);
		ev = reader_attr_by_id(r, pd_u64_at(rec->body, rec->body_len / 8 -
						      (size_t)r->is_pos));
		if (!ev)
			return 0;
	}
	if (pd_sample_id_decode(rec->body, rec->body_len, &ev->attr, &id))
		return corrupt(rec, err, errlen);
	rec->attr = ev;
	rec->time = id.time;
	return 0;
}

/* A copy of @rec in the copy chunk, for a record not in the read buffer; NULL on ENOMEM. */
static const unsigned char *copy_record(struct pd_reader *r, const struct pd_record *rec)
{
	struct read_chunk *c = r->copy;
	unsigned char *at;

	if (!c || c->used + rec->hdr.size > READ_BUF_SIZE) {
		c = chunk_get(r);
		if (!c)
			return NULL;
		chunk_retire(r, r->copy);
		r->copy = c;
	}
	at = c->data + c->used;
	memcpy(at, &rec->hdr, sizeof(rec->hdr));
	memcpy(at + sizeof(rec->hdr), rec->body, rec->body_len);
	c->used += rec->hdr.size;
	return at;
}

static int enqueue(struct pd_reader *r, const struct pd_record *rec)
{
	const unsigned char *body = rec->body, *at;
	struct queued_record *q;
	struct read_chunk *c;

	/* the calls only when full: they cost as much as the rest of queueing a record */
	q = r->queue;
	if (r->nr_queued + 1 > r->queue_alloc || !q) {
		q = grow_array(r->queue, &r->queue_alloc, r->nr_queued + 1, sizeof(*q));
		if (!q)
			return -ENOMEM;
		r->queue = q;
	}
	/* read from the file: its header is just before its body, in the read buffer */
	if ((uintptr_t)body - (uintptr_t)r->cur->data < r->buf_len) {
		at = body - sizeof(rec->hdr);
		c = r->cur;
	} else {
		at = copy_record(r, rec);
		if (!at)
			return -ENOMEM;
		c = r->copy;
	}
	c->refs++;
	r->queued_bytes += rec->hdr.size;
	q[r->nr_queued++] = (struct queued_record){
		.time = rec->time, .seq = r->seq++, .offset = rec->offset,
		.at = at, .chunk = c, .attr = rec->attr,
	};
	if (rec->time < r->last_flush)
		r->stats.unordered++;
	if (rec->time > r->max_time)
		r->max_time = rec->time;
	return 0;
}

static int cmp_queued(const void *a, const void *b)
{
	const struct queued_record *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool queued_before(const struct queued_record *a, const struct queued_record *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* Merge the sorted runs a[0..na) and b[0..nb) into out. */
static void merge_runs(const struct queued_record *a, size_t na, const struct queued_record *b,
		       size_t nb, struct queued_record *out)
{
	while (na && nb) {
		if (queued_before(b, a)) {
			*out++ = *b++;
			nb--;
		} else {
			*out++ = *a++;
			na--;
		}
	}
	memcpy(out, a, na * sizeof(*a));
	memcpy(out + na, b, nb * sizeof(*b));
}

/*
 * Sort the queue by (time, seq). It is made of a few long runs already in order: perf drains
 * each CPU's ring buffer in time order, and what a flush leaves behind stays sorted. Merging
 * neighbouring runs until one is left costs n log(runs) instead of a general sort's n log(n)
 * (glibc's qsort also sorts records this large indirectly). Without memory for that, qsort.
 */
static void sort_queue(struct pd_reader *r)
{
	struct queued_record *v = r->queue, *tmp, *swap;
	size_t n = r->nr_queued, nr_runs = 0, *runs;

	tmp = grow_array(r->sort_tmp, &r->sort_tmp_alloc, n, sizeof(*tmp));
	if (tmp)
		r->sort_tmp = tmp;
	runs = grow_array(r->runs, &r->runs_alloc, n + 1, sizeof(*runs));
	if (runs)
		r->runs = runs;
	if (!tmp || !runs) {
		qsort(r->queue, n, sizeof(*r->queue), cmp_queued);
		return;
	}
	runs[nr_runs++] = 0;
	for (size_t i = 1; i < n; i++)
		if (queued_before(&v[i], &v[i - 1]))
			runs[nr_runs++] = i;
	runs[nr_runs] = n;
	while (nr_runs > 1) {
		size_t k, out = 0;

		for (k = 0; k + 1 < nr_runs; k += 2) {
			merge_runs(v + runs[k], runs[k + 1] - runs[k], v + runs[k + 1],
				   runs[k + 2] - runs[k + 1], tmp + runs[k]);
			runs[out++] = runs[k];
		}
		if (k < nr_runs) {
			memcpy(tmp + runs[k], v + runs[k], (n - runs[k]) * sizeof(*v));
			runs[out++] = runs[k];
		}
		runs[out] = n;
		nr_runs = out;
		swap = v;
		v = tmp;
		tmp = swap;
	}
	if (v != r->queue) {	/* the sorted records are in the merge buffer: swap the arrays */
		size_t alloc = r->queue_alloc;

		r->sort_tmp = r->queue;
		r->queue_alloc = r->sort_tmp_alloc;
		r->sort_tmp_alloc = alloc;
		r->queue = v;
	}
}

/* Release the queued records with time <= @limit (perf's do_flush). */
static void flush(struct pd_reader *r, uint64_t limit)
{
	size_t n = 0;

	if (!r->nr_queued || !limit)
		return;
	sort_queue(r);
	while (n < r->nr_queued && r->queue[n].time <= limit)
		n++;
	r->ready = n;
	r->ready_pos = 0;
	if (n)
		r->last_flush = r->queue[n - 1].time;
}

/* Drop the released records from the queue (their bytes stay where they are). */
static void compact(struct pd_reader *r)
{
	size_t keep = r->nr_queued - r->ready;

	memmove(r->queue, r->queue + r->ready, keep * sizeof(*r->queue));
	r->nr_queued = keep;
	r->ready = r->ready_pos = 0;
}

/* The record handed out last is done with: its chunk may go back to the pool. */
static void release_held(struct pd_reader *r)
{
	if (r->held) {
		chunk_put(r, r->held);
		r->held = NULL;
	}
}

static void deliver_queued(struct pd_reader *r, struct pd_record *rec)
{
	const struct queued_record *q = &r->queue[r->ready_pos++];
	const unsigned char *at = q->at;

	r->held = q->chunk;
	memcpy(&rec->hdr, at, sizeof(rec->hdr));
	r->queued_bytes -= rec->hdr.size;
	rec->body = at + sizeof(rec->hdr);
	rec->body_len = rec->hdr.size - sizeof(rec->hdr);
	rec->offset = q->offset;
	rec->time = q->time;
	rec->attr = q->attr;
}

/* Route one record from the file: 1 = hand it out now, 0 = queued or dropped, -errno. */
static int route(struct pd_reader *r, struct pd_record *rec, char *err, size_t errlen)
{
	int ret;

	r->stats.records++;
	if (rec->hdr.type == PERF_RECORD_FINISHED_ROUND) {
		/* perf leaves next_flush alone when nothing is queued. */
		if (r->nr_queued) {
			flush(r, r->next_flush);
			r->next_flush = r->max_time;
		}
		return 0;
	}
	if (rec->hdr.type >= PERF_RECORD_HEADER_ATTR) {
		ret = reader_user_record(r, rec, err, errlen);
		return ret ? ret : 1;
	}
	if (rec->hdr.type == PERF_RECORD_SAMPLE) {
		ret = classify_sample(r, rec, err, errlen);
		if (ret)
			return ret;
		if (!rec->attr) {
			r->stats.unknown_id++;
			return 0;
		}
		r->stats.samples++;
	} else {
		ret = classify_other(r, rec, err, errlen);
		if (ret)
			return ret;
	}
	if (rec->time == 0 || rec->time == UINT64_MAX)
		return 1;
	if (enqueue(r, rec))
		return err_set(err, errlen, -ENOMEM, "out of memory");
	if (r->queued_bytes > r->queue_limit || r->chunks_out > r->chunks_limit) {
		sort_queue(r);
		flush(r, r->queue[0].time + (r->queue[r->nr_queued - 1].time -
					     r->queue[0].time) / 2);
	}
	return 0;
}

void pd_reader_set_queue_limit(struct pd_reader *r, size_t bytes)
{
	r->queue_limit = bytes;
	r->chunks_limit = bytes / READ_BUF_SIZE > MIN_CHUNKS_KEPT ? bytes / READ_BUF_SIZE :
			  MIN_CHUNKS_KEPT;
}

int pd_reader_next(struct pd_reader *r, struct pd_record *rec, char *err, size_t errlen)
{
	int ret;

	release_held(r);
	for (;;) {
		if (r->ready_pos < r->ready) {
			deliver_queued(r, rec);
			return 1;
		}
		if (r->ready)
			compact(r);
		if (r->eof)
			return 0;
		ret = next_raw(r, rec, err, errlen);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			r->eof = true;
			flush(r, UINT64_MAX);
			continue;
		}
		ret = route(r, rec, err, errlen);
		if (ret)
			return ret;
	}
}
