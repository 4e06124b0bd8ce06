// SPDX-License-Identifier: GPL-2.0
/*
 * The byte scans that stand in for stackcollapse-perf.pl's three regexes, checked against Perl
 * itself: thousands of generated lines built from the tokens perf script lines are made of
 * (blanks, numbers, slashes, colons, parentheses, words), each matched by perl with the Perl
 * script's regexes and by kprof's scans, captures compared. Then the same for generated frames
 * (pc, function, module) through the script's naming steps (+0x, '->' split, [unknown],
 * tidying, Java, annotations) written in Perl as the script writes them. Skipped without perl.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profiler/script/script-read-int.h"
#include "tests/tap.h"

#define NR_LINES	40000
#define NR_FRAMES	20000

/* The three regexes as the Perl script writes them; one \x01-separated result line per line. */
static const char perl_prog[] =
	"while (<STDIN>) { chomp;"
	" my @h = /^(\\S.+?)\\s+(\\d+)\\/*(\\d+)*\\s+/ ? (\"H\", $1, $2, defined $3 ? $3 : \"-\")"
	"  : (\"h\");"
	" my @e = /:\\s*(\\d+)*\\s+(\\S+):\\s*$/ ? (\"E\", defined $1 ? $1 : \"-\", $2) : (\"e\");"
	" my @f = /^\\s*(\\w+)\\s*(.+) \\((.*)\\)/ ? (\"F\", $1, $2, $3) : (\"f\");"
	" print join(\"\\x01\", @h, @e, @f), \"\\n\"; }";

static const char *const tokens[] = {
	"java", "a", "V8 W", " ", " ", "  ", "\t", "\v", "123", "0", "/", "45", "[000]", "1.5:",
	":", "cycles:", "cycles:u:", " (", "(", ")", "foo", "+0x1f", "->", "[unknown]", "ffff",
	"x y", "_b", "-",
};

static const char *pick(const char *const *set, size_t nr, unsigned int *seed)
{
	return set[rand_r(seed) % nr];
}

#define PICK(set) pick(set, sizeof(set) / sizeof(set[0]), seed)

static void gen_line(char *buf, size_t size, unsigned int *seed)
{
	static const char *const blank[] = { "", " ", "  ", "\t", " \v", "\t  " };
	static const char *const num[] = { "0", "7", "123", "0/0", "12/34", "5/", "//9", "1/0" };
	static const char *const word[] = { "a", "ff", "java", "V8 W", "x(y)", "_", "[k]" };
	static const char *const ev[] = { "cycles:", "cycles:u:", ":", "c::", "a b:", "x" };
	static const char *const when[] = { "1.5:", "[000] 1.5:", ":", "", "[1]", "2:3" };
	size_t n = 0, k;
	unsigned int shape = (unsigned int)rand_r(seed) % 3;

	buf[0] = '\0';
	switch (shape) {
	case 0:	/* a header: comm, numbers, cpu and time, period, event */
		n = (size_t)snprintf(buf, size, "%s%s%s%s%s %s%s%s%s%s", PICK(word), PICK(blank),
				     PICK(num), PICK(blank), PICK(when), PICK(blank), PICK(num),
				     PICK(blank), PICK(ev), PICK(blank));
		break;
	case 1:	/* a frame: pc, function, module */
		n = (size_t)snprintf(buf, size, "%s%s%s%s%s%s(%s%s)%s", PICK(blank), PICK(word),
				     PICK(blank), PICK(tokens), PICK(tokens), PICK(blank),
				     PICK(tokens), PICK(word), PICK(tokens));
		break;
	}
	/* the structured shapes get a random tail now and then */
	k = shape == 2 || rand_r(seed) % 4 == 0 ? 1 + (size_t)(rand_r(seed) % 6) : 0;
	for (; k; k--) {
		const char *t = PICK(tokens);

		if (n + strlen(t) + 1 < size)
			n += (size_t)sprintf(buf + n, "%s", t);
	}
}

/*
 * The frame naming steps of the Perl script (its lines 319-387), --all --addrs, java when the
 * fourth field is 1. Input "pc\x01func\x01module\x01java", output the names joined by \x02.
 */
static const char perl_names[] =
	"while (<STDIN>) { chomp; my ($pc, $raw, $mod, $java) = split /\\x01/, $_, -1;"
	" $raw =~ s/\\+0x[\\da-f]+$//;"
	" if ($raw =~ /^\\(/) { print \"\\n\"; next }"
	" my @inline;"
	" for (split /\\->/, $raw) { my $func = $_;"
	"  if ($func eq \"[unknown]\") {"
	"   if ($mod ne \"[unknown]\") { $func = $mod; $func =~ s/.*\\///; } else { $func = \"unknown\" }"
	"   $func = \"[$func <$pc>]\"; }"
	"  $func =~ s/;/:/g;"
	"  if ($func !~ m/\\.\\(.*\\)\\./) { $func =~ s/\\((?!anonymous namespace\\)).*//; }"
	"  $func =~ tr/\"\\x27//d;"
	"  if ($java) { $func =~ s/^L// if $func =~ m:/:; }"
	"  if (scalar(@inline) > 0) { $func .= \"_[i]\" unless $func =~ m/\\_\\[i\\]/; }"
	"  elsif ($mod =~ m/^\\[|vmlinux$/ && $mod !~ /unknown/) { $func .= \"_[k]\"; }"
	"  elsif ($mod =~ m:/tmp/perf-\\d+\\.map:) { $func .= \"_[j]\" unless $func =~ m/\\_\\[j\\]/; }"
	"  push @inline, $func; }"
	" print join(\"\\x02\", @inline), \"\\n\"; }";

static void gen_frame(char *buf, size_t size, unsigned int *seed)
{
	static const char *const pc[] = { "ffff", "0", "_x" };
	static const char *const fn[] = {
		"foo", "(", ")", ".(", ").", "anonymous namespace)", "(anonymous namespace)", ";",
		"\"", "'", "L", "/", "->", "+0x1f", "+0xG", "[unknown]", "_[i]", "_[j]", " ", "x",
		"::", "<", ">",
	};
	static const char *const mod[] = {
		"[unknown]", "[kernel.kallsyms]", "/tmp/perf-12.map", "/usr/lib/libc.so",
		"/x/vmlinux", "[vdso]", "unknownmod", "/tmp/perf-.map", "a/tmp/perf-3.map.x", "",
		"dir/", "b;c(d)",
	};
	size_t n, k;

	n = (size_t)snprintf(buf, size, "%s\x01", PICK(pc));
	for (k = 1 + (size_t)(rand_r(seed) % 7); k; k--)
		n += (size_t)snprintf(buf + n, size - n, "%s", PICK(fn));
	snprintf(buf + n, size - n, "\x01%s\x01%d", PICK(mod), rand_r(seed) % 2);
}

struct joined {
	char	*out;
	size_t	nr;
};

static int join_name(const char *name, size_t len, void *arg)
{
	struct joined *j = arg;

	sprintf(j->out + strlen(j->out), "%s%.*s", j->nr++ ? "\x02" : "", (int)len, name);
	return 0;
}

/* kprof's names for a line of gen_frame(), in the format of perl_names. */
static void name_frame(char *line, char *out)
{
	char *f[4];
	struct frame_parts fp;
	struct sbuf scratch = { 0 };
	struct joined j = { .out = out };
	size_t i;

	f[0] = line;
	for (i = 1; i < 4; i++) {
		f[i] = strchr(f[i - 1], '\x01');
		*f[i]++ = '\0';
	}
	fp = (struct frame_parts){ .pc = f[0], .pc_len = strlen(f[0]), .func = f[1],
				   .func_len = strlen(f[1]), .mod = f[2], .mod_len = strlen(f[2]) };
	out[0] = '\0';
	/* the Perl script's names exactly: kprof's one deliberate difference here is off */
	frame_names(&fp, SCRIPT_KERNEL | SCRIPT_JIT | SCRIPT_ADDRS | SCRIPT_PERL_COMPAT,
		    f[3][0] == '1', &scratch, join_name, &j);
	sbuf_release(&scratch);
}

static void put(char **o, const char *s, size_t n)
{
	*o += sprintf(*o, "\x01%.*s", (int)n, s);
}

/* kprof's answer, in the format of perl_prog. */
static void scan_line(const char *s, char *out)
{
	size_t n = strlen(s), i = skip_blanks(s, 0, n);
	struct frame_parts fp;
	struct header h;
	char *o = out;

	if (header_match(s, n, 2, &h)) {
		o += sprintf(o, "H");
		put(&o, h.comm, h.comm_len);
		/* perl's $2 and $3, before the "?" rule turns a missing TID into PID "?" */
		if (h.pid_len == 1 && h.pid[0] == '?')
			put(&o, h.tid, h.tid_len);
		else
			put(&o, h.pid, h.pid_len);
		put(&o, h.num2_len ? h.num2 : "-", h.num2_len ? h.num2_len : 1);
	} else {
		o += sprintf(o, "h");
	}
	if (header_event(s, n, &h)) {
		o += sprintf(o, "\x01" "E");
		if (h.per_len)
			put(&o, h.per, h.per_len);
		else
			put(&o, "-", 1);
		put(&o, h.ev, h.ev_len);
	} else {
		o += sprintf(o, "\x01" "e");
	}
	if (i < n && frame_match(s + i, n - i, &fp)) {
		o += sprintf(o, "\x01" "F");
		put(&o, fp.pc, fp.pc_len);
		put(&o, fp.func, fp.func_len);
		put(&o, fp.mod, fp.mod_len);
	} else {
		o += sprintf(o, "\x01" "f");
	}
}

/*
 * Write @nr lines made by @gen to a file, run @prog on them with perl, and compare each of its
 * output lines with @scan's. Returns the number of differences; *@answered the lines perl
 * answered; @count (may be NULL) counts perl's answers for the coverage checks.
 */
static size_t check(const char *prog, void (*gen)(char *, size_t, unsigned int *),
		    void (*scan)(char *, char *), size_t nr, size_t *answered,
		    void (*count)(const char *))
{
	char path[] = "/tmp/kprof-regex-XXXXXX", cmd[8192], line[512], copy[512];
	static char got[4096], want[4096];
	unsigned int seed = 42;
	size_t i, bad = 0;
	FILE *in, *perl;
	int fd = mkstemp(path);

	*answered = 0;
	in = fd < 0 ? NULL : fdopen(fd, "w");
	if (!in)
		return 1;
	for (i = 0; i < nr; i++) {
		gen(line, sizeof(line), &seed);
		fprintf(in, "%s\n", line);
	}
	fclose(in);
	snprintf(cmd, sizeof(cmd), "perl -e '%s' <%s", prog, path);
	perl = popen(cmd, "r");
	in = fopen(path, "r");
	while (perl && in && fgets(line, sizeof(line), in) && fgets(want, sizeof(want), perl)) {
		line[strcspn(line, "\n")] = '\0';
		want[strcspn(want, "\n")] = '\0';
		if (count)
			count(want);
		strcpy(copy, line);
		scan(copy, got);
		if (strcmp(got, want) && bad++ < 5)
			diag("line '%s': perl '%s', kprof '%s'", line, want, got);
		++*answered;
	}
	if (perl)
		pclose(perl);
	if (in)
		fclose(in);
	unlink(path);
	return bad;
}

static size_t headers, events, frames;

static void count_matches(const char *want)
{
	headers += want[0] == 'H';
	events += strstr(want, "\x01" "E\x01") != NULL;
	frames += strstr(want, "\x01" "F\x01") != NULL;
}

static void scan_regexes(char *line, char *out)
{
	scan_line(line, out);
}

int main(void)
{
	size_t answered, bad;

	if (system("perl -e 1 2>/dev/null"))
		skip_all("perl is not installed");
	bad = check(perl_prog, gen_line, scan_regexes, NR_LINES, &answered, count_matches);
	is_u64(answered, NR_LINES, "perl ran the Perl script's regexes on every line");
	is_u64(bad, 0, "kprof's scans capture what perl's regexes capture");
	diag("perl matched %zu headers, %zu events, %zu frames", headers, events, frames);
	ok(headers > 1000 && events > 1000 && frames > 1000, "each regex matched often");

	bad = check(perl_names, gen_frame, name_frame, NR_FRAMES, &answered, NULL);
	is_u64(answered, NR_FRAMES, "perl named every frame");
	is_u64(bad, 0, "kprof names frames as the Perl script's steps do");
	return done_testing();
}
