// SPDX-License-Identifier: GPL-2.0
/* usemem: vm-scalability's memory workhorse as its own program (workloads/usemem*.c). */
#include "workloads/workloads.h"

int main(int argc, char **argv)
{
	return usemem_main(argc, argv);
}
