// SPDX-License-Identifier: GPL-2.0
/*
 * perf-read-kbid.c - the kernel's build-id from its own MMAP2 record, before the file is read.
 *
 * `perf record --buildid-mmap` writes no BUILD_ID feature; the build-ids are in the MMAP2
 * records (PERF_RECORD_MISC_MMAP_BUILD_ID), the kernel's in "[kernel.kallsyms]_text", which
 * perf synthesizes among the first records of the data section. perf 6.1 gives it to the
 * kernel's dso (machine.c machine__process_kernel_mmap_event: dso__set_build_id), so its
 * kallsyms or vmlinux are used only when they have it. kprof starts loading the kernel's
 * symbols before it reads the records, so it looks that record up first: in file order, in
 * the first records of a regular file's data section (a pipe cannot be read twice).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profiler/perfdata/perfdata.h"

#define SCAN_BYTES	(256 * 1024)
#define KERNEL_MMAP	"[kernel.kallsyms]"

int pd_file_kernel_mmap_build_id(const char *path, struct pd_build_id *out)
{
	uint64_t head[7];	/* magic, size, attr_size, attrs (2), data offset, data size */
	struct stat st;
	size_t len, at = 0;
	ssize_t n;
	char *buf;
	int fd, found = 0;

	memset(out, 0, sizeof(*out));
	/* regular files only: opening a FIFO would take its data */
	if (!path || !strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (pread(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    memcmp(head, "PERFILE2", 8) || head[5] > (uint64_t)st.st_size) {
		close(fd);
		return 0;
	}
	len = head[6] < SCAN_BYTES ? (size_t)head[6] : SCAN_BYTES;
	buf = malloc(len ? len : 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	n = pread(fd, buf, len, (off_t)head[5]);
	close(fd);
	len = n > 0 ? (size_t)n : 0;
	while (!found && at + sizeof(struct perf_event_header) <= len) {
		struct perf_event_header h;
		const char *body = buf + at + sizeof(h);
		int32_t pid;

		memcpy(&h, buf + at, sizeof(h));
		if (h.size < sizeof(h) || at + h.size > len)
			break;
		/* MMAP2 body: pid, tid, start, len, pgoff, u8 id size, 3 bytes, id[20], prot,
		 * flags, filename at 64 */
		if (h.type == PERF_RECORD_MMAP2 && (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
		    h.size >= sizeof(h) + 64 + sizeof(KERNEL_MMAP) &&
		    (uint8_t)body[32] && (uint8_t)body[32] <= 20 &&
		    !strncmp(body + 64, KERNEL_MMAP, strlen(KERNEL_MMAP))) {
			memcpy(&pid, body, sizeof(pid));
			if (pid == -1) {
				out->pid = -1;
				out->kernel = true;
				out->size = (uint8_t)body[32];
				memcpy(out->id, body + 36, out->size);
				found = 1;
			}
		}
		at += h.size;
	}
	free(buf);
	return found;
}
