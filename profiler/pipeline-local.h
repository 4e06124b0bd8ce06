/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pipeline-local.h - internals of profile_load() (pipeline*.c).
 */
#ifndef KPROF_PIPELINE_LOCAL_H
#define KPROF_PIPELINE_LOCAL_H

#include <stddef.h>
#include <stdint.h>

struct comm_slot {
	int32_t	tid;
	char	*comm;		/* owned; NULL: free slot */
};

/* tid -> comm, open addressing. Zero-initialised is empty. */
struct comm_table {
	struct comm_slot	*slots;
	size_t			nr, alloc;
};

int comm_table_set(struct comm_table *t, int32_t tid, const char *comm);
/* The child thread starts with its parent's name (perf's thread__fork). */
int comm_table_fork(struct comm_table *t, int32_t parent, int32_t child);
/* The name as perf shows it: the comm, "swapper" for 0, else ":TID" written into buf. */
const char *comm_table_name(const struct comm_table *t, int32_t tid, char *buf, size_t len);
const char *comm_table_get(const struct comm_table *t, int32_t tid);
void comm_table_release(struct comm_table *t);

#endif
