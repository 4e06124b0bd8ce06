// SPDX-License-Identifier: GPL-2.0
/*
 * tracepoint-data.c - parse the TRACING_DATA feature of a perf.data (layout of
 * tools/perf/util/trace-event-read.c, version 0.5/0.6, little endian; the payload comes from the
 * perfdata reader) into libtraceevent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "profiler/perfdata/perfdata.h"
#include "profiler/record/record.h"

struct cursor {
	const char	*p;
	size_t		left;
	bool		bad;
};

static const void *take(struct cursor *c, size_t n)
{
	const char *p = c->p;

	if (c->bad || n > c->left) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	c->left -= n;
	return p;
}

static uint64_t take_uint(struct cursor *c, size_t n)
{
	const void *p = take(c, n);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, n);	/* little endian host and file */
	return v;
}

static const char *take_string(struct cursor *c)
{
	const char *s = c->p, *nul = c->bad ? NULL : memchr(c->p, '\0', c->left);

	if (!nul) {
		c->bad = true;
		return NULL;
	}
	take(c, nul - s + 1);
	return s;
}

static int parse_formats(struct cursor *c, struct tep_handle *tep)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const void *m = take(c, sizeof(magic));
	uint32_t nr_sys;

	if (!m || memcmp(m, magic, sizeof(magic)))
		return -EINVAL;
	take_string(c);				/* version */
	if (take_uint(c, 1) != 0)		/* big endian: not supported */
		return -EINVAL;
	tep_set_long_size(tep, (int)take_uint(c, 1));
	tep_set_page_size(tep, (int)take_uint(c, 4));
	for (int i = 0; i < 2; i++) {		/* header_page, header_event */
		take_string(c);
		take(c, take_uint(c, 8));
	}
	for (uint32_t n = take_uint(c, 4); n && !c->bad; n--)	/* ftrace's own formats */
		take(c, take_uint(c, 8));
	nr_sys = take_uint(c, 4);
	for (uint32_t s = 0; s < nr_sys && !c->bad; s++) {
		const char *sys = take_string(c);

		for (uint32_t n = take_uint(c, 4); n && !c->bad; n--) {
			uint64_t len = take_uint(c, 8);
			const char *fmt = take(c, len);

			if (fmt && tep_parse_event(tep, fmt, len, sys))
				return -EINVAL;
		}
	}
	return c->bad ? -EINVAL : 0;
}

int tracing_data_load(const char *path, struct tep_handle *tep, char *err, size_t errlen)
{
	struct pd_reader *r;
	struct cursor c;
	void *buf = NULL;
	size_t len = 0;
	int ret;

	/* the perf.data reader is the one place that parses a perf.data header */
	ret = pd_reader_open(path, &r, err, errlen);
	if (ret)
		return ret;
	ret = pd_reader_tracing_data(r, &buf, &len, err, errlen);
	pd_reader_close(r);
	if (ret)
		return ret;
	c = (struct cursor){ .p = buf, .left = len };
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	ret = parse_formats(&c, tep);
	if (ret)
		snprintf(err, errlen, "malformed TRACING_DATA feature");
	free(buf);
	return ret;
}
