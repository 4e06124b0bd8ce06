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

# Rule 6 on a copy of run/ with one error printed below the CLI (the other modules: empty).
copy_run() {
	rm -rf copy && mkdir -p copy/tests/unit &&
	for d in profiler/lib output symbolize workloads profiler/export profiler/perfdata \
		 profiler/script profiler/record profiler/profile profiler/cli; do
		mkdir -p "copy/$d" || return 1
	done &&
	cp -r "$KPROF_SRC/profiler/run" copy/profiler/
}
check_copy() {
	(cd copy &&
	 MODULES="lib output symbolize workloads export perfdata script record profile run cli" \
	 DIR_lib=profiler/lib DIR_output=output DIR_symbolize=symbolize DIR_workloads=workloads \
	 DIR_export=profiler/export DIR_perfdata=profiler/perfdata DIR_script=profiler/script \
	 DIR_record=profiler/record DIR_profile=profiler/profile DIR_run=profiler/run \
	 DIR_cli=profiler/cli DEPS_lib= DEPS_output=lib DEPS_symbolize=lib DEPS_workloads=lib \
	 DEPS_export="output lib" DEPS_perfdata=lib DEPS_script="perfdata output lib" \
	 DEPS_record="perfdata output lib" DEPS_profile="script perfdata symbolize output lib" \
	 DEPS_run="profile record workloads script perfdata symbolize output lib" \
	 DEPS_cli="run profile record workloads script perfdata symbolize output export lib" \
	 ARCHIVE_DIR="$KPROF_BUILD" bash "$KPROF_SRC/tests/check-layering.sh")
}

test_expect_success 'only the CLI prints errors and exits: run/ as it is passes' '
	copy_run && check_copy
'

test_expect_success 'an error printed in run/ is caught, naming the file' '
	copy_run &&
	echo "static void f(void) { pr_err(\"x\"); }" >>copy/profiler/run/run-noise.c &&
	test_must_fail check_copy 2>err &&
	grep "profiler/run/run-noise.c: prints an error or exits outside the CLI" err
'

test_expect_success 'so is an exit() in run/' '
	copy_run && echo "static void f(void) { exit(1); }" >>copy/profiler/run/run.c &&
	test_must_fail check_copy 2>err &&
	grep "profiler/run/run.c: prints an error or exits outside the CLI" err
'

test_expect_success 'the stamp is back after a passing run' 'mk && [ -f "$KPROF_BUILD/layering.ok" ]'

test_done
