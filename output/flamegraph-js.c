// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-js.c - embed output/flamegraph.js, NUL-terminated, as flame_js[]. The script stays a
 * readable .js file (checked by `node --check` in the tests); tests/fixtures/flamegraph-js.mk
 * makes this object depend on it.
 */
#include "output/flamegraph-int.h"

__asm__(".section .rodata\n"
	".global flame_js\n"
	".type flame_js, @object\n"
	"flame_js:\n"
	".incbin \"output/flamegraph.js\"\n"
	".byte 0\n"
	".size flame_js, . - flame_js\n"
	".previous\n");
