// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - `kprof report`: a perf.data file as LKP perf-profile keys (what LKP's parser
 * makes of `perf report --children --header -U -g folded,0.5,callee --sort=dso,symbol`), as a
 * Children/Self table, or as the same keys in JSON.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/cli/cmd-int.h"
#include "profiler/cli/cmd-report-int.h"
#include "profiler/lib/lib.h"
#include "profiler/perfdata/perfdata.h"
#include "profiler/profile/profile.h"

enum report_format { FORMAT_LKP, FORMAT_TABLE, FORMAT_JSON };

#define MAX_LIST	64

struct report_args {
	const char		*input;
	enum report_format	format;
	bool			format_given;
	bool			table_opts;	/* an option only the table knows was given */
	struct table_opts	to;
	enum table_sort_key	sort[4];
	char			*lists[3];	/* --comm, --pid, --dso copies (strtok) */
	const char		*comms[MAX_LIST], *dsos[MAX_LIST];
	int			pids[MAX_LIST];
	struct profile_load_opts load;
	bool			weight_samples;
	double			calltrace_min;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: kprof report [-i FILE] [--format lkp|table|json] [--vmlinux PATH]\n"
		"                    [--kallsyms PATH] [--weight period|samples]\n"
		"                    [--calltrace-min PCT] [--sort KEYS] [--comm C,...]\n"
		"                    [--pid P,...] [--dso D,...] [--percent-limit P]\n"
		"                    [--no-children] [--stdio] [-g caller|callee[,MIN]]\n"
		"\n"
		"  -i, --input FILE      perf.data to read (default: perf.data; -: stdin,\n"
		"                        also a pipe: perf record -o - ... | kprof report -i -)\n"
		"  -f, --format FMT      lkp: perf-profile.* keys as LKP derives them (default\n"
		"                        when stdout is not a terminal);\n"
		"                        table: Children/Self per symbol (default on a terminal);\n"
		"                        json: the lkp keys and the call tree as JSON\n"
		"      --vmlinux PATH    kernel image with symbols (default: usual places, then\n"
		"                        kallsyms)\n"
		"      --kallsyms PATH   kallsyms text (default: FILE.kallsyms, else\n"
		"                        /proc/kallsyms)\n"
		"      --weight W        period (default) or samples\n"
		"      --calltrace-min P folded call-chain threshold in percent (default 0.5)\n"
		"table options (they imply --format table):\n"
		"  -s, --sort KEYS       rows by comm, pid, dso, sym (comma list; dso,sym)\n"
		"      --comm C,...      only samples of these commands\n"
		"      --pid P,...       only samples of these processes\n"
		"  -d, --dso D,...       only rows of these modules (path or file name)\n"
		"      --percent-limit P hide rows below P percent\n"
		"      --no-children     one Self (Overhead) column, sorted by it\n"
		"  -g, --call-graph O[,MIN]  under each row its call chains: caller (what it\n"
		"                        calls) or callee (who calls it), each >= MIN%% (0.5)\n"
		"      --stdio           accepted, as perf's (the output is always text)\n"
		"  -h, --help            this text\n");
}

static void report_args_release(struct report_args *a)
{
	for (size_t i = 0; i < 3; i++)
		free(a->lists[i]);
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "vmlinux", required_argument, NULL, 'V' },
		{ "kallsyms", required_argument, NULL, 'K' },
		{ "weight", required_argument, NULL, 'w' },
		{ "calltrace-min", required_argument, NULL, 'c' },
		{ "sort", required_argument, NULL, 's' },
		{ "comm", required_argument, NULL, 'C' },
		{ "pid", required_argument, NULL, 'P' },
		{ "dso", required_argument, NULL, 'd' },
		{ "percent-limit", required_argument, NULL, 'L' },
		{ "no-children", no_argument, NULL, 'N' },
		{ "stdio", no_argument, NULL, 'S' },
		{ "call-graph", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	*a = (struct report_args){ .input = "perf.data", .calltrace_min = 0.5 };
	a->to.sort = a->sort;
	a->to.show_unresolved = true;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "i:f:s:d:g:h", longopts, NULL)) != -1) {
		if (c && strchr("sCPdLNg", c))
			a->table_opts = true;
		switch (c) {
		case 's':
			if (report_parse_sort(optarg, a->sort, &a->to.nr_sort))
				return cli_bad_value("report", "--sort", optarg, "keys are comm, pid, dso, sym "
						     "(each once, comma separated)"), -1;
			break;
		case 'C':
		case 'd':
			if (report_parse_list(optarg, &a->lists[c == 'C' ? 0 : 2],
					      c == 'C' ? a->comms : a->dsos,
					      c == 'C' ? &a->to.nr_comms : &a->to.nr_dsos, MAX_LIST))
				return cli_bad_value("report", c == 'C' ? "--comm" : "--dso", optarg,
						     "names, comma separated"), -1;
			break;
		case 'P':
			if (report_parse_pids(optarg, a->pids, &a->to.nr_pids, MAX_LIST))
				return cli_bad_value("report", "--pid", optarg,
						     "process ids, comma separated"), -1;
			break;
		case 'L':
			a->to.min_percent = strtod(optarg, &end);
			if (end == optarg || *end || a->to.min_percent < 0 || a->to.min_percent > 100)
				return cli_bad_value("report", "--percent-limit", optarg,
						     "a percentage from 0 to 100"), -1;
			break;
		case 'N':
			a->to.no_children = true;
			break;
		case 'S':
			break;
		case 'g':
			if (report_parse_callchain(optarg, &a->to.callchain, &a->to.chain_min))
				return cli_bad_value("report", "-g", optarg, "caller or callee, "
						     "optionally ,MIN (percent)"), -1;
			break;
		case 'i':
			a->input = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "lkp"))
				a->format = FORMAT_LKP;
			else if (!strcmp(optarg, "table"))
				a->format = FORMAT_TABLE;
			else if (!strcmp(optarg, "json"))
				a->format = FORMAT_JSON;
			else
				return cli_bad_value("report", "--format", optarg,
						     "lkp, table or json"), -1;
			a->format_given = true;
			break;
		case 'V':
			a->load.vmlinux = optarg;
			break;
		case 'K':
			a->load.kallsyms = optarg;
			break;
		case 'w':
			if (strcmp(optarg, "period") && strcmp(optarg, "samples"))
				return cli_bad_value("report", "--weight", optarg,
						     "period or samples"), -1;
			a->weight_samples = !strcmp(optarg, "samples");
			break;
		case 'c':
			a->calltrace_min = strtod(optarg, &end);
			if (end == optarg || *end || a->calltrace_min < 0 || a->calltrace_min > 100)
				return cli_bad_value("report", "--calltrace-min", optarg,
						     "a percentage, 0 to 100"), -1;
			break;
		case 'h':
			return 1;
		default:
			return cli_bad_option("report", argv, "i:f:s:d:g:h", longopts), -1;
		}
	}
	if (optind < argc)
		return cli_usage_error("report", "unexpected argument '%s'", argv[optind]), -1;
	if (a->table_opts && a->format_given && a->format != FORMAT_TABLE)
		return cli_usage_error("report", "--sort, --comm, --pid, --dso, --percent-limit and "
			      "--no-children shape the table, not LKP's keys (--format table)"), -1;
	if (a->to.callchain && (a->to.nr_sort || a->to.nr_comms || a->to.nr_pids ||
				a->to.nr_dsos || a->to.no_children))
		return cli_usage_error("report", "-g draws the chains of the Children table (dso,sym): not "
			      "with --sort, --comm, --pid, --dso or --no-children"), -1;
	/* a person reads a table; a pipe (LKP's parsers) gets the keys */
	if (!a->format_given)
		a->format = a->table_opts || isatty(STDOUT_FILENO) ? FORMAT_TABLE : FORMAT_LKP;
	/* stacks keep their process only when asked: it multiplies the distinct stacks */
	a->load.keep_pid = a->to.nr_pids > 0;
	for (size_t i = 0; i < a->to.nr_sort; i++)
		a->load.keep_pid |= a->sort[i] == TABLE_SORT_PID;
	a->to.comms = a->comms;
	a->to.dsos = a->dsos;
	a->to.pids = a->pids;
	if (!a->to.nr_sort) {
		a->sort[0] = TABLE_SORT_DSO;
		a->sort[1] = TABLE_SORT_SYM;
		a->to.nr_sort = 2;
	}
	return 0;
}

/* What DWARF unwinding (--call-graph dwarf) could not do, one line each. */
static void warn_unwind(const char *input, const struct profile *p)
{
	static const char *const why[] = {
		[UNWIND_ABI32] = "of 32-bit processes (kprof unwinds x86_64 stacks only)",
		[UNWIND_NO_REGS] = "without the registers DWARF unwinding needs",
		[UNWIND_ARCH] = "of another architecture (kprof unwinds x86_64 stacks only)",
	};

	for (size_t i = UNWIND_ABI32; i < sizeof(why) / sizeof(why[0]); i++)
		if (p->nr_not_unwound[i])
			pr_warn("%s: %llu samples with a user stack copy %s: their user frames "
				"are missing", input, (unsigned long long)p->nr_not_unwound[i],
				why[i]);
	if (p->nr_unwind_guessed)
		pr_warn("%s: %llu samples unwound to a frame where perf 6.1 finds no CFI and guesses "
			"callers from %%rbp (libunwind's frame-chain fallback): kprof ends their call "
			"chains there", input, (unsigned long long)p->nr_unwind_guessed);
	if (p->nr_unwind_unplaced)
		pr_warn("%s: %llu samples unwound to a frame in a file that libdwfl cannot place "
			"where it is mapped (e.g. %s, mapped a second time elsewhere): kprof ends their "
			"call chains there, perf goes on", input,
			(unsigned long long)p->nr_unwind_unplaced, p->first_unplaced);
}

void warn_stale_files(const char *input, const struct profile *p)
{
	warn_unwind(input, p);
	if (p->kernel_build_id_missing[0])
		pr_warn("%s: no kallsyms or vmlinux with the recorded kernel's build-id %s (not this "
			"machine's kernel, not in perf's build-id cache): kernel frames are unresolved",
			input, p->kernel_build_id_missing);
	if (p->nr_stale_files)
		pr_warn("%s: %llu mapped file%s rebuilt since the recording (build-id differs, e.g. "
			"%s) and not in perf's build-id cache: %s frames are unresolved",
			input, (unsigned long long)p->nr_stale_files,
			p->nr_stale_files == 1 ? "" : "s", p->first_stale,
			p->nr_stale_files == 1 ? "its" : "their");
	if (p->nr_names_unread)
		pr_warn("%s: %llu symbol%s not named: %s changed on disk after kprof read its symbol "
			"table (or could not be read again); their frames are unresolved", input,
			(unsigned long long)p->nr_names_unread, p->nr_names_unread == 1 ? "" : "s",
			p->first_names_unread);
	if (p->nr_stale_modules)
		pr_warn("%s: %llu kernel module%s with another build-id on this machine than "
			"recorded, or not loaded (e.g. %s), and not in perf's build-id cache: %s "
			"frames are unresolved", input, (unsigned long long)p->nr_stale_modules,
			p->nr_stale_modules == 1 ? "" : "s", p->first_stale_module,
			p->nr_stale_modules == 1 ? "its" : "their");
	if (p->nr_early_modules && p->first_early_symbol)
		pr_warn("%s: %llu kernel module%s named from kallsyms had a frame before any kernel "
			"frame (e.g. %s): perf 6.1 leaves the frames it meets before loading the "
			"kernel's kallsyms unnamed, and %s (the module's first symbol) unnamed for "
			"good; kprof names them", input, (unsigned long long)p->nr_early_modules,
			p->nr_early_modules == 1 ? "" : "s", p->first_early_module,
			p->first_early_symbol);
	else if (p->nr_early_modules)
		pr_warn("%s: %llu kernel module%s named from kallsyms (e.g. %s) and no kernel frame: "
			"perf 6.1 never loads the kernel's kallsyms then and leaves %s frames "
			"unnamed; kprof names them", input, (unsigned long long)p->nr_early_modules,
			p->nr_early_modules == 1 ? "" : "s", p->first_early_module,
			p->nr_early_modules == 1 ? "its" : "their");
}

/* What the file holds and kprof did not use, each in one line: never a silent difference. */
void warn_profile_notes(const char *input, const struct profile *p)
{
	warn_stale_files(input, p);
	if (p->nr_plt_shadowed)
		pr_warn("%s: %llu PLT stub address%s also covered by a symbol without a size (e.g. "
			"%s in %s, covered by %s): perf 6.1 names such an address by whichever of the "
			"two its symbol tree meets first, so it may show %s+OFF where kprof shows the "
			"stub", input, (unsigned long long)p->nr_plt_shadowed,
			p->nr_plt_shadowed == 1 ? "" : "es", p->first_plt_stub, p->first_plt_file,
			p->first_plt_shadow, p->first_plt_shadow);
	if (p->nr_auxtrace)
		pr_warn("%s: %llu AUXTRACE records (%s) ignored: their %llu bytes of trace are not "
			"decoded into samples", input, (unsigned long long)p->nr_auxtrace,
			pd_auxtrace_name(p->auxtrace_type), (unsigned long long)p->auxtrace_bytes);
	if (p->nr_late_headers)
		pr_warn("%s: %llu header records ignored (pipe-mode features or build-ids after "
			"the first sample, or attrs in a file's data section)", input,
			(unsigned long long)p->nr_late_headers);
	if (p->nr_self_elsewhere)
		pr_debug("%s: %llu samples have their ip in another function than their call "
			 "chain's first entry (precise-ip skid or LBR): Self goes to the ip's, the "
			 "chain is used as recorded (as perf does)", input,
			 (unsigned long long)p->nr_self_elsewhere);
}

/* Lost samples and throttling make the percentages less trustworthy: say so on stderr. */
static void report_losses(const char *input, const struct profile *p)
{
	warn_profile_notes(input, p);
	warn_perf_tree(input, p);
	if (p->nr_lost || p->nr_lost_records)
		pr_warn("%s: %llu samples lost (%llu LOST records)", input,
			(unsigned long long)p->nr_lost, (unsigned long long)p->nr_lost_records);
	if (p->nr_lost_samples)
		pr_warn("%s: %llu samples lost (LOST_SAMPLES)", input,
			(unsigned long long)p->nr_lost_samples);
	if (p->nr_throttle)
		pr_warn("%s: sampling was throttled %llu times (unthrottled %llu times)", input,
			(unsigned long long)p->nr_throttle, (unsigned long long)p->nr_unthrottle);
	if (p->nr_unknown_id)
		pr_warn("%s: %llu samples of unknown events skipped", input,
			(unsigned long long)p->nr_unknown_id);
}

struct call_trees {
	const struct report_args	*a;
	const struct profile		*p;
};

/* JSON: the call tree of every event, with the table's numbers (an array, one per event). */
static int write_call_trees(FILE *fp, void *arg)
{
	const struct call_trees *c = arg;
	struct table_opts to = { .weight_samples = c->a->weight_samples, .show_unresolved = true };
	int ret = 0;

	fputs("[", fp);
	for (size_t i = 0; !ret && i < c->p->nr_events; i++) {
		fputs(i ? ",\n  " : "\n  ", fp);
		ret = calltree_write_json(fp, c->p->events[i].name, c->p->events[i].cg, &to);
	}
	fputs("]", fp);
	return ret;
}

static int write_keys(const struct report_args *a, const struct profile *p)
{
	struct call_trees trees = { .a = a, .p = p };
	struct kv_list keys = { 0 };
	int ret = 0;

	for (size_t i = 0; !ret && i < p->nr_events; i++) {
		struct lkp_profile_opts lo = {
			.event = p->events[i].name,
			.calltrace_min = a->calltrace_min,
			.print_min = 0.05,
			.weight_samples = a->weight_samples,
		};

		ret = lkp_profile_keys(p->events[i].cg, &lo, &keys);
	}
	if (!ret) {
		kv_list_sort(&keys);
		ret = a->format == FORMAT_JSON ?
		      kv_list_write_json_member(stdout, &keys, "call_tree", write_call_trees,
						&trees) :
		      kv_list_write_text(stdout, &keys);
	}
	kv_list_release(&keys);
	return ret;
}

static int write_tables(const struct report_args *a, const struct profile *p)
{
	struct table_opts to = a->to;
	bool plain = !a->table_opts || a->to.callchain ||
		     (a->to.min_percent > 0 && !a->to.nr_comms && !a->to.nr_pids &&
		      !a->to.nr_dsos && !a->to.no_children && a->sort[0] == TABLE_SORT_DSO &&
		      a->to.nr_sort == 2);
	int ret = 0;

	to.weight_samples = a->weight_samples;
	for (size_t i = 0; !ret && i < p->nr_events; i++) {
		printf("%s# Event: '%s'\n", i ? "\n" : "", p->events[i].name);
		/* perf's own dso,symbol Children table, byte for byte, unless reshaped */
		ret = plain ? table_write(stdout, p->events[i].cg, &to) :
			      table_write_sorted(stdout, p->events[i].cg, &to);
	}
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a;
	enum profile_input kind;
	struct profile *p;
	char err[512], *file = NULL;
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret) {
		report_args_release(&a);
		if (ret > 0)
			usage(stdout);
		return ret > 0 ? KPROF_EXIT_OK : KPROF_EXIT_USAGE;
	}
	/* the same rule as collapse and flamegraph: a run directory is its perf.data */
	ret = strcmp(a.input, "-") ? profile_input_sniff(a.input, &kind, &file, err, sizeof(err)) : 0;
	if (ret)
		return cli_fail(NULL, ret, err);	/* err names the file */
	if (file)
		a.input = file;
	ret = profile_load(a.input, &a.load, &p, err, sizeof(err));
	if (ret) {
		ret = cli_fail(a.input, ret, err);
		report_args_release(&a);
		free(file);
		return ret;
	}
	report_losses(a.input, p);
	if (!p->nr_events)
		pr_warn("%s: no samples", a.input);
	ret = a.format == FORMAT_TABLE ? write_tables(&a, p) : write_keys(&a, p);
	if (!ret && fflush(stdout))
		ret = -errno;
	profile_free(p);
	report_args_release(&a);
	if (ret)
		pr_err("%s: cannot write the report: %s", a.input, strerror(-ret));
	free(file);
	return ret ? KPROF_EXIT_ERROR : KPROF_EXIT_OK;
}
