// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-export.c - `kprof export`: a perf.data file (or a `kprof run` directory's) as pprof's
 * gzip-compressed profile.proto or as speedscope's JSON, for the tools that read those
 * (go tool pprof, Pyroscope, Parca, Grafana, speedscope). docs/export.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profiler/export/export.h"
#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/profile.h"

enum export_format { EXPORT_PPROF, EXPORT_SPEEDSCOPE, EXPORT_CHROME };

struct export_args {
	const char		*input;
	const char		*output;
	const char		*event;
	enum export_format	format;
	struct profile_load_opts load;
	struct export_opts	opts;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof export --format pprof|speedscope|chrome [-i FILE|RUN-DIR] [-o FILE]\n"
		"                    [--event NAME] [--per-thread] [--weight period|samples]\n"
		"                    [--vmlinux PATH] [--kallsyms PATH]\n"
		"\n"
		"  -f, --format FMT      pprof: gzip-compressed profile.proto (go tool pprof,\n"
		"                        Pyroscope, Parca); speedscope: speedscope's JSON;\n"
		"                        chrome: Chrome DevTools' .cpuprofile\n"
		"  -i, --input PATH      perf.data, or a kprof run directory holding one\n"
		"                        (default: perf.data)\n"
		"  -o, --output FILE     where to write; - for standard output (default:\n"
		"                        profile.pb.gz, profile.speedscope.json or\n"
		"                        profile.cpuprofile)\n"
		"  -e, --event NAME      the event to export (default: the first with samples)\n"
		"      --per-thread      speedscope: one profile per thread, not per comm\n"
		"      --weight W        speedscope, chrome: period (default) or samples\n"
		"      --vmlinux PATH    kernel image with symbols\n"
		"      --kallsyms PATH   kallsyms text (default: FILE.kallsyms, else /proc/kallsyms)\n"
		"  -h, --help            this text\n");
}

static int parse_args(int argc, char **argv, struct export_args *a)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "per-thread", no_argument, NULL, 'T' },
		{ "weight", required_argument, NULL, 'w' },
		{ "vmlinux", required_argument, NULL, 'V' },
		{ "kallsyms", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool have_format = false;
	int c;

	*a = (struct export_args){ .input = "perf.data" };
	/* labels and per-thread profiles need the tasks' pid and tid */
	a->load.keep_pid = a->load.keep_tid = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, "f:i:o:e:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!strcmp(optarg, "pprof"))
				a->format = EXPORT_PPROF;
			else if (!strcmp(optarg, "speedscope"))
				a->format = EXPORT_SPEEDSCOPE;
			else if (!strcmp(optarg, "chrome"))
				a->format = EXPORT_CHROME;
			else
				return pr_err("export: unknown format '%s' (pprof, speedscope or "
					      "chrome)", optarg), -1;
			have_format = true;
			break;
		case 'i':
			a->input = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'e':
			a->event = optarg;
			break;
		case 'T':
			a->opts.per_thread = true;
			break;
		case 'w':
			if (strcmp(optarg, "period") && strcmp(optarg, "samples"))
				return pr_err("export: --weight is period or samples"), -1;
			a->opts.weight_samples = !strcmp(optarg, "samples");
			break;
		case 'V':
			a->load.vmlinux = optarg;
			break;
		case 'K':
			a->load.kallsyms = optarg;
			break;
		case 'h':
			return 1;
		default:
			return -1;
		}
	}
	if (optind < argc)
		return pr_err("export: unexpected argument '%s'", argv[optind]), -1;
	if (!have_format)
		return pr_err("export: --format pprof, speedscope or chrome is required"), -1;
	if (!a->output)
		a->output = a->format == EXPORT_PPROF ? "profile.pb.gz" :
			    a->format == EXPORT_SPEEDSCOPE ? "profile.speedscope.json" :
							      "profile.cpuprofile";
	return 0;
}

/* A run directory stands for its perf.data. Returns the path to read (malloc'ed) or NULL. */
static char *input_path(const char *input)
{
	struct stat sb;
	char *path;

	if (stat(input, &sb) || !S_ISDIR(sb.st_mode))
		return strdup(input);
	if (asprintf(&path, "%s/perf.data", input) < 0)
		return NULL;
	return path;
}

struct export_job {
	const struct export_args	*a;
	struct export_event		ev;
	struct export_opts		opts;
};

static int write_export(FILE *fp, void *arg)
{
	struct export_job *j = arg;

	switch (j->a->format) {
	case EXPORT_PPROF:
		return export_pprof(fp, &j->ev, &j->opts);
	case EXPORT_SPEEDSCOPE:
		return export_speedscope(fp, &j->ev, &j->opts);
	default:
		return export_chrome(fp, &j->ev, &j->opts);
	}
}

/* The event to export, or NULL (said why). Others with samples are named on stderr. */
static const struct profile_event *pick_event(const struct export_args *a,
					      const struct profile *p, const char *path)
{
	const struct profile_event *e = NULL;

	for (size_t i = 0; i < p->nr_events && !e; i++)
		if (!a->event || !strcmp(p->events[i].name, a->event))
			e = &p->events[i];
	if (!e) {
		if (a->event)
			pr_err("%s: no samples of event '%s'", path, a->event);
		else
			pr_err("%s: no samples", path);
		return NULL;
	}
	for (size_t i = 0; i < p->nr_events; i++)
		if (&p->events[i] != e)
			pr_warn("%s: event '%s' (%llu samples) not exported: one event per file "
				"(--event NAME)", path, p->events[i].name,
				(unsigned long long)p->events[i].nr_samples);
	return e;
}

static int export_profile(const struct export_args *a, const struct profile *p,
			  const char *path)
{
	const struct profile_event *e = pick_event(a, p, path);
	struct export_build_id *ids = calloc(p->nr_build_ids + 1, sizeof(*ids));
	char comments[4][512];
	const char *cptr[4];
	struct export_job j = { .a = a, .opts = a->opts };
	int ret;

	if (!e || !ids) {
		free(ids);
		return e ? -ENOMEM : -ENODATA;
	}
	for (size_t i = 0; i < p->nr_build_ids; i++)
		ids[i] = (struct export_build_id){ .filename = p->build_ids[i].filename,
						   .id = p->build_ids[i].id,
						   .size = p->build_ids[i].size };
	snprintf(comments[0], sizeof(comments[0]), "kprof %s export of %s", KPROF_VERSION, path);
	snprintf(comments[1], sizeof(comments[1]), "host: %s", p->hostname ? p->hostname : "?");
	snprintf(comments[2], sizeof(comments[2]), "kernel: %s",
		 p->osrelease ? p->osrelease : "?");
	snprintf(comments[3], sizeof(comments[3]), "command: %s", p->cmdline ? p->cmdline : "?");
	for (int i = 0; i < 4; i++)
		cptr[i] = comments[i];
	j.ev = (struct export_event){ .name = e->name, .cg = e->cg, .period = e->period,
				      .freq = e->freq };
	j.opts.build_ids = ids;
	j.opts.nr_build_ids = p->nr_build_ids;
	j.opts.comments = cptr;
	j.opts.nr_comments = 4;
	if (!strcmp(a->output, "-")) {
		ret = write_export(stdout, &j);
		if (!ret && fflush(stdout))
			ret = -errno;
	} else {
		ret = write_file_atomic(a->output, write_export, &j);
	}
	free(ids);
	if (ret)
		pr_err("%s: cannot write %s: %s", path, a->output, strerror(-ret));
	return ret;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a;
	struct profile *p;
	char err[512], *path;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret) {
		usage(ret > 0 ? stdout : stderr);
		return ret > 0 ? KPROF_EXIT_OK : KPROF_EXIT_USAGE;
	}
	path = input_path(a.input);
	if (!path) {
		pr_err("export: out of memory");
		return KPROF_EXIT_ERROR;
	}
	ret = profile_load(path, &a.load, &p, err, sizeof(err));
	if (ret) {
		pr_err("%s: %s", path, err);
		free(path);
		return KPROF_EXIT_ERROR;
	}
	warn_stale_files(path, p);
	ret = export_profile(&a, p, path);
	profile_free(p);
	free(path);
	return ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
}
