// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of profile_load(): batches that fill while the kernel's symbols still load
 * wait, in order, and the last push sends them all even when the reading side's own batch is
 * empty (the last sample filled a batch exactly). Before that fix a small --call-graph dwarf
 * recording lost every sample about once in a hundred runs: "no samples", exit 0.
 *
 * The symbols load from a FIFO, so the test decides when they are there: the loading thread
 * blocks in open() until the test opens the writing end.
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

static const char kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 T leaf\n"
	"ffffffff81002000 T _etext\n";

struct sink {
	size_t	stacks;
	size_t	batches;
};

static int sink_start(void *arg)
{
	(void)arg;
	return 0;
}

static int count_stack(void *arg, struct pipe_stack *st, uint64_t *chain)
{
	(void)st;
	(void)chain;
	((struct sink *)arg)->stacks++;
	return 0;
}

static int no_record(void *arg, const struct pipe_record *rec, const char *body)
{
	(void)arg;
	(void)rec;
	(void)body;
	return -EPROTO;
}

static int sink_consume(void *arg, uint64_t *w, size_t nr)
{
	((struct sink *)arg)->batches++;
	return pipe_batch_walk(w, nr, count_stack, no_record, arg);
}

/* @n user-mode stacks of one frame each into @b. */
static int add_stacks(struct pipe_batch *b, size_t n)
{
	const size_t words = sizeof(struct pipe_stack) / 8 + 1;

	for (size_t i = 0; i < n; i++) {
		uint64_t *w = pipe_batch_room(b, words);

		if (!w)
			return -ENOMEM;
		*(struct pipe_stack *)w = (struct pipe_stack){
			.type = PIPE_STACK, .pid = 1, .tid = 1, .nr = 1,
			.misc = PERF_RECORD_MISC_USER, .ip = 0x401000 + i, .period = 1,
			.samples = 1,
		};
		w[words - 1] = 0x401000 + i;
		b->nr += words;
	}
	return 0;
}

/* Let the loading thread read the symbols: it waits in open() for a writer. */
static int release_symbols(const char *fifo)
{
	int fd = open(fifo, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, kallsyms, sizeof(kallsyms) - 1);
	close(fd);
	return n == (ssize_t)sizeof(kallsyms) - 1 ? 0 : -EIO;
}

/*
 * @full batches fill (each pushed at its own size, as the reading side pushes a full one)
 * while the symbols load; then @last more stacks and the last push. Every stack must arrive.
 */
static void pending_then_last(size_t full, size_t last)
{
	char dir[] = "/tmp/kprof-kside.XXXXXX", fifo[64], err[256] = "";
	struct sym_opts o = { 0 };
	struct kernel_side k;
	struct pipe_queue q;
	struct pipe_batch b = { 0 };
	struct sink s = { 0 };
	int ret = 0;

	memset(&k, 0, sizeof(k));
	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(fifo, sizeof(fifo), "%s/kallsyms", dir);
	if (mkfifo(fifo, 0600)) {
		ok(false, "mkfifo: %s", strerror(errno));
		rmdir(dir);
		return;
	}
	o.kallsyms = fifo;
	o.kallsyms_required = true;
	ok(!kernel_side_start(&k, &o, NULL, 0) && k.started,
	   "the symbols load in a thread (blocked on the FIFO)");
	ok(!pipe_queue_init(&q, sink_start, sink_consume, &s), "queue");
	for (size_t i = 0; i < full && !ret; i++) {
		ret = add_stacks(&b, 3);
		if (!ret)
			ret = kernel_side_push(&k, &q, &b, b.nr, "", err, sizeof(err));
	}
	ok(!ret && k.nr_pending == full && !b.nr,
	   "%zu full batches wait for the symbols, the reading side's batch is empty again",
	   full);
	ok(!release_symbols(fifo), "the symbols are written");
	if (last)
		ret = add_stacks(&b, last);
	ok(!ret && !kernel_side_push(&k, &q, &b, 1, "", err, sizeof(err)),
	   "the last push (%zu stacks of its own) %s", last, err);
	ok(!pipe_queue_finish(&q), "the queue drains");
	is_int((int)s.stacks, (int)(full * 3 + last), "every stack arrived");
	is_int((int)s.batches, (int)(full + (last ? 1 : 0)), "in %zu batches", full + !!last);
	ok(!kernel_side_wait(&k, err, sizeof(err)) && kernel_side_source(&k) &&
	   strstr(kernel_side_source(&k), "kallsyms"), "the symbols loaded: %s",
	   kernel_side_source(&k) ? kernel_side_source(&k) : err);
	kernel_side_release(&k);
	pipe_batch_release(&b);
	unlink(fifo);
	rmdir(dir);
}

int main(void)
{
	pending_then_last(2, 0);	/* the last sample filled a batch exactly */
	pending_then_last(2, 1);
	pending_then_last(0, 2);
	return done_testing();
}
