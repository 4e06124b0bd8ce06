// SPDX-License-Identifier: GPL-2.0
/*
 * record/tracepoint-format.c: a tracepoint format text from a file is checked before
 * libtraceevent parses it. The kernel's shape passes (and is handed on with an empty print
 * format); each malformation a fuzzer or the fuzz-findings found is rejected with its line.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "profiler/record/tracepoint-int.h"
#include "tests/tap.h"

static const char good[] =
	"name: sched_process_exec\n"
	"ID: 365\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n"
	"\n"
	"print fmt: \"filename=%s\", __get_str(filename)\n";

/* @good with its first occurrence of @from replaced by @to; check; the error text or "ok". */
static const char *check_variant(const char *from, const char *to, char *err, size_t errlen)
{
	char text[2048], *out = NULL;
	const char *at = strstr(good, from);
	size_t n = 0, pre = (size_t)(at - good);
	int ret;

	snprintf(text, sizeof(text), "%.*s%s%s", (int)pre, good, to, at + strlen(from));
	ret = tp_format_sanitize(text, strlen(text), &out, &n, err, errlen);
	free(out);
	return ret ? err : "ok";
}

/*
 * Every format of the running kernel's tracefs passes, and libtraceevent parses each canonical
 * copy: the check must never refuse what a kernel writes.
 */
static void every_live_format(void)
{
	const char *dirs[] = { "/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events" };
	size_t nr = 0, passed = 0, parsed = 0;
	char first_bad[512] = "";
	glob_t g = { 0 };

	for (size_t d = 0; d < 2 && !g.gl_pathc; d++) {
		char pat[128];

		snprintf(pat, sizeof(pat), "%s/*/*/format", dirs[d]);
		globfree(&g);
		if (glob(pat, 0, NULL, &g))
			g.gl_pathc = 0;
	}
	if (!g.gl_pathc) {
		skip(2, "no readable tracefs event formats here");
		globfree(&g);
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char buf[65536], err[256], *out = NULL;
		struct tep_handle *tep;
		size_t n = 0, ol = 0;
		FILE *fp = fopen(g.gl_pathv[i], "re");

		if (!fp)
			continue;
		n = fread(buf, 1, sizeof(buf), fp);
		fclose(fp);
		nr++;
		if (tp_format_sanitize(buf, n, &out, &ol, err, sizeof(err))) {
			if (!first_bad[0])
				snprintf(first_bad, sizeof(first_bad), "%s: %s", g.gl_pathv[i], err);
			continue;
		}
		passed++;
		tep = tep_alloc();
		if (tep && !tep_parse_event(tep, out, ol, "sys"))
			parsed++;
		else if (!first_bad[0])
			snprintf(first_bad, sizeof(first_bad), "%s: libtraceevent refuses", g.gl_pathv[i]);
		tep_free(tep);
		free(out);
	}
	globfree(&g);
	if (first_bad[0])
		diag("%s", first_bad);
	is_u64(passed, nr, "every tracefs format of this kernel passes the check");
	is_u64(parsed, nr, "libtraceevent parses every canonical copy");
}

#define DECL_ERR(line) "line " line ": field declaration is not \"TYPE NAME\", \"TYPE " \
	"NAME[N]\" or \"__data_loc TYPE[] NAME\""

int main(void)
{
	char err[256], *out = NULL;
	size_t n = 0;

	is_int(tp_format_sanitize(good, strlen(good), &out, &n, err, sizeof(err)), 0,
	       "the kernel's shape passes");
	ok(out && strstr(out, "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"),
	   "fields are kept as they were");
	ok(out && strstr(out, "print fmt: \"\"\n") && !strstr(out, "__get_str"),
	   "the print format is not passed on");
	is_u64(n, out ? strlen(out) : 0, "the length is the text's");
	free(out);

	is_str(check_variant("offset:8;", "offset", err, sizeof(err)),
	       "line 7: field line is not \"\\tfield:DECL;\\toffset:N;\\tsize:N;\\tsigned:0|1;\" "
	       "(N < 65536)", "T2: a field line cut short");
	is_str(check_variant("filename;\toffset:8", "fil\x01name;\toffset:8", err, sizeof(err)),
	       "line 7: field declaration is not a C declaration", "control bytes in a declaration");
	is_str(check_variant("int common_pid;\toffset:4", "int common_pidprev12;\tsize:4",
			     err, sizeof(err)),
	       "line 5: field line is not \"\\tfield:DECL;\\toffset:N;\\tsize:N;\\tsigned:0|1;\" "
	       "(N < 65536)", "T3: offset missing");
	is_str(check_variant("offset:12;", "offset:2147483000;", err, sizeof(err)),
	       "line 8: field line is not \"\\tfield:DECL;\\toffset:N;\\tsize:N;\\tsigned:0|1;\" "
	       "(N < 65536)", "T1: an offset beyond 64 KiB");
	is_str(check_variant("offset:12;\tsize:16", "offset:65530;\tsize:16", err, sizeof(err)),
	       "line 8: field ends beyond 64 KiB", "offset + size beyond 64 KiB");
	is_str(check_variant("signed:0;\n\n", "signed:0; \n\n", err, sizeof(err)),
	       "line 8: field line is not \"\\tfield:DECL;\\toffset:N;\\tsize:N;\\tsigned:0|1;\" "
	       "(N < 65536)", "trailing bytes after a field");
	is_str(check_variant("int common_pid;", "pid_tlong;", err, sizeof(err)),
	       DECL_ERR("5"), "one word (a leak in libtraceevent)");
	is_str(check_variant("char comm[16]", "char comm[[16]]", err, sizeof(err)),
	       DECL_ERR("8"), "nested brackets");
	is_str(check_variant("char comm[16]", "char comm[16", err, sizeof(err)),
	       DECL_ERR("8"), "unbalanced brackets");
	is_str(check_variant("char comm[16]", "char comm[]", err, sizeof(err)),
	       "ok", "an array without a length passes (ftrace's char buf[])");
	is_str(check_variant("char comm[16]", "char comm[1 6]", err, sizeof(err)),
	       DECL_ERR("8"), "a length with a space");
	is_str(check_variant("__data_loc char[] filename", "__data_loSTA_Pr[] filename", err,
			     sizeof(err)),
	       DECL_ERR("7"), "TYPE[] NAME without __data_loc (a leak in libtraceevent, fuzz)");
	is_str(check_variant("__data_loc char[] filename", "__data_loc cpumask_t filename", err,
			     sizeof(err)),
	       "ok", "__data_loc without [] passes (ipi_send_cpumask)");
	is_str(check_variant("__data_loc char[] filename", "char[] filename", err, sizeof(err)),
	       DECL_ERR("7"), "[] on a type without __data_loc");
	is_str(check_variant("__data_loc char[] filename", "__data_loc char[] filename[4]", err,
			     sizeof(err)),
	       DECL_ERR("7"), "__data_loc with a length");
	is_str(check_variant("__data_loc char[] filename", "__data_loc filename", err,
			     sizeof(err)),
	       DECL_ERR("7"), "__data_loc without a type");
	is_str(check_variant("int common_pid;", "int  common_pid;", err, sizeof(err)),
	       DECL_ERR("5"), "two spaces");
	is_str(check_variant("int common_pid;", "int common_pid ;", err, sizeof(err)),
	       DECL_ERR("5"), "a trailing space");
	is_str(check_variant("int common_pid;", "int 9pid;", err, sizeof(err)),
	       DECL_ERR("5"), "a name starting with a digit");
	is_str(check_variant("int common_pid;", "int co*mm;", err, sizeof(err)),
	       DECL_ERR("5"), "a '*' inside the name");
	is_str(check_variant("int common_pid;", "const char * common_pid;", err, sizeof(err)),
	       "ok", "a pointer type passes");
	is_str(check_variant("int common_pid;", "struct page* common_pid;", err, sizeof(err)),
	       "ok", "\"TYPE*\" passes");
	is_str(check_variant("int common_pid;", "const char *const * common_pid;", err,
			     sizeof(err)),
	       "ok", "\"*const\" passes (sys_enter_execve)");
	is_str(check_variant("char comm[16]", "char comm[TASK_COMM_LEN]", err, sizeof(err)),
	       "ok", "a length named by a macro passes");
	is_str(check_variant("__data_loc char[] filename", "__rel_loc unsigned long[] filename", err,
			     sizeof(err)),
	       "ok", "__rel_loc of a two-word type passes");
	is_str(check_variant("name: sched_process_exec", "name: sched process", err, sizeof(err)),
	       "line 1: no \"name: IDENT\"", "a name that is not an identifier");
	is_str(check_variant("ID: 365", "ID: x", err, sizeof(err)), "line 2: no \"ID: N\"",
	       "a non-numeric id");
	is_str(check_variant("print fmt:", "printk fmt:", err, sizeof(err)),
	       "line 10: neither a field nor \"print fmt:\"", "no print fmt line");
	is_str(check_variant("\n\nprint fmt:", "\n", err, sizeof(err)),
	       "line 9: neither a field nor \"print fmt:\"", "a format that just ends");
	is_str(check_variant("signed:1;\n\n\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n",
			     "signed:1;\n", err, sizeof(err)), "ok", "fewer fields still pass");
	is_str(check_variant("format:\n", "format:\nprint fmt: x\n", err, sizeof(err)),
	       "line 4: 0 fields", "no field at all");
	every_live_format();
	return done_testing();
}
