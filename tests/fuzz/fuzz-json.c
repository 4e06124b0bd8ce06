// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-json.c - the strict JSON reader and the matrix.json / stats.json loaders on top of it,
 * then the matrix written back (what kprof run and kprof compare do with result sets).
 */
#include <stdio.h>

#include "output/output.h"
#include "tests/fuzz/fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = fuzz_file(data, size);
	struct json_object o = { 0 };
	struct matrix m = { 0 };
	char err[256];

	if (!json_parse((const char *)data, size, &o, err, sizeof(err)))
		json_get(&o, "stats_source");
	json_object_release(&o);
	if (!matrix_read_json(in, &m, err, sizeof(err))) {
		matrix_add_stats_json(&m, in, err, sizeof(err));
		matrix_write_json(stdout, &m);
	}
	matrix_release(&m);
	return 0;
}
