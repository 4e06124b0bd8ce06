// SPDX-License-Identifier: GPL-2.0
/*
 * usemem-cli.c - usemem's command line, both ways: the vm-scalability runner formats the line a
 * case script would run (the same text goes to the log, as LKP's log_test echoes it), and the
 * usemem executable (workloads/bin/usemem.c) parses it back. Upstream's option names
 * (vm-scalability usemem.c) for what the cases use and for the per-access work of its loop
 * (-j/--step, -e/--delay), plus --random-seed (teawater's fork) and kprof's --thp.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-int.h"

static const char *const thp_opt[] = {
	[WL_THP_SYSTEM] = NULL, [WL_THP_ALWAYS] = "always",
	[WL_THP_MADVISE] = "madvise", [WL_THP_NEVER] = "never",
};

int usemem_format_args(const struct usemem_opts *o, char *buf, size_t len)
{
	const unsigned int f = o->flags;
	int n;

	n = snprintf(buf, len, "--runtime %u %s %u%s%s%s%s%s", o->runtime,
		     o->nr_thread ? "-t" : "-n", o->nr_thread ? o->nr_thread : o->nr_task,
		     (f & WL_UM_PREALLOC) ? " --prealloc" : "",
		     (f & WL_UM_PREFAULT) ? " --prefault" : "",
		     (f & WL_UM_RANDOM) ? " --random" : "",
		     (f & WL_UM_READONLY) ? " --readonly" : "",
		     (f & WL_UM_HUGETLB) ? " -O -U" : "");
	if (n >= 0 && (size_t)n < len && o->step)
		n += snprintf(buf + n, len - (size_t)n, " -j %" PRIu64, o->step);
	if (n >= 0 && (size_t)n < len && o->delay_ns)
		n += snprintf(buf + n, len - (size_t)n, " -e %" PRIu64, o->delay_ns);
	if (n >= 0 && (size_t)n < len && o->seed_set)
		n += snprintf(buf + n, len - (size_t)n, " --random-seed %" PRIu64, o->seed);
	if (n >= 0 && (size_t)n < len && thp_opt[o->thp])
		n += snprintf(buf + n, len - (size_t)n, " --thp %s", thp_opt[o->thp]);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " %" PRIu64, o->bytes);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int number(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end || *v > max ? -EINVAL : 0;
}

/*
 * A number with one optional unit letter: @units lists the letters, @mult their factors
 * (upstream's memparse k/m/g/t for sizes, time_parse u/m for nanoseconds; decimal only).
 */
static int scaled(const char *s, const char *units, const uint64_t *mult, uint64_t max,
		  uint64_t *v)
{
	const char *u;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end) {
		u = strchr(units, *end);
		if (!u || end[1] || *v > max / mult[u - units])
			return -EINVAL;
		*v *= mult[u - units];
	}
	return *v > max ? -EINVAL : 0;
}

int usemem_parse_args(int argc, char **argv, struct usemem_opts *o, char *err, size_t errlen)
{
	enum { OPT_SEED = 256, OPT_THP };
	static const struct option longopts[] = {
		{ "runtime", required_argument, NULL, 'T' },
		{ "nproc", required_argument, NULL, 'n' },
		{ "thread", required_argument, NULL, 't' },
		{ "prealloc", no_argument, NULL, 'P' },
		{ "prefault", no_argument, NULL, 'F' },
		{ "random", no_argument, NULL, 'R' },
		{ "readonly", no_argument, NULL, 'o' },
		{ "anonymous", no_argument, NULL, 'O' },
		{ "hugetlb", no_argument, NULL, 'U' },
		{ "random-seed", required_argument, NULL, OPT_SEED },
		{ "thp", required_argument, NULL, OPT_THP },
		{ "step", required_argument, NULL, 'j' },
		{ "delay", required_argument, NULL, 'e' },
		{ NULL, 0, NULL, 0 },
	};
	static const uint64_t size_mult[] = { 1ull << 10, 1ull << 10, 1ull << 20, 1ull << 20,
					      1ull << 30, 1ull << 30, 1ull << 40, 1ull << 40 };
	static const uint64_t ns_mult[] = { 1000, 1000000 };
	bool anon = false;
	uint64_t v;
	int c;

	memset(o, 0, sizeof(*o));
	o->runtime = 3600;	/* upstream: no --runtime, no limit in practice */
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+T:n:t:PFRoOUj:e:", longopts, NULL)) != -1) {
		switch (c) {
		case 'T':
			if (number(optarg, 86400, &v) || !v)
				return err_set(err, errlen, -EINVAL, "--runtime '%s'", optarg);
			o->runtime = (unsigned int)v;
			break;
		case 'n':
		case 't':
			if (number(optarg, 4096, &v) || !v)
				return err_set(err, errlen, -EINVAL, "-%c '%s': 1..4096", c, optarg);
			*(c == 'n' ? &o->nr_task : &o->nr_thread) = (unsigned int)v;
			break;
		case 'P': o->flags |= WL_UM_PREALLOC; break;
		case 'F': o->flags |= WL_UM_PREFAULT; break;
		case 'R': o->flags |= WL_UM_RANDOM; break;
		case 'o': o->flags |= WL_UM_READONLY; break;
		case 'O': anon = true; break;
		case 'U': o->flags |= WL_UM_HUGETLB; break;
		case 'j':
			if (scaled(optarg, "kKmMgGtT", size_mult, 1ull << 40, &o->step))
				return err_set(err, errlen, -EINVAL, "--step '%s': bytes, with k, m, g "
					       "or t, at most 1t", optarg);
			break;
		case 'e':
			/* upstream's delay loop never ends for a second or more */
			if (scaled(optarg, "um", ns_mult, 999999999, &o->delay_ns))
				return err_set(err, errlen, -EINVAL, "--delay '%s': nanoseconds (u or "
					       "m for us or ms), less than one second", optarg);
			break;
		case OPT_SEED:
			if (number(optarg, UINT64_MAX, &o->seed))
				return err_set(err, errlen, -EINVAL, "--random-seed '%s'", optarg);
			o->seed_set = true;
			break;
		case OPT_THP:
			for (size_t i = 0; i < sizeof(thp_opt) / sizeof(thp_opt[0]); i++)
				if (thp_opt[i] && !strcmp(optarg, thp_opt[i]))
					o->thp = (enum wl_thp)i;
			if (o->thp == WL_THP_SYSTEM)
				return err_set(err, errlen, -EINVAL, "--thp '%s': always, madvise "
					       "or never", optarg);
			break;
		default:
			return err_set(err, errlen, -EINVAL, "unknown or incomplete option '%s'",
				       argv[optind - 1]);
		}
	}
	if (anon != !!(o->flags & WL_UM_HUGETLB))
		return err_set(err, errlen, -EINVAL, "-O and -U go together (anonymous memory "
			       "is only used for hugetlb here)");
	if (o->nr_task && o->nr_thread)
		return err_set(err, errlen, -EINVAL, "-n and -t together are not implemented");
	if (optind != argc - 1 || number(argv[optind], UINT64_MAX, &o->bytes) || !o->bytes)
		return err_set(err, errlen, -EINVAL, "expected one size in bytes after the options");
	return 0;
}

int usemem_main(int argc, char **argv)
{
	struct usemem_opts o;
	char err[512] = "";
	int ret;

	if (usemem_parse_args(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "usemem: %s\n", err);
		return 2;
	}
	ret = usemem_run(&o, stdout, err, sizeof(err));
	fflush(stdout);
	if (ret) {
		fprintf(stderr, "usemem: %s\n", err[0] ? err : strerror(-ret));
		return 1;
	}
	return 0;
}
