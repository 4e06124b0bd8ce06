// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-kallsyms.c - a kallsyms text as the kernel symbol source of a symbolization session,
 * then kernel addresses resolved in it (fixed ones, and ones taken from the input's tail).
 */
#include <string.h>

#include "symbolize/symbolize.h"
#include "tests/fuzz/fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sym_opts o = { .kallsyms = fuzz_file(data, size), .no_vmlinux_search = true };
	static const uint64_t fixed[] = { 0, 0xffffffff81000000, 0xffffffff81000123,
					  0xffffffffc0002010, ~0ULL };
	struct sym_session *s = sym_session_new(&o);
	struct sym_result r;

	if (!s)
		return 0;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		sym_session_resolve(s, -1, fixed[i], true, &r);
	for (size_t i = 0; i + 8 <= size && i < 64; i += 8) {
		uint64_t a;

		memcpy(&a, data + size - 8 - i, 8);
		sym_session_resolve(s, -1, a, true, &r);
	}
	sym_session_kernel_source(s);
	sym_session_free(s);
	return 0;
}
