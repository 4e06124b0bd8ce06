// SPDX-License-Identifier: GPL-2.0
/*
 * perf-read.c - open and validate a perf.data file: header, attrs and their ids, feature
 * sections. The data section is streamed by perf-read-data.c.
 *
 * Nothing taken from the file is trusted: every offset and size is checked against the file
 * size (without overflow) before it is used, and counts are bounded before anything is
 * allocated from them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perf-read-int.h"

/* Bounds that no real perf.data comes near; they keep corrupt counts from allocating. */
#define MAX_ATTRS		4096
#define MAX_ATTR_BYTES		4096
#define MAX_IDS_PER_ATTR	(1u << 20)
#define MAX_FEATURE_STRING	(1u << 20)
#define PERF_FILE_HEADER_V1_SIZE offsetof(struct pd_file_header, adds_features)
#define PERF_PIPE_HEADER_SIZE	16
#define PERF_READ_FORMAT_KNOWN	((uint64_t)(PERF_FORMAT_LOST << 1) - 1)

/* Is [off, off + size) inside the file? Checked without overflow. */
static bool in_file(const struct pd_reader *r, uint64_t off, uint64_t size)
{
	return off <= r->file_size && size <= r->file_size - off;
}

/* Read exactly @len bytes at @off (already checked to be inside the file). */
int reader_pread(struct pd_reader *r, void *buf, size_t len, uint64_t off,
		 char *err, size_t errlen)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(r->fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return err_set(err, errlen, -errno, "read error at offset %llu: %s",
					   (unsigned long long)(off + done), strerror(errno));
		if (n == 0)
			return err_set(err, errlen, -EINVAL,
					   "file shrank while reading (offset %llu)",
					   (unsigned long long)(off + done));
		done += (size_t)n;
	}
	return 0;
}

static int check_header(struct pd_reader *r, char *err, size_t errlen)
{
	struct pd_file_header *h = &r->header;
	size_t have = r->file_size < sizeof(*h) ? (size_t)r->file_size : sizeof(*h);
	int ret;

	if (r->file_size == 0)
		return err_set(err, errlen, -EINVAL, "empty file");
	memset(h, 0, sizeof(*h));
	ret = reader_pread(r, h, have, 0, err, errlen);
	if (ret)
		return ret;
	if (have < 8)
		return err_set(err, errlen, -EINVAL,
				   "too short for a perf.data file (%zu bytes)", have);
	if (h->magic == PERF_FILE_MAGIC2_SWAPPED)
		return err_set(err, errlen, -ENOTSUP,
				   "big-endian perf.data (recorded on another architecture) is not "
				   "supported");
	if (!memcmp(&h->magic, "PERFFILE", 8))
		return err_set(err, errlen, -ENOTSUP,
				   "perf.data version 1 (PERFFILE) is not supported");
	if (h->magic != PERF_FILE_MAGIC2)
		return err_set(err, errlen, -EINVAL, "not a perf.data file (bad magic)");
	if (have < 16)
		return err_set(err, errlen, -EINVAL, "truncated header (%zu bytes)", have);
	if (h->size == PERF_PIPE_HEADER_SIZE)
		return 1;	/* pipe mode: perf-read-pipe.c */
	if (h->size != sizeof(*h) && h->size != PERF_FILE_HEADER_V1_SIZE)
		return err_set(err, errlen, -EINVAL, "bad header size %llu",
				   (unsigned long long)h->size);
	if (have < h->size)
		return err_set(err, errlen, -EINVAL, "truncated header (%zu of %llu bytes)",
				   have, (unsigned long long)h->size);
	if (h->size == PERF_FILE_HEADER_V1_SIZE)
		memset(h->adds_features, 0, sizeof(h->adds_features));
	if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct pd_file_section) ||
	    h->attr_size > MAX_ATTR_BYTES + sizeof(struct pd_file_section) || h->attr_size % 8)
		return err_set(err, errlen, -EINVAL, "bad attr_size %llu",
				   (unsigned long long)h->attr_size);
	if (!in_file(r, h->attrs.offset, h->attrs.size))
		return err_set(err, errlen, -EINVAL,
				   "truncated file: attrs section [%llu, +%llu) is outside the "
				   "file (%llu bytes)", (unsigned long long)h->attrs.offset,
				   (unsigned long long)h->attrs.size,
				   (unsigned long long)r->file_size);
	if (h->attrs.size % h->attr_size || !h->attrs.size ||
	    h->attrs.size / h->attr_size > MAX_ATTRS)
		return err_set(err, errlen, -EINVAL,
				   "bad attrs section size %llu (attr_size %llu)",
				   (unsigned long long)h->attrs.size,
				   (unsigned long long)h->attr_size);
	if (h->data.offset < h->size || !in_file(r, h->data.offset, h->data.size))
		return err_set(err, errlen, -EINVAL,
				   "truncated file: data section [%llu, +%llu) is outside the file "
				   "(%llu bytes)", (unsigned long long)h->data.offset,
				   (unsigned long long)h->data.size,
				   (unsigned long long)r->file_size);
	return 0;
}

static int read_ids(struct pd_reader *r, struct pd_evattr *ev,
		    const struct pd_file_section *s, char *err, size_t errlen)
{
	ev->nr_ids = s->size / 8;
	if (!ev->nr_ids)
		return 0;
	ev->ids = malloc(s->size);
	if (!ev->ids)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	return reader_pread(r, ev->ids, s->size, s->offset, err, errlen);
}

static int cmp_section(const void *a, const void *b)
{
	const struct pd_file_section *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * Each attr's ids section inside the file and apart from every other (perf writes them one
 * after another): sections shared by many attrs would make the ids held in memory many times
 * the file's size (a few MB of file, GBs of memory).
 */
static int check_ids_sections(struct pd_reader *r, const struct pd_file_section *secs,
			      char *err, size_t errlen)
{
	struct pd_file_section *sorted;
	int ret = 0;

	for (size_t i = 0; i < r->nr_attrs; i++) {
		const struct pd_file_section *s = &secs[i];

		if (!in_file(r, s->offset, s->size) || s->size % 8 ||
		    s->size / 8 > MAX_IDS_PER_ATTR)
			return err_set(err, errlen, -EINVAL,
				       "attr %zu: ids section [%llu, +%llu) is corrupt or outside "
				       "the file", i, (unsigned long long)s->offset,
				       (unsigned long long)s->size);
	}
	sorted = malloc(r->nr_attrs * sizeof(*sorted));
	if (!sorted)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	memcpy(sorted, secs, r->nr_attrs * sizeof(*sorted));
	qsort(sorted, r->nr_attrs, sizeof(*sorted), cmp_section);
	for (size_t i = 1; i < r->nr_attrs && !ret; i++) {
		if (sorted[i].size && sorted[i - 1].size &&
		    sorted[i - 1].offset + sorted[i - 1].size > sorted[i].offset)
			ret = err_set(err, errlen, -EINVAL,
				      "ids sections of two attrs overlap at offset %llu",
				      (unsigned long long)sorted[i].offset);
	}
	free(sorted);
	return ret;
}

/*
 * Take an attr as written by any perf: shorter ones are zero-extended (attr.size tells how much
 * is valid), longer ones are cut to the fields this build knows. @room: bytes there for it.
 */
int reader_take_attr(struct pd_reader *r, struct pd_evattr *ev, const void *buf,
		     size_t room, char *err, size_t errlen)
{
	uint32_t size;

	if (room < PERF_ATTR_SIZE_VER0)
		return err_set(err, errlen, -EINVAL, "attr %zu: truncated (%zu bytes)", ev->idx,
			       room);
	memcpy(&size, (const char *)buf + offsetof(struct perf_event_attr, size), sizeof(size));
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size > room || size < PERF_ATTR_SIZE_VER0)
		return err_set(err, errlen, -EINVAL,
				   "attr %zu: bad attr.size %u (attr_size %zu)", ev->idx, size,
				   room);
	memset(&ev->attr, 0, sizeof(ev->attr));
	memcpy(&ev->attr, buf, size < sizeof(ev->attr) ? size : sizeof(ev->attr));
	if (ev->attr.sample_type & ~PERF_SAMPLE_KNOWN_BITS)
		return err_set(err, errlen, -ENOTSUP,
				   "attr %zu: unknown sample_type bits 0x%llx", ev->idx,
				   (unsigned long long)(ev->attr.sample_type &
							~PERF_SAMPLE_KNOWN_BITS));
	if (ev->attr.read_format & ~PERF_READ_FORMAT_KNOWN)
		return err_set(err, errlen, -ENOTSUP,
				   "attr %zu: unknown read_format bits 0x%llx", ev->idx,
				   (unsigned long long)ev->attr.read_format);
	(void)r;
	return 0;
}

/* The attr at @ev->idx of the attrs section, and where its ids are (read once all are checked). */
static int read_attr(struct pd_reader *r, struct pd_evattr *ev, struct pd_file_section *ids,
		     char *err, size_t errlen)
{
	size_t disk = r->header.attr_size - sizeof(struct pd_file_section);
	unsigned char buf[MAX_ATTR_BYTES + sizeof(struct pd_file_section)];
	int ret;

	ret = reader_pread(r, buf, r->header.attr_size,
			   r->header.attrs.offset + ev->idx * r->header.attr_size, err, errlen);
	if (!ret)
		ret = reader_take_attr(r, ev, buf, disk, err, errlen);
	if (ret)
		return ret;
	memcpy(ids, buf + disk, sizeof(*ids));
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct reader_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The id -> attr index, and where ids sit in records (all attrs must agree, as perf demands). */
int reader_index_ids(struct pd_reader *r, char *err, size_t errlen)
{
	r->last_id_ok = false;
	const struct perf_event_attr *first = &r->attrs[0].attr;
	size_t n = 0;

	r->id_pos = pd_sample_id_pos(first->sample_type);
	r->is_pos = pd_sample_is_pos(first->sample_type);
	for (size_t i = 0; i < r->nr_attrs; i++) {
		const struct perf_event_attr *a = &r->attrs[i].attr;

		if (r->nr_attrs > 1 && (pd_sample_id_pos(a->sample_type) != r->id_pos ||
					pd_sample_is_pos(a->sample_type) != r->is_pos ||
					r->id_pos < 0 || a->sample_id_all != first->sample_id_all))
			return err_set(err, errlen, -EINVAL,
					   "attrs disagree on where the sample id is (attr %zu)",
					   i);
		n += r->attrs[i].nr_ids;
	}
	/* Built for one attr too: EVENT_DESC matching looks ids up (perf-read-features.c). */
	r->ids = calloc(n ? n : 1, sizeof(*r->ids));
	if (!r->ids)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < r->nr_attrs; i++)
		for (size_t j = 0; j < r->attrs[i].nr_ids; j++)
			r->ids[r->nr_ids++] = (struct reader_id){ r->attrs[i].ids[j], i };
	qsort(r->ids, r->nr_ids, sizeof(*r->ids), cmp_id);
	return 0;
}

const struct pd_evattr *reader_id_lookup(const struct pd_reader *r, uint64_t id)
{
	size_t lo = 0, hi = r->nr_ids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->ids[mid].id == id)
			return &r->attrs[r->ids[mid].attr];
		if (r->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct pd_evattr *reader_attr_by_id(const struct pd_reader *r, uint64_t id)
{
	return r->nr_attrs == 1 ? &r->attrs[0] : reader_id_lookup(r, id);
}

static int read_attrs(struct pd_reader *r, char *err, size_t errlen)
{
	struct pd_file_section *secs;
	int ret = 0;

	r->nr_attrs = r->header.attrs.size / r->header.attr_size;
	r->attrs = calloc(r->nr_attrs, sizeof(*r->attrs));
	secs = calloc(r->nr_attrs, sizeof(*secs));
	if (!r->attrs || !secs) {
		free(secs);
		return err_set(err, errlen, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < r->nr_attrs && !ret; i++) {
		r->attrs[i].idx = i;
		ret = read_attr(r, &r->attrs[i], &secs[i], err, errlen);
	}
	ret = ret ?: check_ids_sections(r, secs, err, errlen);
	for (size_t i = 0; i < r->nr_attrs && !ret; i++)
		ret = read_ids(r, &r->attrs[i], &secs[i], err, errlen);
	free(secs);
	return ret ?: reader_index_ids(r, err, errlen);
}

bool pd_magic_ok(const void *head, size_t len)
{
	uint64_t magic;

	if (len < 8)
		return false;
	memcpy(&magic, head, 8);
	return magic == PERF_FILE_MAGIC2 || magic == PERF_FILE_MAGIC2_SWAPPED;
}

/*
 * A pipe or terminal ("-" or a FIFO): only pipe mode can be read without seeking. The 16-byte
 * header is read here; the records follow through the stream buffer.
 */
static int open_stream(struct pd_reader *r, char *err, size_t errlen)
{
	struct pd_file_header *h = &r->header;
	size_t have = 0;
	int ret;

	r->stream = true;
	r->file_size = UINT64_MAX;
	ret = reader_read_stream(r, h, PERF_PIPE_HEADER_SIZE, &have, PERF_PIPE_HEADER_SIZE, err,
				 errlen);
	if (ret)
		return ret;
	if (!have)
		return err_set(err, errlen, -EINVAL, "empty input");
	if (have < 8 || !pd_magic_ok(h, have))
		return err_set(err, errlen, -EINVAL, "not a perf.data stream (bad magic)");
	if (h->magic == PERF_FILE_MAGIC2_SWAPPED)
		return err_set(err, errlen, -ENOTSUP,
				   "big-endian perf.data (recorded on another architecture) is not "
				   "supported");
	if (have < PERF_PIPE_HEADER_SIZE || h->size != PERF_PIPE_HEADER_SIZE)
		return err_set(err, errlen, -ENOTSUP,
				   "a perf.data file in file mode cannot be read from a pipe; "
				   "give its path");
	return 1;
}

int pd_reader_open(const char *path, struct pd_reader **out, char *err, size_t errlen)
{
	struct pd_reader *r;
	struct stat st;
	int ret;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	if (!strcmp(path, "-"))
		r->fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	else
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		ret = err_set(err, errlen, -errno, "%s", strerror(errno));
		goto fail;
	}
	if (fstat(r->fd, &st)) {
		ret = err_set(err, errlen, -errno, "%s", strerror(errno));
		goto fail;
	}
	if (S_ISREG(st.st_mode)) {
		r->file_size = (uint64_t)st.st_size;
		ret = check_header(r, err, errlen);
	} else if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode)) {
		ret = open_stream(r, err, errlen);
	} else {
		ret = err_set(err, errlen, -EINVAL, "not a regular file");
	}
	if (ret == 1) {
		r->pipe_mode = true;
		r->header.data.offset = PERF_PIPE_HEADER_SIZE;
		r->header.data.size = r->stream ? UINT64_MAX - PERF_PIPE_HEADER_SIZE :
				      r->file_size - PERF_PIPE_HEADER_SIZE;
		ret = reader_data_init(r, err, errlen);
		if (!ret)
			ret = reader_pipe_open(r, err, errlen);
	} else if (!ret) {
		ret = read_attrs(r, err, errlen);
		if (!ret)
			ret = reader_read_features(r, err, errlen);
		if (!ret)
			ret = reader_data_init(r, err, errlen);
	}
	if (ret)
		goto fail;
	*out = r;
	return 0;
fail:
	pd_reader_close(r);
	return ret;
}

void pd_reader_close(struct pd_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	for (size_t i = 0; r->attrs && i < r->nr_attrs; i++) {
		free(r->attrs[i].name);
		free(r->attrs[i].ids);
	}
	free(r->attrs);
	free(r->ids);
	free(r->info.hostname);
	free(r->info.osrelease);
	free(r->info.version);
	free(r->info.arch);
	free(r->info.cmdline);
	for (size_t i = 0; i < r->info.nr_build_ids; i++)
		free(r->info.build_ids[i].filename);
	free(r->info.build_ids);
	reader_data_release(r);
	free(r);
}

size_t pd_reader_nr_attrs(const struct pd_reader *r)
{
	return r->nr_attrs;
}

const struct pd_evattr *pd_reader_attr(const struct pd_reader *r, size_t i)
{
	return i < r->nr_attrs ? &r->attrs[i] : NULL;
}

const struct pd_file_info *pd_reader_info(const struct pd_reader *r)
{
	return &r->info;
}

const struct pd_record_stats *pd_reader_stats(const struct pd_reader *r)
{
	return &r->stats;
}
