// SPDX-License-Identifier: GPL-2.0
/*
 * Identical raw samples summed (pipeline-agg.c): equal keys add up, the samples of one process or
 * one thread can be flushed alone (whatever order the tasks' samples came in, and after the
 * per-task lists grew or were emptied), and nothing is lost or sent twice.
 */
#include <stdint.h>
#include <stdlib.h>

#include "profiler/profile/pipeline-int.h"
#include "tests/tap.h"

#define TASKS	600	/* past several growths of the per-task heads (256 at first) */

struct got {
	uint64_t	samples, period;
	size_t		entries;
	int		wrong;		/* entries of another task than asked for */
	int32_t		pid, tid;	/* what was asked for; -1: anything */
	uint64_t	per_pid[TASKS];
};

static int take(const struct agg_entry *e, const uint64_t *chain, void *arg)
{
	struct got *g = arg;

	g->samples += e->samples;
	g->period += e->period;
	g->entries++;
	if ((g->pid >= 0 && e->pid != g->pid) || (g->tid >= 0 && e->tid != g->tid))
		g->wrong++;
	if (e->nr != 2 || chain[0] != (uint64_t)e->pid * 16 || chain[1] != e->ip)
		g->wrong++;
	if (e->pid >= 0 && e->pid < TASKS)
		g->per_pid[e->pid] += e->samples;
	return 0;
}

/* One sample of process @pid (its thread pid + TASKS) at @ip. */
static int add(struct agg_table *t, int32_t pid, uint64_t ip)
{
	uint64_t chain[2] = { (uint64_t)pid * 16, ip };
	struct agg_key k = {
		.event = 0, .pid = pid, .tid = pid + TASKS, .misc = 2, .ip = ip,
		.chain = chain, .nr = 2,
	};

	return agg_add(t, &k, 10);
}

static void test_tasks(void)
{
	struct agg_table t = { 0 };
	struct got g = { .pid = -1, .tid = -1 };
	int bad = 0;

	for (int round = 0; round < 3; round++)
		for (int32_t pid = 0; pid < TASKS; pid++) {
			/* a run of one task, then the next; every other one twice in a row */
			bad += add(&t, pid, 0x1000 + (uint64_t)round % 2) != 0;
			bad += add(&t, pid, 0x2000) != 0;
			if (pid % 2)
				bad += add(&t, (pid * 7) % TASKS, 0x3000) != 0;
		}
	is_int(bad, 0, "added");
	/* one process: pid 5, 3 samples a round (its own two, and pid 515's 0x3000 one) */
	g.pid = 5;
	agg_flush_task(&t, 5, -1, take, &g);
	ok(!g.wrong && g.per_pid[5] == 9 && g.samples == 9 && g.period == 90,
	   "a process flushed alone: %llu samples", (unsigned long long)g.per_pid[5]);
	is_int((int)g.entries, 4, "... as its distinct entries (0x1000, 0x1001, 0x2000, 0x3000)");
	/* one thread, by its tid */
	g = (struct got){ .pid = -1, .tid = 9 + TASKS };
	agg_flush_task(&t, -1, 9 + TASKS, take, &g);
	ok(!g.wrong && g.entries >= 3, "a thread flushed alone (%zu entries)", g.entries);
	/* flushed entries are not sent again */
	g = (struct got){ .pid = 5, .tid = -1 };
	agg_flush_task(&t, 5, -1, take, &g);
	is_int((int)g.entries, 0, "a flushed process has nothing left");
	/* everything else, then an empty table */
	g = (struct got){ .pid = -1, .tid = -1 };
	agg_flush(&t, take, &g);
	ok(!g.wrong, "the full flush is consistent");
	/* new samples after the full flush go to the right lists */
	bad = 0;
	for (int32_t pid = 0; pid < TASKS; pid++)
		bad += add(&t, pid, 0x5000) != 0 || add(&t, pid, 0x5000) != 0;
	is_int(bad, 0, "added again after the full flush");
	g = (struct got){ .pid = 77, .tid = -1 };
	agg_flush_task(&t, 77, -1, take, &g);
	ok(!g.wrong && g.entries == 1 && g.samples == 2 && g.period == 20,
	   "after the full flush a process's list holds its new samples only");
	g = (struct got){ .pid = -1, .tid = -1 };
	agg_flush(&t, take, &g);
	is_u64(g.samples, (uint64_t)TASKS * 2 - 2, "the rest, once");
	agg_release(&t);
}

/* Every sample added comes out exactly once, whichever flushes took it. */
static void test_conservation(void)
{
	struct agg_table t = { 0 };
	struct got g = { .pid = -1, .tid = -1 };
	uint64_t added = 0;

	srand(7);
	for (int i = 0; i < 20000; i++) {
		int32_t pid = rand() % 3 ? rand() % 8 : rand() % TASKS;

		add(&t, pid, 0x1000 + (uint64_t)(rand() % 4));
		added++;
		if (rand() % 500 == 0)
			agg_flush_task(&t, rand() % TASKS, -1, take, &g);
		if (rand() % 700 == 0)
			agg_flush_task(&t, -1, rand() % TASKS + TASKS, take, &g);
		if (rand() % 5000 == 0)
			agg_flush(&t, take, &g);
	}
	agg_flush(&t, take, &g);
	is_u64(g.samples, added, "every sample flushed exactly once");
	is_u64(g.period, added * 10, "with its period");
	is_int(g.wrong, 0, "every entry consistent");
	agg_release(&t);
}

/*
 * The table asks to be flushed before its index and entries outgrow a 1 MiB L2 cache: the index
 * probe of every sample then mostly hits (on the make -B recording a table of 2^13 entries took
 * `report` from 0.233 to 0.215 s against 2^15, docs/report.md), and every entry is memory a run
 * touches for the first time.
 */
static void test_full_bound(void)
{
	struct agg_table t = { 0 };
	size_t n = 0, bytes;

	while (!agg_full(&t) && n < (1u << 20) && !add(&t, (int32_t)(n % TASKS), 0x1000 + n))
		n++;
	bytes = n * sizeof(struct agg_entry) + t.alloc * sizeof(*t.index);
	ok(agg_full(&t) && bytes <= (1u << 20),
	   "full after %zu distinct samples (%zu bytes of entries and index)", n, bytes);
	agg_release(&t);
}

int main(void)
{
	test_tasks();
	test_conservation();
	test_full_bound();
	return done_testing();
}
