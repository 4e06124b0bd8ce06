// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON reader and writer, and the matrix built on them: strict syntax with byte offsets in
 * errors, LKP's filler zeros kept apart from measured zeros through a write/read round trip.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"
#include "tests/tap.h"

static char tmpdir[] = "/tmp/kprof-test-json-XXXXXX";

static int parse(const char *s, struct json_object *o, char *err, size_t len)
{
	return json_parse(s, strlen(s), o, err, len);
}

static void expect_error(const char *doc, const char *want)
{
	struct json_object o;
	char err[256];
	int ret = parse(doc, &o, err, sizeof(err));

	ok(ret < 0 && strstr(err, want), "'%s' -> '%s' (got '%s')", doc, want, err);
	is_int(o.nr, 0, "... and the object is empty");
}

static void test_parse(void)
{
	struct json_object o;
	const struct json_member *m;
	char err[256];

	is_int(parse(" {\"a\": 1, \"b\": -2.5e3, \"s\": \"x\\\"\\u00e9\\ud83d\\ude00\", "
		     "\"arr\": [1.0, 0, \"p\"], \"nest\": {\"x\": [1, {}]}, \"t\": true} \n",
		     &o, err, sizeof(err)), 0, "a flat object parses");
	is_int(o.nr, 6, "six members");
	m = json_get(&o, "a");
	ok(m && m->type == JSON_NUMBER && m->num == 1 && m->num_is_int, "integer literal");
	m = json_get(&o, "b");
	ok(m && m->num == -2500 && !m->num_is_int, "exponent literal is not an integer");
	m = json_get(&o, "s");
	is_str(m ? m->str : NULL, "x\"\xc3\xa9\xf0\x9f\x98\x80", "escapes and surrogate pairs");
	m = json_get(&o, "arr");
	ok(m && m->type == JSON_ARRAY && m->nr == 3 && !m->ints[0] && m->ints[1] && m->strs[2],
	   "array of numbers and strings");
	ok(json_get(&o, "nest")->type == JSON_OTHER && json_get(&o, "t")->type == JSON_OTHER,
	   "nested objects and literals are kept as JSON_OTHER");
	json_object_release(&o);

	expect_error("", "byte offset 0: empty file");
	expect_error("{\"a\": 1,}", "byte offset 8: expected a string key");
	expect_error("{\"a\": 1 \"b\": 2}", "byte offset 8: expected ','");
	expect_error("{\"a\": 01}", "byte offset 7: expected ','");
	expect_error("{\"a\": 1.}", "byte offset 8: expected a digit after '.'");
	expect_error("{\"a\": [1, 2}", "byte offset 11: expected ','");
	expect_error("{\"a\": \"x}", "byte offset 6: unterminated string");
	expect_error("{\"a\": 1e999}", "byte offset 6: number out of range");
	expect_error("{\"a\": 1} x", "byte offset 9: unexpected data after");
	expect_error("{\"a\": \"\\q\"}", "bad escape");
	expect_error("{\"a\": nul}", "byte offset 6: unexpected character");
	expect_error("[1]", "byte offset 0: expected '{'");
	expect_error("{\"a\": 1", "unexpected end of file");
	expect_error("{\"a\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
		     "nesting deeper");
}

static void test_numbers_out(void)
{
	char buf[64];
	const double vals[] = { 0.1, 1314100, 1e20, 1.5e-7, 38.35, -0.0, 1.0 / 3 };

	for (size_t i = 0; i < sizeof(vals) / sizeof(*vals); i++) {
		json_format_number(buf, sizeof(buf), vals[i]);
		ok(strtod(buf, NULL) == vals[i], "%s round-trips", buf);
	}
	json_format_number(buf, sizeof(buf), 1314100);
	is_str(buf, "1314100", "plain integers stay plain");
	json_format_number(buf, sizeof(buf), 0.0 / 0.0);
	is_str(buf, "null", "NaN is null");
}

static char *write_file(const char *name, const char *text)
{
	char *path;
	FILE *fp;

	if (asprintf(&path, "%s/%s", tmpdir, name) < 0)
		return NULL;
	fp = fopen(path, "w");
	fputs(text, fp);
	fclose(fp);
	return path;
}

static void test_matrix(void)
{
	struct matrix m = { 0 }, back;
	const struct matrix_row *r;
	char err[256], *s0, *s1, *s2, *mj, *bad, *buf = NULL;
	size_t len = 0;
	FILE *fp;

	s0 = write_file("s0.json", "{\"perf-profile.self.cycles-pp.f\": 6.5, \"aim9.x\": 10}");
	s1 = write_file("s1.json", "{\"aim9.x\": 11, \"aim9.late\": 0.0}");
	s2 = write_file("s2.json", "{\"aim9.x\": 12, \"aim9.late\": 3}");
	is_int(matrix_add_stats_json(&m, s0, err, sizeof(err)), 0, "run 0");
	is_int(matrix_add_stats_json(&m, s1, err, sizeof(err)), 0, "run 1");
	is_int(matrix_add_stats_json(&m, s2, err, sizeof(err)), 0, "run 2");
	is_int(m.nr_runs, 3, "three runs");
	is_int(m.nr_rows, 3, "three keys");
	is_str(m.rows[0].key, "aim9.late", "rows sorted by key");
	r = matrix_find(&m, "aim9.late");
	ok(r && !r->present[0] && r->v[0] == 0 && r->present[1] && r->v[1] == 0,
	   "a key first seen later: a filler 0 for run 0, a measured 0.0 in run 1");
	r = matrix_find(&m, "perf-profile.self.cycles-pp.f");
	ok(r && r->present[0] && !r->present[1] && !r->present[2], "vanished key: fillers");
	is_str(m.sources[2], s2, "stats_source records the file");

	fp = open_memstream(&buf, &len);
	is_int(matrix_write_json(fp, &m), 0, "matrix written");
	fclose(fp);
	ok(strstr(buf, "\"aim9.late\": [0, 0.0, 3.0]") != NULL,
	   "fillers are 0, measured values carry a '.'");
	mj = write_file("matrix.json", buf);
	is_int(matrix_read_json(mj, &back, err, sizeof(err)), 0, "matrix read back");
	r = matrix_find(&back, "aim9.late");
	ok(back.nr_runs == 3 && r && !r->present[0] && r->present[1] && r->v[2] == 3,
	   "presence survives the round trip");
	is_str(back.sources[1], s1, "sources survive");
	matrix_release(&back);

	/* LKP layout: ragged arrays padded with fillers, string stats skipped. */
	free(mj);
	mj = write_file("lkp.json", "{\"a.x\": [1.5, 2.5], \"a.s\": [\"x\"], "
			"\"stats_source\": [\"r0\", \"r1\", \"r2\"]}");
	is_int(matrix_read_json(mj, &back, err, sizeof(err)), 0, "LKP matrix read");
	ok(back.nr_rows == 1 && back.nr_runs == 3 && !back.rows[0].present[2],
	   "ragged row padded, string stat skipped");
	matrix_release(&back);

	bad = write_file("bad.json", "{\"a.x\": [1, 2, 3, 4], \"stats_source\": [\"r0\"]}");
	ok(matrix_read_json(bad, &back, err, sizeof(err)) < 0 && strstr(err, "4 values"),
	   "more values than runs is an error: %s", err);
	free(bad);
	bad = write_file("dup.json", "{\"a.x\": 1, \"a.x\": 2}");
	ok(matrix_add_stats_json(&m, bad, err, sizeof(err)) < 0 &&
	   strstr(err, "duplicate key \"a.x\""), "duplicate key: %s", err);
	free(bad);
	ok(matrix_read_json("/nonexistent/matrix.json", &back, err, sizeof(err)) == -ENOENT,
	   "a missing file is -ENOENT");

	matrix_release(&m);
	matrix_release(NULL);
	free(buf);
	free(s0);
	free(s1);
	free(s2);
	free(mj);
}

/*
 * Mutated documents (a fixed pseudo-random sequence, so failures reproduce): the parser must
 * either accept or reject each with a message, never crash or read out of bounds (this test
 * runs under ASan and valgrind too).
 */
static void test_mutations(void)
{
	static const char seed[] = "{\"a.b\": [1.5, -2e3, 0, \"s\\u00e9\"], "
				   "\"c\": {\"d\": [true, null]}, \"e\": \"x\\\"y\", \"f\": 12}";
	static const char alphabet[] = "{}[]\",:\\/u0123456789.eE+-tfn \t\n\x01\xff";
	unsigned int state = 12345, accepted = 0, bad = 0;
	char doc[sizeof(seed)], err[128];

	for (int i = 0; i < 5000; i++) {
		struct json_object o;
		size_t len = sizeof(seed) - 1;
		int ret;

		memcpy(doc, seed, sizeof(seed));
		for (int k = 0; k < 1 + i % 4; k++) {
			state = state * 1103515245 + 12345;
			doc[(state >> 8) % len] = alphabet[(state >> 20) % (sizeof(alphabet) - 1)];
		}
		state = state * 1103515245 + 12345;
		if (i % 7 == 0)
			len = (state >> 8) % len;	/* truncated */
		ret = json_parse(doc, len, &o, err, sizeof(err));
		if (ret == 0)
			accepted++;
		else if (ret != -EINVAL || strncmp(err, "byte offset ", 12))
			bad++;
		json_object_release(&o);
	}
	is_int(bad, 0, "5000 mutated documents: each accepted or rejected with a byte offset");
	ok(accepted > 0 && accepted < 5000, "some accepted (%u), some rejected", accepted);
}

int main(void)
{
	if (!mkdtemp(tmpdir))
		skip_all("cannot create a temporary directory");
	test_parse();
	test_numbers_out();
	test_matrix();
	test_mutations();
	{
		char cmd[sizeof(tmpdir) + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			diag("could not clean %s", tmpdir);
	}
	return done_testing();
}
