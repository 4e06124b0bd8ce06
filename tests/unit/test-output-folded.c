// SPDX-License-Identifier: GPL-2.0
/* Folded stacks: stackcollapse-perf.pl's text for every option (docs/formats.md). */
#include <errno.h>
#include <inttypes.h>

#include "output/output-int.h"
#include "tests/tap.h"
#include "tests/unit/cg-helpers.h"

static char *folded_parts(const struct callgraph *cg, unsigned int flags, unsigned int parts,
			  int *err)
{
	struct capture c;

	*err = folded_write_parts(capture_open(&c), cg, flags, parts);
	return capture_close(&c);
}

/*
 * folded_write()'s text, which every test checks, and the same graph folded in one part and in
 * two (the second on a thread): the text must not depend on how the stacks were split.
 */
static char *folded(const struct callgraph *cg, unsigned int flags, int *err)
{
	struct capture c;
	int err1, err2;
	char *one = folded_parts(cg, flags, 1, &err1), *two = folded_parts(cg, flags, 2, &err2);

	*err = folded_write(capture_open(&c), cg, flags);
	ok(!err1 && !err2 && !strcmp(one, two), "flags %#x: one part and two fold alike", flags);
	free(one);
	free(two);
	return capture_close(&c);
}

/* Sum of the counts of folded text. */
static uint64_t count_sum(const char *text)
{
	const char *line, *sp;
	uint64_t sum = 0;

	for (line = text; *line; line = strchr(line, '\n') + 1) {
		for (sp = line; *sp != '\n'; sp++)
			;
		while (sp > line && sp[-1] != ' ')
			sp--;
		sum += strtoull(sp, NULL, 10);
	}
	return sum;
}

static bool lines_sorted(const char *text)
{
	char *copy = strdup(text), *save = NULL, *line, *prev = NULL;
	bool sorted = true;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		*strrchr(line, ' ') = '\0';
		if (prev && strcmp(prev, line) >= 0)
			sorted = false;
		prev = line;
	}
	free(copy);
	return sorted;
}

static void test_basic(void)
{
	struct callgraph *cg = callgraph_new();
	char *text;
	int err;

	cg_test_add(cg, "my prog", "leaf;mid;main", 10, 1);
	cg_test_add(cg, "my prog", "leaf;mid;main", 5, 2);
	cg_test_add(cg, "my prog", "b;main", 7, 1);
	cg_test_add(cg, "my prog", "B;main", 3, 1);
	cg_test_add(cg, "ls", "x;y", 1, 1);
	cg_test_add(cg, "my prog", "a;b", 0, 1);
	text = folded(cg, 0, &err);
	is_int(err, 0, "ok");
	is_str(text,
	       "ls;y;x 1\n"
	       "my_prog;b;a 0\n"
	       "my_prog;main;B 3\n"
	       "my_prog;main;b 7\n"
	       "my_prog;main;mid;leaf 15\n",
	       "root first, comm spaces as '_', merged, sorted bytewise ('B' < 'b')");
	is_u64(count_sum(text), callgraph_total_period(cg), "counts sum to the total period");
	free(text);
	text = folded(cg, FOLDED_SAMPLES, &err);
	is_u64(count_sum(text), callgraph_total_samples(cg),
	       "FOLDED_SAMPLES: counts sum to the sample count");
	ok(strstr(text, "my_prog;main;mid;leaf 3\n") != NULL, "samples of a merged stack");
	free(text);
	callgraph_free(cg);
}

static void test_unresolved_and_addrs(void)
{
	struct callgraph *cg = callgraph_new();
	char *text;
	int err;

	cg_test_add(cg, "ab", "h;?+0x3@/usr/lib/libfoo.so;?+0x4@[unknown]", 2, 1);
	cg_test_add(cg, "ab", "h;?+0x5@/usr/lib/libfoo.so;?+0x4@[unknown]", 3, 1);
	cg_test_add(cg, "ab", "f;g", 5, 1);
	text = folded(cg, 0, &err);
	is_str(text, "ab;[unknown];[libfoo.so];h 5\nab;g;f 5\n",
	       "unresolved: [module basename] or [unknown]; addresses merge away");
	free(text);
	text = folded(cg, FOLDED_ADDRS, &err);
	is_str(text, "ab;[unknown <4>];[libfoo.so <3>];h 2\nab;[unknown <4>];[libfoo.so <5>];h 3\n"
	       "ab;g;f 5\n", "FOLDED_ADDRS: the Perl script's \"[module <hex>]\"");
	free(text);
	callgraph_free(cg);

	/* perf script's "[unknown] (/memfd:x (deleted))": the script's regex splits at " (" */
	cg = callgraph_new();
	cg_test_add(cg, "mf", "?+0x7@/memfd:sealed-91 (deleted)", 1, 1);
	cg_test_add(cg, "sp", "?+0x7@/tmp/a b/lib.so;?+0x9@/x (y z)/c.so", 1, 1);
	text = folded(cg, 0, &err);
	is_str(text, "mf;[unknown] (/memfd:sealed-91 1\nsp;[c.so];[lib.so] 1\n",
	       "a deleted file: \"[unknown] (PATH\", as the script's regex splits it");
	free(text);
	text = folded(cg, FOLDED_TIDY, &err);
	is_str(text, "mf;[unknown]  1\nsp;[c.so];[lib.so] 1\n",
	       "... \"[unknown] \" once tidied, as perf script | stackcollapse-perf.pl");
	free(text);
	callgraph_free(cg);
}

static void test_kernel_and_names(void)
{
	struct callgraph *cg = callgraph_new();
	char *text;
	int err;

	cg_test_add(cg, "dd", "sys_read@[kernel.kallsyms];__vdso_gettimeofday@[vdso];"
		    "start@/boot/vmlinux;?@[kernel.kallsyms];?@[unknown];a;b@/bin/dd", 1, 1);
	callgraph_add(cg, &(struct cg_task){ .comm = "dd", .pid = -1, .tid = -1 },
		      (struct cg_frame[]){ { .sym = "f", .dso = "app" },
					   { .sym = "g(int;char)", .dso = "app" } }, 2, 1, 1);
	text = folded(cg, FOLDED_KERNEL, &err);
	is_str(text,
	       "dd;b;a;[unknown];[[kernel.kallsyms]]_[k];start_[k];__vdso_gettimeofday_[k];"
	       "sys_read_[k] 1\n"
	       "dd;g(int:char);f 1\n",
	       "FOLDED_KERNEL: _[k] by the script's module rule; ';' in a name becomes ':'");
	free(text);
	callgraph_free(cg);
}

/* Issue 12: names from outside (a comm, a perf map) cannot end a line or forge a count. */
static void test_hostile_names(void)
{
	struct callgraph *cg = callgraph_new();
	char *text;
	int err;

	callgraph_add(cg, &(struct cg_task){ .comm = "a\t999999999\nB;x y", .pid = 7, .tid = 7 },
		      (struct cg_frame[]){ { .sym = "leaf\r\x1b[31m\x7f", .dso = "app" },
					   { .sym = "root", .dso = "app" } }, 2, 3000, 1);
	text = folded(cg, FOLDED_PID, &err);
	is_int(err, 0, "written");
	is_str(text, "a?999999999?B:x_y-7;root;leaf??[31m? 3000\n",
	       "control bytes become '?', ';' ':', spaces in the comm '_': one line, the real count");
	free(text);
	callgraph_free(cg);
}

static void test_tidy(void)
{
	struct callgraph *cg = callgraph_new();
	char *text;
	int err;

	cg_test_add(cg, "app", "foo(int, char)", 1, 1);
	cg_test_add(cg, "app", "(anonymous namespace)::bar(int)", 1, 1);
	cg_test_add(cg, "app", "net/http.(*Client).Do", 1, 1);
	cg_test_add(cg, "app", "RegExp:[&<>\"']", 1, 1);
	cg_test_add(cg, "app", "Ljava/lang/Thread:.run", 1, 1);
	cg_test_add(cg, "java", "Ljava/lang/Thread:.run;Lnoslash", 1, 1);
	text = folded(cg, FOLDED_TIDY, &err);
	is_str(text,
	       "app;(anonymous namespace)::bar 1\n"
	       "app;Ljava/lang/Thread:.run 1\n"
	       "app;RegExp:[&<>] 1\n"
	       "app;foo 1\n"
	       "app;net/http.(*Client).Do 1\n"
	       "java;Lnoslash;java/lang/Thread:.run 1\n",
	       "FOLDED_TIDY: the script's generic and Java tidying");
	free(text);
	text = folded(cg, 0, &err);
	ok(strstr(text, "app;foo(int, char) 1\n") != NULL, "without it names are verbatim");
	free(text);
	callgraph_free(cg);
}

/* The script's "skip process names": names starting with '(' left out, its separator too. */
static void test_left_out(void)
{
	struct callgraph *cg = callgraph_new();
	char *text;
	int err;

	/* first, the line that the next stack folds to once its two leaves are left out */
	cg_test_add(cg, "app", "main", 8, 1);
	cg_test_add(cg, "app", "(anonymous namespace)::spin;(anonymous namespace)::outer;main", 1, 1);
	cg_test_add(cg, "app", "leaf;(x)y;main", 2, 1);
	cg_test_add(cg, "one", "(anonymous namespace)::f", 4, 1);
	text = folded(cg, FOLDED_TIDY, &err);
	is_str(text,
	       "app;main 8\n"
	       "app;main;(anonymous namespace)::outer;(anonymous namespace)::spin 1\n"
	       "app;main;leaf 2\n"
	       "one;(anonymous namespace)::f 4\n",
	       "FOLDED_TIDY: a name starting with '(' left out, \"(anonymous namespace)\" kept");
	free(text);
	text = folded(cg, FOLDED_TIDY | FOLDED_PERL_COMPAT, &err);
	is_str(text, "app;main 9\napp;main;leaf 2\none 4\n",
	       "FOLDED_PERL_COMPAT: every such name left out, as the script does");
	free(text);
	text = folded(cg, FOLDED_PERL_COMPAT, &err);
	ok(text && strstr(text, "app;main;(x)y;leaf 2\n") != NULL,
	   "without FOLDED_TIDY (names already the script's) nothing is left out");
	free(text);
	callgraph_free(cg);
}

static void test_roots(void)
{
	struct callgraph *cg = callgraph_new();
	char *text;
	int err;

	cg_test_add_task(cg, "java", 24636, 25607, "f", 1, 1);
	cg_test_add_task(cg, "V8 Worker", -1, 25608, "f", 2, 1);
	cg_test_add_task(cg, NULL, 1, 1, "f;g", 4, 1);
	cg_test_add_task(cg, NULL, 1, 1, "", 8, 1);
	text = folded(cg, FOLDED_PID, &err);
	is_str(text, "V8_Worker-?;f 2\ng;f 4\njava-24636;f 1\n",
	       "FOLDED_PID: comm-PID, '?' without a pid; no comm, no root; empty stacks dropped");
	free(text);
	text = folded(cg, FOLDED_TID, &err);
	is_str(text, "V8_Worker-?/25608;f 2\ng;f 4\njava-24636/25607;f 1\n",
	       "FOLDED_TID: comm-PID/TID");
	free(text);
	text = folded(cg, 0, &err);
	is_str(text, "V8_Worker;f 2\ng;f 4\njava;f 1\n", "without: the comm alone");
	free(text);
	callgraph_free(cg);
}

static void test_many(void)
{
	struct callgraph *cg = callgraph_new();
	char stack[128], *text;
	uint64_t total = 0;
	int i, err;

	for (i = 0; i < 5000; i++) {
		snprintf(stack, sizeof(stack), "f%d;g%d;?+%d@lib%d.so;main", i % 1000, i % 7, i,
			 i % 3);
		cg_test_add(cg, i % 2 ? "a b" : "c", stack, 1000 + i, 1);
		total += 1000 + i;
	}
	text = folded(cg, 0, &err);
	is_u64(count_sum(text), total, "5000 stacks: counts sum to the total period");
	ok(lines_sorted(text), "lines strictly increasing: merged and sorted");
	free(text);
	is_int(folded_write(NULL, cg, 0), -EINVAL, "no FILE: -EINVAL");
	callgraph_free(cg);
}

/*
 * Stacks that fold alike in both halves of the graph (the same program in many processes, the
 * shape of a make -B recording): one line, whose count is the sum over both halves.
 */
static void test_parts_merge(void)
{
	struct callgraph *cg = callgraph_new();
	uint64_t total = 0, cc1 = 0;
	char stack[64], *text, *one, *two;
	int i, err;

	for (i = 0; i < 6000; i++) {
		snprintf(stack, sizeof(stack), "leaf%d;main;_start", i % 5);
		cg_test_add_task(cg, i % 3 ? "cc1" : "as", 1000 + i, 1000 + i, stack, 10 + i, 1);
		total += 10 + i;
		if (i % 3 && i % 5 == 2)
			cc1 += 10 + i;
	}
	one = folded_parts(cg, 0, 1, &err);
	two = folded_parts(cg, 0, 2, &err);
	is_int(err, 0, "two parts: no error");
	is_str(two, one, "6000 stacks of 2 programs in 6000 processes: two parts fold as one");
	is_u64(count_sum(two), total, "two parts: the counts sum to the total period");
	ok(lines_sorted(two), "two parts: lines strictly increasing (each text once)");
	snprintf(stack, sizeof(stack), "cc1;_start;main;leaf2 %" PRIu64 "\n", cc1);
	ok(strstr(two, stack) != NULL, "a text of both halves is one line with both halves' sum");
	text = folded_parts(cg, 0, 7, &err);
	is_str(text, one, "more than two parts asked: two");
	free(text);
	text = folded_parts(cg, 0, 0, &err);
	is_str(text, one, "no part asked: one");
	free(text);
	free(one);
	free(two);
	callgraph_free(cg);
}

/*
 * Output of several 256 KiB blocks, filled to their edge, and a line longer than a block (a 300
 * KB name) between them, against the text built here: nothing lost, doubled or written past a
 * block's end at an edge (the sanitizer build sees the last).
 */
static void test_long_output(void)
{
	struct callgraph *cg = callgraph_new();
	size_t long_len = 300 << 10, cap = 8 << 20, len = 0;
	char *name = malloc(long_len + 1), *want = malloc(cap), *text;
	int i, err;

	for (i = 0; i < 12000; i++) {
		/* zero-padded: the lines sort in the order of i */
		snprintf(name, 120, "f%05d_%0100d", i, i);
		if (i == 6000) {
			memset(name + 106, 'x', long_len - 106);
			name[long_len] = '\0';
		}
		cg_test_add(cg, "c", name, (uint64_t)i + 1, 1);
		len += (size_t)snprintf(want + len, cap - len, "c;%s %d\n", name, i + 1);
	}
	text = folded(cg, 0, &err);
	ok(len > 4 * (256 << 10), "more than four blocks of lines (%zu bytes)", len);
	is_str(text, want, "12000 lines and a 300 KB one, written in blocks: as built here");
	free(text);
	free(name);
	free(want);
	callgraph_free(cg);
}

int main(void)
{
	test_basic();
	test_unresolved_and_addrs();
	test_kernel_and_names();
	test_hostile_names();
	test_tidy();
	test_left_out();
	test_roots();
	test_many();
	test_parts_merge();
	test_long_output();
	return done_testing();
}
