// SPDX-License-Identifier: GPL-2.0
/* The call graph: hash-consing, merging of identical stacks, totals, errors, growth. */
#include <errno.h>
#include <malloc.h>

#include "tests/tap.h"
#include "tests/unit/cg-helpers.h"

struct seen {
	size_t		stacks;
	uint64_t	period, samples;
	const char	*main_sym[2];	/* the "main" pointers of two stacks */
	size_t		nr_main;
	bool		leaf_first;
};

static int visit(const struct cg_stack *st, void *arg)
{
	struct seen *s = arg;
	size_t i;

	s->stacks++;
	s->period += st->period;
	s->samples += st->samples;
	for (i = 0; i < st->nr; i++) {
		if (st->frames[i].sym && !strcmp(st->frames[i].sym, "main") && s->nr_main < 2)
			s->main_sym[s->nr_main++] = st->frames[i].sym;
	}
	if (st->nr == 3 && st->frames[0].sym && !strcmp(st->frames[0].sym, "leaf"))
		s->leaf_first = !strcmp(st->frames[2].sym, "main");
	return 0;
}

static int stop_at_first(const struct cg_stack *st, void *arg)
{
	(void)st;
	(*(int *)arg)++;
	return 7;
}

static void test_merge_and_intern(void)
{
	struct callgraph *cg = callgraph_new();
	struct seen s = { 0 };
	int calls = 0;

	ok(cg != NULL, "new");
	cg_test_add(cg, "app", "leaf;mid;main", 10, 1);
	cg_test_add(cg, "app", "leaf;mid;main", 20, 2);		/* same stack: merged */
	cg_test_add(cg, "app", "other;main", 5, 1);
	cg_test_add(cg, "app2", "other;main", 5, 1);		/* other task: distinct */
	cg_test_add(cg, "app", "?+0x10;main", 1, 1);
	cg_test_add(cg, "app", "?+0x20;main", 1, 1);		/* other address: distinct */
	cg_test_add(cg, "app", "", 3, 1);			/* no frames at all */
	is_int(callgraph_nr_stacks(cg), 6, "distinct stacks");
	is_u64(callgraph_total_period(cg), 45, "total period");
	is_u64(callgraph_total_samples(cg), 8, "total samples");
	is_int(callgraph_for_each(cg, visit, &s), 0, "for_each");
	is_int(s.stacks, 6, "every stack visited once");
	ok(s.period == 45 && s.samples == 8, "visited weights sum to the totals");
	ok(s.nr_main == 2 && s.main_sym[0] == s.main_sym[1], "strings interned: one pointer");
	ok(s.leaf_first, "frames stay leaf first");
	is_int(callgraph_for_each(cg, stop_at_first, &calls), 7, "a non-zero return stops");
	is_int(calls, 1, "after one call");
	ok(callgraph_intern(cg, "main") == s.main_sym[0], "callgraph_intern gives the same copy");
	callgraph_free(cg);
	callgraph_free(NULL);
}

static void test_errors(void)
{
	struct callgraph *cg = callgraph_new();
	struct cg_frame f = { .sym = "x", .dso = NULL };

	/* The first add of a fresh graph has no frames (and frames NULL): fine, twice. */
	is_int(callgraph_add(cg, NULL, NULL, 0, 1, 1), 0, "an empty stack first");
	is_int(callgraph_add(cg, NULL, NULL, 0, 1, 1), 0, "and again (merged)");
	is_int(callgraph_nr_stacks(cg), 1, "one stack");

	is_int(callgraph_add(cg, NULL, &f, 1, 1, 1), -EINVAL, "a frame without module: -EINVAL");
	is_int(callgraph_add(cg, NULL, NULL, 2, 1, 1), -EINVAL, "frames NULL: -EINVAL");
	is_int(callgraph_add(NULL, NULL, NULL, 0, 1, 1), -EINVAL, "no graph: -EINVAL");
	f.dso = "app";
	is_int(callgraph_add(cg, NULL, &f, 1, 1, 1), 0, "a NULL task is a task without comm");
	is_u64(callgraph_total_period(cg), 3, "failed adds counted nothing");
	callgraph_free(cg);
}

static void test_no_alloc_on_repeat(void)
{
	struct callgraph *cg = callgraph_new();
	struct cg_frame fr[3] = {
		{ .sym = "leaf", .dso = "app" }, { .sym = "mid", .dso = "app" },
		{ .sym = "main", .dso = "app" },
	};
	struct cg_task t = { .comm = "app", .pid = 1, .tid = 1 };
	struct mallinfo2 before, after;
	int i, err = 0;

	callgraph_add(cg, &t, fr, 3, 1, 1);
	before = mallinfo2();
	for (i = 0; i < 1000; i++)
		err |= callgraph_add(cg, &t, fr, 3, 1, 1);
	after = mallinfo2();
	is_int(err, 0, "1000 repeated adds");
	ok(before.uordblks == after.uordblks && before.arena == after.arena,
	   "an already-seen stack allocates nothing (%zu -> %zu bytes in use)",
	   before.uordblks, after.uordblks);
	callgraph_free(cg);
}

static void test_growth(void)
{
	struct callgraph *cg = callgraph_new();
	struct seen s = { 0 };
	char stack[128];
	int i, err = 0;

	for (i = 0; i < 50000; i++) {
		snprintf(stack, sizeof(stack), "f%d;g%d;main", i, i % 97);
		err |= cg_test_add(cg, "app", stack, 2, 1);
	}
	for (i = 0; i < 50000; i += 2) {
		snprintf(stack, sizeof(stack), "f%d;g%d;main", i, i % 97);
		err |= cg_test_add(cg, "app", stack, 2, 1);
	}
	is_int(err, 0, "75000 adds");
	is_int(callgraph_nr_stacks(cg), 50000, "50000 distinct stacks through table growth");
	callgraph_for_each(cg, visit, &s);
	is_u64(s.period, 150000, "weights survive rehashing");
	callgraph_free(cg);
}

static int count_leaf(const struct cg_stack *st, void *arg)
{
	char *names = arg;

	strcat(names, st->frames[0].sym);
	strcat(names, ",");
	return 0;
}

static void test_string_modes(void)
{
	struct callgraph *plain = callgraph_new(), *stable = callgraph_new();
	char buf[16], names[64] = "";
	const char *fixed[2] = { "alpha", "beta" };
	struct cg_frame f = { .sym = buf, .dso = "app" };
	struct cg_task t = { .comm = "x", .pid = -1, .tid = -1 };
	int i;

	/* Default mode: one buffer reused for different names is fine. */
	strcpy(buf, "one");
	callgraph_add(plain, &t, &f, 1, 1, 1);
	strcpy(buf, "two");
	callgraph_add(plain, &t, &f, 1, 1, 1);
	is_int(callgraph_nr_stacks(plain), 2, "default mode: a reused buffer gives two frames");
	callgraph_for_each(plain, count_leaf, names);
	ok(!strcmp(names, "one,two,") || !strcmp(names, "two,one,"), "with their own names");

	/* Stable mode: same results for stable pointers. */
	callgraph_stable_strings(stable, true);
	for (i = 0; i < 10; i++) {
		f.sym = fixed[i % 2];
		t.pid = i % 3 ? 1 : 2;
		callgraph_add(stable, &t, &f, 1, 10, 1);
	}
	is_int(callgraph_nr_stacks(stable), 4, "stable mode: 2 names x 2 tasks");
	is_u64(callgraph_total_period(stable), 100, "stable mode: totals");
	callgraph_free(plain);
	callgraph_free(stable);
}

/* Stacks added by frame id are the same stacks as those added by frame. */
static void test_ids(void)
{
	struct callgraph *by_frame = callgraph_new(), *by_id = callgraph_new();
	struct cg_frame fr[3] = {
		{ .sym = "leaf", .dso = "app" },
		{ .sym = "mid", .dso = "app" },
		{ .sym = NULL, .dso = "[unknown]", .addr = 0x1234 },
	};
	struct cg_task t = { .comm = "x", .pid = -1, .tid = -1 };
	uint32_t ids[3], again, bad = 99;
	char a[256] = "", b[256] = "";

	for (int i = 0; i < 3; i++)
		ok(!callgraph_frame_id(by_id, &fr[i], &ids[i]), "frame %d has an id", i);
	ok(!callgraph_frame_id(by_id, &(struct cg_frame){ .sym = "mid", .dso = "app" }, &again) &&
	   again == ids[1], "an equal frame has the same id");
	ok(ids[0] != ids[1] && ids[1] != ids[2], "different frames, different ids");
	is_int(callgraph_add_ids(by_id, &t, ids, 3, 5, 1), 0, "add by ids");
	is_int(callgraph_add_ids(by_id, &t, ids, 3, 7, 2), 0, "the same stack again");
	is_int(callgraph_add_ids(by_id, &t, ids + 1, 2, 1, 1), 0, "a shorter one");
	callgraph_add(by_frame, &t, fr, 3, 12, 3);
	callgraph_add(by_frame, &t, fr + 1, 2, 1, 1);
	is_int(callgraph_nr_stacks(by_id), 2, "two distinct stacks");
	is_u64(callgraph_total_period(by_id), 13, "period summed");
	is_u64(callgraph_total_samples(by_id), 4, "samples summed");
	callgraph_for_each(by_id, count_leaf, a);
	callgraph_for_each(by_frame, count_leaf, b);
	is_str(a, b, "the same leaves as when added by frame");
	is_int(callgraph_add_ids(by_id, &t, &bad, 1, 1, 1), -EINVAL, "an unknown id is refused");
	is_int(callgraph_frame_id(by_id, &(struct cg_frame){ .sym = "x" }, &again), -EINVAL,
	       "a frame without a module is refused");
	is_u64(callgraph_total_period(by_id), 13, "refusals add nothing");
	callgraph_free(by_frame);
	callgraph_free(by_id);
}

struct task_sums {
	uint64_t	by_comm[3];	/* samples of "a", "b", "c" */
	int		pid_ok;
};

static int sum_by_comm(const struct cg_stack *st, void *arg)
{
	struct task_sums *t = arg;
	const char *c = st->task->comm;

	if (c && c[0] >= 'a' && c[0] <= 'c' && !c[1])
		t->by_comm[c[0] - 'a'] += st->samples;
	t->pid_ok += st->task->pid == (c && c[0] == 'b' ? 2 : 1);
	return 0;
}

/*
 * The task of the last stack is remembered: a caller's comm buffer reused with another text, the
 * graph's own copy of a name, and tasks that alternate or differ by pid alone must each still
 * be the right task.
 */
static void test_task_memo(void)
{
	struct callgraph *cg = callgraph_new();
	struct cg_frame fr = { .sym = "f", .dso = "app" };
	struct task_sums sums = { { 0 }, 0 };
	char buf[8];
	uint32_t id;
	const char *a;

	ok(!callgraph_frame_id(cg, &fr, &id), "a frame");
	for (int i = 0; i < 300; i++) {
		struct cg_task t = { .comm = buf, .pid = 1, .tid = -1 };

		strcpy(buf, i % 3 == 0 ? "a" : i % 3 == 1 ? "b" : "c");
		if (buf[0] == 'b')
			t.pid = 2;
		callgraph_add_ids(cg, &t, &id, 1, 1, 1);
		callgraph_add_ids(cg, &t, &id, 1, 1, 1);	/* the same task in a row */
	}
	a = callgraph_intern(cg, "a");
	callgraph_add_ids(cg, &(struct cg_task){ .comm = a, .pid = 1, .tid = -1 }, &id, 1, 1, 1);
	/* the same name as the last task's, another pid */
	callgraph_add_ids(cg, &(struct cg_task){ .comm = a, .pid = 3, .tid = -1 }, &id, 1, 1, 1);
	callgraph_for_each(cg, sum_by_comm, &sums);
	ok(sums.by_comm[0] == 202 && sums.by_comm[1] == 200 && sums.by_comm[2] == 200,
	   "samples by comm: %llu %llu %llu", (unsigned long long)sums.by_comm[0],
	   (unsigned long long)sums.by_comm[1], (unsigned long long)sums.by_comm[2]);
	is_int(callgraph_nr_stacks(cg), 4, "one stack per task (a, b, c, a with pid 3)");
	is_int(sums.pid_ok, 3, "pids kept apart");
	callgraph_free(cg);
}

/* Every stack of a graph, in order, as text: its task, frames and weights. */
static int dump_stack(const struct cg_stack *st, void *arg)
{
	char **out = arg;
	size_t len = strlen(*out);
	char *grown;
	int n;

	for (size_t i = 0; i <= st->nr; i++) {
		const char *text = i < st->nr ? st->frames[i].sym : st->task->comm;

		grown = realloc(*out, len + 64);
		if (!grown)
			return -ENOMEM;
		*out = grown;
		n = i < st->nr ? snprintf(*out + len, 64, "%s;", text)
			       : snprintf(*out + len, 64, "%s/%d %llu %llu\n", text, st->task->pid,
					  (unsigned long long)st->period,
					  (unsigned long long)st->samples);
		len += (size_t)n;
	}
	return 0;
}

static char *dump(const struct callgraph *cg)
{
	char *out = calloc(1, 1);

	if (out && callgraph_for_each(cg, dump_stack, &out)) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * Stacks added "soon" make the same graph as added at once: the same stacks in the same order,
 * with their ips, weights and tasks, whether or not queries and immediate adds come between.
 */
static void test_soon(void)
{
	struct callgraph *now = callgraph_new(), *soon = callgraph_new();
	const char *comms[3] = { "a", "b", "c" };
	uint32_t ids_now[40], ids_soon[40], ids[40], bad = 99;
	unsigned int seed = 7;
	char name[16], *a, *b;
	int mismatch = 0;

	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		callgraph_frame_id(now, &(struct cg_frame){ .sym = name, .dso = "app" }, &ids_now[i]);
		callgraph_frame_id(soon, &(struct cg_frame){ .sym = name, .dso = "app" },
				   &ids_soon[i]);
		mismatch += ids_now[i] != ids_soon[i];
	}
	is_int(mismatch, 0, "both graphs give the frames the same ids");
	for (int i = 0; i < 3000; i++) {
		/* few distinct stacks, so that most adds find theirs: both paths of an add */
		size_t nr = (size_t)(rand_r(&seed) % 6);
		struct cg_task t = { .comm = comms[rand_r(&seed) % 3], .pid = rand_r(&seed) % 2,
				     .tid = -1 };
		uint32_t ip = rand_r(&seed) % 5 ? CG_NO_IP : ids_now[rand_r(&seed) % 3];
		uint64_t period = (uint64_t)(rand_r(&seed) % 100);
		int which = rand_r(&seed) % 50;

		for (size_t j = 0; j < nr; j++)
			ids[j] = ids_now[rand_r(&seed) % 8];
		if (ip == CG_NO_IP)
			callgraph_add_ids(now, &t, ids, nr, period, 1);
		else
			callgraph_add_ids_ip(now, &t, ip, ids, nr, period, 1);
		if (which == 0) {	/* an immediate add between soon ones */
			if (ip == CG_NO_IP)
				callgraph_add_ids(soon, &t, ids, nr, period, 1);
			else
				callgraph_add_ids_ip(soon, &t, ip, ids, nr, period, 1);
		} else if (callgraph_add_ids_soon(soon, &t, ip, ids, nr, period, 1)) {
			mismatch++;
		}
		memset(ids, 0xff, sizeof(ids));	/* the graph kept its own copy */
		if (which == 1)		/* a query between adds */
			mismatch += callgraph_total_period(now) != callgraph_total_period(soon);
	}
	is_int(mismatch, 0, "soon adds succeed, and a query sees every stack added before it");
	is_u64(callgraph_total_samples(soon), 3000, "no stack left behind");
	is_int(callgraph_nr_stacks(soon), callgraph_nr_stacks(now), "as many distinct stacks: %zu",
	       callgraph_nr_stacks(now));
	a = dump(now);
	b = dump(soon);
	ok(a && b && !strcmp(a, b), "the same stacks in the same order");
	free(a);
	free(b);
	is_int(callgraph_settle(soon), 0, "settled: no error");
	is_int(callgraph_add_ids_soon(soon, NULL, CG_NO_IP, &bad, 1, 1, 1), -EINVAL,
	       "an unknown frame id is refused");
	is_int(callgraph_add_ids_soon(soon, NULL, bad, ids_now, 1, 1, 1), -EINVAL,
	       "an unknown ip id is refused");
	is_int(callgraph_add_ids_soon(NULL, NULL, CG_NO_IP, NULL, 0, 1, 1), -EINVAL, "no graph");
	is_int(callgraph_settle(NULL), -EINVAL, "settle: no graph");
	is_u64(callgraph_total_samples(soon), 3000, "refusals add nothing");
	callgraph_free(now);
	callgraph_free(soon);
}

int main(void)
{
	test_soon();
	test_task_memo();
	test_ids();
	test_merge_and_intern();
	test_errors();
	test_no_alloc_on_repeat();
	test_growth();
	test_string_modes();
	return done_testing();
}
