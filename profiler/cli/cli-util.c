// SPDX-License-Identifier: GPL-2.0
/*
 * cli-util.c - the one way kprof reports a failure to the user (see cmd-int.h):
 *
 *   kprof: error: <file>: <reason>                       a command failed (exit 1)
 *   kprof: error: <cmd>: --opt 'value': <what is valid>  a bad option value (exit 2)
 *   kprof: error: <cmd>: <what is wrong> (see 'kprof help <cmd>')   other usage errors (exit 2)
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "profiler/cli/cmd-int.h"
#include "profiler/lib/lib.h"

int cli_fail(const char *subject, int ret, const char *err)
{
	const char *why = err && err[0] ? err : strerror(ret < 0 ? -ret : ret);

	if (subject)
		pr_err("%s: %s", subject, why);
	else
		pr_err("%s", why);	/* @err names the file already */
	return KPROF_EXIT_ERROR;
}

int cli_bad_value(const char *cmd, const char *opt, const char *value, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pr_err("%s: %s '%s': %s", cmd, opt, value, what);
	return KPROF_EXIT_USAGE;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	pr_err("%s: %s (see 'kprof help %s')", cmd, what, cmd);
	return KPROF_EXIT_USAGE;
}

int cli_bad_option(const char *cmd, char **argv, const char *optstring,
		   const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	char shortopt[3] = { '-', (char)optopt, '\0' };
	const char *p;

	if (!strncmp(arg, "--", 2) && arg[2]) {
		size_t len = strcspn(arg + 2, "=");

		for (const struct option *o = longopts; o && o->name; o++)
			if (strlen(o->name) == len && !strncmp(o->name, arg + 2, len) &&
			    o->has_arg == required_argument)
				return cli_usage_error(cmd, "--%s needs a value", o->name);
		return cli_usage_error(cmd, "%.*s: unknown option", (int)(len + 2), arg);
	}
	p = optopt ? strchr(optstring, optopt) : NULL;
	if (p && p[1] == ':')
		return cli_usage_error(cmd, "%s needs a value", shortopt);
	return cli_usage_error(cmd, "%s: unknown option", optopt ? shortopt : arg);
}

int cli_bad_target(const char *cmd, int c, const char *value, const char *what)
{
	const char *opt = c == 'p' ? "-p" : c == 'e' ? "-e" : c == 'C' ? "-C" : "--duration";

	return cli_bad_value(cmd, opt, value, "%s", what);
}
