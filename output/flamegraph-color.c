// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-color.c - frame fills. Colours come from a hash of the name, so a function keeps its
 * colour across graphs and runs (flamegraph.pl's --hash, made the only mode). The palettes are
 * flamegraph.pl's hot, mem and io, plus a kernel/user scheme built from its java palette's
 * orange (kernel) and green (user).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "output/output.h"

static void name_vector(const char *name, double v[3])
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a, then a final mix */

	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	for (int i = 0; i < 3; i++)
		v[i] = (double)((h >> (i * 21)) & 0x1fffff) / 0x1fffff;
}

void flame_color(enum flame_colors scheme, const char *name, unsigned int flags,
		 unsigned char rgb[3])
{
	double v[3];

	/* "-" and "--" separate stacks (e.g. user from kernel): grey, as in flamegraph.pl */
	if (!strcmp(name, "-") || !strcmp(name, "--")) {
		rgb[0] = rgb[1] = rgb[2] = 160;
		return;
	}
	name_vector(name, v);
	switch (scheme) {
	case FLAME_COLORS_MEM:
		rgb[0] = 0;
		rgb[1] = 190 + (int)(50 * v[1]);
		rgb[2] = (int)(210 * v[0]);
		break;
	case FLAME_COLORS_IO:
		rgb[0] = rgb[1] = 80 + (int)(60 * v[0]);
		rgb[2] = 190 + (int)(55 * v[1]);
		break;
	case FLAME_COLORS_KERNEL:
		if (flags & FLAME_FRAME_KERNEL) {
			rgb[0] = 190 + (int)(65 * v[0]);
			rgb[1] = 90 + (int)(65 * v[0]);
			rgb[2] = 0;
		} else {
			rgb[0] = 50 + (int)(60 * v[0]);
			rgb[1] = 200 + (int)(55 * v[0]);
			rgb[2] = 50 + (int)(60 * v[0]);
		}
		break;
	case FLAME_COLORS_HOT:
	default:
		rgb[0] = 205 + (int)(50 * v[2]);
		rgb[1] = (int)(230 * v[0]);
		rgb[2] = (int)(55 * v[1]);
		break;
	}
}

/* flamegraph.pl's color_scale(): the further from zero, the more saturated. */
void flame_diff_color(double delta, double max, unsigned char rgb[3])
{
	double f = max > 0 ? fmin(fabs(delta) / max, 1.0) : 0;
	int fade = (int)lround(210 * (1 - f));

	rgb[0] = rgb[1] = rgb[2] = 255;
	if (delta > 0 && f > 0)
		rgb[1] = rgb[2] = fade;
	else if (delta < 0 && f > 0)
		rgb[0] = rgb[1] = fade;
}

int flame_colors_parse(const char *s, enum flame_colors *out)
{
	static const char *const names[] = {
		[FLAME_COLORS_HOT] = "hot", [FLAME_COLORS_MEM] = "mem",
		[FLAME_COLORS_IO] = "io", [FLAME_COLORS_KERNEL] = "kernel",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}
