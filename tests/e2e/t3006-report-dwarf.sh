#!/usr/bin/env bash
# DWARF unwinding: `perf record --call-graph dwarf` of the calltree fixture built without frame
# pointers. Each sample carries its user registers and a copy of its user stack; kprof unwinds
# them with libdwfl's CFI walker as perf does, so the call tree above the sampled function is
# there (children.main: perf says 99.9x) and every LKP key equals perf report's. perf 6.1 shows
# an unwound address as its inlined functions when the file has DWARF (libc6-dbg's
# __libc_start_main_impl, ld.so's start-up code); kprof must show the same frames, which the
# keys (LKP drops lines naming "(inlined)" frames) and the folded stacks both check.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-perf-compare.sh"
. "$KPROF_SRC/tests/e2e/lib-lkp.sh"

# -B -N: perf reads the binaries by path, as kprof does, not copies in a build-id cache
test_expect_success PERF,PERF_EVENTS 'record the fixture with --call-graph dwarf' '
	perf record -q -B -N --call-graph dwarf -e cpu-clock -o dw.data \
		"$FIXTURES/calltree-nofp" 1 >/dev/null 2>&1 &&
	test -s dw.data &&
	# the fixture has no frame pointers: a frame-pointer walk would not find main
	perf record -q -B -N -g -e cpu-clock -o fp.data "$FIXTURES/calltree-nofp" 0.3 \
		>/dev/null 2>&1 && test -s fp.data
'

# A glibc with DWARF can have a file whose entries perf's hist tree splits (split files,
# docs/symbolize.md): the keys must then be within what kprof says, all others within 0.01.
test_expect_success PERF,PERF_EVENTS 'lkp keys equal perf report parsed by LKP rules' '
	compare_lkp_said dw.data
'

test_expect_success PERF,PERF_EVENTS 'sample counts and periods equal perf script' '
	compare_counts dw.data
'

test_expect_success PERF,PERF_EVENTS 'the call tree above the leaves is unwound' '
	for k in children.cpu-clock.main children.cpu-clock.run children.cpu-clock.phase_a \
		 children.cpu-clock.recurse children.cpu-clock.leaf_a; do
		grep -q "^perf-profile.$k: " dw.data.kprof || { echo "no $k"; exit 1; }
	done &&
	awk -F": " "/children.cpu-clock.main: / && \$2 < 90 { exit 1 }" dw.data.kprof &&
	"$KPROF" report --format lkp -i fp.data >fp.kprof &&
	! grep -q "children.cpu-clock.main: " fp.kprof
'

# Every stack through main must be perf's, line for line. The dynamic loader's start-up stacks
# before main are left out of the line comparison (their totals still count): there binutils,
# which perf asks, names code with DWARF lines but no function by a symbol of its choice, which
# kprof does not restate (docs/symbolize.md).
# A sample in a PLT stub: perf 6.1 names it by the stub or by _init (stub_as_one,
# lib-perf-compare.sh); only that may differ, and only when kprof said so.
test_expect_success PERF,PERF_EVENTS 'folded stacks equal perf script | collapse' '
	perf script -i dw.data 2>/dev/null | "$KPROF" collapse --perl-compat - | sort >perf.folded &&
	"$KPROF" collapse --perl-compat -i dw.data 2>err | sort >kprof.folded &&
	test -s perf.folded &&
	grep ";main;" perf.folded >perf.main && grep ";main;" kprof.folded >kprof.main &&
	{ test_cmp perf.main kprof.main || {
		grep -q "PLT stub address.* covered by _init" err &&
		stub_as_one perf.main >perf.stub && stub_as_one kprof.main >kprof.stub &&
		test_cmp perf.stub kprof.stub; }; } &&
	total() { awk "{ s += \$NF } END { print s }" "$1"; } &&
	test "$(total perf.folded)" = "$(total kprof.folded)" &&
	grep -q ";main;run;phase_a;leaf_a;spin " kprof.folded &&
	grep -q "^calltree-nofp;_start;__libc_start_main_impl;__libc_start_call_main;main;" \
		kprof.folded &&
	! grep -q "user stack copy" err
'

test_expect_success PERF,PERF_EVENTS 'table: Children and Self of the unwound frames as perf' '
	perf report --children -g none --sort=dso,symbol -i dw.data 2>/dev/null |
		awk "\$5 == \"main\" || \$5 == \"run\" { print \$5, \$1, \$2 }" | sort >perf.rows &&
	"$KPROF" report --format table -i dw.data |
		awk "\$5 == \"main\" || \$5 == \"run\" { print \$5, \$1, \$2 }" | sort >kprof.rows &&
	test "$(wc -l <perf.rows)" = 2 &&
	test_cmp perf.rows kprof.rows
'

# The ARCH feature says where the registers come from: another architecture's register layout
# is not x86_64's, so its stacks are not unwound, and kprof says so in one line.
test_expect_success PERF,PERF_EVENTS 'stacks of another architecture: not unwound, one warning' '
	perl -0777 -pe "s/x86_64\0/mips64\0/g" dw.data >arch.data &&
	perf report --header-only -i arch.data 2>/dev/null | grep -q "arch : mips64" &&
	"$KPROF" report -i arch.data >arch.keys 2>arch.err &&
	! grep -q "children.cpu-clock.main: " arch.keys &&
	grep -q "^kprof: warning: arch.data: [0-9]* samples with a user stack copy of another architecture" arch.err &&
	test "$(grep -c "user stack copy" arch.err)" = 1 &&
	"$KPROF" report -i dw.data 2>dw.err >/dev/null &&
	! grep -q "user stack copy" dw.err
'

test_done
