// SPDX-License-Identifier: GPL-2.0
/*
 * params.c - k=v workload parameters: parsing with LKP's units (lib/unit.rb: binary K..P
 * suffixes, "300s"), and the result path's <params> component (lib/job.rb path_params).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/wl-int.h"

static const char *const thp_names[] = {
	[WL_THP_SYSTEM] = "system", [WL_THP_ALWAYS] = "always",
	[WL_THP_MADVISE] = "madvise", [WL_THP_NEVER] = "never",
};

void wl_params_init(struct wl_params *p)
{
	memset(p, 0, sizeof(*p));
}

/* to_byte: "512G" -> 512 << 30. Fractions are allowed ("1.5G"). */
static int parse_bytes(const char *s, uint64_t *out)
{
	static const char suffixes[] = "KMGTP";
	const char *sfx;
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0 || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	if (*end) {
		sfx = strchr(suffixes, toupper((unsigned char)*end));
		if (!sfx || !*sfx)
			return -EINVAL;
		v = ldexp(v, 10 * (int)(sfx - suffixes + 1));
		end++;
		if (*end == 'B' || *end == 'b')
			end++;
		if (*end)
			return -EINVAL;
	}
	if (v >= 18446744073709551615.0)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

static int parse_uint(const char *s, uint64_t max, const char *suffix, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v > max)
		return -ERANGE;
	if (*end && (!suffix || strcmp(end, suffix)))
		return -EINVAL;
	*out = v;
	return 0;
}

int wl_params_set(struct wl_params *p, const char *kv, char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	const char *v;
	size_t klen;
	uint64_t u;
	int ret = -EINVAL, bit = 0;

	if (!eq || eq == kv || !eq[1])
		return err_set(err, errlen, -EINVAL, "'%s': parameters are key=value", kv);
	klen = (size_t)(eq - kv);
	v = eq + 1;
#define KEY(name) (klen == strlen(name) && !strncmp(kv, name, klen))
	if (KEY("nr_task")) {
		ret = parse_uint(v, 4096, NULL, &u);
		p->nr_task = (long)u;
		bit = WL_P_NR_TASK;
	} else if (KEY("unit_size")) {
		ret = parse_bytes(v, &p->unit_size);
		bit = WL_P_UNIT_SIZE;
	} else if (KEY("size")) {
		ret = parse_bytes(v, &p->size);
		bit = WL_P_SIZE;
	} else if (KEY("runtime") || KEY("testtime")) {
		ret = parse_uint(v, 86400, "s", &u);
		if (!ret && !u)
			ret = -EINVAL;
		p->runtime = (unsigned int)u;
		bit = WL_P_RUNTIME;
	} else if (KEY("seed")) {
		ret = parse_uint(v, UINT64_MAX, NULL, &p->seed);
		bit = WL_P_SEED;
	} else if (KEY("thp")) {
		for (size_t i = 0; i < sizeof(thp_names) / sizeof(thp_names[0]); i++)
			if (!strcmp(v, thp_names[i])) {
				p->thp = (enum wl_thp)i;
				ret = 0;
			}
		bit = WL_P_THP;
	} else {
		return err_set(err, errlen, -EINVAL, "'%.*s': unknown parameter (nr_task, "
			       "unit_size, size, runtime, testtime, seed, thp)", (int)klen, kv);
	}
#undef KEY
	if (ret)
		return err_set(err, errlen, -EINVAL, "'%s': bad value for %.*s", kv, (int)klen, kv);
	p->set |= (unsigned int)bit;
	return 0;
}

/* A byte count the way LKP jobs write it: "256M", "8T", or plain bytes. */
static void format_bytes(char *buf, size_t len, uint64_t v)
{
	static const char suffixes[] = "PTGMK";
	int shift;

	for (int i = 0; i < 5; i++) {
		shift = 10 * (5 - i);
		if (v && !(v & ((1ULL << shift) - 1))) {
			snprintf(buf, len, "%" PRIu64 "%c", v >> shift, suffixes[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, v);
}

/* The workload's effective parameters, sorted by name: name[i], value[i]. */
static size_t effective(const struct workload *w, const struct wl_params *p,
			const char *names[6], char values[6][32])
{
	size_t n = 0;

	if (w->kind == WL_AIM9) {
		names[n] = "testtime";
		snprintf(values[n++], 32, "%us", p->runtime);
		return n;
	}
	names[n] = "nr_task";
	snprintf(values[n++], 32, "%ld", p->nr_task);
	names[n] = "runtime";
	snprintf(values[n++], 32, "%us", p->runtime);
	if (p->set & WL_P_SEED) {
		names[n] = "seed";
		snprintf(values[n++], 32, "%" PRIu64, p->seed);
	}
	names[n] = "size";
	if (p->size)
		format_bytes(values[n++], 32, p->size);
	else
		snprintf(values[n++], 32, "once");
	if (p->set & WL_P_THP) {
		names[n] = "thp";
		snprintf(values[n++], 32, "%s", thp_names[p->thp]);
	}
	names[n] = "unit_size";
	format_bytes(values[n++], 32, p->unit_size);
	return n;
}

int workload_path_params(const struct workload *w, const struct wl_params *p, char *buf,
			 size_t len)
{
	const char *names[6];
	char values[6][32];
	size_t n = effective(w, p, names, values), pos = 0;

	if (!len)
		return -EINVAL;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; values[i][j] && j < 31; j++) {
			char c = values[i][j];

			if (pos + 2 >= len)
				return -ENAMETOOLONG;
			if (!isalnum((unsigned char)c) && !strchr("-+=:.%", c))
				c = '_';
			buf[pos++] = c;
		}
		if (i + 1 < n)
			buf[pos++] = '-';
		buf[pos] = '\0';
	}
	return 0;
}

int workload_params_json(const struct workload *w, const struct wl_params *p, FILE *fp)
{
	const char *names[6];
	char values[6][32];
	size_t n = effective(w, p, names, values);

	fputc('{', fp);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%s\"%s\": \"%s\"", i ? ", " : "", names[i], values[i]);
	fputc('}', fp);
	return ferror(fp) ? -EIO : 0;
}
