/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz-common.h - what every libFuzzer harness under tests/fuzz/ shares.
 *
 * A harness defines LLVMFuzzerTestOneInput() and gets its input as a file path (the readers
 * under test take paths, and mmap or re-open them): the bytes go into one memfd per process,
 * named /proc/self/fd/N. Standard output goes to /dev/null once, so the commands' normal
 * output costs nothing; their errors still go to stderr (run with -close_fd_mask=2 to hide).
 *
 * The same harness source links with libFuzzer (make fuzz) or with replay.c (make tests), which
 * feeds it the committed seed and regression inputs: a crash found once stays tested.
 */
#ifndef KPROF_FUZZ_COMMON_H
#define KPROF_FUZZ_COMMON_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A memfd named by its path (/proc/self/fd/N, in @path of @len bytes): scratch files that
 * leave nothing behind in /tmp however the fuzzer ends. Aborts when none can be made.
 */
static inline int fuzz_memfd(const char *name, char *path, size_t len)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0)
		abort();
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* The path of a file holding exactly @data (the same path every call). */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			close(null);
		}
		fd = fuzz_memfd("kprof-fuzz", path, sizeof(path));
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

/*
 * The path of a memfd holding the fixed text @text, made at the first call of the process;
 * @path (at least 32 bytes, empty at first) keeps it for the next calls.
 */
static inline const char *fuzz_text_file(char *path, size_t len, const char *text)
{
	size_t n = strlen(text);

	if (!path[0] && pwrite(fuzz_memfd("kprof-fuzz-text", path, len), text, n, 0) != (ssize_t)n)
		abort();
	return path;
}

/* Run a command's entry point with a NULL-terminated argument list. */
#define FUZZ_CMD(fn, ...)							\
	({									\
		char *argv_[] = { __VA_ARGS__, NULL };				\
		fn((int)(sizeof(argv_) / sizeof(argv_[0]) - 1), argv_);		\
	})

#endif
