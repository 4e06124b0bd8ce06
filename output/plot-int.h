/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot-int.h - what the ASCII and the SVG bisect plots share.
 */
#ifndef KPROF_PLOT_INT_H
#define KPROF_PLOT_INT_H

#include <stddef.h>

/*
 * The range of both series; an empty range [v:v] becomes [0.99v:1.01v] ([-1:1] for 0), as
 * gnuplot adjusts it. -EINVAL when there is no value at all or one is not finite.
 */
int plot_data_range(const double *a, size_t na, const double *b, size_t nb, double *lo,
		    double *hi);

#endif
