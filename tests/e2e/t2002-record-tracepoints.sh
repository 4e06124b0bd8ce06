#!/usr/bin/env bash
# Tracepoints: counts a fixture causes deterministically, globs, --filter in the kernel, and
# TRACING_DATA so perf script decodes the fields.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work

test_have_prereq TRACEPOINTS ||
	test_skip_all "no tracefs: the kernel lacks it, or it is not mounted and we are not root"

count() { # FILE: samples of record-work in FILE
	perf script -i "$1" -F comm 2>/dev/null | grep -c "record-work" || :
}

prereq_FAULT_TP() { [ -d /sys/kernel/tracing/events/exceptions/page_fault_user ]; }
prereq_SYSCALL_TP() { [ -d /sys/kernel/tracing/events/syscalls/sys_enter_clock_nanosleep ]; }

test_expect_success PERF,FAULT_TP 'exceptions:page_fault_user: N touched pages, N more faults' '
	"$KPROF" record -e exceptions:page_fault_user -o f1.data -- "$W" pages 1000 2>/dev/null &&
	"$KPROF" record -e exceptions:page_fault_user -o f3.data -- "$W" pages 3000 2>/dev/null &&
	n1=$(count f1.data) && n3=$(count f3.data) &&
	d=$((n3 - n1)) && echo "faults: $n1 $n3 diff $d" &&
	test $d -ge 1990 && test $d -le 2010
'

test_expect_success PERF,FAULT_TP 'tracepoint samples carry call chains to the faulting code' '
	"$KPROF" record -e exceptions:page_fault_user -g -o fg.data -- "$W" pages 500 2>/dev/null &&
	perf script -i fg.data 2>/dev/null | grep -q "touch_pages+"
'

test_expect_success PERF 'sched:sched_switch: one per 1 ms sleep, fields decoded by perf' '
	"$KPROF" record -e sched:sched_switch -o s.data -- "$W" sleeps 40 2>/dev/null &&
	perf script -i s.data 2>serr >script &&
	n=$(grep -c "prev_comm=record-work .*prev_state=S" script) &&
	echo "switches: $n" && test $n -ge 40 && test $n -le 42 &&
	! grep -qi "warn\|fail" serr
'

test_expect_success PERF '--filter is applied by the kernel' '
	"$KPROF" record -a -e sched:sched_switch --filter "prev_comm == \"record-work\"" \
		-o fl.data -- "$W" sleeps 20 2>/dev/null &&
	perf script -i fl.data -F trace 2>/dev/null >trace &&
	test "$(grep -vc "prev_comm=record-work" trace)" = 0 &&
	test "$(wc -l <trace)" -ge 20
'

test_expect_success '--filter without a tracepoint is an error' '
	test_must_fail "$KPROF" record -e cpu-clock --filter "x == 1" -o x.data -- true 2>err &&
	grep -q "needs a tracepoint" err
'

test_expect_success 'a bad filter is a one-line error' '
	test_must_fail "$KPROF" record -e sched:sched_switch --filter "no_such_field == 1" \
		-o x.data -- true 2>err &&
	test "$(lines_said err)" = 1 && grep -q "filter" err
'

test_expect_success PERF,SYSCALL_TP 'syscalls:* globs: sys_enter_clock_nanosleep* counts the sleeps' '
	"$KPROF" record -e "syscalls:sys_enter_clock_nanoslee*" -o y.data -- "$W" sleeps 25 \
		2>err && grep -q "of syscalls:sys_enter_clock_nanosleep into" err &&
	test "$(count y.data)" = 25
'

test_expect_success 'a glob matching nothing is an error' '
	test_must_fail "$KPROF" record -e "nosuchsys:*" -o x.data -- true 2>err &&
	grep -q "no tracepoint matches" err
'

test_done
