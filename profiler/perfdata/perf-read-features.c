// SPDX-License-Identifier: GPL-2.0
/*
 * perf-read-features.c - the feature sections of perf.data that a report needs: EVENT_DESC
 * (event names), BUILD_ID, HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CMDLINE. Others are only
 * checked to lie inside the file. Layouts: tools/perf/util/header.c (write_* / process_*).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perf-read-int.h"

#define MAX_FEATURE_BYTES	(64u << 20)

/* A bounded view of one feature payload. */
struct feat {
	const unsigned char	*p;
	size_t			left;
	bool			bad;
};

static const void *feat_take(struct feat *f, size_t n)
{
	const void *at = f->p;

	if (f->bad || n > f->left) {
		f->bad = true;
		return NULL;
	}
	f->p += n;
	f->left -= n;
	return at;
}

static uint32_t feat_u32(struct feat *f)
{
	const void *at = feat_take(f, 4);
	uint32_t v = 0;

	if (at)
		memcpy(&v, at, 4);
	return v;
}

/* struct pd_header_string: u32 len (padded, NUL included), then the bytes. */
static char *feat_string(struct feat *f)
{
	uint32_t len = feat_u32(f);
	const char *s = feat_take(f, len);

	if (!s || !len || !memchr(s, '\0', len)) {
		f->bad = true;
		return NULL;
	}
	return strdup(s);
}

static int feat_string_into(struct feat *f, char **out)
{
	free(*out);
	*out = feat_string(f);
	return *out ? 0 : f->bad ? -EINVAL : -ENOMEM;
}

static int parse_cmdline(struct feat *f, char **out)
{
	uint32_t nr = feat_u32(f);
	size_t len = 0;
	char *line = NULL;

	for (uint32_t i = 0; i < nr && !f->bad; i++) {
		char *arg = feat_string(f), *grown;

		if (!arg)
			break;
		grown = realloc(line, len + strlen(arg) + 2);
		if (!grown) {
			free(arg);
			free(line);
			return -ENOMEM;
		}
		line = grown;
		len += (size_t)sprintf(line + len, "%s%s", i ? " " : "", arg);
		free(arg);
	}
	if (f->bad) {
		free(line);
		return -EINVAL;
	}
	free(*out);
	*out = line ? line : strdup("");
	return *out ? 0 : -ENOMEM;
}

/* Name the attr whose ids include @id (perf matches EVENT_DESC entries to evsels by id). */
static struct pd_evattr *attr_of_desc(struct pd_reader *r, size_t i, uint64_t first_id,
					 bool has_id)
{
	if (has_id) {
		for (size_t a = 0; a < r->nr_attrs; a++)
			for (size_t j = 0; j < r->attrs[a].nr_ids; j++)
				if (r->attrs[a].ids[j] == first_id)
					return &r->attrs[a];
	}
	return i < r->nr_attrs ? &r->attrs[i] : NULL;
}

static int parse_event_desc(struct pd_reader *r, struct feat *f)
{
	uint32_t nr = feat_u32(f), attr_size = feat_u32(f);

	if (!f->bad && attr_size < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	for (uint32_t i = 0; i < nr && !f->bad; i++) {
		const void *ids;
		uint32_t nr_ids;
		uint64_t first = 0;
		struct pd_evattr *ev;
		char *name;

		feat_take(f, attr_size);
		nr_ids = feat_u32(f);
		name = feat_string(f);
		ids = feat_take(f, (size_t)nr_ids * 8);
		if (f->bad || !name) {
			free(name);
			return f->bad ? -EINVAL : -ENOMEM;
		}
		if (nr_ids)
			first = pd_u64_at(ids, 0);
		ev = attr_of_desc(r, i, first, nr_ids > 0);
		if (ev) {
			free(ev->name);
			ev->name = name;
		} else {
			free(name);
		}
	}
	return f->bad ? -EINVAL : 0;
}

/*
 * BUILD_ID: pd_build_id_header records -- header, pid, 24 id bytes (the size in byte 20
 * when misc has PERF_RECORD_MISC_BUILD_ID_SIZE, else 20), the file name padded to the size.
 */
static int parse_build_ids(struct pd_file_info *in, struct feat *f)
{
	size_t alloc = in->nr_build_ids;

	while (f->left && !f->bad) {
		const unsigned char *rec = f->p;
		struct perf_event_header h;
		struct pd_build_id *b;
		const char *name;
		size_t name_len;
		int32_t pid;

		if (f->left < sizeof(h))
			return -EINVAL;
		memcpy(&h, rec, sizeof(h));
		if (h.size < sizeof(h) + 4 + 24 + 1 || !feat_take(f, h.size))
			return -EINVAL;
		name = (const char *)rec + sizeof(h) + 28;
		name_len = h.size - sizeof(h) - 28;
		if (!memchr(name, '\0', name_len))
			return -EINVAL;
		b = grow_array(in->build_ids, &alloc, in->nr_build_ids + 1, sizeof(*b));
		if (!b)
			return -ENOMEM;
		in->build_ids = b;
		b += in->nr_build_ids;
		memcpy(&pid, rec + sizeof(h), 4);
		*b = (struct pd_build_id){
			.pid = pid, .size = 20,
			.kernel = (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ||
				  (h.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				  PERF_RECORD_MISC_GUEST_KERNEL,
		};
		if (h.misc & PERF_RECORD_MISC_BUILD_ID_SIZE)
			b->size = rec[sizeof(h) + 4 + 20] <= 20 ? rec[sizeof(h) + 4 + 20] : 20;
		memcpy(b->id, rec + sizeof(h) + 4, 20);
		b->filename = strdup(name);
		if (!b->filename)
			return -ENOMEM;
		in->nr_build_ids++;
	}
	return f->bad ? -EINVAL : 0;
}

static int parse_feature(struct pd_reader *r, unsigned int bit, struct feat *f)
{
	struct pd_file_info *in = &r->info;

	switch (bit) {
	case PERF_FEAT_HOSTNAME:
		return feat_string_into(f, &in->hostname);
	case PERF_FEAT_OSRELEASE:
		return feat_string_into(f, &in->osrelease);
	case PERF_FEAT_VERSION:
		return feat_string_into(f, &in->version);
	case PERF_FEAT_ARCH:
		return feat_string_into(f, &in->arch);
	case PERF_FEAT_NRCPUS:
		in->nr_cpus_avail = (int)feat_u32(f);
		in->nr_cpus_online = (int)feat_u32(f);
		return f->bad ? -EINVAL : 0;
	case PERF_FEAT_CMDLINE:
		return parse_cmdline(f, &in->cmdline);
	case PERF_FEAT_EVENT_DESC:
		return parse_event_desc(r, f);
	case PERF_FEAT_BUILD_ID:
		return parse_build_ids(in, f);
	case PERF_FEAT_COMPRESSED:	/* u32 version, type (1: zstd), level, ratio, mmap_len */
		feat_u32(f);
		if (f->bad)
			return -EINVAL;
		return feat_u32(f) == PERF_COMP_ZSTD ? 0 : f->bad ? -EINVAL : -ENOTSUP;
	default:
		return 0;
	}
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

/* perf's name for an attr without EVENT_DESC: the generic event name, or type/config. */
static char *fallback_name(const struct perf_event_attr *a)
{
	const char *base = NULL;
	char buf[96];

	if (a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw_names) / sizeof(*hw_names))
		base = hw_names[a->config];
	else if (a->type == PERF_TYPE_SOFTWARE &&
		 a->config < sizeof(sw_names) / sizeof(*sw_names))
		base = sw_names[a->config];
	if (base)
		snprintf(buf, sizeof(buf), "%s%s%.*s", base, a->precise_ip ? ":" : "",
			 (int)a->precise_ip, "ppp");
	else
		snprintf(buf, sizeof(buf), "type%u/config0x%llx", a->type,
			 (unsigned long long)a->config);
	return strdup(buf);
}

int reader_read_features(struct pd_reader *r, char *err, size_t errlen)
{
	const struct pd_file_header *h = &r->header;
	uint64_t at = h->data.offset + h->data.size, nr = 0;
	struct pd_file_section *sec;
	unsigned int i = 0;
	int ret = 0;

	for (unsigned int w = 0; w < PERF_FILE_FEAT_BITS / 64; w++)
		nr += (uint64_t)__builtin_popcountll(h->adds_features[w]);
	if (nr && (at > r->file_size || nr * sizeof(*sec) > r->file_size - at))
		return err_set(err, errlen, -EINVAL,
				   "truncated file: feature section table at %llu is outside "
				   "the file",
				   (unsigned long long)at);
	sec = calloc(nr ? nr : 1, sizeof(*sec));
	if (!sec)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	ret = reader_pread(r, sec, nr * sizeof(*sec), at, err, errlen);
	for (unsigned int bit = 0; !ret && bit < PERF_FILE_FEAT_BITS; bit++) {
		void *payload;

		if (!feature_set(r, bit))
			continue;
		if (sec[i].offset > r->file_size || sec[i].size > r->file_size - sec[i].offset) {
			ret = err_set(err, errlen, -EINVAL,
					  "feature %u section [%llu, +%llu) is outside the file",
					  bit,
					  (unsigned long long)sec[i].offset,
					  (unsigned long long)sec[i].size);
			break;
		}
		if (bit == PERF_FEAT_TRACING_DATA)	/* read on demand: pd_reader_tracing_data */
			r->tracing_data = sec[i];
		if (bit == PERF_FEAT_HOSTNAME || bit == PERF_FEAT_OSRELEASE ||
		    bit == PERF_FEAT_VERSION || bit == PERF_FEAT_ARCH || bit == PERF_FEAT_NRCPUS ||
		    bit == PERF_FEAT_CMDLINE || bit == PERF_FEAT_EVENT_DESC ||
		    bit == PERF_FEAT_BUILD_ID || bit == PERF_FEAT_COMPRESSED) {
			if (sec[i].size > MAX_FEATURE_BYTES) {
				ret = err_set(err, errlen, -EINVAL,
						  "feature %u is too large", bit);
				break;
			}
			payload = malloc(sec[i].size ? sec[i].size : 1);
			if (!payload) {
				ret = err_set(err, errlen, -ENOMEM, "out of memory");
				break;
			}
			ret = reader_pread(r, payload, sec[i].size, sec[i].offset, err, errlen);
			if (!ret)
				ret = reader_parse_feature(r, bit, payload, sec[i].size);
			if (ret == -ENOTSUP)
				ret = err_set(err, errlen, ret, "compressed with a method other "
					      "than zstd (HEADER_COMPRESSED)");
			else if (ret)
				ret = err_set(err, errlen, ret, "corrupt feature section %u", bit);
			free(payload);
		}
		i++;
	}
	free(sec);
	if (!ret && reader_name_attrs(r))
		ret = err_set(err, errlen, -ENOMEM, "out of memory");
	return ret;
}

int reader_parse_feature(struct pd_reader *r, unsigned int bit, const void *p, size_t len)
{
	struct feat f = { p, len, false };
	int ret = parse_feature(r, bit, &f);

	return ret == -ENOMEM || ret == -ENOTSUP ? ret : ret ? -EINVAL : 0;
}

int reader_name_attrs(struct pd_reader *r)
{
	for (size_t a = 0; a < r->nr_attrs; a++) {
		if (!r->attrs[a].name)
			r->attrs[a].name = fallback_name(&r->attrs[a].attr);
		if (!r->attrs[a].name)
			return -ENOMEM;
	}
	return 0;
}

int pd_reader_tracing_data(struct pd_reader *r, void **buf, size_t *len, char *err,
			   size_t errlen)
{
	uint64_t size = r->tracing_data.size;
	void *p;
	int ret;

	*buf = NULL;
	*len = 0;
	if (!feature_set(r, PERF_FEAT_TRACING_DATA) || !size)
		return err_set(err, errlen, -ENOENT,
			       "no tracepoint formats (TRACING_DATA) in the file");
	if (size > MAX_FEATURE_BYTES)
		return err_set(err, errlen, -EINVAL, "feature %u is too large",
			       PERF_FEAT_TRACING_DATA);
	p = malloc(size);
	if (!p)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	ret = reader_pread(r, p, size, r->tracing_data.offset, err, errlen);
	if (ret) {
		free(p);
		return ret;
	}
	*buf = p;
	*len = size;
	return 0;
}
