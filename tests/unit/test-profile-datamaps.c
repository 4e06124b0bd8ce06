// SPDX-License-Identifier: GPL-2.0
/*
 * pipeline-datamaps.c: which processes have a recorded non-executable file mapping (perf's
 * unwinder needs it to find .eh_frame): MMAP2 by prot and name, MMAP by the data misc bit,
 * FORK passing it to the child process (not to a new thread), the pid set growing past its
 * first table and holding pid 0.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "profiler/profile/pipeline-int.h"
#include "tests/tap.h"

/* An MMAP2 body: pid, tid, start, len, pgoff, maj, min, ino, generation, prot, flags, name. */
static size_t mmap2(char *b, int32_t pid, uint32_t prot, const char *name)
{
	memset(b, 0, 128);
	memcpy(b, &pid, 4);
	memcpy(b + 4, &pid, 4);
	memcpy(b + 56, &prot, 4);
	strcpy(b + 64, name);
	return 64 + strlen(name) + 1;
}

static int note_fork(struct pid_set *s, int32_t pid, int32_t ppid)
{
	int32_t f[4] = { pid, ppid, pid, ppid };

	return datamaps_note(s, PERF_RECORD_FORK, 0, f, sizeof(f));
}

int main(void)
{
	struct pid_set s = { 0 };
	char b[128];
	size_t n;

	ok(!pid_set_has(&s, 1), "empty set");
	n = mmap2(b, 10, PROT_READ | PROT_EXEC, "/usr/lib/libc.so.6");
	is_int(datamaps_note(&s, PERF_RECORD_MMAP2, 0, b, n), 0, "exec map noted");
	ok(!pid_set_has(&s, 10), "an executable map is not a data map");
	n = mmap2(b, 10, PROT_READ | PROT_WRITE, "[heap]");
	datamaps_note(&s, PERF_RECORD_MMAP2, 0, b, n);
	n = mmap2(b, 10, PROT_READ, "//anon");
	datamaps_note(&s, PERF_RECORD_MMAP2, 0, b, n);
	ok(!pid_set_has(&s, 10), "heap and anonymous maps do not count (a heap grows either way)");
	n = mmap2(b, 10, PROT_READ, "/usr/lib/libc.so.6");
	datamaps_note(&s, PERF_RECORD_MMAP2, 0, b, n);
	ok(pid_set_has(&s, 10), "a read-only map of a file counts");
	datamaps_note(&s, PERF_RECORD_MMAP2, 0, b, 60);
	ok(!pid_set_has(&s, 11), "a short record is ignored");

	/* MMAP: pid, tid, start, len, pgoff, name at 32 */
	memset(b, 0, sizeof(b));
	b[0] = 20;
	strcpy(b + 32, "/lib/x.so");
	datamaps_note(&s, PERF_RECORD_MMAP, 0, b, 48);
	ok(!pid_set_has(&s, 20), "MMAP without the data bit: executable");
	datamaps_note(&s, PERF_RECORD_MMAP, PERF_RECORD_MISC_MMAP_DATA, b, 48);
	ok(pid_set_has(&s, 20), "MMAP with PERF_RECORD_MISC_MMAP_DATA");

	note_fork(&s, 30, 10);
	ok(pid_set_has(&s, 30), "a forked process has its parent's maps");
	note_fork(&s, 31, 99);
	ok(!pid_set_has(&s, 31), "a fork of a process without them has none");

	for (int32_t pid = 1000; pid < 1200; pid++)
		pid_set_add(&s, pid);
	is_int(pid_set_add(&s, 0), 0, "pid 0 added");
	ok(pid_set_has(&s, 0) && pid_set_has(&s, 1000) && pid_set_has(&s, 1199) &&
	   pid_set_has(&s, 10) && !pid_set_has(&s, 1200), "the grown set holds every pid added");
	is_int((long long)s.nr, 204, "pids counted once");
	pid_set_add(&s, 10);
	is_int((long long)s.nr, 204, "adding again changes nothing");
	pid_set_release(&s);
	ok(!pid_set_has(&s, 10), "released set is empty");
	return done_testing();
}
