// SPDX-License-Identifier: GPL-2.0
/*
 * libdebuginfod is not loaded while no debuginfod server is configured (elf-file.c's dlopen):
 * refused with DEBUGINFOD_URLS unset or empty, loaded with it set, and every other library
 * loaded as ever. Then a stripped copy of this binary with a debuglink to its debug file is
 * read without the server and with one configured (that cannot be reached): the same symbols.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize/symbolize-int.h"
#include "tests/tap.h"

__attribute__((noinline, used)) int debuginfod_probe_function(int x)
{
	return x * 7 + 3;
}

/* The name of @addr (a link address) in @path's symbols, or "" */
static void name_in(const char *path, uint64_t addr, char *out, size_t len)
{
	struct elf_syms e;
	const struct sym_entry *s;
	const char *name;
	char *owned = NULL;

	out[0] = '\0';
	if (elf_syms_load(&e, path, NULL, 0))
		return;
	s = symtab_find(&e.tab, addr);
	name = s ? sym_entry_demangled(&e.tab, s, &owned) : NULL;
	if (name)
		snprintf(out, len, "%s", name);
	free(owned);
	elf_syms_release(&e);
}

static int sh(const char *cmd)
{
	int rc = system(cmd);

	return rc == 0 ? 0 : -1;
}

int main(void)
{
	const char *lib = "libdebuginfod.so.1";
	char dir[] = "/tmp/kprof-dinfod-XXXXXX", cmd[4096], exe[1024], without[256], with[256];
	struct elf_syms self;
	uint64_t at = 0;
	ssize_t n;
	void *h;

	unsetenv("DEBUGINFOD_URLS");
	h = dlopen(lib, RTLD_LAZY);
	ok(!h, "no DEBUGINFOD_URLS: %s is not loaded", lib);
	setenv("DEBUGINFOD_URLS", "", 1);
	h = dlopen(lib, RTLD_LAZY);
	ok(!h, "an empty DEBUGINFOD_URLS: not loaded either");
	h = dlopen("libm.so.6", RTLD_LAZY);
	ok(h, "another library is loaded as ever");
	if (h)
		dlclose(h);
	h = dlopen("/usr/lib/x86_64-linux-gnu/libdebuginfod.so.1", RTLD_LAZY);
	ok(!h, "%s by its path: not loaded either", lib);
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9", 1);
	h = dlopen(lib, RTLD_LAZY);
	if (!h && access("/usr/lib/x86_64-linux-gnu/libdebuginfod.so.1", F_OK))
		skip(1, "%s is not installed", lib);
	else
		ok(h, "with a server configured it is loaded (%s)", h ? "" : dlerror());
	if (h)
		dlclose(h);

	/* the same symbols from a separate debug file, with and without debuginfod */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0 || !mkdtemp(dir)) {
		skip(2, "no copy of this binary");
		return done_testing();
	}
	exe[n] = '\0';
	if (!elf_syms_load(&self, exe, NULL, 0)) {
		for (size_t i = 0; i < self.tab.nr; i++) {
			char *owned;
			const char *name = sym_entry_demangled(&self.tab, &self.tab.v[i], &owned);

			if (name && !strcmp(name, "debuginfod_probe_function"))
				at = self.tab.v[i].start + 1;
			free(owned);
		}
		elf_syms_release(&self);
	}
	snprintf(cmd, sizeof(cmd), "cd %s && objcopy --only-keep-debug %s t.debug && "
		 "objcopy --strip-all --add-gnu-debuglink=t.debug %s t 2>/dev/null", dir, exe, exe);
	if (!at || sh(cmd)) {
		skip(2, "objcopy could not make a stripped copy with a debuglink");
	} else {
		snprintf(cmd, sizeof(cmd), "%s/t", dir);
		unsetenv("DEBUGINFOD_URLS");
		name_in(cmd, at, without, sizeof(without));
		setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9", 1);
		name_in(cmd, at, with, sizeof(with));
		is_str(without, "debuginfod_probe_function",
		       "the stripped copy's function named from its debug file");
		is_str(with, without, "the same with a server configured");
	}
	unsetenv("DEBUGINFOD_URLS");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	sh(cmd);
	return done_testing();
}
