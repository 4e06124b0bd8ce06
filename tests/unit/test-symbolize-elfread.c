// SPDX-License-Identifier: GPL-2.0
/*
 * While symbols are read, elf_begin() reads an ELF file section by section instead of mapping
 * it (elf-file.c): a copy of this test's binary opened the way libdwfl opens files is not in
 * /proc/self/maps then, is mapped otherwise, and reads the same section data both ways; and
 * elf_syms_load() of the copy finds this test's function with the flag off again afterwards.
 * A file that is not ELF stays mapped (libdwfl 0.188's decompressors leak what they read).
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"
#include "tests/tap.h"

__attribute__((noinline, used)) int elfread_probe_function(int x)
{
	return x * 5 + 1;
}

/* @path is a mapped file of this process */
static bool mapped(const char *path)
{
	FILE *fp = fopen("/proc/self/maps", "re");
	char line[4096];
	bool found = false;

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof(line), fp))
		found = strstr(line, path) != NULL;
	fclose(fp);
	return found;
}

/* Open @path as libdwfl does; whether it was mapped while open, and its .symtab's size. */
static size_t open_as_libdwfl(const char *path, bool *was_mapped)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL;
	size_t size = 0;
	GElf_Shdr shdr;
	Elf *elf;

	*was_mapped = false;
	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	*was_mapped = mapped(path);
	while (elf && (scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_SYMTAB &&
		    (d = elf_getdata(scn, NULL)))
			size = d->d_size;
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return size;
}

int main(void)
{
	char path[] = "/tmp/kprof-elfread-XXXXXX", cmd[4096], exe[1024];
	const struct sym_entry *s = NULL;
	size_t read_size, mapped_size;
	bool was_mapped;
	struct elf_syms e;
	ssize_t n;
	int fd;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	fd = mkstemp(path);
	if (n <= 0 || fd < 0)
		skip_all("no copy of this binary");
	exe[n] = '\0';
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", exe, path);
	if (system(cmd))
		skip_all("no copy of this binary");
	elf_version(EV_CURRENT);

	elf_syms_reading_symbols(true);
	read_size = open_as_libdwfl(path, &was_mapped);
	elf_syms_reading_symbols(false);
	ok(!was_mapped, "reading symbols: the file is not mapped");
	ok(read_size > 0, "its .symtab is read all the same (%zu bytes)", read_size);
	mapped_size = open_as_libdwfl(path, &was_mapped);
	ok(was_mapped, "otherwise (DWARF, unwinding): mapped, as libdwfl asks");
	is_u64(mapped_size, read_size, "the same .symtab either way");

	if (ok(elf_syms_load(&e, path, NULL, 0) == 0, "elf_syms_load of the copy")) {
		for (size_t i = 0; i < e.tab.nr && !s; i++) {
			char *owned;
			const char *name = sym_entry_demangled(&e.tab, &e.tab.v[i], &owned);

			if (name && !strcmp(name, "elfread_probe_function"))
				s = &e.tab.v[i];
			free(owned);
		}
		ok(s != NULL, "finds this test's function in it");
		elf_syms_release(&e);
	} else {
		skip(1, "not loaded");
	}
	open_as_libdwfl(path, &was_mapped);
	ok(was_mapped, "and reading symbols is off again after it");

	/* not ELF: mapped as libdwfl asks (its decompressors leak what they read themselves) */
	snprintf(cmd, sizeof(cmd), "printf 'not an ELF file' > '%s'", path);
	if (system(cmd) == 0) {
		elf_syms_reading_symbols(true);
		open_as_libdwfl(path, &was_mapped);
		elf_syms_reading_symbols(false);
		ok(was_mapped, "a file that is not ELF is mapped even while symbols are read");
		ok(elf_syms_load(&e, path, NULL, 0) != 0, "and elf_syms_load refuses it");
	} else {
		skip(2, "no scratch file");
	}
	unlink(path);
	return done_testing();
}
