#!/usr/bin/env bash
# kprof stat: counts agree with perf stat on deterministic commands; LKP keys; counters the
# machine lacks are reported once and their keys are absent.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work

perf_count() { # EVENT CMD...: perf stat's count
	local ev=$1; shift
	perf stat -x, -e "$ev" -- "$@" 2>&1 >/dev/null | awk -F, -v e="$ev" '$3 == e { print $1 }'
}
kprof_count() { # FILE EVENT: a count from kprof stat's stderr table
	awk -v e="$2" '$2 == e { print $1 }' "$1"
}
near() { # A B: |A-B| <= 5% of B + 5 (other load adds involuntary switches to either run)
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * 0.05 + 5) }'
}

test_expect_success PERF_EVENTS,PERF 'page-faults agree with perf stat (4000 touched pages)' '
	"$KPROF" stat -e page-faults -e minor-faults -- "$W" pages 4000 >keys 2>counts &&
	k=$(kprof_count counts page-faults) && p=$(perf_count page-faults "$W" pages 4000) &&
	echo "kprof $k perf $p" && test "$k" -ge 4000 && near "$k" "$p" &&
	test "$(kprof_count counts minor-faults)" = "$k"
'

test_expect_success PERF_EVENTS,PERF 'context-switches agree with perf stat (60 sleeps)' '
	"$KPROF" stat -e context-switches -- "$W" sleeps 60 >keys 2>counts &&
	k=$(kprof_count counts context-switches) &&
	p=$(perf_count context-switches "$W" sleeps 60) &&
	echo "kprof $k perf $p" && test "$k" -ge 60 && near "$k" "$p"
'

test_expect_success PERF_EVENTS 'LKP keys: i. and ps. per event, one interval = the whole run' '
	"$KPROF" stat -e page-faults -- "$W" pages 1000 >keys 2>counts &&
	grep -Eq "^perf-stat\.i\.page-faults: [0-9.]+$" keys &&
	grep -Eq "^perf-stat\.ps\.page-faults: [0-9.]+$" keys &&
	test "$(grep -c . keys)" = 2
'

test_expect_success PERF_EVENTS 'default set: software counters present, unsupported absent' '
	"$KPROF" stat -- "$W" sleeps 5 >keys 2>counts &&
	for e in cpu-clock task-clock page-faults context-switches cpu-migrations \
		 minor-faults major-faults; do
		grep -q "^perf-stat.ps.$e: " keys || { echo "missing $e"; exit 1; }
	done &&
	if ! test_have_prereq HWCOUNTERS; then
		test "$(grep -c "not supported" counts)" = 1 &&
		grep "not supported" counts | grep -q "cpu-cycles, instructions" &&
		! grep -Eq "cpu-cycles|instructions|ipc|cpi|MPKI|miss-rate|TLB" keys
	fi
'

test_expect_success PERF_EVENTS '-I: intervals, the last one dropped as LKP does' '
	"$KPROF" stat -a -e task-clock -I 100 --duration 0.55 >keys 2>counts &&
	grep -q "^perf-stat.i.task-clock: " keys && grep -q "^perf-stat.ps.task-clock: " keys
'

if test_have_prereq HWCOUNTERS; then
	test_skip 'an explicitly asked, unsupported counter' 'this machine has cycles'
else
	test_expect_success PERF_EVENTS '-e cycles alone: not supported, an error' '
		test_must_fail "$KPROF" stat -e cycles -- true 2>err &&
		grep -q "not supported" err
	'
fi

test_expect_success 'usage errors exit 2' '
	rc=0; "$KPROF" stat 2>/dev/null || rc=$?; test $rc = 2 &&
	rc=0; "$KPROF" stat -I 1 -a 2>/dev/null || rc=$?; test $rc = 2
'

test_done
