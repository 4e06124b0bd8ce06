// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel modules and their recorded build-ids with this machine's live kallsyms: a module is
 * named from it only when the module loaded now (its /sys/module/NAME/notes) has the recorded
 * build-id, or none was recorded; a kallsyms saved at record time is used as it is. The name a
 * module's frames are shown under is perf's dso name. The .ko cases (build-id cache, the
 * recorded path) are checked against perf 6.1 in tests/e2e/t3013-report-module-build-id.sh.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/symbolize.h"
#include "tests/tap.h"

static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 T kernel_fn\n"
	"ffffffff81100000 T _etext\n"
	"ffffffffc0002000 t mod_a_fn\t[mod_a]\n"
	"ffffffffc0002800 t mod_a_two\t[mod_a]\n"
	"ffffffffc0005000 T mod_b_fn\t[mod_b]\n"
	"ffffffffc0008000 T mod_c_fn\t[mod_c]\n";

static const uint8_t id_a[20] = { 0xaa, 1, 2, 3 };
static const uint8_t id_b[20] = { 0xbb, 1, 2, 3 };
static char dir[64], kallsyms[128], sysfs[128];

/* NAME's notes as the kernel shows them: one NT_GNU_BUILD_ID note holding @id. */
static int write_notes(const char *name, const uint8_t id[20])
{
	struct { uint32_t namesz, descsz, type; char name[4]; uint8_t desc[20]; } note = {
		4, 20, 3, "GNU", { 0 } };
	char path[256];
	FILE *fp;

	memcpy(note.desc, id, 20);
	snprintf(path, sizeof(path), "%s/module", sysfs);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/%s", sysfs, name);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/%s/notes", sysfs, name);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/module/%s/notes/.note.gnu.build-id", sysfs, name);
	fp = fopen(path, "w");
	return fp && fwrite(&note, sizeof(note), 1, fp) == 1 && !fclose(fp) ? 0 : -1;
}

static struct sym_session *session(bool live)
{
	struct sym_opts o = { .kallsyms = kallsyms, .no_vmlinux_search = true,
			      .kallsyms_live = live, .sysfs = sysfs };
	struct sym_session *s = sym_session_new(&o);

	if (!s)
		return NULL;
	/* mod_a: recorded with a path and a build-id, loaded now with that build-id */
	sym_session_set_module_build_id(s, "/lib/modules/6.1.0/kernel/mod-a.ko", id_a, 20);
	sym_session_add_map(s, -1, 0xffffffffc0002000, 0x1000, 0, "/lib/modules/6.1.0/kernel/mod-a.ko");
	/* mod_b: recorded with id_a, loaded now with id_b */
	sym_session_set_module_build_id(s, "[mod_b]", id_a, 20);
	sym_session_add_map(s, -1, 0xffffffffc0005000, 0x1000, 0, "/lib/modules/6.1.0/mod_b.ko");
	/* mod_c: no build-id recorded */
	sym_session_add_map(s, -1, 0xffffffffc0008000, 0x1000, 0, "[mod_c]");
	return s;
}

static void test_live(void)
{
	struct sym_session *s = session(true);
	struct sym_result r;
	struct sym_stats st;

	ok(s, "a session over a live kallsyms");
	if (!s)
		return;
	is_int(sym_session_resolve(s, -1, 0xffffffffc0002010, true, &r), 0, "module a");
	is_str(r.sym, "mod_a_fn", "the module loaded now has the recorded build-id: named");
	is_str(r.dso, "/lib/modules/6.1.0/kernel/mod-a.ko",
	       "shown under its BUILD_ID entry's name, as perf script shows it");
	is_int(sym_session_resolve(s, -1, 0xffffffffc0005010, true, &r), 0, "module b");
	ok(!r.sym, "loaded now with another build-id: not named from kallsyms");
	is_str(r.dso, "[mod_b]", "shown as [mod_b] (its BUILD_ID entry named no file)");
	is_str(sym_session_resolve(s, -1, 0xffffffffc0008010, true, &r) ? "" : r.sym, "mod_c_fn",
	       "no build-id recorded: named from kallsyms");
	is_str(r.dso, "[mod_c]", "... shown as its MMAP names it");
	sym_session_stats(s, &st);
	is_int((int)st.modules_early, 2, "two kallsyms-named modules met before any kernel address");
	is_str(st.first_early_module, "[mod_a]", "... the first one named");
	ok(!st.first_early_symbol, "no kernel address yet: perf would name nothing in them");
	is_str(sym_session_resolve(s, -1, 0xffffffff81000110, true, &r) ? "" : r.sym, "kernel_fn",
	       "the kernel itself is not concerned");
	is_str(sym_session_resolve(s, -1, 0xffffffffc0002810, true, &r) ? "" : r.sym, "mod_a_two",
	       "a module's other symbols are named");
	sym_session_stats(s, &st);
	is_int((int)st.modules_stale, 1, "one stale module");
	is_str(st.first_stale_module, "[mod_b]", "... named");
	is_int((int)st.modules_early, 2, "the stale module is not counted early (no names at all)");
	is_str(st.first_early_symbol, "mod_a_fn",
	       "the symbol perf's kallsyms split drops: the module's first");
	sym_session_free(s);
}

static void test_not_loaded(void)
{
	struct sym_session *s;
	struct sym_result r;
	struct sym_stats st;
	char path[256];

	snprintf(path, sizeof(path), "%s/module/mod_a/notes/.note.gnu.build-id", sysfs);
	unlink(path);
	s = session(true);
	ok(s, "a session, mod_a no longer loaded");
	if (!s)
		return;
	is_int(sym_session_resolve(s, -1, 0xffffffffc0002010, true, &r), 0, "module a");
	ok(!r.sym, "a recorded module not loaded now: kallsyms' names are not its");
	sym_session_stats(s, &st);
	is_int((int)st.modules_stale, 1, "modules are checked when first resolved");
	sym_session_resolve(s, -1, 0xffffffffc0005010, true, &r);
	sym_session_stats(s, &st);
	is_int((int)st.modules_stale, 2, "both modules with a build-id are stale");
	is_str(st.first_stale_module, "[mod_a]", "the first one named");
	sym_session_free(s);
}

static void test_saved(void)
{
	struct sym_session *s = session(false);
	struct sym_result r;
	struct sym_stats st;

	ok(s, "a session over a kallsyms saved at record time");
	if (!s)
		return;
	is_str(sym_session_resolve(s, -1, 0xffffffff81000110, true, &r) ? "" : r.sym, "kernel_fn",
	       "a kernel address first");
	is_str(sym_session_resolve(s, -1, 0xffffffffc0005010, true, &r) ? "" : r.sym, "mod_b_fn",
	       "its modules are the recorded ones: named whatever this machine loads");
	sym_session_stats(s, &st);
	is_int((int)st.modules_stale, 0, "nothing stale");
	is_int((int)st.modules_early, 0, "a module met after the kernel: named by perf too");
	is_int(sym_session_set_module_build_id(s, "[mod_b]", id_a, 21), -EINVAL,
	       "a build-id longer than 20 bytes is refused");
	sym_session_free(s);
}

int main(void)
{
	char cmd[128];
	FILE *fp;

	snprintf(dir, sizeof(dir), "/tmp/kprof-kmod-XXXXXX");
	if (!mkdtemp(dir))
		skip_all("cannot create a temporary directory");
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", dir);
	snprintf(sysfs, sizeof(sysfs), "%s/sys", dir);
	mkdir(sysfs, 0755);
	fp = fopen(kallsyms, "w");
	if (!fp || fputs(kallsyms_text, fp) < 0 || fclose(fp) || write_notes("mod_a", id_a) ||
	    write_notes("mod_b", id_b))
		skip_all("cannot write the fixtures");
	/* the modules' .ko files are not there: kallsyms decides */
	unsetenv("PERF_BUILDID_DIR");
	setenv("HOME", dir, 1);

	test_live();
	test_not_loaded();
	test_saved();
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	return done_testing();
}
