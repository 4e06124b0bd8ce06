// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of profile_load(): the symbols load in a thread of their own, and
 * kernel_side_ready() says whether they are there without waiting (0 while the loading thread
 * is blocked), waits for them, or returns their loading error. kernel_side_name() then turns
 * every kernel frame of a batch (and a kernel ip that is not the chain's first frame) into its
 * struct nframe, after the kernel MMAPs before it in the batch, sets ip_first unless told it is
 * set already, and leaves user frames alone.
 *
 * The symbols load from a FIFO, so the test decides when they are there: the loading thread
 * blocks in open() until the test opens the writing end. (The batches that fill meanwhile wait
 * on the resolving side: test-profile-pipeline-early.c.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/profile/pipeline-int.h"
#include "tests/tap.h"
#include "tests/unit/pipe-batch-build.h"

#define TEXT	0xffffffff81000000ULL

static const char kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 T leaf\n"
	"ffffffff81002000 T top\n"
	"ffffffff81003000 T _etext\n";

/* Let the loading thread read @text: it waits in open() for a writer. */
static int release_symbols(const char *fifo, const char *text)
{
	int fd = open(fifo, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -EIO;
}

static bool start_blocked(struct kernel_side *k, char *dir, char *fifo, size_t len)
{
	struct sym_opts o = { 0 };

	memset(k, 0, sizeof(*k));
	if (!mkdtemp(dir))
		return false;
	snprintf(fifo, len, "%s/kallsyms", dir);
	if (mkfifo(fifo, 0600)) {
		rmdir(dir);
		return false;
	}
	o.kallsyms = fifo;
	o.kallsyms_required = true;
	return !kernel_side_start(k, &o, NULL, 0) && k->started;
}

static const struct nframe *frame(uint64_t word)
{
	return (const struct nframe *)(uintptr_t)word;
}

static void test_ready_and_name(void)
{
	char dir[] = "/tmp/kprof-kside.XXXXXX", fifo[64], err[256] = "";
	struct pipe_record rec = { .type = PIPE_RECORD, .rec_type = PERF_RECORD_MMAP,
				   .misc = PERF_RECORD_MISC_KERNEL };
	char body[64] = { 0 };
	int32_t ids[2] = { -1, -1 };
	uint64_t map[3] = { TEXT, 0x3000, TEXT };
	uint64_t chain[] = { (uint64_t)PERF_CONTEXT_KERNEL, TEXT + 0x1010, TEXT + 0x2010,
			     (uint64_t)PERF_CONTEXT_USER, 0x401000 };
	struct pipe_stack st = { .type = PIPE_STACK, .pid = 1, .tid = 1, .nr = 5,
				 .misc = PERF_RECORD_MISC_KERNEL, .period = 1, .samples = 1 };
	struct pipe_stack *s1, *s2;
	struct pipe_batch b = { 0 };
	struct kernel_side k;
	uint64_t *c1, *c2;
	size_t at;

	if (!start_blocked(&k, dir, fifo, sizeof(fifo))) {
		ok(false, "the symbols load in a thread (blocked on a FIFO): %s", strerror(errno));
		return;
	}
	is_int(kernel_side_ready(&k, false), 0, "not there while the loading thread waits");
	ok(!release_symbols(fifo, kallsyms), "the symbols are written");
	is_int(kernel_side_ready(&k, true), 1, "waited for, they are there");
	is_int(kernel_side_ready(&k, false), 1, "and stay");

	/* the kernel map, a stack whose ip is its first frame, one whose ip is elsewhere */
	memcpy(body, ids, 8);
	memcpy(body + 8, map, 24);
	strcpy(body + 32, "[kernel.kallsyms]_text");
	rec.body_len = 32 + 23;
	put_words(&b, &rec, sizeof(rec));
	put_words(&b, body, rec.body_len);
	at = b.nr;
	st.ip = TEXT + 0x1010;
	put_words(&b, &st, sizeof(st));
	put_words(&b, chain, sizeof(chain));
	st.ip = TEXT + 0x2020;
	put_words(&b, &st, sizeof(st));
	put_words(&b, chain, sizeof(chain));
	s1 = (struct pipe_stack *)&b.w[at];
	c1 = &b.w[at + sizeof(st) / 8];
	s2 = (struct pipe_stack *)&c1[5];
	c2 = &b.w[at + 2 * sizeof(st) / 8 + 5];
	is_int(kernel_side_name(&k, b.w, b.nr, false), 0, "a batch named");
	ok(frame(c1[1])->sym && !strcmp(frame(c1[1])->sym, "leaf") &&
	   frame(c1[2])->sym && !strcmp(frame(c1[2])->sym, "top"),
	   "kernel frames are nframes of their symbols");
	ok(c1[1] == c2[1] && c1[2] == c2[2], "one nframe per address");
	is_u64(c1[4], 0x401000, "a user frame is left alone");
	ok(c1[0] == (uint64_t)PERF_CONTEXT_KERNEL && c1[3] == (uint64_t)PERF_CONTEXT_USER,
	   "markers too");
	ok(s1->ip_first && s1->ip == TEXT + 0x1010,
	   "an ip that is the chain's first frame: ip_first, the ip as it was");
	ok(!s2->ip_first && frame(s2->ip)->sym && !strcmp(frame(s2->ip)->sym, "top"),
	   "an ip elsewhere in the kernel: an nframe of its own");

	/* told that ip_first is set already (user frames named ahead replaced addresses) */
	s1->ip_first = false;
	s1->nr = 0;
	is_int(kernel_side_name(&k, &b.w[at], sizeof(st) / 8, true), 0,
	       "a stack without chain named, ip_first kept");
	ok(!s1->ip_first, "ip_first as it was given");
	is_int(kernel_side_wait(&k, err, sizeof(err)), 0, "the loading thread joined %s", err);
	ok(kernel_side_source(&k) && strstr(kernel_side_source(&k), "kallsyms"),
	   "the symbols' source: %s", kernel_side_source(&k) ? kernel_side_source(&k) : "none");
	kernel_side_release(&k);
	pipe_batch_release(&b);
	unlink(fifo);
	rmdir(dir);
}

static void test_load_error(void)
{
	char dir[] = "/tmp/kprof-kside.XXXXXX", fifo[64], err[256] = "";
	struct kernel_side k;

	if (!start_blocked(&k, dir, fifo, sizeof(fifo))) {
		ok(false, "the symbols load in a thread (blocked on a FIFO): %s", strerror(errno));
		return;
	}
	ok(!release_symbols(fifo, "not a kallsyms text\n"), "garbage written");
	ok(kernel_side_ready(&k, true) < 0, "waited for: their loading error");
	ok(kernel_side_ready(&k, false) < 0, "asked again: the same");
	ok(kernel_side_wait(&k, err, sizeof(err)) < 0 && strstr(err, "kallsyms"),
	   "the reading side says what: %s", err);
	kernel_side_release(&k);
	unlink(fifo);
	rmdir(dir);
}

int main(void)
{
	test_ready_and_name();
	test_load_error();
	return done_testing();
}
