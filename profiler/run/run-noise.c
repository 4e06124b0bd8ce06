// SPDX-License-Identifier: GPL-2.0
/*
 * run-noise.c - is the machine quiet enough to measure on? A system-wide profile of a run says
 * how much of the sampled CPU time went to processes that are not the workload: compilers,
 * browsers, other people's benchmarks. A large share means the workload shared the CPUs and
 * its numbers (and the kernel's comparison) carry that noise.
 *
 * The workload is known by the names (comm) of its process tree, read from the recording
 * itself: the workload's first process and every process FORKed from the tree, with every name
 * their COMM records give (exec, prctl, and the names synthesized from /proc when the
 * recording started). So a worker that lived a millisecond is still the workload's; scanning
 * /proc while it runs missed those. Samples of those names are "inside", samples of the idle
 * task ("swapper") are neither, the rest are "outside". Names, not pids: a profile keeps the
 * command of each sample. Another process of the same name (a second kprof) counts as inside:
 * the warning errs on the quiet side.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/run/run-int.h"

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

/* The pids of the workload's process tree: open addressing, 0 is empty (pid 0 is idle). */
struct pid_set {
	uint32_t	*v;
	size_t		mask, nr;
};

static bool pid_set_has(const struct pid_set *s, uint32_t pid)
{
	for (size_t i = (pid * 2654435761u) & s->mask; s->v[i]; i = (i + 1) & s->mask)
		if (s->v[i] == pid)
			return true;
	return false;
}

static int pid_set_add(struct pid_set *s, uint32_t pid)
{
	size_t i;

	if (!pid || pid_set_has(s, pid))
		return 0;
	if (2 * (s->nr + 1) > s->mask + 1) {	/* at most half full */
		struct pid_set n = { .mask = 2 * s->mask + 1 };

		n.v = calloc(n.mask + 1, sizeof(*n.v));
		if (!n.v)
			return -ENOMEM;
		for (size_t j = 0; j <= s->mask; j++)
			if (s->v[j])
				pid_set_add(&n, s->v[j]);
		free(s->v);
		*s = n;
	}
	i = (pid * 2654435761u) & s->mask;
	while (s->v[i])
		i = (i + 1) & s->mask;
	s->v[i] = pid;
	s->nr++;
	return 0;
}

/*
 * The records come in time order, so a FORK of a child of the tree comes before that child's
 * own FORKs and COMMs. Threads (pid == ppid) are their process's; a pid reused after the
 * tree's process exited still counts (a run is short, the warning errs on the quiet side).
 */
int run_comms_from_perf_data(const char *perf_data, pid_t root, struct run_comms *c, char *err,
			     size_t errlen)
{
	struct pid_set tree = { .mask = 63 };
	struct pd_reader *r = NULL;
	struct pd_record rec;
	char why[256] = "";
	int ret;

	tree.v = calloc(tree.mask + 1, sizeof(*tree.v));
	if (!tree.v || pid_set_add(&tree, (uint32_t)root)) {
		free(tree.v);
		return err_set(err, errlen, -ENOMEM, "%s: out of memory", perf_data);
	}
	ret = pd_reader_open(perf_data, &r, why, sizeof(why));
	while (!ret && (ret = pd_reader_next(r, &rec, why, sizeof(why))) == 1) {
		const uint32_t *id = rec.body;

		ret = 0;
		if (rec.hdr.type == PERF_RECORD_FORK && rec.body_len >= 8 && pid_set_has(&tree, id[1]))
			ret = pid_set_add(&tree, id[0]);
		else if (rec.hdr.type == PERF_RECORD_COMM && rec.body_len > 8 &&
			 pid_set_has(&tree, id[0])) {
			char comm[16];
			const char *name = (const char *)rec.body + 8;
			size_t n = strnlen(name, rec.body_len - 8);

			snprintf(comm, sizeof(comm), "%.*s", (int)n, name);
			ret = add_comm(c, comm);
		}
		if (ret == -ENOMEM)
			snprintf(why, sizeof(why), "out of memory");
	}
	if (ret < 0)
		err_set(err, errlen, ret, "%s: %s", perf_data, why[0] ? why : strerror(-ret));
	pd_reader_close(r);
	free(tree.v);
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
