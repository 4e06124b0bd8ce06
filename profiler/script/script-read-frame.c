// SPDX-License-Identifier: GPL-2.0
/*
 * script-read-frame.c - one `perf script` frame line into stackcollapse-perf.pl's names.
 *
 * Each rule below is the Perl script's (FlameGraph 41fee1f), written out as plain byte scans
 * that give the same result as its regexes, including where backtracking picks an odd split.
 */
#include <errno.h>
#include <string.h>

#include "profiler/script/script-read-int.h"

/*
 * ^\s*(\w+)\s*(.+) \((.*)\) on a line that starts at its first non-blank byte.
 *
 * (.*)\) is greedy, so the module ends at the last ')' of the line; (.+) is greedy, so the
 * function ends at the last " (" before that. Perl tries the longest pc first, then the longest
 * \s*; when the " (" closes the blank run after the pc, it backtracks into a one-byte function:
 * the blank before it ("pc  (dso)" gives " "), or else the pc's last byte ("abc (x)" gives pc
 * "ab" and function "c").
 */
bool frame_match(const char *s, size_t n, struct frame_parts *fp)
{
	const char *rp = n ? memrchr(s, ')', n) : NULL;
	size_t w = 0, blank = 0, r, q, fstart;

	while (w < n && perl_word(s[w]))
		w++;
	if (!w || !rp)
		return false;
	while (w + blank < n && perl_space(s[w + blank]))
		blank++;
	r = (size_t)(rp - s);
	/* q: the space of the last " (" that still has the final ')' after its '(' */
	for (q = r; q >= 2; q--)
		if (s[q - 1] == '(' && s[q - 2] == ' ')
			break;
	if (q < 2)
		return false;
	q -= 2;
	fp->pc = s;
	fp->pc_len = w;
	if (q >= w + blank + 1) {
		fstart = w + blank;
	} else if (q + 1 == w + blank && blank >= 2) {
		fstart = q - 1;
	} else if (q == w && blank == 1 && w >= 2) {
		fstart = w - 1;
		fp->pc_len = w - 1;
	} else {
		return false;
	}
	fp->func = s + fstart;
	fp->func_len = q - fstart;
	fp->mod = s + q + 2;
	fp->mod_len = r - (q + 2);
	return true;
}

/* s/\+0x[\da-f]+$// */
static size_t strip_offset(const char *f, size_t n)
{
	size_t k = n;

	while (k && (perl_digit(f[k - 1]) || (f[k - 1] >= 'a' && f[k - 1] <= 'f')))
		k--;
	if (k < n && k >= 3 && !memcmp(f + k - 3, "+0x", 3))
		return k - 3;
	return n;
}

static bool has(const char *s, size_t n, const char *needle)
{
	return memmem(s, n, needle, strlen(needle)) != NULL;
}

/* m/\.\(.*\)\./: a Go method such as "net/http.(*Client).Do" */
static bool go_method(const char *s, size_t n)
{
	const char *open = memmem(s, n, ".(", 2);
	size_t i;

	if (!open)
		return false;
	for (i = n; i >= 2; i--)
		if (s[i - 2] == ')' && s[i - 1] == '.')
			return s + i - 2 >= open + 2;
	return false;
}

/* s/\((?!anonymous namespace\)).*$//: cut at the first '(' that is not "(anonymous namespace)" */
static size_t strip_args(const char *s, size_t n)
{
	static const char anon[] = "anonymous namespace)";
	const char *p = s, *end = s + n;

	while ((p = memchr(p, '(', (size_t)(end - p)))) {
		if ((size_t)(end - p - 1) < sizeof(anon) - 1 ||
		    memcmp(p + 1, anon, sizeof(anon) - 1))
			return (size_t)(p - s);
		p++;
	}
	return n;
}

/* m:/tmp/perf-\d+\.map: (a perf JIT map file) */
static bool jit_module(const char *m, size_t n)
{
	static const char dir[] = "/tmp/perf-";
	const char *p = m, *end = m + n;

	while ((p = memmem(p, (size_t)(end - p), dir, sizeof(dir) - 1))) {
		const char *d = p + sizeof(dir) - 1, *e = d;

		while (e < end && perl_digit(*e))
			e++;
		if (e > d && end - e >= 4 && !memcmp(e, ".map", 4))
			return true;
		p++;
	}
	return false;
}

/* m/^\[|vmlinux$/ && !~ /unknown/ */
static bool kernel_module(const char *m, size_t n)
{
	if (memmem(m, n, "unknown", 7))
		return false;
	return (n && m[0] == '[') || (n >= 7 && !memcmp(m + n - 7, "vmlinux", 7));
}

/* Tidy and annotate one piece of a frame; the result is in @b. */
static int piece_name(struct sbuf *b, const struct frame_parts *fp, const char *piece, size_t len,
		      bool inlined, unsigned int flags, bool java)
{
	char *s;
	size_t n, i, o;

	sbuf_reset(b);
	if (len == 9 && !memcmp(piece, "[unknown]", 9)) {
		/* use the module's basename instead, if known; --addrs adds the pc */
		const char *base = "unknown", *slash;
		size_t blen = 7;

		if (!(fp->mod_len == 9 && !memcmp(fp->mod, "[unknown]", 9))) {
			slash = memrchr(fp->mod, '/', fp->mod_len);
			base = slash ? slash + 1 : fp->mod;
			blen = fp->mod_len - (size_t)(base - fp->mod);
		}
		if (sbuf_add(b, "[", 1) || sbuf_add(b, base, blen))
			return -ENOMEM;
		if ((flags & SCRIPT_ADDRS) &&
		    (sbuf_add(b, " <", 2) || sbuf_add(b, fp->pc, fp->pc_len) || sbuf_add(b, ">", 1)))
			return -ENOMEM;
		if (sbuf_add(b, "]", 1))
			return -ENOMEM;
	} else if (sbuf_add(b, piece, len)) {
		return -ENOMEM;
	}
	/* room for the longest annotation */
	if (sbuf_reserve(b, 4))
		return -ENOMEM;
	s = b->p;
	n = b->len;
	for (i = 0; i < n; i++)
		if (s[i] == ';')
			s[i] = ':';
	if (!go_method(s, n))
		n = strip_args(s, n);
	for (i = o = 0; i < n; i++)
		if (s[i] != '"' && s[i] != '\'')
			s[o++] = s[i];
	n = o;
	if (java && n && s[0] == 'L' && memchr(s, '/', n)) {
		memmove(s, s + 1, n - 1);
		n--;
	}
	if (inlined) {
		if (!has(s, n, "_[i]"))
			memcpy(s + n, "_[i]", 4), n += 4;
	} else if ((flags & SCRIPT_KERNEL) && kernel_module(fp->mod, fp->mod_len)) {
		memcpy(s + n, "_[k]", 4), n += 4;
	} else if ((flags & SCRIPT_JIT) && jit_module(fp->mod, fp->mod_len) && !has(s, n, "_[j]")) {
		memcpy(s + n, "_[j]", 4), n += 4;
	}
	b->len = n;
	return 0;
}

int frame_names(const struct frame_parts *fp, unsigned int flags, bool java,
		struct sbuf *scratch, frame_name_fn emit, void *arg)
{
	const char *f = fp->func, *end, *p, *arrow;
	size_t n = strip_offset(fp->func, fp->func_len);
	bool first = true;
	int ret;

	if (folded_name_left_out(f, n, flags & SCRIPT_PERL_COMPAT))
		return 0;	/* "skip process names" */
	/* split /\->/ drops trailing empty fields */
	end = f + n;
	while (end - f >= 2 && end[-2] == '-' && end[-1] == '>')
		end -= 2;
	for (p = f; p < end; ) {
		arrow = memmem(p, (size_t)(end - p), "->", 2);
		if (!arrow)
			arrow = end;
		ret = piece_name(scratch, fp, p, (size_t)(arrow - p), !first, flags, java);
		if (!ret)
			ret = emit(scratch->p, scratch->len, arg);
		if (ret)
			return ret;
		first = false;
		if (arrow == end)
			break;
		p = arrow + 2;
	}
	return 0;
}
