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
 * No descriptor stays open (a system-wide profile names symbols of thousands of files): the
 * file is opened for each block read, ~5 us with the check.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

struct sym_names_file {
	char		*path;
	dev_t		dev;
	ino_t		ino;
	off_t		size;
	struct timespec	mtime;
	uint64_t	off, len;	/* the string table: its bytes in the file */
	bool		changed;	/* not the file loaded: no more reads */
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
	return f;
}

static bool same_file(const struct sym_names_file *f, int fd)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_dev == f->dev && st.st_ino == f->ino &&
	       st.st_size == f->size && st.st_mtim.tv_sec == f->mtime.tv_sec &&
	       st.st_mtim.tv_nsec == f->mtime.tv_nsec;
}

/* The file, open and checked to be the one loaded; -1 when it cannot be. */
static int names_fd(struct sym_names_file *f)
{
	int fd;

	if (f->changed)
		return -1;
	fd = open_regular(f->path);
	if (fd < 0)
		return -1;
	if (!same_file(f, fd)) {
		f->changed = true;
		close(fd);
		return -1;
	}
	return fd;
}

/* Block @i of the table, read on first use; its length in *@len. NULL when it cannot be read. */
static const char *block(struct sym_names_file *f, size_t i, size_t *len)
{
	uint64_t at = (uint64_t)i * NAMES_BLOCK;
	size_t want = f->len - at < NAMES_BLOCK ? (size_t)(f->len - at) : NAMES_BLOCK;
	char *b;
	ssize_t n;
	int fd;

	*len = want;
	if (f->blocks[i])
		return f->blocks[i];
	fd = names_fd(f);
	if (fd < 0)
		return NULL;
	b = malloc(want);
	n = b ? pread(fd, b, want, (off_t)(f->off + at)) : -1;
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
	if (f->blocks)
		for (uint64_t i = 0; i < (f->len + NAMES_BLOCK - 1) / NAMES_BLOCK; i++)
			free(f->blocks[i]);
	free(f->blocks);
	free(f->path);
	free(f);
}
