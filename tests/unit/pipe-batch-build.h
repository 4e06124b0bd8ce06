/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipe-batch-build.h - messages of the resolving side's batches (pipeline-int.h) built by hand,
 * for the pipeline tests. Included by one test file each (static functions).
 */
#ifndef KPROF_TEST_PIPE_BATCH_BUILD_H
#define KPROF_TEST_PIPE_BATCH_BUILD_H

#include <string.h>

#include "profiler/profile/pipeline-int.h"

/* @bytes of @p at the end of @b, zero-padded to whole words. */
static void put_words(struct pipe_batch *b, const void *p, size_t bytes)
{
	size_t words = (bytes + 7) / 8;
	uint64_t *w = pipe_batch_room(b, words);

	w[words - 1] = 0;
	memcpy(w, p, bytes);
	b->nr += words;
}

#endif
