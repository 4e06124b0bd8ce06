// SPDX-License-Identifier: GPL-2.0
/*
 * script-read-header.c - the sample header lines of `perf script` text, and detection.
 *
 * stackcollapse-perf.pl's header regex ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ and its event regex
 * :\s*(\d+)*\s+(\S+):\s*$ as byte scans with the same results, plus the one-line samples
 * kprof reads where the Perl script drops them.
 */
#include <string.h>

#include "profiler/script/script-read-int.h"

/*
 * ^(\S.+?)\s+(\d+)[/]*(\d+)*\s+ with the comm at least @min_comm bytes long (the Perl regex
 * needs 2). The comm is the shortest prefix followed by blanks, digits, slashes, digits and a
 * blank; greedy parts never need to backtrack here, so the first candidate that fits wins.
 */
bool header_match(const char *s, size_t n, size_t min_comm, struct header *h)
{
	size_t e, i, d1, d1e, d2, d2e;

	if (!n || perl_space(s[0]))
		return false;
	for (e = min_comm; e < n; e++) {
		if (!perl_space(s[e]))
			continue;
		for (i = e; i < n && perl_space(s[i]); i++)
			;
		for (d1 = i; i < n && perl_digit(s[i]); i++)
			;
		d1e = i;
		while (i < n && s[i] == '/')
			i++;
		for (d2 = i; i < n && perl_digit(s[i]); i++)
			;
		d2e = i;
		if (d1e > d1 && i < n && perl_space(s[i])) {
			h->comm = s;
			h->comm_len = e;
			h->num2 = s + d2;
			h->num2_len = d2e - d2;
			/* default `perf script` output has the TID but not the PID */
			if (d2e == d2 || (d2e - d2 == 1 && s[d2] == '0')) {
				h->pid = "?";
				h->pid_len = 1;
				h->tid = s + d1;
				h->tid_len = d1e - d1;
			} else {
				h->pid = s + d1;
				h->pid_len = d1e - d1;
				h->tid = s + d2;
				h->tid_len = d2e - d2;
			}
			h->end = i;
			return true;
		}
		e = i ? i - 1 : 0;	/* nothing between here and i can start the blanks */
	}
	return false;
}

/* "0" and "" count as 1 (Perl's `not $period`); digits only, saturating. */
uint64_t period_value(const char *s, size_t n)
{
	uint64_t v = 0;
	size_t i;

	if (!n || (n == 1 && s[0] == '0'))
		return 1;
	for (i = 0; i < n; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
	}
	return v;
}

/*
 * The event and period of a header: /:\s*(\d+)*\s+(\S+):\s*$/. The line ends with "EVENT:" (and
 * blanks); before EVENT come blanks, optional digits (the period), blanks and a ':'.
 */
bool header_event(const char *s, size_t n, struct header *h)
{
	size_t m = n, t, b, d, digits;

	while (m && perl_space(s[m - 1]))
		m--;
	if (!m || s[m - 1] != ':')
		return false;
	for (t = m; t && !perl_space(s[t - 1]); t--)
		;
	if (m - t < 2 || !t)
		return false;
	for (b = t; b && perl_space(s[b - 1]); b--)
		;
	for (d = b; b && perl_digit(s[b - 1]); b--)
		;
	digits = b;
	while (b && perl_space(s[b - 1]))
		b--;
	if (!b || s[b - 1] != ':')
		return false;
	h->per = s + digits;
	h->per_len = d - digits;
	h->ev = s + t;
	h->ev_len = m - 1 - t;
	return true;
}

static size_t token_end(const char *s, size_t i, size_t n)
{
	while (i < n && !perl_space(s[i]))
		i++;
	return i;
}

static bool all_of(const char *s, size_t n, bool (*cls)(unsigned char))
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!cls((unsigned char)s[i]))
			return false;
	return n > 0;
}

static bool time_char(unsigned char c)
{
	return perl_digit(c) || c == '.';
}

static bool hex_char(unsigned char c)
{
	return perl_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/*
 * A sample printed on one line, as `perf script` does without call chains:
 *   "   comm  PID[/TID] [CPU] TIME:  PERIOD EVENT:  IP SYM (DSO)"
 * (inferno reads these; the Perl script drops them): the header fields, the event, the period
 * and where the frame starts. Only when the line ends in ')' and everything after the event is
 * one frame with a hex IP, so a header ("... EVENT:") or a tracepoint's arguments never match.
 */
bool header_one_line(const char *s, size_t n, struct header *h, size_t *frame)
{
	size_t i, t;
	struct frame_parts fp;

	for (t = n; t && perl_space(s[t - 1]); t--)
		;
	if (!t || s[t - 1] != ')')
		return false;
	i = skip_blanks(s, 0, n);
	if (!header_match(s + i, n - i, 1, h))
		return false;
	h->per = "";
	h->per_len = 0;
	h->end += i;
	i = skip_blanks(s, h->end, n);
	t = token_end(s, i, n);
	if (t - i >= 3 && s[i] == '[' && s[t - 1] == ']' && all_of(s + i + 1, t - i - 2, perl_digit))
		i = skip_blanks(s, t, n), t = token_end(s, i, n);
	if (t - i >= 2 && s[t - 1] == ':' && all_of(s + i, t - i - 1, time_char))
		i = skip_blanks(s, t, n), t = token_end(s, i, n);
	if (all_of(s + i, t - i, perl_digit)) {
		h->per = s + i;
		h->per_len = t - i;
		i = skip_blanks(s, t, n);
		t = token_end(s, i, n);
	}
	if (t - i < 2 || s[t - 1] != ':')
		return false;
	h->ev = s + i;
	h->ev_len = t - i - 1;
	i = skip_blanks(s, t, n);
	t = token_end(s, i, n);
	if (!all_of(s + i, t - i, hex_char) || t == n || !frame_match(s + i, n - i, &fp))
		return false;
	*frame = i;
	return true;
}

/*
 * @head may end inside a line: a last line without '\n' is checked only as far as it goes.
 * Text: a header (the header regex on a line with a ':' in it), then a frame line whose pc is
 * hex, or a sample printed on one line. Folded stacks ("a;b 12") and binary data are not.
 */
bool script_looks_like(const void *head, size_t len)
{
	const char *s = head, *end = s + len, *nl, *line[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 }, nr = 0, i, frame;
	bool complete[2] = { false, false };
	struct frame_parts fp;
	struct header h;

	/* the first two lines that are not comments or blank */
	while (s < end && nr < 2) {
		nl = memchr(s, '\n', (size_t)(end - s));
		complete[nr] = nl != NULL;
		if (!nl)
			nl = end;
		n[nr] = (size_t)(nl - s);
		if (n[nr] && s[n[nr] - 1] == '\r')
			n[nr]--;
		i = skip_blanks(s, 0, n[nr]);
		if (n[nr] && s[0] != '#' && i < n[nr]) {
			line[nr++] = s;
		}
		s = nl + 1;
	}
	if (!nr || !complete[0])
		return false;
	if (header_one_line(line[0], n[0], &h, &frame))
		return true;
	i = skip_blanks(line[0], 0, n[0]);
	if (!header_match(line[0] + i, n[0] - i, 1, &h) || !memchr(line[0], ':', n[0]) || nr < 2)
		return false;
	/* the frame: "pc sym (dso)" with a hex pc */
	s = line[1] + skip_blanks(line[1], 0, n[1]);
	i = token_end(s, 0, n[1] - (size_t)(s - line[1]));
	if (!all_of(s, i, hex_char))
		return false;
	return !complete[1] || frame_match(s, n[1] - (size_t)(s - line[1]), &fp);
}

