// SPDX-License-Identifier: GPL-2.0
/* The call tree of `kprof report --format json` (calltree_write_json, docs/formats.md). */
#include <errno.h>

#include "tests/tap.h"
#include "tests/unit/cg-helpers.h"

static char *tree_json(const struct callgraph *cg, const struct table_opts *o, int *err)
{
	struct capture c;

	*err = calltree_write_json(capture_open(&c), "cpu-clock", cg, o);
	return capture_close(&c);
}

int main(void)
{
	struct callgraph *cg = callgraph_new();
	struct table_opts o = { .show_unresolved = true };
	struct json_object j = { 0 };
	char *text, err[128];
	int ret;

	/* main calls a (which calls b) and b directly; b recurses once under main */
	cg_test_add(cg, "app", "b;a;main", 50, 5);
	cg_test_add(cg, "app", "a;main", 20, 2);
	cg_test_add(cg, "app", "b;b;main", 20, 2);
	cg_test_add(cg, "app", "clear_page@[kernel.kallsyms];?@/lib/libc.so.6;main", 10, 1);
	text = tree_json(cg, &o, &ret);
	is_int(ret, 0, "written");
	is_str(text,
	       "{\"event\": \"cpu-clock\", \"weight\": \"period\", \"samples\": 10, \"total\": 100,\n"
	       "    \"symbols\": [\n"
	       "      {\"symbol\": \"main\", \"dso\": \"app\", \"kernel\": false, \"children\": 100.00, \"self\": 0.00, \"period\": 100, \"self_period\": 0},\n"
	       "      {\"symbol\": \"b\", \"dso\": \"app\", \"kernel\": false, \"children\": 70.00, \"self\": 70.00, \"period\": 70, \"self_period\": 70},\n"
	       "      {\"symbol\": \"a\", \"dso\": \"app\", \"kernel\": false, \"children\": 70.00, \"self\": 20.00, \"period\": 70, \"self_period\": 20},\n"
	       "      {\"symbol\": \"clear_page\", \"dso\": \"[kernel.kallsyms]\", \"kernel\": true, \"children\": 10.00, \"self\": 10.00, \"period\": 10, \"self_period\": 10},\n"
	       "      {\"symbol\": \"[unknown]\", \"dso\": \"/lib/libc.so.6\", \"kernel\": false, \"children\": 10.00, \"self\": 0.00, \"period\": 10, \"self_period\": 0}],\n"
	       "    \"tree\": [\n"
	       "      {\"symbol\": \"main\", \"dso\": \"app\", \"kernel\": false, \"children\": 100.00, \"self\": 0.00, \"period\": 100, \"self_period\": 0, \"callees\": [\n"
	       "        {\"symbol\": \"a\", \"dso\": \"app\", \"kernel\": false, \"children\": 70.00, \"self\": 20.00, \"period\": 70, \"self_period\": 20, \"callees\": [\n"
	       "          {\"symbol\": \"b\", \"dso\": \"app\", \"kernel\": false, \"children\": 50.00, \"self\": 50.00, \"period\": 50, \"self_period\": 50, \"callees\": []}]},\n"
	       "        {\"symbol\": \"b\", \"dso\": \"app\", \"kernel\": false, \"children\": 20.00, \"self\": 0.00, \"period\": 20, \"self_period\": 0, \"callees\": [\n"
	       "          {\"symbol\": \"b\", \"dso\": \"app\", \"kernel\": false, \"children\": 20.00, \"self\": 20.00, \"period\": 20, \"self_period\": 20, \"callees\": []}]},\n"
	       "        {\"symbol\": \"[unknown]\", \"dso\": \"/lib/libc.so.6\", \"kernel\": false, \"children\": 10.00, \"self\": 0.00, \"period\": 10, \"self_period\": 0, \"callees\": [\n"
	       "          {\"symbol\": \"clear_page\", \"dso\": \"[kernel.kallsyms]\", \"kernel\": true, \"children\": 10.00, \"self\": 10.00, \"period\": 10, \"self_period\": 10, \"callees\": []}]}]}]}",
	       "symbols as the table, the tree from the outermost caller, recursion one node per level");
	ok(json_parse(text, strlen(text), &j, err, sizeof(err)) == 0, "valid JSON (%s)", err);
	json_object_release(&j);
	free(text);

	o = (struct table_opts){ .weight_samples = true };
	text = tree_json(cg, &o, &ret);
	ok(!ret && strstr(text, "\"weight\": \"samples\", \"samples\": 10, \"total\": 10,"),
	   "--weight samples: counts as weights");
	ok(!strstr(text, "[unknown]") &&
	   strstr(text, "\"period\": 10, \"self_period\": 0, \"callees\": [\n"
			"        {\"symbol\": \"a\"") &&
	   strstr(text, "]},\n        {\"symbol\": \"clear_page\", \"dso\": \"[kernel.kallsyms]\""),
	   "  -U: unresolved frames skipped, clear_page right under main");
	free(text);

	cg_test_add(cg, "app", "?;main", 1, 1);
	cg_test_add(cg, "app", "a;main", 2, 1);
	text = tree_json(cg, &o, &ret);
	ok(!ret && strstr(text, "\"samples\": 11, \"total\": 11,") &&
	   strstr(text, "{\"symbol\": \"a\", \"dso\": \"app\", \"kernel\": false, \"children\": 72.73, "
			"\"self\": 27.27, \"period\": 8, \"self_period\": 3}"),
	   "  the unresolved-leaf sample dropped; shares rounded as the table's");
	free(text);
	callgraph_free(cg);

	cg = callgraph_new();
	text = tree_json(cg, &o, &ret);
	is_str(text, "{\"event\": \"cpu-clock\", \"weight\": \"samples\", \"samples\": 0, \"total\": 0,\n"
		     "    \"symbols\": [],\n    \"tree\": []}", "an empty graph");
	free(text);
	callgraph_free(cg);
	return done_testing();
}
