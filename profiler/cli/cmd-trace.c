// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-trace.c - `kprof trace`: tracepoint samples of a perf.data, counted per tracepoint, and
 * the top values or a log2 histogram of one field (docs/tracepoints.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/record/record.h"

static const char usage_text[] =
	"usage: kprof trace [-i FILE] [--field NAME [--hist] [--top N]]\n"
	"\n"
	"  -i, --input FILE   perf.data with tracepoint samples (default perf.data)\n"
	"  -f, --field NAME   top values of this field, per tracepoint that has it\n"
	"      --hist         a log2 histogram of the (numeric) field instead\n"
	"      --top N        how many values (default 10)\n";

enum { OPT_HIST = 256, OPT_TOP };

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "field", required_argument, NULL, 'f' },
	{ "hist", no_argument, NULL, OPT_HIST },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define HIST_BUCKETS 65	/* 0, then [2^k, 2^(k+1)) for k = 0..63 */

struct tp_stats {
	const struct pd_evattr *attr;
	struct tep_event	*event;		/* NULL: format unknown */
	struct tep_format_field	*field;		/* --field, when this event has it */
	uint64_t		count, first, last;
	char			**values;	/* --field without --hist: every value */
	size_t			nr_values, alloc;
	uint64_t		hist[HIST_BUCKETS];
	uint64_t		not_numeric;
};

struct trace_args {
	const char	*input, *field;
	bool		hist;
	unsigned long	top;
};

static int add_value(struct tp_stats *t, void *raw, int size)
{
	struct trace_seq seq;

	if (t->nr_values == t->alloc) {
		size_t alloc = t->alloc ? t->alloc * 2 : 256;
		char **v = realloc(t->values, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->values = v;
		t->alloc = alloc;
	}
	trace_seq_init(&seq);
	tep_print_field_content(&seq, raw, size, t->field);
	trace_seq_terminate(&seq);
	t->values[t->nr_values] = strdup(seq.buffer);
	trace_seq_destroy(&seq);
	return t->values[t->nr_values++] ? 0 : -ENOMEM;
}

static void add_hist(struct tp_stats *t, void *raw)
{
	unsigned long long v;
	int b = 0;

	if ((t->field->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY)) ||
	    tep_read_number_field(t->field, raw, &v)) {
		t->not_numeric++;
		return;
	}
	if ((t->field->flags & TEP_FIELD_IS_SIGNED) && t->field->size < 8 &&
	    (v >> (t->field->size * 8 - 1)) & 1)
		v = 0;	/* negative values count in the 0 bucket */
	while (v) {
		b++;
		v >>= 1;
	}
	t->hist[b]++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct value_count {
	const char	*value;
	size_t		count;
};

static int cmp_count(const void *a, const void *b)
{
	const struct value_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->value, y->value);
}

static void print_top(const struct tp_stats *t, unsigned long top)
{
	struct value_count *vc = calloc(t->nr_values + 1, sizeof(*vc));
	size_t n = 0;

	if (!vc)
		return;
	qsort(t->values, t->nr_values, sizeof(*t->values), cmp_str);
	for (size_t i = 0; i < t->nr_values; i++) {
		if (n && !strcmp(vc[n - 1].value, t->values[i]))
			vc[n - 1].count++;
		else
			vc[n++] = (struct value_count){ t->values[i], 1 };
	}
	qsort(vc, n, sizeof(*vc), cmp_count);
	printf("\n%s: top values of %s (%zu distinct)\n", t->attr->name, t->field->name, n);
	printf("%12s %8s  %s\n", "count", "percent", "value");
	for (size_t i = 0; i < n && i < top; i++)
		printf("%12zu %7.2f%%  %s\n", vc[i].count, 100.0 * vc[i].count / t->nr_values,
		       vc[i].value);
	free(vc);
}

static void print_hist(const struct tp_stats *t)
{
	uint64_t max = 0;
	int lo = HIST_BUCKETS, hi = -1;

	for (int b = 0; b < HIST_BUCKETS; b++) {
		if (!t->hist[b])
			continue;
		max = t->hist[b] > max ? t->hist[b] : max;
		lo = b < lo ? b : lo;
		hi = b;
	}
	printf("\n%s: histogram of %s\n", t->attr->name, t->field->name);
	printf("%24s %12s  %s\n", "value range", "count", "distribution");
	for (int b = lo; b <= hi; b++) {
		unsigned long long from = b ? 1ULL << (b - 1) : 0;
		unsigned long long to = b ? (b == 64 ? ~0ULL : (1ULL << b) - 1) : 0;
		char range[48];
		int bar = (int)(40 * t->hist[b] / max);

		snprintf(range, sizeof(range), "%llu .. %llu", from, to);
		printf("%24s %12llu  |%-40.*s|\n", range, (unsigned long long)t->hist[b], bar,
		       "****************************************");
	}
	if (t->not_numeric)
		printf("(%llu values were not numbers)\n", (unsigned long long)t->not_numeric);
}

static int scan(struct pd_reader *r, struct tp_stats *tps,
		const struct trace_args *a, char *err, size_t errlen)
{
	struct pd_record rec;
	int ret;

	while ((ret = pd_reader_next(r, &rec, err, errlen)) == 1) {
		struct pd_sample s;
		struct tp_stats *t;

		if (rec.hdr.type != PERF_RECORD_SAMPLE)
			continue;
		t = &tps[rec.attr->idx];
		if (!t->attr || pd_sample_decode(rec.body, rec.body_len, &rec.attr->attr, &s))
			continue;
		if (!t->count++)
			t->first = s.time;
		t->last = s.time;
		if (!t->field || !s.raw)
			continue;
		if (a->hist)
			add_hist(t, (void *)s.raw);
		else if (add_value(t, (void *)s.raw, (int)s.raw_size))
			return -ENOMEM;
	}
	return ret;
}

static void report(struct tp_stats *tps, size_t n, const struct trace_args *a)
{
	uint64_t first = ~0ULL, last = 0;
	double span;

	for (size_t i = 0; i < n; i++) {
		if (!tps[i].attr || !tps[i].count)
			continue;
		first = tps[i].first < first ? tps[i].first : first;
		last = tps[i].last > last ? tps[i].last : last;
	}
	span = last > first ? (last - first) / 1e9 : 0;
	printf("%-40s %12s %12s\n", "tracepoint", "count", "rate/s");
	for (size_t i = 0; i < n; i++) {
		if (!tps[i].attr)
			continue;
		if (span > 0)
			printf("%-40s %12llu %12.2f\n", tps[i].attr->name,
			       (unsigned long long)tps[i].count, tps[i].count / span);
		else
			printf("%-40s %12llu %12s\n", tps[i].attr->name,
			       (unsigned long long)tps[i].count, "-");
	}
	printf("# %.3f s between the first and the last sample\n", span);
	for (size_t i = 0; a->field && i < n; i++) {
		if (!tps[i].field || !tps[i].count)
			continue;
		if (a->hist)
			print_hist(&tps[i]);
		else
			print_top(&tps[i], a->top);
	}
}

static int parse(int argc, char **argv, struct trace_args *a)
{
	char *end;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:f:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			a->input = optarg;
			break;
		case 'f':
			a->field = optarg;
			break;
		case OPT_HIST:
			a->hist = true;
			break;
		case OPT_TOP:
			a->top = strtoul(optarg, &end, 10);
			if (*end || !a->top)
				return cli_bad_value("trace", "--top", optarg, "a positive integer");
			break;
		case 'h':
			fputs(usage_text, stdout);
			return KPROF_EXIT_OK;
		default:
			return cli_bad_option("trace", argv, "i:f:h", long_opts);
		}
	}
	if (optind < argc)
		return cli_usage_error("trace", "unexpected argument '%s'", argv[optind]);
	if (a->hist && !a->field)
		return cli_usage_error("trace", "--hist needs --field");
	return -1;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_args a = { .input = "perf.data", .top = 10 };
	struct pd_reader *r = NULL;
	struct tep_handle *tep = NULL;
	struct tp_stats *tps = NULL;
	size_t n = 0, nr_tp = 0, with_field = 0;
	char err[256] = "";
	int ret = parse(argc, argv, &a);

	if (ret >= 0)
		return ret;
	ret = pd_reader_open(a.input, &r, err, sizeof(err));
	if (!ret) {
		tep = tep_alloc();
		ret = tep ? tracing_data_load(a.input, tep, err, sizeof(err)) : -ENOMEM;
	}
	if (!ret) {
		n = pd_reader_nr_attrs(r);
		tps = calloc(n, sizeof(*tps));
		ret = tps ? 0 : -ENOMEM;
	}
	for (size_t i = 0; !ret && i < n; i++) {
		const struct pd_evattr *ea = pd_reader_attr(r, i);

		if (ea->attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		tps[i].attr = ea;
		tps[i].event = tep_find_event(tep, (int)ea->attr.config);
		if (a.field && tps[i].event)
			tps[i].field = tep_find_any_field(tps[i].event, a.field);
		with_field += tps[i].field != NULL;
		nr_tp++;
	}
	if (!ret && !nr_tp) {
		snprintf(err, sizeof(err), "no tracepoint events in the file");
		ret = -ENOENT;
	}
	if (!ret && a.field && !with_field) {
		snprintf(err, sizeof(err), "no tracepoint in the file has a field '%s'", a.field);
		ret = -ENOENT;
	}
	if (!ret)
		ret = scan(r, tps, &a, err, sizeof(err));
	if (!ret)
		report(tps, n, &a);
	else
		cli_fail(a.input, ret, err);
	for (size_t i = 0; tps && i < n; i++) {
		for (size_t v = 0; v < tps[i].nr_values; v++)
			free(tps[i].values[v]);
		free(tps[i].values);
	}
	free(tps);
	if (tep)
		tep_free(tep);
	pd_reader_close(r);
	return ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
}
