// SPDX-License-Identifier: GPL-2.0
/*
 * run-noise.c - is the machine quiet enough to measure on? A system-wide profile of a run says
 * how much of the sampled CPU time went to processes that are not the workload: compilers,
 * browsers, other people's benchmarks. A large share means the workload shared the CPUs and
 * its numbers (and the kernel's comparison) carry that noise.
 *
 * The workload is known by the names (comm) of the processes in its process group, collected
 * while it runs (/proc/<pid>/stat, field 5 is the process group); samples of those names are
 * "inside", samples of the idle task ("swapper") are neither, the rest are "outside". Names,
 * not pids: a profile keeps the command of each sample, and a worker that lived less than the
 * one-second scan interval still has its parent's name. Another process of the same name (a
 * second kprof) counts as inside: the warning errs on the quiet side.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "profiler/run/run.h"

static bool has_comm(const struct run_comms *c, const char *comm)
{
	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i], comm))
			return true;
	return false;
}

static int add_comm(struct run_comms *c, const char *comm)
{
	char (*n)[16];

	if (has_comm(c, comm))
		return 0;
	n = realloc(c->v, (c->nr + 1) * sizeof(*c->v));
	if (!n)
		return -ENOMEM;
	c->v = n;
	snprintf(c->v[c->nr++], sizeof(*c->v), "%s", comm);
	return 0;
}

int run_comms_scan(struct run_comms *c, pid_t pgrp)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		char path[300], buf[512], *open, *close;
		long group;
		FILE *fp;
		size_t n;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fp = fopen(path, "re");
		if (!fp)
			continue;	/* gone meanwhile */
		n = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
		buf[n] = 0;
		/* "pid (comm) state ppid pgrp ...": the comm may hold spaces and parentheses */
		open = strchr(buf, '(');
		close = strrchr(buf, ')');
		if (!open || !close || close < open ||
		    sscanf(close + 1, " %*c %*d %ld", &group) != 1 || group != pgrp)
			continue;
		*close = 0;
		ret = add_comm(c, open + 1);
	}
	closedir(d);
	return ret;
}

void run_comms_release(struct run_comms *c)
{
	free(c->v);
	c->v = NULL;
	c->nr = 0;
}

struct comm_weight {
	const char	*comm;
	uint64_t	w;
};

struct outside {
	const struct run_comms	*c;
	uint64_t		inside, outside;
	struct comm_weight	*others;
	size_t			nr;
	int			err;
};

static int count_stack(const struct cg_stack *st, void *arg)
{
	struct outside *o = arg;
	const char *comm = st->task && st->task->comm ? st->task->comm : "[unknown]";
	struct comm_weight *n;

	if (!strcmp(comm, "swapper") || !strncmp(comm, "swapper/", 8))
		return 0;	/* idle: neither the workload nor noise */
	if (has_comm(o->c, comm)) {
		o->inside += st->period;
		return 0;
	}
	o->outside += st->period;
	for (size_t i = 0; i < o->nr; i++) {
		if (!strcmp(o->others[i].comm, comm)) {
			o->others[i].w += st->period;
			return 0;
		}
	}
	n = realloc(o->others, (o->nr + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	o->others = n;
	o->others[o->nr++] = (struct comm_weight){ comm, st->period };
	return 0;
}

static int weight_cmp(const void *a, const void *b)
{
	const struct comm_weight *x = a, *y = b;

	if (x->w != y->w)
		return x->w > y->w ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

int run_outside_share(const struct callgraph *cg, const struct run_comms *c, double *pct,
		      char *top, size_t toplen)
{
	struct outside o = { .c = c };
	uint64_t total;
	size_t used = 0;
	int ret = callgraph_for_each(cg, count_stack, &o);

	*pct = 0;
	if (top && toplen)
		top[0] = 0;
	if (ret) {
		free(o.others);
		return ret;
	}
	total = o.inside + o.outside;
	if (total)
		*pct = 100.0 * (double)o.outside / (double)total;
	qsort(o.others, o.nr, sizeof(*o.others), weight_cmp);
	for (size_t i = 0; i < o.nr && i < 3 && top && total; i++) {
		int n = snprintf(top + used, toplen - used, "%s%s %.0f%%", i ? ", " : "",
				 o.others[i].comm, 100.0 * (double)o.others[i].w / (double)total);

		if (n < 0 || (size_t)n >= toplen - used)
			break;
		used += (size_t)n;
	}
	free(o.others);
	return 0;
}
