#!/usr/bin/env bash
# kprof record --call-graph fp|dwarf|lbr as perf records them (perf 6.1 is the oracle: it unwinds
# kprof's DWARF recording to main), -t TID, and `-p PID -- sleep N` (the command only times the
# recording).
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work

test_have_prereq PERF PERF_EVENTS || test_skip_all "needs perf and perf events (missing $missing_prereq)"

attr() { perf evlist -v -i "$1" 2>/dev/null | tr ',' '\n' | sed 's/^ *//'; }

test_expect_success '--call-graph dwarf: user registers and stack as perf records them' '
	"$KPROF" record --call-graph dwarf -e cpu-clock -o d.data -- "$W" spin 300 2>err &&
	attr d.data >a &&
	grep -q "^sample_type: .*CALLCHAIN.*REGS_USER|STACK_USER" a &&
	grep -qx "sample_regs_user: 0xff0fff" a && grep -qx "sample_stack_user: 8192" a &&
	grep -qx "exclude_callchain_user: 1" a && grep -qx "mmap_data: 1" a
'

test_expect_success 'perf unwinds the DWARF recording to main' '
	perf report -i d.data --stdio --no-children -g caller,0.5,callee --sort sym 2>/dev/null \
		>rep &&
	grep -q "hot_parent" rep && grep -q "main" rep &&
	"$KPROF" report -i d.data >keys && grep -q "hot_leaf" keys
'

test_expect_success '--call-graph dwarf,4096 and fp' '
	"$KPROF" record --call-graph dwarf,4096 -e cpu-clock -o d2.data -- "$W" spin 50 2>err &&
	attr d2.data | grep -qx "sample_stack_user: 4096" &&
	"$KPROF" record --call-graph fp -e cpu-clock -o fp.data -- "$W" spin 50 2>err &&
	attr fp.data >a && grep -q "CALLCHAIN" a && ! grep -q "REGS_USER" a
'

test_expect_success '--call-graph lbr: a clear error where there is no LBR' '
	if perf record -q --call-graph lbr -o plbr.data -- true >/dev/null 2>&1; then
		"$KPROF" record --call-graph lbr -o l.data -- "$W" spin 50 2>err &&
		attr l.data | grep -q "BRANCH_STACK"
	else
		rc=0; "$KPROF" record --call-graph lbr -e cpu-clock -o l.data -- "$W" spin 50 \
			2>err || rc=$?
		test $rc -eq 1 && test "$(lines_said err)" -eq 1 &&
		grep -q "call-graph lbr: .*LBR call stacks need a hardware PMU" err &&
		! test -e l.data
	fi
'

test_expect_success 'bad --call-graph values are usage errors, never the command' '
	for v in bogus dwarf,7 dwarf,65536 dwarf, fpx; do
		rc=0; "$KPROF" record --call-graph $v -o x.data -- true 2>err || rc=$?
		test $rc -eq 2 && grep -q -- "--call-graph" err || { echo "$v: $rc"; exit 1; }
	done
'

test_expect_success '-t TID -- sleep 1: that thread only, for as long as sleep runs' '
	"$W" forever & bg=$! &&
	"$KPROF" record -t $bg -e cpu-clock -g -o t.data -- sleep 1 2>err; rc=$?
	kill $bg; wait $bg 2>/dev/null
	test $rc -eq 0 &&
	perf report -i t.data --stdio --sort pid -g none 2>/dev/null | grep -v "^#" |
		grep -v "^$" >pids &&
	test "$(wc -l <pids)" -eq 1 && grep -q "$bg:record-work" pids
'

test_expect_success '-p PID -- sleep 1: the process, the command only times it' '
	"$W" forever & bg=$! &&
	"$KPROF" record -p $bg -e cpu-clock -o p.data -- sleep 1 2>err; rc=$?
	kill $bg; wait $bg 2>/dev/null
	test $rc -eq 0 && grep -q "recorded [1-9][0-9]* samples" err &&
	perf report -i p.data --stdio --sort comm -g none 2>/dev/null | grep -q record-work &&
	! perf report -i p.data --stdio --sort comm -g none 2>/dev/null | grep -q " sleep"
'

test_expect_success '-t with a thread that does not exist: one line, exit 1' '
	rc=0; "$KPROF" record -t 999999 -o x.data -- sleep 1 2>err || rc=$?
	test $rc -eq 1 && grep -q "thread 999999: No such process" err &&
	test "$(lines_said err)" -eq 1 && ! test -e x.data
'

test_done
