// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-trace.c - perf.data with tracepoint samples through kprof trace: the TRACING_DATA
 * formats (checked, then parsed by libtraceevent), sample fields read as top values and as
 * histograms. The first byte picks the field, the rest is the file.
 */
#include "profiler/cli/cmd-int.h"
#include "tests/fuzz/fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *const fields[] = { "error_code", "address", "filename", "prev_comm",
					"next_pid", "common_pid", "prev_state", "ip" };
	const char *in;
	char *field;

	if (!size)
		return 0;
	field = fields[data[0] % (sizeof(fields) / sizeof(fields[0]))];
	in = fuzz_file(data + 1, size - 1);
	FUZZ_CMD(cmd_trace, "trace", "-i", (char *)in);
	FUZZ_CMD(cmd_trace, "trace", "-i", (char *)in, "-f", field, "--top", "3");
	FUZZ_CMD(cmd_trace, "trace", "-i", (char *)in, "-f", field, "--hist");
	return 0;
}
