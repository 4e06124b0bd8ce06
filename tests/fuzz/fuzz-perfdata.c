// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-perfdata.c - perf.data through the reader and the whole profile pipeline: LKP keys,
 * the Children/Self table, folded stacks (kprof report, kprof collapse). Kernel names come
 * from a small fixed kallsyms, so an input costs the same whatever machine it runs on.
 */
#include "profiler/cli/cmd-int.h"
#include "tests/fuzz/fuzz-common.h"

static const char kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 T do_fault\n"
	"ffffffff81000200 t clear_page_erms\n"
	"ffffffff81100000 T _etext\n"
	"ffffffffc0002000 t mod_fn\t[mod_a]\n";

static const char *kallsyms_path(void)
{
	static char path[64];

	return fuzz_text_file(path, sizeof(path), kallsyms);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *ks = kallsyms_path(), *in = fuzz_file(data, size);

	FUZZ_CMD(cmd_report, "report", "-i", (char *)in, "--kallsyms", (char *)ks);
	FUZZ_CMD(cmd_report, "report", "-i", (char *)in, "--kallsyms", (char *)ks,
		 "--format", "table", "--weight", "samples");
	FUZZ_CMD(cmd_collapse, "collapse", "-i", (char *)in, "--kallsyms", (char *)ks, "--all",
		 "--pid");
	return 0;
}
