// SPDX-License-Identifier: GPL-2.0
/*
 * script-read-cg.c - `perf script` text into the call graph: reading the input (mmap, or stdin
 * into a buffer) and handing each distinct stack to callgraph_add().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/perfdata/perfdata.h"
#include "profiler/script/script-read-int.h"

struct cg_sink {
	struct callgraph	*cg;
	struct cg_frame		*frames;
	size_t			cap;
};

static int add_stack(const struct script_stack *s, void *arg)
{
	struct cg_sink *k = arg;
	struct cg_task task = { .comm = s->root, .pid = -1, .tid = -1 };
	size_t i;

	if (s->nr > k->cap) {
		struct cg_frame *f = realloc(k->frames, s->nr * 2 * sizeof(*f));

		if (!f)
			return -ENOMEM;
		k->frames = f;
		k->cap = s->nr * 2;
	}
	for (i = 0; i < s->nr; i++)
		k->frames[i] = (struct cg_frame){ .sym = s->frames[i], .dso = "" };
	return callgraph_add(k->cg, &task, k->frames, s->nr, s->period, s->samples);
}

int script_read_buf(const char *buf, size_t len, const struct script_opts *o,
		    struct callgraph *cg, struct script_stats *st)
{
	struct cg_sink k = { .cg = cg };
	int ret = script_parse(buf, len, o, add_stack, &k, st);

	free(k.frames);
	return ret;
}

#define CHUNK (1u << 20)

static int not_text(const char *name, char *err, size_t errlen)
{
	/* a pipe-mode perf.data ("perf record -o -") on stdin, or one given as text */
	snprintf(err, errlen, "%s: perf.data, not perf script text (give it as a file)", name);
	return -EINVAL;
}

/* A regular file, mapped whole: no copy, and the line cache may point into it. */
static int read_mapped(int fd, size_t size, const char *name, const struct script_opts *o,
		       struct callgraph *cg, struct script_stats *st, char *err, size_t errlen)
{
	char *buf = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	int ret;

	if (buf == MAP_FAILED)
		return 1;	/* read it as a stream instead */
	madvise(buf, size, MADV_SEQUENTIAL);
	if (pd_magic_ok(buf, size)) {
		ret = not_text(name, err, errlen);
	} else {
		ret = script_read_buf(buf, size, o, cg, st);
		if (ret)
			snprintf(err, errlen, "%s: %s", name, strerror(-ret));
	}
	munmap(buf, size);
	return ret;
}

/*
 * A pipe, read in chunks and parsed a line at a time as it comes, so memory follows the
 * profile's shape and not the length of the input (perf script output can be many GB).
 */
static int read_stream(int fd, const char *name, const struct script_opts *o,
		       struct callgraph *cg, struct script_stats *st, char *err, size_t errlen)
{
	struct script_stats dummy;
	struct script_parser *p = script_parser_new(o, st ? st : &dummy);
	struct cg_sink k = { .cg = cg };
	size_t cap = CHUNK, n = 0, whole;
	char *buf = malloc(cap), *nl;
	bool checked = false, eof = false;
	ssize_t r;
	int ret = 0;

	if (!p || !buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (!eof && !ret) {
		if (n == cap) {
			/* one line longer than the buffer */
			char *nb = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);

			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			snprintf(err, errlen, "%s: cannot read: %s", name, strerror(-ret));
			goto out;
		}
		eof = !r;
		n += (size_t)r;
		if (!checked && (n >= 8 || eof)) {
			checked = true;
			if (pd_magic_ok(buf, n)) {
				ret = not_text(name, err, errlen);
				goto out;
			}
		}
		if (!checked)
			continue;
		/* whole lines now; at the end, the rest too */
		nl = eof ? NULL : memrchr(buf, '\n', n);
		whole = eof ? n : nl ? (size_t)(nl + 1 - buf) : 0;
		ret = script_parser_feed(p, buf, whole);
		memmove(buf, buf + whole, n - whole);
		n -= whole;
	}
	if (!ret) {
		ret = script_parser_finish(p, add_stack, &k);
		p = NULL;
	}
	if (ret && !*err)
		snprintf(err, errlen, "%s: %s", name, strerror(-ret));
out:
	if (p)
		script_parser_finish(p, NULL, NULL);
	free(buf);
	free(k.frames);
	return ret;
}

int script_read_file(const char *path, const struct script_opts *o, struct callgraph *cg,
		     struct script_stats *st, char *err, size_t errlen)
{
	bool is_stdin = !strcmp(path, "-");
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	const char *name = is_stdin ? "<stdin>" : path;
	struct stat sb;
	int ret = 1;

	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", name, strerror(-ret));
		return ret;
	}
	if (errlen)
		err[0] = '\0';
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_size > 0)
		ret = read_mapped(fd, (size_t)sb.st_size, name, o, cg, st, err, errlen);
	if (ret > 0)
		ret = read_stream(fd, name, o, cg, st, err, errlen);
	if (!is_stdin)
		close(fd);
	return ret;
}
