// SPDX-License-Identifier: GPL-2.0
/*
 * perf-write.c - a PERFILE2 writer (see perfdata.h). Feature payloads follow
 * tools/perf/util/header.c of Linux 6.1 (write_hostname, write_event_desc, ...), so perf
 * report labels the file as its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"

#define NAME_ALIGN	64	/* perf's do_write_string() padding */
#define WRITE_BUF	(1 << 20)

struct pd_writer {
	FILE		*fp;
	char		*fp_buf;	/* fp's buffer, WRITE_BUF bytes, freed after fclose() */
	char		*path, *tmp_path;
	uint64_t	attrs_offset, data_offset, data_size;
	int		error;		/* first -errno, sticky */
	size_t		nr_events;
	struct pd_file_attr	*attrs;	/* copies, for EVENT_DESC */
	char		**names;
	uint64_t	**ids;
	size_t		*nr_ids;
};

static void put(struct pd_writer *w, const void *buf, size_t len)
{
	if (!w->error && len && fwrite(buf, 1, len, w->fp) != len)
		w->error = errno ? -errno : -EIO;
}

static void put_u32(struct pd_writer *w, uint32_t v)
{
	put(w, &v, sizeof(v));
}

/* pd_header_string: u32 len (padded, NUL included), bytes, zero padding. */
static void put_string(struct pd_writer *w, const char *s)
{
	static const char zeros[NAME_ALIGN];
	size_t n = strlen(s) + 1, len = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	put_u32(w, (uint32_t)len);
	put(w, s, n);
	put(w, zeros, len - n);
}

static uint64_t tell(struct pd_writer *w)
{
	off_t o = ftello(w->fp);

	if (o < 0 && !w->error)
		w->error = -errno;
	return o < 0 ? 0 : (uint64_t)o;
}

static void free_writer(struct pd_writer *w)
{
	for (size_t i = 0; i < w->nr_events; i++) {
		free(w->names[i]);
		free(w->ids[i]);
	}
	free(w->names);
	free(w->ids);
	free(w->nr_ids);
	free(w->attrs);
	free(w->path);
	free(w->tmp_path);
	free(w->fp_buf);
	free(w);
}

static int copy_events(struct pd_writer *w, const struct pd_write_event *evs, size_t nr)
{
	w->attrs = calloc(nr, sizeof(*w->attrs));
	w->names = calloc(nr, sizeof(*w->names));
	w->ids = calloc(nr, sizeof(*w->ids));
	w->nr_ids = calloc(nr, sizeof(*w->nr_ids));
	if (!w->attrs || !w->names || !w->ids || !w->nr_ids)
		return -ENOMEM;
	w->nr_events = nr;
	for (size_t i = 0; i < nr; i++) {
		w->attrs[i].attr = *evs[i].attr;
		w->attrs[i].attr.size = sizeof(w->attrs[i].attr);
		w->names[i] = strdup(evs[i].name);
		w->ids[i] = malloc((evs[i].nr_ids + 1) * sizeof(uint64_t));
		if (!w->names[i] || !w->ids[i])
			return -ENOMEM;
		memcpy(w->ids[i], evs[i].ids, evs[i].nr_ids * sizeof(uint64_t));
		w->nr_ids[i] = evs[i].nr_ids;
	}
	return 0;
}

int pd_writer_open(const char *path, const struct pd_write_event *evs, size_t nr,
		     struct pd_writer **out)
{
	struct pd_file_header hdr = { 0 };
	struct pd_writer *w = calloc(1, sizeof(*w));
	int ret, fd;

	if (!w)
		return -ENOMEM;
	w->path = strdup(path);
	ret = w->path ? copy_events(w, evs, nr) : -ENOMEM;
	if (ret) {
		free_writer(w);
		return ret;
	}
	fd = atomic_tmp_create(path, &w->tmp_path);
	if (fd < 0) {
		free_writer(w);
		return fd;
	}
	w->fp = fdopen(fd, "w+");
	if (!w->fp) {
		ret = -errno;
		close(fd);
		if (w->tmp_path)
			unlink(w->tmp_path);
		free_writer(w);
		return ret;
	}
	/* glibc ignores the size without a buffer (a 4 KiB one): so one of our own */
	w->fp_buf = malloc(WRITE_BUF);
	if (w->fp_buf)
		setvbuf(w->fp, w->fp_buf, _IOFBF, WRITE_BUF);
	/* Placeholder header; the real one is written at close. */
	put(w, &hdr, sizeof(hdr));
	for (size_t i = 0; i < nr; i++) {
		w->attrs[i].ids.offset = tell(w);
		w->attrs[i].ids.size = w->nr_ids[i] * sizeof(uint64_t);
		put(w, w->ids[i], w->attrs[i].ids.size);
	}
	w->attrs_offset = tell(w);
	put(w, w->attrs, nr * sizeof(*w->attrs));
	w->data_offset = tell(w);
	if (w->error) {
		ret = w->error;
		pd_writer_abort(w);
		return ret;
	}
	*out = w;
	return 0;
}

void pd_writer_add(struct pd_writer *w, const void *rec)
{
	const struct perf_event_header *h = rec;

	put(w, rec, h->size);
	w->data_size += h->size;
}

int pd_writer_error(const struct pd_writer *w)
{
	return w->error;
}

/* ---- feature payloads ------------------------------------------------------------------ */

static void feat_event_desc(struct pd_writer *w)
{
	put_u32(w, (uint32_t)w->nr_events);
	put_u32(w, sizeof(struct perf_event_attr));
	for (size_t i = 0; i < w->nr_events; i++) {
		put(w, &w->attrs[i].attr, sizeof(struct perf_event_attr));
		put_u32(w, (uint32_t)w->nr_ids[i]);
		put_string(w, w->names[i]);
		put(w, w->ids[i], w->nr_ids[i] * sizeof(uint64_t));
	}
}

static void feat_uname(struct pd_writer *w, int feat)
{
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	put_string(w, feat == PERF_FEAT_HOSTNAME ? u.nodename :
		      feat == PERF_FEAT_OSRELEASE ? u.release : u.machine);
}

static void feat_nrcpus(struct pd_writer *w)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);

	put_u32(w, (uint32_t)(conf > 0 ? conf : 1));
	put_u32(w, (uint32_t)(onln > 0 ? onln : 1));
}

static void feat_cmdline(struct pd_writer *w, const struct pd_write_meta *m)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	/* Like perf: the binary's path, then the arguments. */
	exe[n > 0 ? n : 0] = '\0';
	put_u32(w, (uint32_t)(m->argc + 1));
	put_string(w, n > 0 ? exe : "kprof");
	for (int i = 0; i < m->argc; i++)
		put_string(w, m->argv[i]);
}

static bool feat_wanted(int feat, const struct pd_write_meta *m)
{
	switch (feat) {
	case PERF_FEAT_TRACING_DATA:
		return m->tracing_data != NULL;
	case PERF_FEAT_HOSTNAME: case PERF_FEAT_OSRELEASE: case PERF_FEAT_VERSION:
	case PERF_FEAT_ARCH: case PERF_FEAT_NRCPUS: case PERF_FEAT_CMDLINE:
	case PERF_FEAT_EVENT_DESC:
		return true;
	default:
		return false;
	}
}

static void feat_write(struct pd_writer *w, int feat, const struct pd_write_meta *m)
{
	switch (feat) {
	case PERF_FEAT_TRACING_DATA:
		put(w, m->tracing_data, m->tracing_data_len);
		break;
	case PERF_FEAT_HOSTNAME: case PERF_FEAT_OSRELEASE: case PERF_FEAT_ARCH:
		feat_uname(w, feat);
		break;
	case PERF_FEAT_VERSION:
		put_string(w, "kprof-" KPROF_VERSION);
		break;
	case PERF_FEAT_NRCPUS:
		feat_nrcpus(w);
		break;
	case PERF_FEAT_CMDLINE:
		feat_cmdline(w, m);
		break;
	case PERF_FEAT_EVENT_DESC:
		feat_event_desc(w);
		break;
	}
}

int pd_writer_close(struct pd_writer *w, const struct pd_write_meta *m)
{
	struct pd_file_section secs[PERF_FILE_FEAT_BITS] = { { 0 } };
	struct pd_file_header hdr = { 0 };
	uint64_t table;
	size_t nr_secs = 0;
	int ret;

	hdr.magic = PERF_FILE_MAGIC2;
	hdr.size = sizeof(hdr);
	hdr.attr_size = sizeof(struct pd_file_attr);
	hdr.attrs.offset = w->attrs_offset;
	hdr.attrs.size = w->nr_events * sizeof(struct pd_file_attr);
	hdr.data.offset = w->data_offset;
	hdr.data.size = w->data_size;
	for (int f = 0; f < PERF_FILE_FEAT_BITS; f++)
		if (feat_wanted(f, m)) {
			hdr.adds_features[f / 64] |= 1ULL << (f % 64);
			nr_secs++;
		}
	/* Features: a table of sections right after the data, then each payload in bit order. */
	table = w->data_offset + w->data_size;
	if (!w->error && fseeko(w->fp, (off_t)(table + nr_secs * sizeof(secs[0])), SEEK_SET))
		w->error = -errno;
	nr_secs = 0;
	for (int f = 0; f < PERF_FILE_FEAT_BITS; f++) {
		if (!feat_wanted(f, m))
			continue;
		secs[nr_secs].offset = tell(w);
		feat_write(w, f, m);
		secs[nr_secs].size = tell(w) - secs[nr_secs].offset;
		nr_secs++;
	}
	if (!w->error && fseeko(w->fp, (off_t)table, SEEK_SET))
		w->error = -errno;
	put(w, secs, nr_secs * sizeof(secs[0]));
	if (!w->error && fseeko(w->fp, 0, SEEK_SET))
		w->error = -errno;
	put(w, &hdr, sizeof(hdr));
	if (!w->error && fflush(w->fp))
		w->error = -errno;
	if (fclose(w->fp) && !w->error)
		w->error = -errno;
	w->fp = NULL;
	/* no temporary when the target is a device or a pipe (atomic_tmp_create) */
	if (!w->error && w->tmp_path && rename(w->tmp_path, w->path))
		w->error = -errno;
	ret = w->error;
	if (ret && w->tmp_path)
		unlink(w->tmp_path);
	free_writer(w);
	return ret;
}

void pd_writer_abort(struct pd_writer *w)
{
	if (!w)
		return;
	if (w->fp)
		fclose(w->fp);
	if (w->tmp_path)
		unlink(w->tmp_path);
	free_writer(w);
}
