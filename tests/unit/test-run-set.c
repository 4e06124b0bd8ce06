// SPDX-License-Identifier: GPL-2.0
/*
 * The result set's rules and the noisy-machine share: set names, one kernel build per set, the
 * shared kallsyms snapshot, the workload's process names, and the share of samples outside it.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/run/run-int.h"
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

static void put_fork(struct pd_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid)
{
	struct {
		struct perf_event_header	h;
		uint32_t			pid, ppid, tid, ptid;
		uint64_t			time;
	} r = { { PERF_RECORD_FORK, 0, sizeof(r) }, pid, ppid, tid, ppid, 0 };

	pd_writer_add(w, &r);
}

static void put_comm(struct pd_writer *w, uint32_t pid, const char *comm)
{
	struct {
		struct perf_event_header	h;
		uint32_t			pid, tid;
		char				comm[16];
	} r = { { PERF_RECORD_COMM, 0, sizeof(r) }, pid, pid, "" };

	snprintf(r.comm, sizeof(r.comm), "%s", comm);
	pd_writer_add(w, &r);
}

static bool has(const struct run_comms *c, const char *comm)
{
	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i], comm))
			return true;
	return false;
}

/*
 * The workload's names come from the recording: its first process, everything FORKed from the
 * tree (a worker that lived a millisecond too), every name a COMM gave them; nobody else.
 */
static void test_tree_comms(void)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1000,
					.sample_type = PERF_SAMPLE_TID };
	uint64_t id = 1;
	struct pd_write_event ev = { "cpu-clock", &attr, &id, 1 };
	struct run_comms c = { 0 };
	struct pd_writer *w = NULL;
	char path[256], err[256] = "";
	size_t workers = 0;

	snprintf(path, sizeof(path), "%s/tree.data", dir);
	if (pd_writer_open(path, &ev, 1, &w)) {
		skip(6, "pd_writer_open failed");
		return;
	}
	put_comm(w, 1, "systemd");
	put_comm(w, 100, "vm-scalabilit");	/* synthesized at the start: the root */
	put_fork(w, 200, 1, 200);
	put_comm(w, 200, "cc1");		/* someone else's */
	put_fork(w, 101, 100, 101);
	put_comm(w, 101, "usemem");
	put_fork(w, 101, 101, 103);		/* a thread of usemem */
	for (uint32_t pid = 1000; pid < 1200; pid++) {	/* the pid set grows */
		put_fork(w, pid, pid == 1000 ? 101 : pid - 1, pid);
		put_comm(w, pid, pid < 1199 ? "worker" : "last");
	}
	put_fork(w, 300, 200, 300);
	put_comm(w, 300, "as");			/* a child of cc1: not the workload's */
	is_int(pd_writer_close(w, &(struct pd_write_meta){ 0 }), 0, "recording written");
	is_int(run_comms_from_perf_data(path, 100, &c, err, sizeof(err)), 0, "names read");
	ok(has(&c, "vm-scalabilit") && has(&c, "usemem"), "the root and its child");
	ok(has(&c, "worker") && has(&c, "last"), "a chain of 200 forks below it");
	ok(!has(&c, "cc1") && !has(&c, "as") && !has(&c, "systemd"), "nobody else");
	for (size_t i = 0; i < c.nr; i++)
		workers += !strcmp(c.v[i], "worker");
	is_u64(workers, 1, "each name once");
	run_comms_release(&c);
	snprintf(path, sizeof(path), "%s/none.data", dir);
	ok(run_comms_from_perf_data(path, 100, &c, err, sizeof(err)) < 0 && strstr(err, path),
	   "a missing recording: an error naming it (%s)", err);
	run_comms_release(&c);
}

static int renames, fail_first;
static int fail_errno;

/* rename(2) that fails with fail_errno for the first fail_first calls */
static int fake_rename(const char *from, const char *to)
{
	if (renames++ < fail_first) {
		errno = fail_errno;
		return -1;
	}
	return rename(from, to);
}

/* The rename loop that numbers a finished run, with the failures injected. */
static void test_claim_number(void)
{
	char base[256], tmp[300], err[512] = "", *final = NULL;

	snprintf(base, sizeof(base), "%s/claim", dir);
	snprintf(tmp, sizeof(tmp), "%s/.run-1.tmp", base);
	run_mkdirs(tmp);

	renames = 0, fail_first = 1000, fail_errno = EEXIST;
	is_int(run_claim_number(base, tmp, &final, fake_rename, err, sizeof(err)), -EEXIST,
	       "taken 100 times: a failure, not a success");
	ok(!final && strstr(err, "no free run number after 100 tries") && strstr(err, base),
	   "said with the set (%s)", err);
	is_int(renames, 100, "tried 100 times");

	renames = 0, fail_first = 3, fail_errno = ENOTEMPTY, err[0] = 0;
	is_int(run_claim_number(base, tmp, &final, fake_rename, err, sizeof(err)), 0,
	       "taken three times by a concurrent run, then numbered");
	ok(final && !strcmp(final + strlen(base), "/0") && access(final, F_OK) == 0,
	   "as run 0 (%s)", final ? final : "NULL");
	free(final);
	final = NULL;

	run_mkdirs(tmp);
	renames = 0, fail_first = 1, fail_errno = EACCES, err[0] = 0;
	is_int(run_claim_number(base, tmp, &final, fake_rename, err, sizeof(err)), -EACCES,
	       "another error stops at once, its errno kept");
	ok(!final && strstr(err, "/1: Permission denied"), "said against the run number (%s)",
	   err);
	is_int(renames, 1, "not retried");
}

static void test_noise(void)
{
	struct run_comms c = { 0 };
	struct callgraph *cg = callgraph_new();
	char top[160];
	double pct;

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
	test_tree_comms();
	test_claim_number();
	run_remove_tree(dir);
	return done_testing();
}
