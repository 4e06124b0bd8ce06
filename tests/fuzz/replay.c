// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - run a fuzz harness on files, without libFuzzer: `replay-NAME FILE...` (or
 * directories of files). Built with the normal and the sanitizer build by `make tests`, so
 * the committed seeds and the inputs of crashes once found are replayed by every `make check`.
 * Exit 0 when every input ran (a crash is the failure).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/fuzz/fuzz-common.h"

static int run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!fp) {
		perror(path);
		return 1;
	}
	do {
		if (cap - len < 65536) {
			uint8_t *nb = realloc(buf, cap * 2 + 65536);

			if (!nb) {
				fclose(fp);
				free(buf);
				return 1;
			}
			buf = nb;
			cap = cap * 2 + 65536;
		}
		n = fread(buf + len, 1, cap - len, fp);
		len += n;
	} while (n);
	fclose(fp);
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, NULL, alphasort), ret = 0;

	if (n < 0) {
		perror(dir);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (ents[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
			ret |= run_file(path);
		}
		free(ents[i]);
	}
	free(ents);
	return ret;
}

int main(int argc, char **argv)
{
	int ret = 0;

	qsort(argv + 1, (size_t)(argc > 1 ? argc - 1 : 0), sizeof(*argv), cmp_names);
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			perror(argv[i]);
			ret = 1;
		} else {
			ret |= S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
		}
	}
	return ret;
}
