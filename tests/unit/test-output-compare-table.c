// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison table end to end in the library: rows as LKP prints them (report 004's aim9
 * row from its raw per-run values, report 000's absolute and vanishing rows, the spec's base-0
 * row), which rows are listed, and LKP's sort order.
 */
#include <stdlib.h>
#include <string.h>

#include "output/output.h"
#include "tests/tap.h"

#define V(...)	((const double[]){ __VA_ARGS__ })

static int row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct matrix_row *)a)->key, ((const struct matrix_row *)b)->key);
}

/* Add a row whose values are all measured; a NULL @present marks all present. */
static void add(struct matrix *m, const char *key, const double *v, const bool *present)
{
	struct matrix_row *r;

	m->rows = realloc(m->rows, (m->nr_rows + 1) * sizeof(*m->rows));
	r = &m->rows[m->nr_rows++];
	r->key = strdup(key);
	r->v = calloc(m->nr_runs, sizeof(*r->v));
	r->present = calloc(m->nr_runs, sizeof(*r->present));
	for (size_t i = 0; i < m->nr_runs; i++) {
		r->v[i] = v[i];
		r->present[i] = present ? present[i] : true;
	}
	qsort(m->rows, m->nr_rows, sizeof(*m->rows), row_cmp);
}

static void init(struct matrix *m, size_t runs)
{
	memset(m, 0, sizeof(*m));
	m->nr_runs = runs;
	m->sources = calloc(runs, sizeof(*m->sources));
}

/* The table's rows (everything after the header's "\  " line). */
typedef int (*writer_fn)(FILE *, const struct compare_result *, const struct compare_opts *);

static char *table(const struct matrix *base, const struct matrix *new,
		   const struct compare_opts *o, writer_fn writer)
{
	struct compare_col cols[2] = { { base, "base", NULL }, { new, "new", NULL } };
	struct compare_result r;
	char *buf = NULL, *rows;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (compare_build(cols, 2, o, &r))
		return strdup("");
	writer(fp, &r, o);
	fclose(fp);
	compare_result_release(&r);
	rows = strstr(buf, "\\  \n");
	rows = strdup(rows ? rows + 4 : buf);
	free(buf);
	return rows;
}

static void test_aim9(void)
{
	struct matrix b, n;
	struct compare_opts o = { .select = { .pp_threshold = 5 }, .alpha = 0.05 };
	char *t;

	init(&b, 6);
	init(&n, 6);
	add(&b, "aim9.brk_test.ops_per_sec",
	    V(1351624.95, 1316322.79, 1330363.33, 1289563.33, 1314100.0, 1335475.48), NULL);
	add(&n, "aim9.brk_test.ops_per_sec",
	    V(1268030.0, 1277110.76, 1226452.45, 1275850.0, 1249628.35, 1242148.6), NULL);
	t = table(&b, &n, &o, compare_write_table);
	is_str(t, "   1322908            -5.0%    1256536        aim9.brk_test.ops_per_sec\n\n",
	       "report 004's aim9 row, byte for byte, from the 6+6 raw values");
	free(t);
	matrix_release(&b);
	matrix_release(&n);
}

static void test_rows_and_order(void)
{
	struct matrix b, n;
	struct compare_opts o = { .select = { .pp_threshold = 5 }, .alpha = 0.05 };
	const bool gone[] = { 0, 0, 0 };
	char *t, *want;

	init(&b, 3);
	init(&n, 3);
	add(&b, "aim9.b", V(100, 100, 100), NULL);
	add(&n, "aim9.b", V(90, 90, 90), NULL);
	add(&b, "aim9.a", V(100, 100, 100), NULL);
	add(&n, "aim9.a", V(110, 110, 110), NULL);
	add(&b, "aim9.same", V(100, 101, 99), NULL);		/* not listed */
	add(&n, "aim9.same", V(100, 99, 101), NULL);
	add(&b, "mpstat.cpu.all.usr%", V(25.14, 25.14, 25.14), NULL);
	add(&n, "mpstat.cpu.all.usr%", V(26.62, 26.62, 26.62), NULL);
	add(&b, "mpstat.cpu.all.sys%", V(12.02, 12.02, 12.02), NULL);
	add(&n, "mpstat.cpu.all.sys%", V(10.72, 10.2, 11.24), NULL);
	add(&b, "vmstat.system.cs", V(9203, 9203, 9203), NULL);
	add(&n, "vmstat.system.cs", V(8693, 8693, 8693), NULL);
	add(&b, "perf-sched.x", V(0.0, 0.0, 0.0), NULL);
	add(&n, "perf-sched.x", V(0.05, 0.06, 0.07), NULL);
	add(&b, "perf-profile.calltrace.cycles-pp.clear_subpage", V(40.26, 40.26, 40.26), NULL);
	add(&n, "perf-profile.calltrace.cycles-pp.clear_subpage", V(0, 0, 0), gone);
	add(&b, "perf-profile.calltrace.cycles-pp.do_rw_once", V(30.25, 30.25, 30.25), NULL);
	add(&n, "perf-profile.calltrace.cycles-pp.do_rw_once", V(31.46, 31.46, 31.46), NULL);
	/* vanishes from 3%, below LKP's 5 */
	add(&b, "perf-profile.calltrace.cycles-pp.small", V(3, 3, 3), NULL);
	add(&n, "perf-profile.children.cycles-pp.appears", V(0.76, 0.76, 0.76), NULL);
	add(&b, "perf-profile.self.cycles-pp.folio_zero_user", V(0.36, 0.36, 0.36), NULL);
	add(&n, "perf-profile.self.cycles-pp.folio_zero_user", V(38.32, 38.32, 38.32), NULL);
	add(&n, "aim9.only_new", V(5, 5, 5), NULL);			/* base lacks it */

	t = table(&b, &n, &o, compare_write_table);
	want = "    100.00           +10.0%     110.00        aim9.a\n"
	       "    100.00           -10.0%      90.00        aim9.b\n"
	       "      0.00         +6e+100%       0.06 \xc2\xb1 13%  perf-sched.x\n"
	       "      9203            -5.5%       8693        vmstat.system.cs\n"
	       "     12.02            -1.3       10.72 \xc2\xb1  3%  mpstat.cpu.all.sys%\n"
	       "     25.14            +1.5       26.62        mpstat.cpu.all.usr%\n"
	       "     40.26           -40.3        0.00        "
	       "perf-profile.calltrace.cycles-pp.clear_subpage\n"
	       "     30.25            +1.2       31.46        "
	       "perf-profile.calltrace.cycles-pp.do_rw_once\n"
	       "      0.00            +0.8        0.76        "
	       "perf-profile.children.cycles-pp.appears\n"
	       "      0.36           +38.0       38.32        "
	       "perf-profile.self.cycles-pp.folio_zero_user\n\n";
	is_str(t, want, "rows, formats and LKP's order (test, then monitors by listed rows)");
	ok(!strstr(t, "aim9.same"), "an unchanged row is not listed");
	ok(!strstr(t, "cycles-pp.small"), "a perf-profile row vanishing from 3%% is not listed");
	ok(!strstr(t, "aim9.only_new"), "a key only the new set has is not listed");
	free(t);

	o.all = true;
	t = table(&b, &n, &o, compare_write_table);
	ok(strstr(t, "aim9.same") && strstr(t, "cycles-pp.small") && strstr(t, "only_new"),
	   "-a lists every row");
	free(t);

	o.stats = true;
	t = table(&b, &n, &o, compare_write_table);
	ok(strstr(t, "~aim9.same\n") != NULL, "--stats marks a non-significant row with '~'");
	ok(strstr(t, "    100.00 \xc2\xb1  0.0%    3     +10.0%   <1e-99     110.00 \xc2\xb1"
		  "  0.0%    3  aim9.a\n") != NULL,
	   "--stats: p-value, stddev always shown, runs");
	free(t);
	t = table(&b, &n, &o, compare_write_json);
	{
		struct json_object j;
		char err[128];

		is_int(json_parse(t, strlen(t) , &j, err, sizeof(err)), 0, "--json is valid JSON");
		json_object_release(&j);
	}
	free(t);
	matrix_release(&b);
	matrix_release(&n);
}

static int pp_writer(FILE *fp, const struct compare_result *r, const struct compare_opts *o)
{
	(void)o;
	return compare_write_perf_profile(fp, r, 2);
}

static void test_perf_profile_view(void)
{
	struct matrix b, n;
	struct compare_opts o = { .select = { .pp_threshold = 5 } };
	char *t, *x, *y;

	init(&b, 1);
	init(&n, 1);
	add(&b, "perf-profile.self.cpu-clock.a", V(10), NULL);
	add(&n, "perf-profile.self.cpu-clock.a", V(11), NULL);
	add(&b, "perf-profile.self.cpu-clock.b", V(20), NULL);
	add(&n, "perf-profile.self.cpu-clock.b", V(5), NULL);
	add(&b, "perf-profile.self.cpu-clock.c", V(1), NULL);
	add(&n, "perf-profile.self.cpu-clock.c", V(4), NULL);
	t = table(&b, &n, &o, pp_writer);
	x = strstr(t, "     20.00       5.00   -15.00  cpu-clock.b\n");
	y = strstr(t, "      1.00       4.00    +3.00  cpu-clock.c\n");
	ok(x && y && x < y, "ranked by |change|: b (-15) before c (+3)");
	ok(!strstr(t, "cpu-clock.a"), "--top 2 drops the third");
	free(t);
	matrix_release(&b);
	matrix_release(&n);
}

int main(void)
{
	test_aim9();
	test_rows_and_order();
	test_perf_profile_view();
	return done_testing();
}
