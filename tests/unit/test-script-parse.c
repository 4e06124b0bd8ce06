// SPDX-License-Identifier: GPL-2.0
/*
 * The `perf script` parser against hand-made inputs: every rule of stackcollapse-perf.pl that
 * the provided corpus does not exercise, and kprof's deliberate differences (docs/collapse.md).
 * Stacks are printed the Perl script's way (root;...;leaf count, sorted) by a local printer,
 * so these tests do not depend on the output module.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/script/script-read-int.h"
#include "tests/tap.h"

#define SCRIPT_ALL_FLAGS (SCRIPT_PID | SCRIPT_TID | SCRIPT_KERNEL | SCRIPT_JIT | SCRIPT_ADDRS | \
			  SCRIPT_PERL_COMPAT)

struct folded {
	char	**lines;
	size_t	nr;
	bool	samples;	/* print sample counts instead of periods */
};

static int collect(const struct script_stack *s, void *arg)
{
	struct folded *f = arg;
	size_t len = strlen(s->root) + 32, i;
	char *line, *p;

	for (i = 0; i < s->nr; i++)
		len += strlen(s->frames[i]) + 1;
	line = p = malloc(len);
	p = stpcpy(p, s->root);
	for (i = s->nr; i-- > 0;)
		p += sprintf(p, ";%s", s->frames[i]);
	sprintf(p, " %llu", (unsigned long long)(f->samples ? s->samples : s->period));
	f->lines = realloc(f->lines, (f->nr + 1) * sizeof(*f->lines));
	f->lines[f->nr++] = line;
	return 0;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fold @text; the sorted lines, each ending in '\n', in a static buffer. */
static const char *fold_ex(const char *text, size_t len, unsigned int flags, const char *filter,
			   bool samples, struct script_stats *st)
{
	static char out[8192];
	struct script_opts o = { .flags = flags, .event_filter = filter };
	struct folded f = { .samples = samples };
	size_t i, n = 0;
	int ret;

	ret = script_parse(text, len, &o, collect, &f, st);
	out[0] = '\0';
	if (ret)
		snprintf(out, sizeof(out), "error %d\n", ret);
	if (f.nr)
		qsort(f.lines, f.nr, sizeof(*f.lines), cmp_line);
	for (i = 0; i < f.nr; i++) {
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s\n", f.lines[i]);
		free(f.lines[i]);
	}
	free(f.lines);
	return out;
}

static const char *fold(const char *text, unsigned int flags)
{
	struct script_stats st;

	return fold_ex(text, strlen(text), flags, NULL, false, &st);
}

static void test_basics(void)
{
	static const char in[] =
		"# ========\n"
		"# cmdline : /usr/bin/perf record -g dd\n"
		"dd 29776 666709.771979:   10101010 cpu-clock: \n"
		"\t          414b3b fsnotify+0x1b (/lib/modules/4.1.0-virtual/build/vmlinux)\n"
		"\t           e5f70 read (/lib/x86_64-linux-gnu/libc-2.15.so)\n"
		"\t               0 [unknown] ([unknown])\n"
		"\n"
		"dd 29776 666709.771990:   10101010 cpu-clock: \n"
		"\t          414b3b fsnotify+0x20 (/lib/modules/4.1.0-virtual/build/vmlinux)\n"
		"\t           e5f70 read (/lib/x86_64-linux-gnu/libc-2.15.so)\n"
		"\t               0 [unknown] ([unknown])\n"
		"\n";
	struct script_stats st;

	is_str(fold(in, 0), "dd;[unknown];read;fsnotify 20202020\n",
	       "period is the count, +0x offsets stripped, identical stacks merged");
	is_str(fold_ex(in, strlen(in), 0, NULL, true, &st),
	       "dd;[unknown];read;fsnotify 2\n", "sample counts kept too");
	is_u64(st.samples, 2, "two samples");
	is_u64(st.lines, 12, "every line counted");
	is_u64(st.malformed, 0, "comments are not malformed");
	is_str(st.event, "cpu-clock", "the event kept is reported");
	is_str(fold(in, SCRIPT_KERNEL), "dd;[unknown];read;fsnotify_[k] 20202020\n",
	       "--kernel marks vmlinux frames, not [unknown]");
	is_str(fold(in, SCRIPT_ADDRS), "dd;[unknown <0>];read;fsnotify 20202020\n",
	       "--addrs puts the pc into [unknown]");
}

static void test_roots(void)
{
	static const char spaces[] =
		"V8 WorkerThread 24636/25607 [000] 94564.109216: cycles:\n"
		"\tffffffff8103ce3b native_safe_halt ([kernel.kallsyms])\n\n";
	static const char tid_only[] =
		"java 25607 4794564.109216: cycles:\n"
		"\t7f722d142778 Ljava/io/PrintStream;::print (/tmp/perf-19982.map)\n\n";
	static const char zero_tid[] =
		"swapper 0/0 [000] 1.0: cycles:\n\tffffffff8103ce3b idle ([kernel.kallsyms])\n\n";

	is_str(fold(spaces, 0), "V8_WorkerThread;native_safe_halt 1\n",
	       "a comm with spaces, spaces as '_'");
	is_str(fold(spaces, SCRIPT_PID), "V8_WorkerThread-24636;native_safe_halt 1\n",
	       "--pid: comm-PID");
	is_str(fold(spaces, SCRIPT_TID), "V8_WorkerThread-24636/25607;native_safe_halt 1\n",
	       "--tid: comm-PID/TID");
	is_str(fold(tid_only, SCRIPT_TID), "java-?/25607;java/io/PrintStream:::print 1\n",
	       "TID only: PID is '?'; java tidying still applies to java-?");
	is_str(fold(tid_only, SCRIPT_JIT), "java;java/io/PrintStream:::print_[j] 1\n",
	       "--jit marks /tmp/perf-PID.map frames");
	is_str(fold(zero_tid, SCRIPT_TID), "swapper-?/0;idle 1\n",
	       "a TID of 0 is Perl-false: PID '?'");
}

static void test_names(void)
{
	static const char in[] =
		"prog 1 1.0: 1 cycles:\n"
		"\t1 Foo::bar(int, char const*) const (/bin/prog)\n"
		"\t2 net/http.(*Client).Do (/bin/prog)\n"
		"\t3 ns::(anonymous namespace)::f(int) (/bin/prog)\n"
		"\t3 (anonymous namespace)::g(int) (/bin/prog)\n"
		"\t4 say \"hi\" 'x';y (/bin/prog)\n"
		"\t5 a->b->c (/bin/prog)\n"
		"\t6 (prog) (/bin/prog)\n"
		"\t7  (/lib/libc.so)\n"
		"\t8 [unknown] (/usr/lib/libfoo.so)\n"
		"\n";

	is_str(fold(in, SCRIPT_ADDRS),
	       "prog;[libfoo.so <8>]; ;a;b_[i];c_[i];say hi x:y;(anonymous namespace)::g;"
	       "ns::(anonymous namespace)::f;net/http.(*Client).Do;Foo::bar 1\n",
	       "arguments, quotes, ';', Go methods, anonymous namespaces, '->' inlining, "
	       "names starting with '(' skipped but C++'s anonymous namespace, blank names, "
	       "[module]");
	is_str(fold(in, SCRIPT_ADDRS | SCRIPT_PERL_COMPAT),
	       "prog;[libfoo.so <8>]; ;a;b_[i];c_[i];say hi x:y;ns::(anonymous namespace)::f;"
	       "net/http.(*Client).Do;Foo::bar 1\n",
	       "--perl-compat: \"(anonymous namespace)::g\" skipped too, as the script does");
}

static void test_backtracking(void)
{
	/* Perl's regex backtracks into the pc when nothing sits between it and " (" */
	is_str(fold("ab 1 1.0: c:\nabc (x)\n\n", 0), "ab;c 1\n",
	       "\"abc (x)\" is pc \"ab\", function \"c\", as in Perl");
	is_str(fold("ab 1 1.0: c:\n\t1 f (deleted) (/lib/a.so)\n\n", 0), "ab;f  1\n",
	       "the module is the last parenthesis; the name keeps the blank before '('");
}

static void test_events(void)
{
	static const char in[] =
		"p 1 [000] 1.0:   5 instructions: \n\t1 a (/bin/p)\n\n"
		"p 1 [000] 1.1:   7 cycles: \n\t1 b (/bin/p)\n\n"
		"p 1 [000] 1.2:   9 instructions: \n\t1 c (/bin/p)\n\n";
	struct script_stats st;

	is_str(fold_ex(in, strlen(in), 0, NULL, false, &st), "p;a 5\np;c 9\n",
	       "only the first event seen is kept");
	is_u64(st.skipped_events, 1, "the other event's sample is counted as skipped");
	is_str(fold_ex(in, strlen(in), 0, "cycles", false, &st), "p;b 7\n",
	       "--event-filter picks the event");
	is_str(st.event, "cycles", "the filter is the event reported");
	is_str(fold("pp 1 1.0:   0 cpu-clock:\n\t1 a (/bin/p)\n\n", 0), "pp;a 1\n",
	       "a period of 0 counts 1, as in Perl");
	is_str(fold("pp 1 1.0: 2 c:\n\npp 1 1.0: 3 c:\n\t1 (x) (/bin/p)\n\n", 0), "pp 5\n",
	       "a sample without frames is its root alone, as in Perl");
}

static void test_end_of_input(void)
{
	static const char in[] = "pp 1 1.0: 3 c:\n\t1 a (/bin/p)\n\npp 1 1.0: 4 c:\n\t1 b (/bin/p)\n";

	is_str(fold(in, 0), "pp;a 3\npp;b 4\n", "the last sample is flushed at end of input");
	is_str(fold(in, SCRIPT_PERL_COMPAT), "pp;a 3\n", "--perl-compat drops it like Perl");
	is_str(fold("pp 1 1.0: 3 c:\n\t1 a (/bin/p)", 0), "pp;a 3\n", "no newline at all");
}

static void test_crlf(void)
{
	static const char in[] = "pp 1 1.0: 3 c:\r\n\t1 a (/bin/p)\r\n\r\npp 1 1.0: 4 c:\r\n"
				 "\t1 b (/bin/p)\r\n\r\n";
	struct script_stats st;

	is_str(fold(in, 0), "pp;a 3\npp;b 4\n", "CRLF line ends");
	fold_ex(in, strlen(in), SCRIPT_PERL_COMPAT, NULL, false, &st);
	is_u64(st.malformed, 2, "Perl sees \"\\r\" lines, not blank ones");
}

static void test_single_line(void)
{
	static const char in[] =
		"           false 39654 19115.489713:          1 cycles:u:  ffffffff9b201293 "
		"[unknown] ([unknown])\n"
		"           false 39654 [001] 19115.489719:          3 cycles:u:      7fa68b1f2d84 "
		"_dl_start+0x4 (/usr/lib/ld-2.31.so)\n"
		"           false 39654 19115.489719:          5 cycles:      7fa68b1f2d84 "
		"_dl_start+0x4 (/usr/lib/ld-2.31.so)\n";
	struct script_stats st;

	is_str(fold_ex(in, strlen(in), 0, NULL, false, &st), "false;[unknown] 1\nfalse;_dl_start 3\n",
	       "samples printed on the header line, each a sample of its own");
	is_u64(st.skipped_events, 1, "the event filter applies to them too");
	is_str(fold(in, SCRIPT_PERL_COMPAT), "", "the Perl script drops them");
	is_str(fold("x 12 1.0: 1 c: ffff f (/bin/x)\n", 0), "x;f 1\n",
		"one at column 0");
}

static void test_comm_quirks(void)
{
	static const char one[] = "a 12 1.0: c:\n\t1 f (/bin/a)\n\n";
	static const char semi[] = "a;b 12 1.0: c:\n\t1 f (/bin/a)\n\na 12 1.0: c:\n\t1 f (/bin/a)\n"
				   "\t1 b (/bin/a)\n\n";
	struct script_stats st;

	is_str(fold(one, 0), "a;f 1\n", "a one-character comm is a header");
	is_str(fold_ex(one, strlen(one), SCRIPT_PERL_COMPAT, NULL, false, &st), "",
	       "Perl's \\S.+? needs two characters");
	is_u64(st.malformed, 1, "... and reports the line");
	is_str(fold(semi, 0), "a;b;f 2\n", "a ';' in the comm merges like Perl's joined key");
}

static void test_malformed(void)
{
	static const char in[] = "pp 1 1.0: 3 c:\n\t1 a (/bin/p)\nnot a frame\n   \n\t1 b (/bin/p)\n\n"
				 "garbage\n";
	static const unsigned char bin[] = { 0x7f, 'E', 'L', 'F', 0, 1, 2, '\n', 0xff, 0xfe, '(',
					     ')', 0, '\n', '\n', '\t', 0x80, ' ', '(', ')', 0 };
	struct script_stats st;

	is_str(fold_ex(in, strlen(in), 0, NULL, false, &st), "pp;b;a 3\n",
	       "malformed lines are skipped, the sample goes on");
	is_u64(st.malformed, 3, "and counted (a blank-only line is not a blank line)");
	is_str(fold_ex("", 0, 0, NULL, false, &st), "", "empty input: no stacks");
	is_u64(st.lines, 0, "and no lines");
	fold_ex((const char *)bin, sizeof(bin), 0, NULL, false, &st);
	is_u64(st.samples, 0, "binary garbage: no samples");
	ok(st.malformed > 0, "binary garbage: malformed lines counted");
}

static int count_stack(const struct script_stack *s, void *arg)
{
	(void)s;
	++*(size_t *)arg;
	return 0;
}

/* Every prefix of an input with every kind of line, in a buffer of exactly that size, so the
 * sanitizers see any read past the end. */
static void test_truncation(void)
{
	static const char in[] =
		"# c\nV8 W 1/2 [000] 1.0: 5 cycles:u:\n\t1 a->b+0x1 (/tmp/perf-1.map)\n"
		"\t2 [unknown] ([unknown])\n\t3  (x)\nab (c)\n   \n\n"
		"  t 3 [001] 2.0: 7 cycles:u:  ffff f+0x2 ([kernel.kallsyms])\r\n"
		"java 4 c:\nLx/y;.z(I)V (q)\n";
	size_t len, stacks = 0, bad = 0;
	struct script_opts o = { .flags = SCRIPT_ALL_FLAGS };

	for (len = 0; len <= sizeof(in) - 1; len++) {
		char *buf = malloc(len ? len : 1);
		struct script_stats st;

		memcpy(buf, in, len);
		o.flags = len % 2 ? SCRIPT_ALL_FLAGS : SCRIPT_ALL_FLAGS & ~SCRIPT_PERL_COMPAT;
		bad += script_parse(buf, len, &o, count_stack, &stacks, &st) != 0;
		free(buf);
	}
	is_u64(bad, 0, "every prefix of the input parses");
	ok(stacks > 0, "and gives stacks");
}

static void test_detection(void)
{
	static const char script[] = "# header\n\nperf 1 [000] 1.0: 1 cpu-clock: \n"
				     "\tffffffff81000000 f+0x1 ([kernel.kallsyms])\n";

	ok(script_looks_like(script, sizeof(script) - 1), "perf script text is detected");
	ok(!script_looks_like("a;b;c 12\na;b 3\n", 15), "folded stacks are not");
	ok(!script_looks_like("PERFILE2\0\0\0", 11), "perf.data is not");
	ok(!script_looks_like("", 0), "empty input is not");
	ok(script_looks_like(script, sizeof(script) - 20), "a head that ends inside a frame is");
	ok(script_looks_like("   p 1 [0] 1.0: 1 c: ffff f (/bin/p)\n", 37), "one-line samples are");
	ok(!script_looks_like("p 1 [0] 1.0: 1 c:\nnot a frame\n", 29), "a header alone is not");
}

int main(void)
{
	test_basics();
	test_roots();
	test_names();
	test_backtracking();
	test_events();
	test_end_of_input();
	test_crlf();
	test_single_line();
	test_comm_quirks();
	test_malformed();
	test_truncation();
	test_detection();
	return done_testing();
}
