// SPDX-License-Identifier: GPL-2.0
/*
 * synth.c - records for what existed before recording started, as perf's
 * util/synthetic-events.c makes them: COMM/FORK/MMAP2 of existing tasks from /proc, the
 * kernel's "[kernel.kallsyms]_text" map, the kallsyms snapshot and TRACING_DATA.
 * Every record carries a zeroed sample_id trailer (sample_id_all): id 0 maps to the first
 * event, which is how perf treats its own synthesized records.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profiler/lib/lib.h"
#include "profiler/record/event-int.h"
#include "profiler/perfdata/perfdata.h"

#define REC_MAX		(8192 + 64)
#define KERNEL_MMAP_NAME "[kernel.kallsyms]_text"

struct rec {
	union {
		struct perf_event_header h;
		uint64_t	align;
		char		bytes[REC_MAX];
	};
	size_t		len;
};

static void rec_begin(struct rec *r, uint32_t type, uint16_t misc)
{
	memset(&r->h, 0, sizeof(r->h));
	r->h.type = type;
	r->h.misc = misc;
	r->len = sizeof(r->h);
}

static void rec_put(struct rec *r, const void *p, size_t n)
{
	memcpy(r->bytes + r->len, p, n);
	r->len += n;
}

static void rec_u32(struct rec *r, uint32_t v)
{
	rec_put(r, &v, 4);
}

static void rec_u64(struct rec *r, uint64_t v)
{
	rec_put(r, &v, 8);
}

/* NUL-terminated string padded with zeros to 8 bytes; truncated to fit the record. */
static void rec_string(struct rec *r, const char *s)
{
	size_t n = strnlen(s, 4095), padded = (n + 1 + 7) & ~(size_t)7;

	rec_put(r, s, n);
	memset(r->bytes + r->len, 0, padded - n);
	r->len += padded - n;
}

static void rec_end(struct pd_writer *w, struct rec *r, size_t id_hdr)
{
	memset(r->bytes + r->len, 0, id_hdr);
	r->len += id_hdr;
	r->h.size = (uint16_t)r->len;
	pd_writer_add(w, r->bytes);
}

size_t synth_id_hdr_size(uint64_t st)
{
	size_t n = 0;

	n += (st & PERF_SAMPLE_TID) ? 8 : 0;
	n += (st & PERF_SAMPLE_TIME) ? 8 : 0;
	n += (st & PERF_SAMPLE_ID) ? 8 : 0;
	n += (st & PERF_SAMPLE_STREAM_ID) ? 8 : 0;
	n += (st & PERF_SAMPLE_CPU) ? 8 : 0;
	n += (st & PERF_SAMPLE_IDENTIFIER) ? 8 : 0;
	return n;
}

int synth_kernel_mmap(struct pd_writer *w, size_t id_hdr, const char *kallsyms)
{
	unsigned long long addr, text = 0, stext = 0, etext = 0;
	char line[512], type, name[256];
	struct rec r;
	FILE *fp = fopen(kallsyms, "r");

	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = addr;
		else if (!strcmp(name, "_stext"))
			stext = addr;
		else if (!strcmp(name, "_etext"))
			etext = addr;
	}
	fclose(fp);
	if (!text)
		text = stext;
	if (!text || etext <= text)
		return -ENOENT;	/* addresses hidden (kptr_restrict) or not a kernel image */
	rec_begin(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	rec_u32(&r, (uint32_t)-1);
	rec_u32(&r, 0);
	rec_u64(&r, text);
	rec_u64(&r, etext - text);
	rec_u64(&r, text);		/* pgoff: the reloc symbol's address, as perf */
	rec_string(&r, KERNEL_MMAP_NAME);
	rec_end(w, &r, id_hdr);
	return 0;
}

static int read_line_file(const char *path, char *buf, size_t len)
{
	FILE *fp = fopen(path, "r");

	if (!fp)
		return -errno;
	if (!fgets(buf, (int)len, fp))
		buf[0] = '\0';
	fclose(fp);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void synth_comm(struct pd_writer *w, size_t id_hdr, pid_t pid, pid_t tid)
{
	char path[64], comm[64];
	struct rec r;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if (read_line_file(path, comm, sizeof(comm)))
		return;		/* the thread exited meanwhile */
	if (tid != pid) {
		rec_begin(&r, PERF_RECORD_FORK, 0);
		rec_u32(&r, pid);
		rec_u32(&r, pid);
		rec_u32(&r, tid);
		rec_u32(&r, pid);
		rec_u64(&r, 0);
		rec_end(w, &r, id_hdr);
	}
	rec_begin(&r, PERF_RECORD_COMM, 0);
	rec_u32(&r, pid);
	rec_u32(&r, tid);
	rec_string(&r, comm);
	rec_end(w, &r, id_hdr);
}

/*
 * One /proc/PID/maps line -> MMAP2: executable mappings, and with @data the readable others
 * marked PERF_RECORD_MISC_MMAP_DATA (perf_event__synthesize_mmap_events with mmap_data, which
 * perf record sets for --call-graph dwarf). perf 6.1's unwinder (libunwind) reads a module's
 * .eh_frame_hdr and .eh_frame through the recorded maps; in a file linked with separate code
 * they lie in a read-only segment, so without its map perf stops after the first frame of every
 * process that existed before the recording.
 */
static void synth_map_line(struct pd_writer *w, size_t id_hdr, pid_t pid, const char *line,
			   bool data)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char perms[8];
	int name_at = 0;
	struct rec r;
	const char *name;
	uint32_t prot = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, &name_at) < 7 || (perms[2] != 'x' && (!data || perms[0] != 'r')))
		return;
	name = name_at ? line + name_at : "";
	if (!*name)
		name = "//anon";
	prot |= perms[0] == 'r' ? PROT_READ : 0;
	prot |= perms[1] == 'w' ? PROT_WRITE : 0;
	prot |= perms[2] == 'x' ? PROT_EXEC : 0;
	rec_begin(&r, PERF_RECORD_MMAP2,
		  PERF_RECORD_MISC_USER | (perms[2] == 'x' ? 0 : PERF_RECORD_MISC_MMAP_DATA));
	rec_u32(&r, pid);
	rec_u32(&r, pid);
	rec_u64(&r, start);
	rec_u64(&r, end - start);
	rec_u64(&r, pgoff);
	rec_u32(&r, maj);
	rec_u32(&r, min);
	rec_u64(&r, ino);
	rec_u64(&r, 0);
	rec_u32(&r, prot);
	rec_u32(&r, perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE);
	rec_string(&r, name);
	rec_end(w, &r, id_hdr);
}

int synth_task(struct pd_writer *w, size_t id_hdr, pid_t pid, bool data)
{
	char path[64], *line = NULL;
	struct dirent *de;
	size_t cap = 0;
	ssize_t n;
	FILE *fp;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -errno;
	synth_comm(w, id_hdr, pid, pid);
	while ((de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]) && atoi(de->d_name) != pid)
			synth_comm(w, id_hdr, pid, atoi(de->d_name));
	closedir(d);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fp = fopen(path, "r");
	if (!fp)
		return 0;	/* exited, or a kernel thread */
	while ((n = getline(&line, &cap, fp)) > 0) {
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		synth_map_line(w, id_hdr, pid, line, data);
	}
	free(line);
	fclose(fp);
	return 0;
}

int synth_all_tasks(struct pd_writer *w, size_t id_hdr, bool data)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			synth_task(w, id_hdr, atoi(de->d_name), data);	/* gone: skipped */
	closedir(d);
	return 0;
}

static int copy_kallsyms(FILE *out, void *arg)
{
	char buf[65536];
	size_t n;
	FILE *in = fopen("/proc/kallsyms", "re");
	int ret = 0;

	(void)arg;	/* a write_file_atomic() callback */

	if (!in)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		errno = 0;
		if (fwrite(buf, 1, n, out) != n) {
			ret = errno ? -errno : -EIO;	/* stdio need not say why */
			break;
		}
	}
	if (!ret && ferror(in))
		ret = -EIO;
	fclose(in);
	return ret;
}

int synth_kallsyms_snapshot(const char *dst)
{
	return write_file_atomic(dst, copy_kallsyms, NULL);
}

/* ---- TRACING_DATA (tools/perf/util/trace-event-info.c, version 0.6) ------------------------ */

struct blob {
	char	*buf;
	size_t	len, cap;
	int	error;
};

static void blob_put(struct blob *b, const void *p, size_t n)
{
	if (b->error)
		return;
	if (b->len + n > b->cap) {
		size_t cap = (b->len + n) * 2 + 4096;
		char *nb = realloc(b->buf, cap);

		if (!nb) {
			b->error = -ENOMEM;
			return;
		}
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

static void blob_text(struct blob *b, const char *text, size_t len)
{
	uint64_t size = len;

	blob_put(b, &size, 8);
	blob_put(b, text, len);
}

/* A file of tracefs/events, whole: one that cannot be read fails the payload, never empties it. */
static void blob_events_file(struct blob *b, const char *name)
{
	size_t len = 0;
	char *path, *text = NULL;
	int ret;

	if (b->error)
		return;
	if (asprintf(&path, "%s/events/%s", tracefs_dir(), name) < 0) {
		b->error = -ENOMEM;
		return;
	}
	ret = read_whole_file(path, 0, &text, &len);
	free(path);
	if (ret) {
		b->error = ret;
		return;
	}
	blob_text(b, text, len);
	free(text);
}

int synth_tracing_data(char *const *systems, char *const *events, size_t nr, void **out,
		       size_t *len)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct blob b = { 0 };
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), count = 0, zero32 = 0;
	uint64_t zero64 = 0;
	char header[2] = { 0, sizeof(long) };	/* little endian, sizeof(long) */

	if (!tracefs_dir())
		return -ENOENT;
	blob_put(&b, magic, sizeof(magic));
	blob_put(&b, "0.6", 4);
	blob_put(&b, header, 2);
	blob_put(&b, &page, 4);
	blob_put(&b, "header_page", 12);
	blob_events_file(&b, "header_page");
	blob_put(&b, "header_event", 13);
	blob_events_file(&b, "header_event");
	blob_put(&b, &zero32, 4);			/* no ftrace-internal formats */
	/* Systems in order of first appearance, each with its events' formats. */
	for (size_t i = 0; i < nr; i++) {
		bool first = true;

		for (size_t j = 0; j < i && first; j++)
			first = strcmp(systems[j], systems[i]) != 0;
		count += first;
	}
	blob_put(&b, &count, 4);
	for (size_t i = 0; i < nr; i++) {
		bool first = true;
		uint32_t n = 0;

		for (size_t j = 0; j < i && first; j++)
			first = strcmp(systems[j], systems[i]) != 0;
		if (!first)
			continue;
		for (size_t j = i; j < nr; j++)
			n += !strcmp(systems[j], systems[i]);
		blob_put(&b, systems[i], strlen(systems[i]) + 1);
		blob_put(&b, &n, 4);
		for (size_t j = i; j < nr; j++) {
			size_t flen = 0;
			char *fmt;

			if (strcmp(systems[j], systems[i]))
				continue;
			fmt = tracepoint_format(systems[j], events[j], &flen);
			if (!fmt && !b.error)
				b.error = -errno;	/* not an empty format perf would misread */
			if (fmt)
				blob_text(&b, fmt, flen);
			free(fmt);
		}
	}
	blob_put(&b, &zero32, 4);			/* no kallsyms copy (see .kallsyms) */
	blob_put(&b, &zero32, 4);			/* no printk formats */
	blob_put(&b, &zero64, 8);			/* no saved cmdlines */
	if (b.error) {
		free(b.buf);
		return b.error;
	}
	*out = b.buf;
	*len = b.len;
	return 0;
}
