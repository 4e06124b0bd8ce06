// SPDX-License-Identifier: GPL-2.0
/*
 * Against the oracle: the distinct stacks of a real perf 6.1 recording (`perf record -g -e
 * cpu-clock` of a small program with recursion, a leaf under two callers, kernel and
 * unresolved frames, varying periods), and what perf 6.1 itself printed for them:
 *  - perf61-cpu-clock.lkp: `perf report --children --header -U -g folded,0.5,callee
 *    --sort=dso,symbol` through LKP's parser rules (tests/e2e/lkp-parse-perf-profile.pl);
 *  - perf61-cpu-clock.table: `perf report --children -U -g none --sort=dso,symbol` rows.
 * Both must come out identical, byte for byte.
 */
#include <errno.h>

#include "tests/tap.h"
#include "tests/unit/cg-helpers.h"

#define FIXTURE_DIR "tests/fixtures/output/"

/* The whole file, without its leading '#' comment lines (malloc'd; NULL when unreadable). */
static char *slurp(const char *name)
{
	const char *src = getenv("KPROF_SRC");
	char path[4096], line[4096];
	struct capture c;
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s%s", src ? src : "", src ? "/" : "", name);
	fp = fopen(path, "r");
	if (!fp)
		return NULL;
	capture_open(&c);
	while (fgets(line, sizeof(line), fp)) {
		if (line[0] != '#')
			fputs(line, c.fp);
	}
	fclose(fp);
	return capture_close(&c);
}

/* "S <period> <samples> <comm>" then "F <kernel> <start hex>\t<dso>\t<sym or ->" lines. */
static int load_stacks(struct callgraph *cg, char *text)
{
	struct cg_frame frames[256];
	struct cg_task task = { .pid = -1, .tid = -1 };
	unsigned long long period = 0, samples = 0;
	char *line, *save = NULL, *dso, *sym;
	size_t n = 0;
	bool have = false;
	int err = 0;

	for (line = strtok_r(text, "\n", &save); ; line = strtok_r(NULL, "\n", &save)) {
		if ((!line || line[0] == 'S') && have) {
			err |= callgraph_add(cg, &task, frames, n, period, samples);
			have = false;
		}
		if (!line)
			break;
		if (line[0] == 'S') {
			char *comm = strchr(strchr(strchr(line, ' ') + 1, ' ') + 1, ' ') + 1;

			sscanf(line, "S %llu %llu", &period, &samples);
			task.comm = comm;
			n = 0;
			have = true;
		} else if (line[0] == 'F' && n < 256) {
			dso = strchr(line, '\t') + 1;
			sym = strchr(dso, '\t') + 1;
			dso[-1] = sym[-1] = '\0';
			frames[n] = (struct cg_frame){
				.sym = strcmp(sym, "-") ? sym : NULL, .dso = dso,
				.flags = line[2] == '1' ? CG_FRAME_KERNEL : 0,
				.sym_start = strtoull(line + 4, NULL, 16),
			};
			n++;
		}
	}
	return err;
}

/* The table's rows as "Children Self module level symbol", one per line. */
static char *table_rows(const struct callgraph *cg)
{
	struct table_opts o = { .event = "cpu-clock" };
	struct capture t, rows;
	char *text, *line, *save = NULL, c[16], s[16], dso[256], lvl[8], sym[512];

	table_write(capture_open(&t), cg, &o);
	text = capture_close(&t);
	capture_open(&rows);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '#' &&
		    sscanf(line, "%15s %15s %255s %7s %511s", c, s, dso, lvl, sym) == 5)
			fprintf(rows.fp, "%s %s %s %s %s\n", c, s, dso, lvl, sym);
	}
	free(text);
	return capture_close(&rows);
}

int main(void)
{
	char *stacks = slurp(FIXTURE_DIR "perf61-cpu-clock.stacks");
	char *want_keys = slurp(FIXTURE_DIR "perf61-cpu-clock.lkp");
	char *want_rows = slurp(FIXTURE_DIR "perf61-cpu-clock.table");
	struct lkp_profile_opts o = {
		.event = "cpu-clock", .calltrace_min = 0.5, .print_min = 0.05,
	};
	struct callgraph *cg = callgraph_new();
	struct kv_list keys = { 0 };
	struct capture c;
	char *text;

	if (!stacks || !want_keys || !want_rows)
		skip_all("fixtures not found under %s (run from the source tree)", FIXTURE_DIR);
	is_int(load_stacks(cg, stacks), 0, "stacks loaded");
	is_int(callgraph_nr_stacks(cg), 22, "22 distinct stacks");

	is_int(lkp_profile_keys(cg, &o, &keys), 0, "lkp keys");
	kv_list_write_text(capture_open(&c), &keys);
	text = capture_close(&c);
	is_str(text, want_keys, "LKP keys equal perf 6.1 + LKP's parser, byte for byte");
	free(text);

	text = table_rows(cg);
	is_str(text, want_rows, "table rows and their order equal perf 6.1's");
	free(text);

	kv_list_release(&keys);
	callgraph_free(cg);
	free(stacks);
	free(want_keys);
	free(want_rows);
	return done_testing();
}
