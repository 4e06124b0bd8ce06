// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-datamaps.c - which processes of a --call-graph dwarf recording have a recorded
 * non-executable mapping, for one stderr line where kprof's chains are longer than perf's.
 *
 * perf 6.1 unwinds with libunwind, which reads a module's .eh_frame_hdr and .eh_frame through
 * the recording's maps (unwind-libunwind-local.c access_dso_mem: "no map for ..."). In files
 * linked with separate code (x86_64's default) they lie in a read-only segment, whose map is
 * recorded only as a data mmap: the kernel writes those with mmap_data, and a recorder
 * synthesizes them for the processes that already run (perf record does; kprof record did not
 * before issue 11). Without one, perf ends every chain of the process after its first frame.
 * kprof's unwinder (libdwfl) reads the CFI from the file and unwinds such a process fully, so
 * its keys differ from perf's there; the reading side counts those samples and the CLI says so.
 *
 * A process is taken to have its data maps when a non-executable MMAP/MMAP2 of a file (a path,
 * not [heap], //anon or the like: a process that grows its heap during the recording has those either
 * way) was read for it, or for the process it forked from (perf copies the maps). The count is
 * then a lower bound: a process that maps a data file during the recording is not counted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "profiler/profile/pipeline-int.h"

static size_t slot_of(const struct pid_set *s, uint32_t key)
{
	size_t i = (size_t)(key * 0x9e3779b9u) & s->mask;

	while (s->keys[i] && s->keys[i] != key)
		i = (i + 1) & s->mask;
	return i;
}

bool pid_set_has(const struct pid_set *s, int32_t pid)
{
	return s->keys && s->keys[slot_of(s, (uint32_t)pid + 1)] != 0;
}

int pid_set_add(struct pid_set *s, int32_t pid)
{
	uint32_t key = (uint32_t)pid + 1;	/* 0 is an empty slot; pid 0 is a process */

	if (!key)
		return 0;
	if ((s->nr + 1) * 2 > (s->keys ? s->mask + 1 : 0)) {
		size_t n = s->keys ? (s->mask + 1) * 2 : 64;
		struct pid_set grown = { .keys = calloc(n, sizeof(uint32_t)), .mask = n - 1 };

		if (!grown.keys)
			return -ENOMEM;
		for (size_t i = 0; s->keys && i <= s->mask; i++)
			if (s->keys[i])
				grown.keys[slot_of(&grown, s->keys[i])] = s->keys[i];
		grown.nr = s->nr;
		free(s->keys);
		*s = grown;
	}
	if (!s->keys[slot_of(s, key)]) {
		s->keys[slot_of(s, key)] = key;
		s->nr++;
	}
	return 0;
}

void pid_set_release(struct pid_set *s)
{
	free(s->keys);
	memset(s, 0, sizeof(*s));
}

/* Whether the mapping's name at @at is a file's path (not "//anon" and the like). */
static bool is_file(const void *body, size_t at, size_t len)
{
	const char *name = (const char *)body + at;

	return len > at + 1 && name[0] == '/' && name[1] != '/';
}

int datamaps_note(struct pid_set *s, uint32_t type, uint16_t misc, const void *body,
		  size_t len)
{
	int32_t ids[4];		/* MMAP/MMAP2: pid, tid; FORK: pid, ppid, tid, ptid */
	uint32_t prot;

	if (len < sizeof(ids))
		return 0;
	memcpy(ids, body, sizeof(ids));
	switch (type) {
	case PERF_RECORD_MMAP2:		/* ..., u32 prot at 56, flags, filename at 64 */
		if (len < 65)
			return 0;
		memcpy(&prot, (const char *)body + 56, sizeof(prot));
		return !(prot & PROT_EXEC) && is_file(body, 64, len) ? pid_set_add(s, ids[0]) : 0;
	case PERF_RECORD_MMAP:		/* pid, tid, start, len, pgoff, filename at 32 */
		return misc & PERF_RECORD_MISC_MMAP_DATA && is_file(body, 32, len) ?
		       pid_set_add(s, ids[0]) : 0;
	case PERF_RECORD_FORK:
		return ids[0] != ids[1] && pid_set_has(s, ids[1]) ? pid_set_add(s, ids[0]) : 0;
	default:
		return 0;
	}
}
