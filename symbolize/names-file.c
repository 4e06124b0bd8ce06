// SPDX-License-Identifier: GPL-2.0
/*
 * names-file.c - the names of an ELF file's symbol table, read from the file when a profile
 * first uses them instead of copied when the table is loaded.
 *
 * A system-wide recording of a make -B loop loads ~138K symbols from ~80 files and names
 * ~4,600 of them: the copies were 11 MB of fresh heap, and on a virtual machine each fresh MB
 * costs ~1.5-2.5 ms of the host faulting it in (docs/report.md, "memory touched"). The table
 * is read by blocks of NAMES_BLOCK bytes, each when a name in it is first used, and kept: that
 * run names 4,608 symbols (PLT stubs too) in 24 files, from 427 blocks (1.7 MB, one pread each;
 * a pread per name, 2 us each, cost the naming thread what the copies had cost).
 *
 * The file is read, not mapped: a file truncated while it is mapped ends the process with
 * SIGBUS when the mapping is read (the reason perfdata/ reads recordings with pread too).
 * A file opened again is checked to be the one loaded (device, inode, size, modification
 * time); one that changed gives no names from then on (names_file_changed()), never another
 * file's names.
 *
 * A file's descriptor stays open from its first block read to names_file_free(), for at most
 * NAMES_FDS_KEPT files at a time (a system-wide profile names symbols of thousands of files):
 * opening, checking and closing the file for each block was 5 system calls, ~5 us on a virtual
 * machine, for each of the ~430 blocks a make -B report reads (24 files); a kept descriptor is
 * checked with one fstat() per block read. It holds the inode it opened: a file replaced by
 * another since (a rename over it) is still read where it was loaded from, and only a change in
 * place (size, modification time) stops the reads. The files past the limit are opened for
 * each block, as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

/* How many are open now: tables are read and freed by different sessions' threads. */
static unsigned int fds_kept;

struct sym_names_file {
	char		*path;
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	struct timespec	mtime;
	uint64_t	off, len;	/* the string table: its bytes in the file */
	bool		changed;	/* not the file loaded: no more reads */
	int		fd;		/* kept open (counted in fds_kept), or -1 */
	char		**blocks;	/* NAMES_BLOCK bytes each, NULL until read */
};

struct sym_names_file *names_file_new(const char *path, const struct stat *st, uint64_t off,
				      uint64_t len)
{
	struct sym_names_file *f;

	if (off > (uint64_t)st->st_size || len > (uint64_t)st->st_size - off) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f || !(f->path = strdup(path))) {
		free(f);
		errno = ENOMEM;
		return NULL;
	}
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->size = st->st_size;
	f->mtime = st->st_mtim;
	f->off = off;
	f->len = len;
	f->fd = -1;
	return f;
}

static bool same_file(const struct sym_names_file *f, int fd)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_dev == f->dev && st.st_ino == f->ino &&
	       st.st_size == f->size && st.st_mtim.tv_sec == f->mtime.tv_sec &&
	       st.st_mtim.tv_nsec == f->mtime.tv_nsec;
}

/* Keep @fd open for the next reads, if fewer than NAMES_FDS_KEPT are; false: close it. */
static bool keep_fd(struct sym_names_file *f, int fd)
{
	unsigned int n = __atomic_load_n(&fds_kept, __ATOMIC_RELAXED);

	do {
		if (n >= NAMES_FDS_KEPT)
			return false;
	} while (!__atomic_compare_exchange_n(&fds_kept, &n, n + 1, true, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	f->fd = fd;
	return true;
}

static void close_kept(struct sym_names_file *f)
{
	if (f->fd < 0)
		return;
	close(f->fd);
	f->fd = -1;
	__atomic_fetch_sub(&fds_kept, 1, __ATOMIC_RELAXED);
}

/*
 * The file, open and checked to be the one loaded; -1 when it cannot be. *@kept: the
 * descriptor is the table's own (not to be closed by the caller).
 */
static int names_fd(struct sym_names_file *f, bool *kept)
{
	int fd;

	*kept = false;
	if (f->changed)
		return -1;
	fd = f->fd >= 0 ? f->fd : open_regular(f->path);
	if (fd < 0)
		return -1;
	if (!same_file(f, fd)) {
		f->changed = true;
		if (fd == f->fd)
			close_kept(f);
		else
			close(fd);
		return -1;
	}
	*kept = fd == f->fd || keep_fd(f, fd);
	return fd;
}

/* Block @i of the table, read on first use; its length in *@len. NULL when it cannot be read. */
static const char *block(struct sym_names_file *f, size_t i, size_t *len)
{
	uint64_t at = (uint64_t)i * NAMES_BLOCK;
	size_t want = f->len - at < NAMES_BLOCK ? (size_t)(f->len - at) : NAMES_BLOCK;
	bool kept;
	char *b;
	ssize_t n;
	int fd;

	*len = want;
	if (f->blocks[i])
		return f->blocks[i];
	fd = names_fd(f, &kept);
	if (fd < 0)
		return NULL;
	b = malloc(want);
	n = b ? pread(fd, b, want, (off_t)(f->off + at)) : -1;
	if (!kept)
		close(fd);
	if (n != (ssize_t)want) {
		free(b);
		return NULL;
	}
	f->blocks[i] = b;
	return b;
}

/* A name that goes on past the end of its block: copied from the blocks it spans. */
static const char *read_across(struct sym_names_file *f, uint64_t at, char **owned)
{
	size_t cap = 2 * NAMES_BLOCK, have = 0;
	char *s = malloc(cap);

	while (s && at < f->len) {
		size_t len, in = (size_t)(at % NAMES_BLOCK), n;
		const char *b = block(f, (size_t)(at / NAMES_BLOCK), &len), *nul;
		char *grown;

		if (!b)
			break;
		nul = memchr(b + in, 0, len - in);
		n = nul ? (size_t)(nul - (b + in)) + 1 : len - in;
		if (have + n > cap) {
			cap = 2 * (have + n);
			grown = realloc(s, cap);
			if (!grown)
				break;
			s = grown;
		}
		memcpy(s + have, b + in, n);
		have += n;
		at += n;
		if (nul) {
			*owned = s;
			return s;
		}
	}
	free(s);
	return NULL;
}

const char *names_file_read(struct sym_names_file *f, uint64_t at, char **owned)
{
	size_t len, in = (size_t)(at % NAMES_BLOCK);
	const char *b;

	*owned = NULL;
	if (!f || at >= f->len)
		return NULL;
	if (!f->blocks) {
		f->blocks = calloc((size_t)((f->len + NAMES_BLOCK - 1) / NAMES_BLOCK),
				   sizeof(*f->blocks));
		if (!f->blocks)
			return NULL;
	}
	b = block(f, (size_t)(at / NAMES_BLOCK), &len);
	if (!b)
		return NULL;
	if (memchr(b + in, 0, len - in))
		return b + in;
	return read_across(f, at, owned);
}

bool names_file_changed(const struct sym_names_file *f)
{
	return f && f->changed;
}

void names_file_free(struct sym_names_file *f)
{
	if (!f)
		return;
	close_kept(f);
	if (f->blocks)
		for (uint64_t i = 0; i < (f->len + NAMES_BLOCK - 1) / NAMES_BLOCK; i++)
			free(f->blocks[i]);
	free(f->blocks);
	free(f->path);
	free(f);
}
