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

#include "profiler/profile-local.h"
#include "profiler/script-read-int.h"

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

/* The whole of @fd: mapped when it is a regular file, else read into a buffer. */
static int slurp(int fd, char **buf, size_t *len, bool *mapped)
{
	size_t cap = 0, n = 0;
	struct stat sb;
	char *p = NULL;
	ssize_t r;

	*mapped = false;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && sb.st_size > 0) {
		p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			madvise(p, (size_t)sb.st_size, MADV_SEQUENTIAL);
			*buf = p;
			*len = (size_t)sb.st_size;
			*mapped = true;
			return 0;
		}
		p = NULL;
	}
	for (;;) {
		if (cap - n < 65536) {
			char *np;

			cap = cap ? cap * 2 : 1 << 20;
			np = realloc(p, cap);
			if (!np) {
				free(p);
				return -ENOMEM;
			}
			p = np;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(p);
			return (int)r;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	*buf = p;
	*len = n;
	return 0;
}

int script_read_file(const char *path, const struct script_opts *o, struct callgraph *cg,
		     struct script_stats *st, char *err, size_t errlen)
{
	bool is_stdin = !strcmp(path, "-"), mapped;
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	const char *name = is_stdin ? "<stdin>" : path;
	size_t len = 0;
	char *buf = NULL;
	int ret;

	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", name, strerror(-ret));
		return ret;
	}
	ret = slurp(fd, &buf, &len, &mapped);
	if (!is_stdin)
		close(fd);
	if (ret) {
		snprintf(err, errlen, "%s: cannot read: %s", name, strerror(-ret));
		return ret;
	}
	if (profile_is_perf_data(buf, len)) {
		/* a pipe-mode perf.data ("perf record -o -") on stdin, or one given as text */
		ret = -EINVAL;
		snprintf(err, errlen, "%s: perf.data, not perf script text (give it as a file)",
			 name);
	} else {
		ret = script_read_buf(buf, len, o, cg, st);
		if (ret)
			snprintf(err, errlen, "%s: %s", name, strerror(-ret));
	}
	if (mapped)
		munmap(buf, len);
	else
		free(buf);
	return ret;
}
