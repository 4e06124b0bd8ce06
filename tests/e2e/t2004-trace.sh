#!/usr/bin/env bash
# kprof trace: per-tracepoint counts (checked against perf script), top values of a field,
# a log2 histogram of a numeric field, errors for files it cannot use.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work

test_have_prereq TRACEPOINTS ||
	test_skip_all "no tracefs: the kernel lacks it, or it is not mounted and we are not root"

test_expect_success 'record two tracepoints' '
	"$KPROF" record -e sched:sched_switch -e exceptions:page_fault_user -o t.data -- \
		"$W" sleeps 30
'

test_expect_success PERF 'counts per tracepoint equal perf script'"'"'s' '
	"$KPROF" trace -i t.data >out &&
	for ev in sched:sched_switch exceptions:page_fault_user; do
		k=$(awk -v e=$ev "\$1 == e { print \$2 }" out) &&
		p=$(perf script -i t.data -F event 2>/dev/null | grep -c "$ev:") &&
		echo "$ev kprof $k perf $p" && test "$k" = "$p" && test "$k" -gt 0 || exit 1
	done &&
	grep -q "rate/s" out
'

test_expect_success '--field: top values, the sleeping fixture first' '
	"$KPROF" trace -i t.data --field prev_comm --top 3 >out &&
	grep -A2 "top values of prev_comm" out | tail -1 | grep -q "record-work" &&
	n=$(grep -A2 "top values of prev_comm" out | tail -1 | awk "{ print \$1 }") &&
	test "$n" -ge 30
'

test_expect_success '--hist: a log2 histogram of a numeric field' '
	"$KPROF" trace -i t.data --field prev_pid --hist >out &&
	grep -q "histogram of prev_pid" out && grep -q "|\*" out
'

test_expect_success 'a field no tracepoint has is a one-line error' '
	test_must_fail "$KPROF" trace -i t.data --field no_such_field 2>err &&
	test "$(lines_said err)" = 1 && grep -q no_such_field err
'

test_expect_success PERF_EVENTS 'a file without tracepoints is a one-line error' '
	"$KPROF" record -e cpu-clock -o c.data -- true 2>/dev/null &&
	test_must_fail "$KPROF" trace -i c.data 2>err && test "$(lines_said err)" = 1
'

test_expect_success 'not a perf.data: a one-line error' '
	echo hello >bad.data &&
	test_must_fail "$KPROF" trace -i bad.data 2>err && test "$(lines_said err)" = 1 &&
	grep -q bad.data err
'

test_done
