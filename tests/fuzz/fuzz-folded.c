// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-folded.c - folded stacks (and difffolded lines) into the flame graph tree and the SVG
 * writer: names of any bytes, counts of any shape, plain and differential graphs.
 */
#include "profiler/cli/cmd-int.h"
#include "tests/fuzz/fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = fuzz_file(data, size);

	if (size >= 8 && !memcmp(data, "PERFILE2", 8))
		return 0;
	FUZZ_CMD(cmd_flamegraph, "flamegraph", "-i", (char *)in);
	FUZZ_CMD(cmd_flamegraph, "flamegraph", "-i", (char *)in, "--reverse", "--colors", "mem");
	return 0;
}
