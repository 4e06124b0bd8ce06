// SPDX-License-Identifier: GPL-2.0
/*
 * The result set's rules and the noisy-machine share: set names, one kernel build per set, the
 * shared kallsyms snapshot, the workload's process names, and the share of samples outside it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/run/run.h"
#include "tests/tap.h"

static char dir[] = "/tmp/kprof-test-run-set-XXXXXX";

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	fputs(text, fp);
	fclose(fp);
}

static void test_names(void)
{
	ok(run_name_valid("base") && run_name_valid("6.1.0-rc1+fix_2"), "good names");
	ok(!run_name_valid("") && !run_name_valid(".") && !run_name_valid("..") &&
	   !run_name_valid("a/b") && !run_name_valid("-x") && !run_name_valid("a b") &&
	   !run_name_valid("0123456789012345678901234567890123456789012345678901234567890123456"),
	   "empty, dot, slash, dash first, blank, too long: refused");
}

static void test_kernel_build(void)
{
	struct run_kernel k = { .release = "6.1.0", .version = "#1 SMP", .config_hash = "aa" };
	char path[256], err[512] = "";

	is_int(run_check_set_kernel(dir, &k, err, sizeof(err)), 0, "an empty set takes any build");
	snprintf(path, sizeof(path), "%s/0", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/0/meta.json", dir);
	put(path, "{\"kernel_version\": \"#1 SMP\", \"kernel_config_hash\": \"aa\"}");
	is_int(run_check_set_kernel(dir, &k, err, sizeof(err)), 0, "the same build joins");
	snprintf(k.config_hash, sizeof(k.config_hash), "bb");
	is_int(run_check_set_kernel(dir, &k, err, sizeof(err)), -EEXIST,
	       "another config of the same uname -v is refused");
	ok(strstr(err, "run 0 was made on another build of the kernel") &&
	   strstr(err, "config aa; now '#1 SMP', config bb"), "the reason names both builds");
	k.config_hash[0] = 0;
	is_int(run_check_set_kernel(dir, &k, err, sizeof(err)), 0,
	       "an unreadable config hash is no evidence");
	snprintf(k.version, sizeof(k.version), "#2 SMP");
	is_int(run_check_set_kernel(dir, &k, err, sizeof(err)), -EEXIST, "another uname -v: refused");
	run_kernel_identify(&k);
	ok(k.release[0] && k.version[0], "this kernel: %s %s config %s", k.release, k.version,
	   k.config_hash[0] ? k.config_hash : "(unreadable)");
}

static void test_kallsyms(void)
{
	char run0[256], run1[256], a[300], b[300], shared[300];
	struct stat s0, s1, ss;

	snprintf(run0, sizeof(run0), "%s/r0", dir);
	snprintf(run1, sizeof(run1), "%s/r1", dir);
	mkdir(run0, 0755);
	mkdir(run1, 0755);
	snprintf(a, sizeof(a), "%s/perf.data.kallsyms", run0);
	snprintf(b, sizeof(b), "%s/perf.data.kallsyms", run1);
	snprintf(shared, sizeof(shared), "%s/kallsyms", dir);
	put(a, "ffffffff81000000 T _text\n");
	put(b, "ffffffff81000000 T _text\n");
	is_int(run_share_kallsyms(dir, run0), 0, "the first run's snapshot becomes the set's");
	is_int(run_share_kallsyms(dir, run1), 0, "an identical one is linked");
	stat(a, &s0);
	stat(b, &s1);
	stat(shared, &ss);
	ok(s0.st_ino == ss.st_ino && s1.st_ino == ss.st_ino && ss.st_nlink == 3,
	   "one file, three names");
	put(b, "ffffffff82000000 T _text\n");	/* a new file: the link was replaced */
	unlink(b);
	put(b, "ffffffff82000000 T other\n");
	is_int(run_share_kallsyms(dir, run1), 0, "a different snapshot");
	stat(b, &s1);
	ok(s1.st_ino != ss.st_ino, "keeps its own copy");
}

static void add(struct callgraph *cg, const char *comm, uint64_t period)
{
	struct cg_task t = { comm, -1, -1 };
	struct cg_frame f = { "f", "[kernel.kallsyms]", 0, CG_FRAME_KERNEL, 0 };

	callgraph_add(cg, &t, &f, 1, period, 1);
}

static void test_noise(void)
{
	struct run_comms c = { 0 };
	struct callgraph *cg = callgraph_new();
	char top[160], self[16] = "";
	double pct;
	FILE *fp = fopen("/proc/self/comm", "r");

	if (fp) {
		if (fgets(self, sizeof(self), fp))
			self[strcspn(self, "\n")] = 0;
		fclose(fp);
	}
	bool found = false;

	is_int(run_comms_scan(&c, getpgrp()), 0, "scan our own process group");
	for (size_t i = 0; i < c.nr; i++)
		found |= !strcmp(c.v[i], self);
	ok(found, "it holds this test (%s)", self);
	run_comms_release(&c);
	c.v = calloc(1, sizeof(*c.v));
	snprintf(c.v[0], sizeof(*c.v), "usemem");
	c.nr = 1;
	add(cg, "usemem", 600);
	add(cg, "cc1", 200);
	add(cg, "chromium", 100);
	add(cg, "swapper", 5000);	/* idle: not counted */
	is_int(run_outside_share(cg, &c, &pct, top, sizeof(top)), 0, "share computed");
	ok(fabs(pct - 100.0 / 3) < 1e-9, "300 of 900 busy samples outside: %.2f%%", pct);
	is_str(top, "cc1 22%, chromium 11%", "the busiest others, of all busy samples");
	run_comms_release(&c);
	callgraph_free(cg);
}

int main(void)
{
	if (!mkdtemp(dir))
		skip_all("mkdtemp: %s", strerror(errno));
	test_names();
	test_kernel_build();
	test_kallsyms();
	test_noise();
	run_remove_tree(dir);
	return done_testing();
}
