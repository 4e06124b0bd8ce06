// SPDX-License-Identifier: GPL-2.0
/*
 * vm-scalability: LKP's programs/vm-scalability/run loop and the case scripts for one case,
 * exec'ing usemem (or truncate, cat, rm) as they do (workloads/vmscal.c, exec.c).
 */
#include "workloads/workloads.h"

int main(int argc, char **argv)
{
	return wl_runner_main("vm-scalability", argc, argv);
}
