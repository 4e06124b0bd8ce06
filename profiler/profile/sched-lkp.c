// SPDX-License-Identifier: GPL-2.0
/*
 * sched-lkp.c - LKP's perf-sched keys (lkp-tests programs/perf-sched/parse, a Ruby script)
 * from `perf sched timehist` lines.
 *
 * The script works on the text, so this does too, rule for rule:
 *   - a line counts only when it contains " <- " (a chain of at least two frames printed);
 *   - " <- " becomes '.', the line is split at whitespace; the last field is the chain, the
 *     fourth and third from the end are the wait time and the scheduling delay (String#to_f);
 *   - the key is the chain's first five '.'-separated pieces (a symbol like foo.isra.0 is three
 *     pieces: LKP cuts the chain short there, and so does this);
 *   - wait_and_delay of a line is (wait + delay).round(3);
 *   - averages are (Array#sum / size).round(3) (stats_mean: Ruby's Kahan-Babuska Array#sum);
 *   - totals over every line (in the order of the chains' first appearance, then line order);
 *     total_wait_and_delay.count.ms is the number of lines;
 *   - a chain whose wait_and_delay average is below the total's and whose line count is below
 *     (lines * 0.005).to_i loses its three wait_and_delay keys, nothing else.
 * The printed numbers are Ruby's Float#to_s (shortest round trip, "1.0" for integral values),
 * the counts integers.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profiler/lib/lib.h"
#include "profiler/profile/profile.h"
#include "profiler/profile/sched-int.h"

enum { WAIT, DELAY, BOTH, NR_VALS };

struct chain_vals {
	char	*key;
	double	*v[NR_VALS];
	size_t	n, alloc;
	size_t	order;		/* first appearance */
};

struct sched_lkp {
	struct chain_vals	*c;
	size_t			nr, alloc;
	size_t			*index;		/* open addressing: chain number + 1, 0 free */
	size_t			alloc_index;
};

double sched_ruby_round3(double x)
{
	const double s = 1000.0;
	int binexp;
	double f;

	if (!isfinite(x) || x == 0)
		return x;
	frexp(x, &binexp);
	/* float_round_underflow: too small to have a digit at 10^-3 */
	if (3 < -(binexp > 0 ? binexp / 3 + 1 : binexp / 4))
		return 0.0;
	/* float_round_overflow: no fractional digits left to round */
	if (3 >= 17 - (binexp > 0 ? binexp / 4 : binexp / 3 - 1))
		return x;
	/* round_half_up(x, s) */
	f = round(x * s);
	if (x > 0 && (double)((f + 0.5) / s) <= x)
		f += 1;
	else if (x < 0 && (double)((f - 0.5) / s) >= x)
		f -= 1;
	return f / s;
}

/* String#to_f: the longest decimal prefix (after leading whitespace), else 0.0. */
static double ruby_to_f(const char *s)
{
	const char *p = s;
	char buf[64];
	size_t n = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		buf[n++] = *p++;
	while (isdigit((unsigned char)*p) && n < sizeof(buf) - 8)
		buf[n++] = *p++;
	if (*p == '.' && isdigit((unsigned char)p[1])) {
		buf[n++] = *p++;
		while (isdigit((unsigned char)*p) && n < sizeof(buf) - 8)
			buf[n++] = *p++;
	}
	if (n && isdigit((unsigned char)buf[n - 1]) && (*p == 'e' || *p == 'E')) {
		size_t at = n;

		buf[n++] = *p++;
		if (*p == '+' || *p == '-')
			buf[n++] = *p++;
		if (!isdigit((unsigned char)*p))
			n = at;
		while (isdigit((unsigned char)*p) && n < sizeof(buf) - 1)
			buf[n++] = *p++;
	}
	buf[n] = '\0';
	return strtod(buf, NULL);
}

static size_t hash_str(const char *s)
{
	size_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static int index_grow(struct sched_lkp *k)
{
	size_t alloc = k->alloc_index ? k->alloc_index * 2 : 256;
	size_t *index = calloc(alloc, sizeof(*index));

	if (!index)
		return -ENOMEM;
	for (size_t i = 0; i < k->nr; i++) {
		size_t at = hash_str(k->c[i].key) & (alloc - 1);

		while (index[at])
			at = (at + 1) & (alloc - 1);
		index[at] = i + 1;
	}
	free(k->index);
	k->index = index;
	k->alloc_index = alloc;
	return 0;
}

static struct chain_vals *chain_get(struct sched_lkp *k, const char *key)
{
	size_t at;

	if ((k->nr + 1) * 2 > k->alloc_index && index_grow(k))
		return NULL;
	at = hash_str(key) & (k->alloc_index - 1);
	while (k->index[at]) {
		if (!strcmp(k->c[k->index[at] - 1].key, key))
			return &k->c[k->index[at] - 1];
		at = (at + 1) & (k->alloc_index - 1);
	}
	if (k->nr == k->alloc) {
		size_t alloc = k->alloc ? k->alloc * 2 : 64;
		struct chain_vals *c = realloc(k->c, alloc * sizeof(*c));

		if (!c)
			return NULL;
		k->c = c;
		k->alloc = alloc;
	}
	k->c[k->nr] = (struct chain_vals){ .key = strdup(key), .order = k->nr };
	if (!k->c[k->nr].key)
		return NULL;
	k->index[at] = ++k->nr;
	return &k->c[k->nr - 1];
}

static int chain_push(struct chain_vals *c, const double v[NR_VALS])
{
	if (c->n == c->alloc) {
		size_t alloc = c->alloc ? c->alloc * 2 : 16;

		for (int i = 0; i < NR_VALS; i++) {
			double *p = realloc(c->v[i], alloc * sizeof(*p));

			if (!p)
				return -ENOMEM;
			c->v[i] = p;
		}
		c->alloc = alloc;
	}
	for (int i = 0; i < NR_VALS; i++)
		c->v[i][c->n] = v[i];
	c->n++;
	return 0;
}

struct sched_lkp *sched_lkp_new(void)
{
	return calloc(1, sizeof(struct sched_lkp));
}

void sched_lkp_free(struct sched_lkp *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nr; i++) {
		free(k->c[i].key);
		for (int j = 0; j < NR_VALS; j++)
			free(k->c[i].v[j]);
	}
	free(k->c);
	free(k->index);
	free(k);
}

/* Ruby's String#split('.') pieces 0..4 joined by '.' (trailing empty pieces dropped). */
static void chain_key(const char *chain, char *key, size_t len)
{
	size_t n = strlen(chain), at = 0;
	int pieces = 0;

	while (n && chain[n - 1] == '.')
		n--;
	for (size_t i = 0; i < n && at + 1 < len; i++) {
		if (chain[i] == '.' && ++pieces == 5)
			break;
		key[at++] = chain[i];
	}
	key[at] = '\0';
}

int sched_lkp_add_line(struct sched_lkp *k, const char *line)
{
	const char *tok[4] = { NULL, NULL, NULL, NULL };	/* the last four fields */
	char *text, *save = NULL, key[1024];
	struct chain_vals *c;
	double v[NR_VALS];
	size_t len = strlen(line), at = 0;
	int ret;

	if (!strstr(line, " <- "))
		return 0;
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	for (size_t i = 0; i < len;) {		/* gsub(' <- ', '.') */
		if (!strncmp(line + i, " <- ", 4)) {
			text[at++] = '.';
			i += 4;
		} else {
			text[at++] = line[i++];
		}
	}
	text[at] = '\0';
	for (char *t = strtok_r(text, " \t\n\v\f\r", &save); t;
	     t = strtok_r(NULL, " \t\n\v\f\r", &save)) {
		memmove(tok, tok + 1, 3 * sizeof(*tok));
		tok[3] = t;
	}
	chain_key(tok[3] ? tok[3] : "", key, sizeof(key));
	v[WAIT] = tok[0] ? ruby_to_f(tok[0]) : 0.0;	/* nil.to_f is 0.0 */
	v[DELAY] = tok[1] ? ruby_to_f(tok[1]) : 0.0;
	v[BOTH] = sched_ruby_round3(v[WAIT] + v[DELAY]);
	c = chain_get(k, key);
	ret = c ? chain_push(c, v) : -ENOMEM;
	free(text);
	return ret;
}

static double max_of(const double *v, size_t n)
{
	double m = v[0];

	for (size_t i = 1; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

static int add(struct kv_list *out, const char *prefix, const char *a, const char *b,
	       double value)
{
	char *key;
	int ret;

	if (asprintf(&key, "%s%s%s", prefix, a, b) < 0)
		return -ENOMEM;
	ret = kv_list_add(out, key, value);
	free(key);
	return ret;
}

static int by_count(const void *a, const void *b)
{
	const struct chain_vals *x = *(const struct chain_vals *const *)a;
	const struct chain_vals *y = *(const struct chain_vals *const *)b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

int sched_lkp_keys(const struct sched_lkp *k, const char *prefix, struct kv_list *out)
{
	static const char *const names[NR_VALS] = { "wait_time", "sch_delay", "wait_and_delay" };
	const struct chain_vals **sorted = NULL;
	double *all = NULL, compare_average = 0;
	size_t total = 0, compare_count = 0;
	int ret = 0;

	if (!k->nr)
		return 0;
	for (size_t i = 0; i < k->nr; i++)
		total += k->c[i].n;
	all = malloc(total * sizeof(*all));
	sorted = malloc(k->nr * sizeof(*sorted));
	if (!all || !sorted) {
		ret = -ENOMEM;
		goto out;
	}
	for (int t = 0; t < NR_VALS && !ret; t++) {
		size_t n = 0;
		double average;

		for (size_t i = 0; i < k->nr; i++) {
			memcpy(all + n, k->c[i].v[t], k->c[i].n * sizeof(*all));
			n += k->c[i].n;
		}
		average = sched_ruby_round3(stats_mean(all, n));
		if (t == BOTH) {
			compare_average = average;
			compare_count = (size_t)((double)n * 0.005);
			ret = add(out, prefix, "total_wait_and_delay", ".count.ms", (double)n);
		}
		if (!ret) {
			char name[64];

			snprintf(name, sizeof(name), "total_%s", names[t]);
			ret = add(out, prefix, name, ".max.ms", max_of(all, n));
			if (!ret)
				ret = add(out, prefix, name, ".average.ms", average);
		}
	}
	for (size_t i = 0; i < k->nr; i++)
		sorted[i] = &k->c[i];
	qsort(sorted, k->nr, sizeof(*sorted), by_count);
	for (size_t i = 0; i < k->nr && !ret; i++) {
		const struct chain_vals *c = sorted[i];

		for (int t = 0; t < NR_VALS && !ret; t++) {
			double average = sched_ruby_round3(stats_mean(c->v[t], c->n));
			char name[64], key[1100];

			if (t == BOTH) {
				if (average < compare_average && c->n < compare_count)
					continue;
				snprintf(key, sizeof(key), ".count.%s", c->key);
				ret = add(out, prefix, names[t], key, (double)c->n);
			}
			snprintf(name, sizeof(name), "%s.max.ms.", names[t]);
			if (!ret)
				ret = add(out, prefix, name, c->key, max_of(c->v[t], c->n));
			snprintf(name, sizeof(name), "%s.avg.ms.", names[t]);
			if (!ret)
				ret = add(out, prefix, name, c->key, average);
		}
	}
out:
	free(all);
	free(sorted);
	return ret;
}

/* Float#to_s: the shortest digits that read back as @v; decimal notation for 1e-4 <= |v| < 1e16. */
static void ruby_float(double v, char *buf, size_t len)
{
	char digits[40], mant[24], out[64];
	size_t nd = 0, at = 0;
	int exp10;

	if (v == 0 || !isfinite(v)) {
		snprintf(buf, len, "%s", v == 0 ? (signbit(v) ? "-0.0" : "0.0") :
			 isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(digits, sizeof(digits), "%.*e", prec - 1, fabs(v));
		if (strtod(digits, NULL) == fabs(v))
			break;
	}
	/* digits: d[.ddd]e[+-]XX */
	exp10 = atoi(strchr(digits, 'e') + 1);
	for (const char *p = digits; *p != 'e'; p++)
		if (isdigit((unsigned char)*p))
			mant[nd++] = *p;
	while (nd > 1 && mant[nd - 1] == '0')
		nd--;
	if (v < 0)
		out[at++] = '-';
	if (exp10 < -4 || exp10 >= 16) {
		out[at++] = mant[0];
		out[at++] = '.';
		for (size_t i = 1; i < nd; i++)
			out[at++] = mant[i];
		if (nd == 1)
			out[at++] = '0';
		snprintf(out + at, sizeof(out) - at, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
		snprintf(buf, len, "%s", out);
		return;
	}
	if (exp10 < 0) {	/* 0.000ddd */
		out[at++] = '0';
		out[at++] = '.';
		for (int i = -1; i > exp10; i--)
			out[at++] = '0';
		for (size_t i = 0; i < nd; i++)
			out[at++] = mant[i];
	} else {		/* ddd.ddd, at least one digit after the point */
		for (int i = 0; i <= exp10; i++)
			out[at++] = (size_t)i < nd ? mant[i] : '0';
		out[at++] = '.';
		for (size_t i = (size_t)exp10 + 1; i < nd; i++)
			out[at++] = mant[i];
		if ((size_t)exp10 + 1 >= nd)
			out[at++] = '0';
	}
	out[at] = '\0';
	snprintf(buf, len, "%s", out);
}

void sched_lkp_format(const char *key, double value, char *buf, size_t len)
{
	if (strstr(key, "wait_and_delay.count."))
		snprintf(buf, len, "%.0f", value);
	else
		ruby_float(value, buf, len);
}

struct file_arg {
	struct sched_lkp	*k;
	char			line[8192];
};

static int add_line(const struct sched_line *l, void *arg)
{
	struct file_arg *a = arg;

	sched_line_format(l, a->line, sizeof(a->line));
	return sched_lkp_add_line(a->k, a->line);
}

int sched_lkp_file(const char *path, const struct sched_opts *o, const char *prefix,
		   struct kv_list *out, struct sched_stats *st, char *err, size_t errlen)
{
	struct file_arg *a = calloc(1, sizeof(*a));
	int ret;

	if (!a || !(a->k = sched_lkp_new())) {
		free(a);
		return err_set(err, errlen, -ENOMEM, "out of memory");
	}
	ret = sched_timehist(path, o, add_line, a, st, err, errlen);
	if (!ret)
		ret = sched_lkp_keys(a->k, prefix, out);
	if (ret == -ENOMEM && !err[0])
		err_set(err, errlen, ret, "out of memory");
	sched_lkp_free(a->k);
	free(a);
	return ret;
}
