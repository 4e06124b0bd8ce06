// SPDX-License-Identifier: GPL-2.0
/*
 * kallsyms.c - kernel symbols from a kallsyms text ("ADDR TYPE NAME[\t[MODULE]]" lines), kept
 * the way perf 6.1 keeps them (symbol.c: map__process_kallsym_symbol): types T, W, D and B in
 * either case, no '$' ARM locals. Unlike perf 6.1, the __pfx_/__cfi_ padding symbols are skipped
 * as current perf does, so their bytes belong to the function before them.
 *
 * The text is read into one buffer and the names are cut in place: no allocation per line.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

/* kallsyms_load() from a buffer that the kallsyms takes over (malloc'd, NUL-terminated). */
static int kallsyms_parse(struct kallsyms *k, char *buf, size_t len, struct sym_strpool *pool)
{
	char *p = buf, *end = buf + len;
	const char *last_mod_text = NULL, *last_mod = NULL;
	bool any_address = false;
	int err;

	memset(k, 0, sizeof(*k));
	k->buf = buf;
	while (p < end) {
		char *eol = memchr(p, '\n', (size_t)(end - p)), *name, *module;
		uint64_t addr;
		char type;
		const char *dso = NULL;

		if (!eol)
			eol = end;
		*eol = '\0';
		if (!parse_line(p, &addr, &type, &name, &module))
			goto next;
		any_address |= addr != 0;
		if (name[0] == '_' && !module) {
			if (!strcmp(name, "_text"))
				k->text_start = addr;
			else if (!strcmp(name, "_stext") && !k->text_start)
				k->text_start = addr;
			else if (!strcmp(name, "_etext"))
				k->text_end = addr;
		}
		if (!type_kept(type) || name[0] == '$' || (name[0] == '_' && sym_is_padding(name)))
			goto next;
		if (module) {
			/* consecutive symbols share a module: intern once per run */
			if (!last_mod_text || strcmp(last_mod_text, module)) {
				last_mod = sym_strpool_intern(pool, module);
				if (!last_mod) {
					err = -ENOMEM;
					goto fail;
				}
				last_mod_text = module;
			}
			dso = last_mod;
		}
		err = symtab_add(&k->tab, addr, 0, type_binding(type), name, dso);
		if (err)
			goto fail;
next:
		p = eol + 1;
	}
	if (!any_address) {
		err = -ENODATA;
		goto fail;
	}
	symtab_finish(&k->tab, true);
	drop_entry_trampoline(&k->tab);
	return 0;
fail:
	kallsyms_release(k);
	return err;
}

int kallsyms_load(struct kallsyms *k, const char *path, struct sym_strpool *pool)
{
	char *buf = NULL;
	size_t len = 0;
	int err = read_whole_file(path, 0, &buf, &len);

	if (err) {
		memset(k, 0, sizeof(*k));
		return err;
	}
	return kallsyms_parse(k, buf, len, pool);
}

void kallsyms_release(struct kallsyms *k)
{
	symtab_release(&k->tab);
	free(k->buf);
	memset(k, 0, sizeof(*k));
}
