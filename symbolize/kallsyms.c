// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - kernel symbols from a kallsyms text ("ADDR TYPE NAME[\t[MODULE]]" lines), kept
 * the way perf 6.1 keeps them (symbol.c: map__process_kallsym_symbol): types T, W, D and B in
 * either case, no '$' ARM locals. Unlike perf 6.1, the __pfx_/__cfi_ padding symbols are skipped
 * as current perf does, so their bytes belong to the function before them.
 *
 * The text is parsed a chunk at a time (see kallsyms_read).
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"

/* x86_64's PTI trampoline symbol, dropped by perf after the end fix-up (is_entry_trampoline). */
#define ENTRY_TRAMPOLINE "__entry_SYSCALL_64_trampoline"

/* symbol_type__filter() */
static bool type_kept(char type)
{
	type = (char)toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

/* kallsyms2elf_binding() */
static uint8_t type_binding(char type)
{
	if (type == 'W')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

/*
 * One line at @p (ending before @eol, which is '\0' now). Returns false for a line perf would
 * skip as malformed.
 */
static bool parse_line(char *p, uint64_t *addr, char *type, char **name, char **module)
{
	char *tab;

	if (!parse_hex((const char **)&p, addr) || *p != ' ' || !p[1] || p[2] != ' ')
		return false;
	*type = p[1];
	*name = p + 3;
	tab = strchr(*name, '\t');
	*module = NULL;
	if (tab) {
		*tab = '\0';
		*module = tab + 1;
	}
	return true;
}

static void drop_entry_trampoline(struct symtab *t)
{
	size_t out = 0;

	for (size_t i = 0; i < t->nr; i++)
		if (t->v[i].dso || t->v[i].name[0] != '_' || strcmp(t->v[i].name, ENTRY_TRAMPOLINE))
			t->v[out++] = t->v[i];
	t->nr = out;
}

/* What kallsyms_load() carries from one chunk of the text to the next. */
struct parse_state {
	const char	*last_mod;	/* the module of the symbol before, interned */
	bool		any_address;
};

/*
 * One line (NUL-terminated in place). A kept symbol's name is copied into the kallsyms' own
 * pool: the text around it is read over by the next chunk.
 */
static int parse_one(struct kallsyms *k, struct parse_state *s, char *p, struct sym_strpool *pool)
{
	char *name, *module;
	const char *dso = NULL;
	uint64_t addr;
	char type;

	if (!parse_line(p, &addr, &type, &name, &module))
		return 0;
	s->any_address |= addr != 0;
	if (name[0] == '_' && !module) {
		if (!strcmp(name, "_text"))
			k->text_start = addr;
		else if (!strcmp(name, "_stext") && !k->text_start)
			k->text_start = addr;
		else if (!strcmp(name, "_etext"))
			k->text_end = addr;
	}
	if (!type_kept(type) || name[0] == '$' || (name[0] == '_' && sym_is_padding(name)))
		return 0;
	if (module) {
		/* consecutive symbols share a module: intern once per run */
		if (!s->last_mod || strcmp(s->last_mod, module)) {
			s->last_mod = sym_strpool_intern(pool, module);
			if (!s->last_mod)
				return -ENOMEM;
		}
		dso = s->last_mod;
	}
	name = (char *)sym_strpool_copy(&k->names, name);
	if (!name)
		return -ENOMEM;
	return symtab_add(&k->tab, addr, 0, type_binding(type), name, dso);
}

/*
 * The complete lines of buf[0, len) (all of them when @at_end); returns how many bytes were
 * consumed, or -errno.
 */
static ssize_t parse_lines(struct kallsyms *k, struct parse_state *s, char *buf, size_t len,
			   bool at_end, struct sym_strpool *pool)
{
	char *p = buf, *end = buf + len;

	while (p < end) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		int err;

		if (!eol && !at_end)
			break;
		if (!eol)
			eol = end;
		*eol = '\0';
		err = parse_one(k, s, p, pool);
		if (err)
			return err;
		p = eol + 1;
	}
	return p > end ? (ssize_t)len : p - buf;
}

/*
 * The text is read a chunk at a time and only the names kept are copied: /proc/kallsyms is
 * ~5 MB of text, and a buffer for all of it (grown by doubling, 8 MiB) was fresh memory that
 * every run faults in (see docs/report.md), for names that are ~half of it.
 */
#define KALLSYMS_CHUNK	(256 * 1024)

static int kallsyms_read(struct kallsyms *k, int fd, struct sym_strpool *pool)
{
	struct parse_state s = { NULL, false };
	size_t size = KALLSYMS_CHUNK, used = 0;
	char *buf = malloc(size + 1), *bigger;
	ssize_t n, done;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (used == size) {
			/* a line longer than the buffer (not in a kernel's kallsyms) */
			bigger = realloc(buf, size * 2 + 1);
			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			buf = bigger;
			size *= 2;
		}
		n = read(fd, buf + used, size - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		used += (size_t)n;
		buf[used] = '\0';
		done = parse_lines(k, &s, buf, used, n == 0, pool);
		if (done < 0) {
			err = (int)done;
			break;
		}
		memmove(buf, buf + done, used - (size_t)done);
		used -= (size_t)done;
		if (n == 0)
			break;
	}
	free(buf);
	if (!err && !s.any_address)
		err = -ENODATA;
	return err;
}

int kallsyms_load(struct kallsyms *k, const char *path, struct sym_strpool *pool)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	memset(k, 0, sizeof(*k));
	if (fd < 0)
		return -errno;
	err = kallsyms_read(k, fd, pool);
	close(fd);
	if (!err)
		err = symtab_finish(&k->tab, true);
	if (err) {
		kallsyms_release(k);
		return err;
	}
	drop_entry_trampoline(&k->tab);
	return 0;
}

void kallsyms_release(struct kallsyms *k)
{
	symtab_release(&k->tab);
	sym_strpool_release(&k->names);
	memset(k, 0, sizeof(*k));
}
