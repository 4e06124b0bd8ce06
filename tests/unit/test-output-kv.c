// SPDX-License-Identifier: GPL-2.0
/* key/value lists: sorting, the LKP text form, the JSON form (escaping, shortest numbers). */
#include <errno.h>
#include <math.h>

#include "tests/tap.h"
#include "tests/unit/cg-helpers.h"

static char *write_json(const struct kv_list *l, int *err)
{
	struct capture c;

	*err = kv_list_write_json(capture_open(&c), l);
	return capture_close(&c);
}

static void test_sort_and_text(void)
{
	struct kv_list l = { 0 };
	struct capture c;
	char *text;

	kv_list_add(&l, "b", 1);
	kv_list_add(&l, "a.z", 2.005);
	kv_list_add(&l, "a", 3);
	kv_list_add(&l, "B", 4);
	kv_list_add(&l, "a\xc3\xa9", 5);	/* UTF-8 sorts after ASCII, bytewise */
	kv_list_sort(&l);
	kv_list_write_text(capture_open(&c), &l);
	text = capture_close(&c);
	is_str(text, "B: 4.00\na: 3.00\na.z: 2.00\na\xc3\xa9: 5.00\nb: 1.00\n",
	       "sorted bytewise, \"key: %%.2f\" (2.005 is 2.00499... in binary)");
	free(text);
	kv_list_release(&l);
	is_int(l.nr, 0, "released list is empty");
	is_int(kv_list_add(&l, "again", 1), 0, "and reusable");
	is_int(kv_list_add(&l, NULL, 1), -EINVAL, "NULL key: -EINVAL");
	kv_list_release(&l);
}

static void test_json(void)
{
	struct kv_list l = { 0 };
	char *text;
	int err;

	text = write_json(&l, &err);
	is_str(text, "{}\n", "empty object");
	free(text);

	kv_list_add(&l, "perf-profile.self.cycles-pp.x", 45.94);
	kv_list_add(&l, "third", 1.0 / 3);
	kv_list_add(&l, "int", 42);
	kv_list_add(&l, "big", 1e20);
	kv_list_add(&l, "neg", -0.5);
	kv_list_add(&l, "q\"b\\s/\n\t\x01", 0.1);
	text = write_json(&l, &err);
	is_int(err, 0, "json ok");
	is_str(text, "{\n"
	       "  \"perf-profile.self.cycles-pp.x\": 45.94,\n"
	       "  \"third\": 0.3333333333333333,\n"
	       "  \"int\": 42,\n"
	       "  \"big\": 1e+20,\n"
	       "  \"neg\": -0.5,\n"
	       "  \"q\\\"b\\\\s/\\n\\t\\u0001\": 0.1\n"
	       "}\n", "shortest round-trip numbers, escaped keys, in list order");
	free(text);

	kv_list_add(&l, "nan", NAN);
	text = write_json(&l, &err);
	is_int(err, -EDOM, "NaN has no JSON form: -EDOM");
	is_str(text, "", "and nothing is written");
	free(text);
	kv_list_release(&l);
}

static void test_shortest_numbers(void)
{
	static const double v[] = {
		0.1, 0.3, 45.94, 1e-7, 123456789.125, 5e-324, 1.7976931348623157e308,
		2.0 / 3, 100, 0.05,
	};
	char buf[64];
	size_t i;
	bool all = true;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		json_format_number(buf, sizeof(buf), v[i]);
		all &= strtod(buf, NULL) == v[i];
	}
	ok(all, "every number reads back exactly");
	json_format_number(buf, sizeof(buf), 0.3);
	is_str(buf, "0.3", "0.3 stays short");
}

int main(void)
{
	test_sort_and_text();
	test_json();
	test_shortest_numbers();
	return done_testing();
}
