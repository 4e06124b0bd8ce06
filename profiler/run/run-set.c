// SPDX-License-Identifier: GPL-2.0
/*
 * run-set.c - what makes the runs of one result set belong together, and what they share.
 *
 *  - The set's name (`kprof run --name`, default the kernel release) is its directory, so it
 *    must be one path component.
 *  - The kernel build: two builds of one release (`uname -r`) differ in `uname -v` (build number
 *    and date) and usually in their configuration. A run whose build differs from the set's
 *    earlier runs is refused, or the set would silently average two kernels.
 *  - The kallsyms snapshot: 5 MB per run, identical while no module is loaded; a run's copy is
 *    replaced by a hard link to the set's when the bytes are the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "output/output.h"
#include "profiler/lib/lib.h"
#include "profiler/run/run-int.h"

#define CONFIG_GZ	"/proc/config.gz"

bool run_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > 64 || name[0] == '.' || name[0] == '-')
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") ==
	       n;
}

/* FNV-1a, 64 bits: an identity, not a defence against anyone. */
static int hash_file(const char *path, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ULL;
	close(fd);
	if (n < 0)
		return -EIO;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

void run_kernel_identify(struct run_kernel *k)
{
	struct utsname uts;
	char path[300];

	memset(k, 0, sizeof(*k));
	if (!uname(&uts)) {
		snprintf(k->release, sizeof(k->release), "%s", uts.release);
		snprintf(k->version, sizeof(k->version), "%s", uts.version);
	}
	/* the running kernel's own config when built in, else the distribution's copy */
	if (hash_file(CONFIG_GZ, k->config_hash)) {
		snprintf(path, sizeof(path), "/boot/config-%s", k->release);
		if (hash_file(path, k->config_hash))
			k->config_hash[0] = 0;
	}
}

static char *meta_field(const struct json_object *o, const char *key)
{
	const struct json_member *m = json_get(o, key);

	return m && m->type == JSON_STRING ? m->str : NULL;
}

int run_check_set_kernel(const char *base, const struct run_kernel *k, char *err,
			 size_t errlen)
{
	int last = run_next_number(base);

	for (int i = 0; i < last; i++) {
		char path[4200], jerr[256];
		struct json_object o;
		const char *version, *hash;
		bool differ;

		snprintf(path, sizeof(path), "%s/%d/meta.json", base, i);
		if (access(path, F_OK) || json_read_file(path, &o, jerr, sizeof(jerr)))
			continue;	/* a run without meta.json says nothing about its kernel */
		version = meta_field(&o, "kernel_version");
		hash = meta_field(&o, "kernel_config_hash");
		differ = version && strcmp(version, k->version);
		if (!differ && hash && hash[0] && k->config_hash[0])
			differ = strcmp(hash, k->config_hash);
		if (differ)
			snprintf(err, errlen, "%s: run %d was made on another build of the kernel "
				 "(uname -v '%s', config %s; now '%s', config %s): a result set is "
				 "one kernel build; give this one another --name", base, i,
				 version ? version : "?", hash && hash[0] ? hash : "unknown",
				 k->version, k->config_hash[0] ? k->config_hash : "unknown");
		json_object_release(&o);
		return differ ? -EEXIST : 0;	/* every run was checked against the first */
	}
	return 0;
}

static bool same_content(const char *a, const char *b)
{
	char x[65536], y[65536];
	FILE *fa = fopen(a, "re"), *fb = fopen(b, "re");
	bool same = fa && fb;

	while (same) {
		size_t na = fread(x, 1, sizeof(x), fa), nb = fread(y, 1, sizeof(y), fb);

		same = na == nb && !memcmp(x, y, na);
		if (na < sizeof(x))
			break;
	}
	same = same && !ferror(fa) && !ferror(fb);
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

int run_share_kallsyms(const char *base, const char *run_dir)
{
	char mine[4200], shared[4200], tmp[4300];
	struct stat a, b;

	snprintf(mine, sizeof(mine), "%s/perf.data.kallsyms", run_dir);
	snprintf(shared, sizeof(shared), "%s/kallsyms", base);
	if (stat(mine, &a))
		return 0;	/* not profiled */
	if (stat(shared, &b)) {
		/* the first run's snapshot becomes the set's */
		if (link(mine, shared) && errno != EEXIST)
			return -errno;
		return 0;
	}
	if (a.st_ino == b.st_ino && a.st_dev == b.st_dev)
		return 0;
	if (!same_content(mine, shared))
		return 0;	/* a module came or went: this run keeps its own */
	snprintf(tmp, sizeof(tmp), "%s.link", mine);
	unlink(tmp);
	if (link(shared, tmp))
		return -errno;
	if (rename(tmp, mine)) {
		int ret = -errno;

		unlink(tmp);
		return ret;
	}
	return 0;
}

int run_write_identity(FILE *fp, const struct run_identity *id)
{
	fputs("  \"name\": ", fp);
	json_write_string(fp, id->name);
	fputs(",\n  \"commit\": ", fp);
	if (id->commit)
		json_write_string(fp, id->commit);
	else
		fputs("null", fp);
	fputs(",\n  \"note\": ", fp);
	if (id->note)
		json_write_string(fp, id->note);
	else
		fputs("null", fp);
	fputs(",\n  \"kernel_config_hash\": ", fp);
	json_write_string(fp, id->kernel.config_hash);
	fputs(",\n  \"main_metric\": ", fp);
	json_write_string(fp, id->main_metric);
	fputs(",\n  \"interleave\": ", fp);
	if (id->interleave)
		json_write_string(fp, id->interleave);
	else
		fputs("null", fp);
	fputs(",\n", fp);
	return ferror(fp) ? -EIO : 0;
}
