// SPDX-License-Identifier: GPL-2.0
/* The writers' string building and summing (output-int.h): keys are what their length says. */
#include <stdlib.h>
#include <string.h>

#include "output/output-int.h"
#include "tests/tap.h"

/* A key given by length inside a longer buffer is that key, not the buffer. */
static void test_sums_by_length(void)
{
	struct str_sums s = { 0 };
	int err;

	err = str_sums_add(&s, "app;main", 8, 5);
	err = err ?: str_sums_add(&s, "app;main;(x)", 8, 2);	/* first 8 bytes: "app;main" */
	err = err ?: str_sums_add(&s, "app;mainly", 10, 1);
	err = err ?: str_sums_add(&s, "app", 3, 7);
	is_int(err, 0, "added");
	is_int((long long)s.nr, 3, "three keys: a longer buffer's first bytes are the same key");
	is_str(s.nr ? s.v[0].key : NULL, "app;main", "the key as given");
	is_u64(s.nr ? s.v[0].value : 0, 7, "its values summed");
	is_str(s.nr > 2 ? s.v[2].key : NULL, "app", "a prefix of a key is another key");
	str_sums_release(&s);
}

static void test_truncate(void)
{
	struct strbuf b = { 0 };

	ok(!sb_puts(&b, "app;main") && !sb_putn(&b, ";", 1), "built");
	sb_truncate(&b, 8);
	is_int((long long)b.len, 8, "cut back");
	is_str(b.s, "app;main", "still NUL-terminated where it ends");
	sb_truncate(&b, 20);
	is_int((long long)b.len, 8, "never grows");
	free(b.s);
	sb_truncate(&(struct strbuf){ 0 }, 0);	/* an empty buffer: nothing to cut */
}

int main(void)
{
	test_sums_by_length();
	test_truncate();
	return done_testing();
}
