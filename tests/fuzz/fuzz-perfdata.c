// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-perfdata.c - perf.data through the reader and the whole profile pipeline: LKP keys,
 * the Children/Self table, folded stacks (kprof report, kprof collapse). Kernel names come
 * from a small fixed kallsyms, so an input costs the same whatever machine it runs on.
 */
#include <stdio.h>
#include <unistd.h>

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
	static char path[] = "/tmp/kprof-fuzz-kallsyms.XXXXXX";
	static int done;
	FILE *fp;
	int fd;

	if (done)
		return path;
	fd = mkstemp(path);
	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!fp || fputs(kallsyms, fp) < 0 || fclose(fp))
		abort();
	done = 1;
	return path;
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
