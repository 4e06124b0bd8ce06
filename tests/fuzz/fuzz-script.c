// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-script.c - `perf script` text through the stackcollapse-perf.pl reader (kprof collapse,
 * both modes) and into a flame graph.
 */
#include "profiler/cli/cmd-int.h"
#include "tests/fuzz/fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = fuzz_file(data, size);

	/* perf.data magic would take the perf.data path: fuzz-perfdata covers it */
	if (size >= 8 && !memcmp(data, "PERFILE2", 8))
		return 0;
	FUZZ_CMD(cmd_collapse, "collapse", "-i", (char *)in, "--all", "--tid", "--addrs");
	FUZZ_CMD(cmd_collapse, "collapse", "-i", (char *)in, "--perl-compat", "--count",
		 "samples");
	FUZZ_CMD(cmd_flamegraph, "flamegraph", "-i", (char *)in);
	return 0;
}
