// SPDX-License-Identifier: GPL-2.0
/* The Children/Self table (perf report --children -g none --sort=dso,symbol). */
#include <errno.h>

#include "tests/tap.h"
#include "tests/unit/cg-helpers.h"

static char *table(const struct callgraph *cg, const struct table_opts *o, int *err)
{
	struct capture c;

	*err = table_write(capture_open(&c), cg, o);
	return capture_close(&c);
}

static struct callgraph *sample_graph(void)
{
	struct callgraph *cg = callgraph_new();

	cg_test_add(cg, "t", "leaf_a;mid;main@/usr/bin/fixture", 600, 6);
	cg_test_add(cg, "t", "leaf_b@/usr/lib/libc.so.6;main@/usr/bin/fixture", 200, 2);
	cg_test_add(cg, "t", "sys_x@[kernel.kallsyms];leaf_b@/usr/lib/libc.so.6;"
		    "main@/usr/bin/fixture", 100, 1);
	cg_test_add(cg, "t", "rec;rec;main@/usr/bin/fixture", 100, 1);
	cg_test_add(cg, "t", "?+0x1@[kernel.kallsyms];main@/usr/bin/fixture", 1000, 10);
	return cg;
}

static void test_rows(void)
{
	struct callgraph *cg = sample_graph();
	struct table_opts o = { .event = "cpu-clock" };
	char *text;
	int err;

	text = table(cg, &o, &err);
	is_int(err, 0, "ok");
	is_str(text,
	       "# Samples: 10 of event 'cpu-clock'\n"
	       "# Event count: 1000\n"
	       "#\n"
	       "# Children      Self  Shared Object      Symbol\n"
	       "# ........  ........  .................  ......\n"
	       "#\n"
	       "   100.00%     0.00%  fixture            [.] main\n"
	       "    60.00%    60.00%  app                [.] leaf_a\n"
	       "    60.00%     0.00%  app                [.] mid\n"
	       "    30.00%    20.00%  libc.so.6          [.] leaf_b\n"
	       "    10.00%    10.00%  [kernel.kallsyms]  [k] sys_x\n"
	       "    10.00%    10.00%  app                [.] rec\n",
	       "header, rows by Children, Self, module, name; -U percentages; recursion once");
	free(text);

	o.min_percent = 20;
	o.weight_samples = true;
	o.event = NULL;
	text = table(cg, &o, &err);
	ok(strstr(text, "# Samples: 10\n# Sample count: 10\n") != NULL, "weighted by samples");
	ok(strstr(text, "leaf_b") && !strstr(text, "rec"), "rows below min_percent hidden");
	free(text);

	o = (struct table_opts){ .show_unresolved = true };
	text = table(cg, &o, &err);
	ok(strstr(text, "# Samples: 20\n# Event count: 2000\n") != NULL,
	   "show_unresolved keeps the unresolved samples");
	ok(strstr(text, "    50.00%    50.00%  [kernel.kallsyms]  [k] [unknown]\n") != NULL,
	   "as one [unknown] row per module");
	free(text);
	callgraph_free(cg);
}

static void test_empty(void)
{
	struct callgraph *cg = callgraph_new();
	struct table_opts o = { 0 };
	char *text;
	int err;

	text = table(cg, &o, &err);
	is_int(err, 0, "an empty graph is not an error");
	ok(strstr(text, "# Samples: 0\n") && !strstr(text, "%"), "header only");
	free(text);
	is_int(table_write(stdout, cg, NULL), -EINVAL, "no options: -EINVAL");
	callgraph_free(cg);
}

int main(void)
{
	test_rows();
	test_empty();
	return done_testing();
}
