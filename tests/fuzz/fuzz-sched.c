// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-sched.c - perf.data with sched tracepoints through kprof sched: the TRACING_DATA
 * formats, the sched_switch/wake-up fields, the call chains named and LKP's keys made, as the
 * timehist table and as --lkp. Kernel names come from a small fixed kallsyms text, so an input
 * costs no /proc/kallsyms load.
 */
#include "profiler/cli/cmd-int.h"
#include "tests/fuzz/fuzz-common.h"

static const char *kallsyms_file(void)
{
	static const char text[] =
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 T __schedule\n"
		"ffffffff81000200 T schedule\n"
		"ffffffff81000300 T pipe_read\n"
		"ffffffff81000400 T do_syscall_64\n";
	static char path[64];

	return fuzz_text_file(path, sizeof(path), text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *ksyms = (char *)kallsyms_file();
	char *in = (char *)fuzz_file(data, size);

	FUZZ_CMD(cmd_sched, "sched", "-i", in, "--kallsyms", ksyms);
	FUZZ_CMD(cmd_sched, "sched", "-i", in, "--kallsyms", ksyms, "--lkp");
	return 0;
}
