// SPDX-License-Identifier: GPL-2.0
/*
 * The resolving side names user frames ahead of the kernel's symbols (pipeline-early.c): with
 * kallsyms a FIFO that nobody writes yet, every batch is taken and its user frames named (the
 * kernel's symbols still not there), and once kallsyms comes, the call graph is exactly the one
 * of resolving each batch whole in order (the same batches without naming ahead): user frames of
 * this very test binary through MMAPs, a FORK, an MMAP that changes a mapping between two
 * stacks of one batch, kernel frames, a sample whose ip is not its chain's first frame, a stack
 * without chain, one with an unknown context marker and a hypervisor frame.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/profile/pipeline-int.h"
#include "tests/tap.h"
#include "tests/unit/pipe-batch-build.h"

#define TEXT	0xffffffff81000000ULL
#define KLEAF	(TEXT + 0x1000)
#define KTOP	(TEXT + 0x2000)

static const char kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 T kleaf\n"
	"ffffffff81002000 T ktop\n"
	"ffffffff81003000 T _etext\n";

__attribute__((noinline, used)) int early_leaf(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline, used)) int early_top(int x)
{
	return early_leaf(x) * 5 + 2;
}

/* This binary's executable mapping. */
static char exe[4096];
static uint64_t exe_start, exe_end, exe_pgoff;

static bool find_exe_map(void)
{
	uint64_t at = (uint64_t)(uintptr_t)early_leaf;
	char line[8192], perms[8], path[4096];
	unsigned long long s, e, off;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *fp = fopen("/proc/self/maps", "r");
	bool found = false;

	if (n <= 0 || !fp) {
		if (fp)
			fclose(fp);
		return false;
	}
	exe[n] = '\0';
	while (!found && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %4095s", &s, &e, perms, &off, path) == 5 &&
		    s <= at && at < e && !strcmp(path, exe)) {
			exe_start = s, exe_end = e, exe_pgoff = off;
			found = true;
		}
	}
	fclose(fp);
	return found;
}

/* ---- batches -------------------------------------------------------------------------------- */

static void put_rec(struct pipe_batch *b, uint32_t type, uint16_t misc, const void *body,
		    size_t len)
{
	struct pipe_record r = { .type = PIPE_RECORD, .rec_type = type, .misc = misc,
				 .body_len = (uint32_t)len };

	put_words(b, &r, sizeof(r));
	put_words(b, body, len);
}

static void put_mmap(struct pipe_batch *b, int32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *file)
{
	char body[4096 + 40] = { 0 };
	int32_t ids[2] = { pid, pid };
	uint64_t v[3] = { start, len, pgoff };

	memcpy(body, ids, 8);
	memcpy(body + 8, v, 24);
	strcpy(body + 32, file);
	put_rec(b, PERF_RECORD_MMAP, pid == -1 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER,
		body, 32 + strlen(file) + 1);
}

static void put_comm(struct pipe_batch *b, int32_t pid, const char *name)
{
	char body[32] = { 0 };
	int32_t ids[2] = { pid, pid };

	memcpy(body, ids, 8);
	strcpy(body + 8, name);
	put_rec(b, PERF_RECORD_COMM, 0, body, 8 + strlen(name) + 1);
}

static void put_fork(struct pipe_batch *b, int32_t child, int32_t parent)
{
	int32_t f[4] = { child, parent, child, parent };

	put_rec(b, PERF_RECORD_FORK, 0, f, sizeof(f));
}

static void put_stack(struct pipe_batch *b, int32_t pid, uint16_t misc, uint64_t ip,
		      const uint64_t *chain, uint32_t nr, uint64_t period)
{
	struct pipe_stack st = { .type = PIPE_STACK, .pid = pid, .tid = pid, .nr = nr,
				 .misc = misc, .ip = ip, .period = period, .samples = 1 };

	put_words(b, &st, sizeof(st));
	if (nr)
		put_words(b, chain, nr * 8);
}

#define CTX(c)	((uint64_t)(c))

/* The three batches, in order. */
static void make_batches(struct pipe_batch b[3])
{
	uint64_t leaf = (uint64_t)(uintptr_t)early_leaf + 1, top = (uint64_t)(uintptr_t)early_top + 1;
	uint64_t mixed[] = { CTX(PERF_CONTEXT_KERNEL), KLEAF + 4, KTOP + 4, CTX(PERF_CONTEXT_USER),
			     leaf, top };
	uint64_t user[] = { CTX(PERF_CONTEXT_USER), leaf, top };
	uint64_t bad[] = { CTX(PERF_CONTEXT_USER), leaf, CTX(PERF_CONTEXT_GUEST), top };
	uint64_t hv[] = { CTX(PERF_CONTEXT_HV), 0x1234, CTX(PERF_CONTEXT_USER), top };

	memset(b, 0, 3 * sizeof(*b));
	/* before any user mapping: the user frames are unresolved */
	put_mmap(&b[0], -1, TEXT, 0x3000, TEXT, "[kernel.kallsyms]_text");
	put_comm(&b[0], 42, "early");
	put_stack(&b[0], 42, PERF_RECORD_MISC_KERNEL, KLEAF + 4, mixed, 6, 1);
	put_mmap(&b[0], 42, exe_start, exe_end - exe_start, exe_pgoff, exe);
	put_stack(&b[0], 42, PERF_RECORD_MISC_KERNEL, KLEAF + 4, mixed, 6, 10);
	put_stack(&b[0], 42, PERF_RECORD_MISC_USER, top, user, 3, 100);	/* ip elsewhere */
	put_stack(&b[0], 42, PERF_RECORD_MISC_USER, leaf, NULL, 0, 1000);	/* no chain */
	put_fork(&b[1], 43, 42);
	put_comm(&b[1], 43, "child");
	put_stack(&b[1], 43, PERF_RECORD_MISC_USER, leaf, user, 3, 10000);
	put_stack(&b[1], 42, PERF_RECORD_MISC_USER, top, bad, 4, 100000);
	put_stack(&b[1], 42, PERF_RECORD_MISC_USER, top, hv, 4, 1000000);
	/*
	 * 42's text is mapped again, shifted by the distance from early_leaf to early_top: the
	 * address that named early_leaf names early_top now (whatever their sizes in this build)
	 */
	put_mmap(&b[2], 42, exe_start, exe_end - exe_start,
		 exe_pgoff + (uint64_t)((uintptr_t)early_top - (uintptr_t)early_leaf), exe);
	put_stack(&b[2], 42, PERF_RECORD_MISC_USER, leaf, user, 3, 10000000);
	put_stack(&b[2], 43, PERF_RECORD_MISC_USER, leaf, user, 3, 100000000);
}

/* ---- one resolving side --------------------------------------------------------------------- */

struct side {
	struct profile_load_opts	o;
	struct resolver			r;
	struct kernel_side		k;
};

static int side_start(struct side *s, const char *kallsyms_path, bool prename)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->o.keep_pid = true;
	s->r.o = &s->o;
	s->r.nr_attrs = 1;
	s->r.cgs = calloc(1, sizeof(*s->r.cgs));
	s->r.sym_opts = (struct sym_opts){ .kallsyms = kallsyms_path, .kallsyms_required = true,
					   .no_vmlinux_search = true };
	ret = kernel_side_start(&s->k, &s->r.sym_opts, NULL, 0);
	s->r.kernel = &s->k;
	s->r.prename = prename;
	if (!ret)
		ret = resolver_open_session(&s->r);
	if (!ret)
		ret = resolver_start(&s->r);
	return ret;
}

struct text {
	char		s[4096];
	size_t		len;
	uint64_t	self_elsewhere;	/* samples whose ip is not their chain's first frame */
};

static int describe(const struct cg_stack *st, void *arg)
{
	struct text *t = arg;
	int n = snprintf(t->s + t->len, sizeof(t->s) - t->len, "%s %d:", st->task->comm,
			 st->task->pid);

	for (size_t i = 0; i < st->nr && n > 0 && t->len + n < sizeof(t->s); i++)
		n += snprintf(t->s + t->len + n, sizeof(t->s) - t->len - n, " %s/%s",
			      st->frames[i].sym ? st->frames[i].sym : "?",
			      st->frames[i].dso ? strrchr(st->frames[i].dso, '/') ?
			      strrchr(st->frames[i].dso, '/') + 1 : st->frames[i].dso : "?");
	if (n > 0 && t->len + n < sizeof(t->s))
		n += snprintf(t->s + t->len + n, sizeof(t->s) - t->len - n, " = %llu\n",
			      (unsigned long long)st->period);
	if (n > 0 && t->len + n < sizeof(t->s))
		t->len += n;
	return 0;
}

/* Finish, describe the graph and release. */
static int side_finish(struct side *s, struct text *t)
{
	char err[256];
	int ret = resolver_finish(&s->r), k_ret = kernel_side_wait(&s->k, err, sizeof(err));

	memset(t, 0, sizeof(*t));
	if (!ret && s->r.cgs[0])
		callgraph_for_each(s->r.cgs[0], describe, t);
	t->self_elsewhere = s->r.nr_self_elsewhere;
	resolver_release(&s->r);
	kernel_side_release(&s->k);
	return ret ? ret : k_ret;
}

static char dir[] = "/tmp/kprof-early-XXXXXX";

static int count(const struct cg_stack *st, void *arg)
{
	*(uint64_t *)arg += st->samples;
	return 0;
}

/*
 * @full batches of 3 stacks taken while the symbols load, then @last stacks and the end: every
 * stack must be added (the batches kept go at resolver_finish(), also when the reading side's
 * last batch is empty because its last sample filled one exactly).
 */
static void kept_then_last(const char *fifo, size_t full, size_t last)
{
	uint64_t chain[] = { CTX(PERF_CONTEXT_USER), 0x401000 };
	struct pipe_batch b = { 0 };
	uint64_t samples = 0;
	struct side s;
	struct text t;
	int fd, ret;

	ret = side_start(&s, fifo, true);
	for (size_t i = 0; i < full && !ret; i++) {
		for (int j = 0; j < 3; j++)
			put_stack(&b, 7, PERF_RECORD_MISC_USER, 0x401000, chain, 2, 1);
		ret = resolver_consume(&s.r, &b);
	}
	ok(!ret && !kernel_side_ready(&s.k, false), "%zu batches taken before the symbols", full);
	fd = open(fifo, O_WRONLY);
	ok(fd >= 0 && write(fd, kallsyms, strlen(kallsyms)) == (ssize_t)strlen(kallsyms),
	   "kallsyms written");
	if (fd >= 0)
		close(fd);
	for (size_t i = 0; i < last; i++)
		put_stack(&b, 7, PERF_RECORD_MISC_USER, 0x401000, chain, 2, 1);
	if (last)
		ret = resolver_consume(&s.r, &b);
	/* counted before side_finish() releases the graph: the adding thread stopped first */
	if (!resolver_finish(&s.r) && !ret && s.r.cgs[0])
		callgraph_for_each(s.r.cgs[0], count, &samples);
	is_int(side_finish(&s, &t), 0, "finished");
	is_u64(samples, full * 3 + last, "every stack added (%zu kept, %zu after)", full, last);
	pipe_batch_release(&b);
}

int main(void)
{
	char syms[64], fifo[64];
	struct pipe_batch b[3];
	struct side ahead, whole;
	struct text t_ahead, t_whole;
	FILE *fp;
	int fd;

	if (!find_exe_map())
		skip_all("no executable mapping of this binary in /proc/self/maps");
	if (!mkdtemp(dir))
		skip_all("mkdtemp: %s", strerror(errno));
	snprintf(syms, sizeof(syms), "%s/kallsyms", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	fp = fopen(syms, "w");
	if (!fp || fputs(kallsyms, fp) < 0 || fclose(fp) || mkfifo(fifo, 0600))
		skip_all("cannot write %s: %s", dir, strerror(errno));

	/* resolved whole, in order, once the symbols are there (as a DWARF recording is) */
	is_int(side_start(&whole, syms, false), 0, "a side that does not name ahead starts");
	make_batches(b);
	for (int i = 0; i < 3; i++)
		is_int(resolver_consume(&whole.r, &b[i]), 0, "batch %d taken", i);
	is_int(side_finish(&whole, &t_whole), 0, "and finished");
	for (int i = 0; i < 3; i++)
		pipe_batch_release(&b[i]);

	/* named ahead: the kernel's symbols are not there until the FIFO is written */
	is_int(side_start(&ahead, fifo, true), 0, "a side that names ahead starts");
	make_batches(b);
	for (int i = 0; i < 3; i++)
		is_int(resolver_consume(&ahead.r, &b[i]), 0, "batch %d taken", i);
	is_int(kernel_side_ready(&ahead.k, false), 0, "the kernel's symbols are not there yet ...");
	ok(ahead.r.names.nr >= 3, "... and the user frames are named already (%zu)",
	   ahead.r.names.nr);
	fd = open(fifo, O_WRONLY);
	ok(fd >= 0 && write(fd, kallsyms, strlen(kallsyms)) == (ssize_t)strlen(kallsyms),
	   "kallsyms written");
	if (fd >= 0)
		close(fd);
	is_int(side_finish(&ahead, &t_ahead), 0, "and finished once they are");
	for (int i = 0; i < 3; i++)
		pipe_batch_release(&b[i]);

	kept_then_last(fifo, 2, 0);	/* the last sample filled a batch exactly */
	kept_then_last(fifo, 2, 1);
	kept_then_last(fifo, 0, 2);

	ok(t_whole.len > 0 && strstr(t_whole.s, "early 42: kleaf/[kernel.kallsyms] "
					"ktop/[kernel.kallsyms] early_leaf/") &&
	   strstr(t_whole.s, "child 43: early_leaf/") && strstr(t_whole.s, "?/[unknown]"),
	   "kernel and user frames named, unresolved ones before the map");
	ok(strstr(t_whole.s, "early 42: early_top/test-profile-pipeline-early.t ") &&
	   strstr(t_whole.s, " = 10000000\n") &&
	   !strstr(t_whole.s, "early 42: early_leaf/test-profile-pipeline-early.t "
		   "early_top/test-profile-pipeline-early.t = 10000000"),
	   "a mapping changed between two stacks of a batch names the second otherwise");
	is_str(t_ahead.s, t_whole.s, "named ahead: the same call graph");
	is_u64(t_whole.self_elsewhere, 2, "two samples' ip is another function than their chain's "
	       "first frame (one a hypervisor frame) ...");
	is_u64(t_ahead.self_elsewhere, 2, "... named ahead too");
	diag("%s", t_whole.s);

	unlink(syms);
	unlink(fifo);
	rmdir(dir);
	return done_testing();
}
