// SPDX-License-Identifier: GPL-2.0
/*
 * The byte scans that stand in for stackcollapse-perf.pl's three regexes, checked against Perl
 * itself: thousands of generated lines built from the tokens perf script lines are made of
 * (blanks, numbers, slashes, colons, parentheses, words), each matched by perl with the Perl
 * script's regexes and by kprof's scans, captures compared. Skipped without perl.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profiler/script-read-int.h"
#include "tests/tap.h"

#define NR_LINES	40000

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

int main(void)
{
	char path[] = "/tmp/kprof-regex-XXXXXX", cmd[4096], line[512], got[2048], want[2048];
	unsigned int seed = 42;
	size_t i, bad = 0, headers = 0, events = 0, frames = 0;
	FILE *in, *perl;
	int fd;

	if (system("perl -e 1 2>/dev/null"))
		skip_all("perl is not installed");
	fd = mkstemp(path);
	in = fd < 0 ? NULL : fdopen(fd, "w");
	if (!in)
		skip_all("cannot create a temporary file");
	for (i = 0; i < NR_LINES; i++) {
		gen_line(line, sizeof(line), &seed);
		fprintf(in, "%s\n", line);
	}
	fclose(in);
	snprintf(cmd, sizeof(cmd), "perl -e '%s' <%s", perl_prog, path);
	perl = popen(cmd, "r");
	in = fopen(path, "r");
	ok(perl && in, "perl runs the Perl script's regexes");
	for (i = 0; perl && in && fgets(line, sizeof(line), in); i++) {
		line[strcspn(line, "\n")] = '\0';
		if (!fgets(want, sizeof(want), perl))
			break;
		want[strcspn(want, "\n")] = '\0';
		headers += want[0] == 'H';
		events += strstr(want, "\x01" "E\x01") != NULL;
		frames += strstr(want, "\x01" "F\x01") != NULL;
		scan_line(line, got);
		if (strcmp(got, want) && bad++ < 5)
			diag("line '%s': perl '%s', kprof '%s'", line, want, got);
	}
	is_u64(i, NR_LINES, "perl answered for every line");
	is_u64(bad, 0, "kprof's scans capture what perl's regexes capture");
	diag("perl matched %zu headers, %zu events, %zu frames", headers, events, frames);
	ok(headers > 1000 && events > 1000 && frames > 1000, "each regex matched often");
	if (perl)
		pclose(perl);
	if (in)
		fclose(in);
	unlink(path);
	return done_testing();
}
