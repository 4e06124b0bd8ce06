// SPDX-License-Identifier: GPL-2.0
/*
 * singleuser: AIM Suite IX's driver as LKP runs it, one test for testtime seconds, in a process
 * as small as AIM's (fork_test forks it) (workloads/aim9.c, exec.c).
 */
#include "workloads/workloads.h"

int main(int argc, char **argv)
{
	return wl_runner_main("aim9", argc, argv);
}
