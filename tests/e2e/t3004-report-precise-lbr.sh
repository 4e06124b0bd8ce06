#!/usr/bin/env bash
# Call-chain semantics of hardware this VM lacks, checked against perf 6.1 reading the same
# bytes: perf-data-rewrite.pl turns a real `perf record -g` file into
#   - skid.data: precise-ip samples whose ip is not the chain's first entry, in the same
#     function (perf: the chain as recorded, no extra leaf frame, no "spin.spin") and in
#     another one (perf: Self to the ip's function, the chain as recorded);
#   - lbr.data: --call-graph lbr samples (PERF_SAMPLE_BRANCH_STACK, CALL_STACK) whose
#     frame-pointer user chain is cut short and whose LBR holds the user stack (perf: the
#     kernel chain, then the LBR's first target and every source);
#   - lbrdeep.data: the same with 200 user frames in the LBR: perf's --max-stack (127) does
#     not cut an LBR call stack, so neither does kprof.
# Every LKP key within 0.01 of perf report, samples and period equal to perf script's,
# folded stacks equal to `perf script | kprof collapse --perl-compat -`.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-perf-compare.sh"

test_expect_success PERF,PERF_EVENTS 'record the fixture, rewrite it as skid and LBR samples' '
	perf record -q -B -N -g -e cpu-clock -o base.data "$FIXTURES/calltree" 1 \
		>/dev/null 2>&1 &&
	perl "$E2E/perf-data-rewrite.pl" skid base.data skid.data &&
	perl "$E2E/perf-data-rewrite.pl" lbr base.data lbr.data &&
	LBR_DEPTH=200 perl "$E2E/perf-data-rewrite.pl" lbr base.data lbrdeep.data &&
	perf report -D -i lbr.data 2>/dev/null | grep -q "LBR call chain"
'

prereq_REWRITTEN() { [ -s "$TRASH/lbr.data" ] && [ -s "$TRASH/skid.data" ]; }

for f in skid lbr lbrdeep; do
	export f
	test_expect_success REWRITTEN,KALLSYMS "$f: every lkp key equals perf report" '
		compare_keys $f.data
	'
	test_expect_success REWRITTEN "$f: samples and period equal perf script" '
		compare_counts $f.data
	'
	test_expect_success REWRITTEN "$f: folded equals perf script | collapse --perl-compat" '
		compare_folded $f.data
	'
done

test_expect_success REWRITTEN 'skid: no leaf frame is doubled, Self follows the ip' '
	! grep -q "calltrace.cpu-clock.spin.spin" skid.data.kprof &&
	! grep -q ";spin;spin " skid.data.folded-kprof &&
	"$KPROF" -v report -i skid.data 2>err >/dev/null &&
	grep -q "samples have their ip in another function" err &&
	"$KPROF" report --format table -i skid.data >skid.table &&
	"$KPROF" report --format table -i base.data >base.table &&
	! cmp -s skid.table base.table
'

test_expect_success REWRITTEN 'lbr: the user stack comes from the LBR, not the cut chain' '
	grep -q "^perf-profile.children.cpu-clock.main: " lbr.data.kprof &&
	grep -q "^perf-profile.calltrace.cpu-clock.leaf_a.phase_a.run.main" lbr.data.kprof
'

test_expect_success REWRITTEN 'lbrdeep: chains deeper than 127 frames, as perf script prints them' '
	awk -F";" "NF > 150" lbrdeep.data.folded-kprof | grep -q . &&
	perf script -i lbrdeep.data 2>/dev/null | awk "BEGIN { RS = \"\" } NF > 300" | grep -q .
'

test_done
