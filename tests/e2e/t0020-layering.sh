#!/usr/bin/env bash
# The module layering is enforced: `make check-layering` passes on the tree, and fails naming
# the file and the symbol as soon as a module is not allowed what it uses (the rules are the
# Makefile's <module>_DEPS; here one is narrowed on the command line).
. "$(dirname "$0")/lib.sh"

unset MAKEFLAGS MAKELEVEL MFLAGS
mk() { make -s --no-print-directory -C "$KPROF_SRC" O="$KPROF_BUILD" check-layering "$@"; }

test_expect_success 'the tree passes check-layering' 'mk'

test_expect_success 'script/ without perfdata/: the include and the symbol are named' '
	test_must_fail mk script_DEPS="output lib" 2>err &&
	grep "profiler/script/script-read-cg.c: module script includes \"profiler/perfdata/perfdata.h\"" err &&
	grep "module script uses pd_magic_ok of module perfdata" err
'

test_expect_success 'symbolize/ without lib/: a link-level violation is caught' '
	test_must_fail mk symbolize_DEPS= 2>err &&
	grep "module symbolize uses zalloc_table of module lib" err
'

test_expect_success 'the stamp is back after a passing run' 'mk && [ -f "$KPROF_BUILD/layering.ok" ]'

test_done
