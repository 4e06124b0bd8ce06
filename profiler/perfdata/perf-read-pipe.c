// SPDX-License-Identifier: GPL-2.0
/*
 * perf-read-pipe.c - pipe-mode perf.data (perf record -o -) and perf's own records in the
 * stream of either mode.
 *
 * A pipe-mode stream is a 16-byte header and records: what a file keeps in its attrs and feature
 * sections comes first as HEADER_ATTR (attr + ids), HEADER_FEATURE (the feature payload of
 * a file, one per record), HEADER_TRACING_DATA (its payload follows the record) and
 * HEADER_BUILD_ID records, then the kernel's records; event names come as EVENT_UPDATE
 * records, possibly after the first kernel record (perf's __perf_session__process_pipe_events).
 * The records before the first kernel record are taken when the reader opens, so the attrs are
 * known, and fixed, before any sample is decoded.
 */
#include <errno.h>
#include <stdlib.h>

#include "profiler/lib/lib.h"
#include "profiler/perfdata/perf-read-int.h"

#define MAX_PIPE_ATTRS	4096

const char *pd_auxtrace_name(uint32_t type)
{
	static const char *const names[] = {
		[PERF_AUXTRACE_INTEL_PT] = "Intel PT", [PERF_AUXTRACE_INTEL_BTS] = "Intel BTS",
		[PERF_AUXTRACE_CS_ETM] = "CoreSight ETM", [PERF_AUXTRACE_ARM_SPE] = "Arm SPE",
		[PERF_AUXTRACE_S390_CPUMSF] = "s390 CPU-MF", [PERF_AUXTRACE_HISI_PTT] = "HiSilicon PTT",
	};

	return type < sizeof(names) / sizeof(*names) && names[type] ? names[type] : "unknown";
}

/* HEADER_ATTR: a perf_event_attr of attr.size bytes, then the u64 ids of its fds. */
static int add_attr(struct pd_reader *r, const struct pd_record *rec, char *err,
		    size_t errlen)
{
	struct pd_evattr *ev;
	uint32_t size;
	size_t nr;
	int ret;

	if (r->prescan_done)
		return err_set(err, errlen, -ENOTSUP,
			       "pipe mode: an event attr at offset %llu, after the first sample, is "
			       "not supported", (unsigned long long)rec->offset);
	if (r->nr_attrs >= MAX_PIPE_ATTRS)
		return err_set(err, errlen, -EINVAL, "too many attrs");
	ev = grow_array(r->attrs, &r->attrs_alloc, r->nr_attrs + 1, sizeof(*ev));
	if (!ev)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	r->attrs = ev;
	ev += r->nr_attrs;
	memset(ev, 0, sizeof(*ev));
	ev->idx = r->nr_attrs++;
	ret = reader_take_attr(r, ev, rec->body, rec->body_len, err, errlen);
	if (ret)
		return ret;
	memcpy(&size, (const char *)rec->body + offsetof(struct perf_event_attr, size), 4);
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	nr = (rec->body_len - size) / 8;
	if (!nr)
		return 0;
	ev->ids = malloc(nr * 8);
	if (!ev->ids)
		return err_set(err, errlen, -ENOMEM, "out of memory");
	memcpy(ev->ids, (const char *)rec->body + size, nr * 8);
	ev->nr_ids = nr;
	return 0;
}

/* EVENT_UPDATE of type NAME: u64 type, u64 id, the name. perf's evsel gets it. */
static int event_update(struct pd_reader *r, const struct pd_record *rec)
{
	const char *name = (const char *)rec->body + 16;
	uint64_t type, id;
	char *copy;

	if (rec->body_len < 17)
		return 0;
	type = pd_u64_at(rec->body, 0);
	id = pd_u64_at(rec->body, 1);
	if (type != PERF_EVENT_UPDATE_NAME || !memchr(name, '\0', rec->body_len - 16))
		return 0;
	for (size_t a = 0; a < r->nr_attrs; a++) {
		for (size_t j = 0; j < r->attrs[a].nr_ids; j++) {
			if (r->attrs[a].ids[j] != id)
				continue;
			copy = strdup(name);
			if (!copy)
				return -ENOMEM;
			free(r->attrs[a].name);
			r->attrs[a].name = copy;
			return 0;
		}
	}
	return 0;
}

int reader_user_record(struct pd_reader *r, const struct pd_record *rec, char *err,
		       size_t errlen)
{
	int ret = 0;

	switch (rec->hdr.type) {
	case PERF_RECORD_HEADER_ATTR:
		return add_attr(r, rec, err, errlen);
	case PERF_RECORD_EVENT_UPDATE:
		ret = event_update(r, rec);
		break;
	case PERF_RECORD_AUXTRACE_INFO:	/* u32 type, reserved, then the PMU's private data */
		if (rec->body_len >= 4)
			memcpy(&r->stats.auxtrace_type, rec->body, 4);
		return 0;
	case PERF_RECORD_HEADER_FEATURE:	/* u64 feat_id, then the payload */
	case PERF_RECORD_HEADER_BUILD_ID:
		if (!r->pipe_mode)
			return 0;
		/*
		 * The resolver takes the build-ids, and the loader the other features, when the
		 * first sample comes: later ones are counted, not used.
		 */
		if (r->prescan_done) {
			r->stats.late_headers++;
			return 0;
		}
		if (rec->hdr.type == PERF_RECORD_HEADER_BUILD_ID)
			ret = reader_parse_feature(r, PERF_FEAT_BUILD_ID,
						   (const char *)rec->body - 8, rec->hdr.size);
		else if (rec->body_len < 8)
			ret = -EINVAL;
		else if (pd_u64_at(rec->body, 0) != PERF_FEAT_EVENT_DESC &&
			 pd_u64_at(rec->body, 0) < PERF_FILE_FEAT_BITS)
			ret = reader_parse_feature(r, (unsigned int)pd_u64_at(rec->body, 0),
						   (const char *)rec->body + 8,
						   rec->body_len - 8);
		break;
	default:
		return 0;
	}
	if (ret == -ENOMEM)
		return err_set(err, errlen, ret, "out of memory");
	if (ret == -ENOTSUP)
		return err_set(err, errlen, ret, "compressed with a method other than zstd");
	if (ret)
		return err_set(err, errlen, ret, "corrupt record at offset %llu (type %u, size %u)",
			       (unsigned long long)rec->offset, rec->hdr.type, rec->hdr.size);
	return 0;
}

int reader_pipe_open(struct pd_reader *r, char *err, size_t errlen)
{
	struct pd_record rec;
	uint32_t type;
	int ret;

	/* perf's records up to the first of the kernel's (or a compressed batch of them) */
	for (;;) {
		ret = reader_peek_type(r, &type, err, errlen);
		if (ret < 0)
			return ret;
		if (!ret || type < PERF_RECORD_HEADER_ATTR || type == PERF_RECORD_COMPRESSED)
			break;
		ret = reader_next_raw(r, &rec, err, errlen);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
		if (ret == 2)	/* a record with a payload, skipped */
			continue;
		r->stats.records++;
		ret = reader_user_record(r, &rec, err, errlen);
		if (ret)
			return ret;
	}
	r->prescan_done = true;
	if (!r->nr_attrs)
		return err_set(err, errlen, -EINVAL,
			       "pipe-mode perf.data without event attrs (no HEADER_ATTR record)");
	ret = reader_index_ids(r, err, errlen);
	if (!ret && reader_name_attrs(r))
		ret = err_set(err, errlen, -ENOMEM, "out of memory");
	return ret;
}
