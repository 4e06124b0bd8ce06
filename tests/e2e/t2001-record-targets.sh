#!/usr/bin/env bash
# kprof record targets: system-wide (-a), a CPU list (-C), running processes (-p), and the
# stop paths: --duration, Ctrl-C (SIGINT) and SIGTERM all leave a complete perf.data.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work

hot_share() { # FILE: percent of samples in record-work's hot_leaf
	perf report -i "$1" --stdio --no-children --sort comm,sym 2>/dev/null |
		awk '/record-work/ && /hot_leaf/ { sub("%", "", $1); print $1; exit }'
}

test_expect_success PERF_EVENTS,PERF '-a records every task, existing ones named, 0 lost' '
	"$W" forever & bg=$!
	"$KPROF" record -a -g -e cpu-clock --duration 0.5 -o a.data 2>err
	kill $bg; wait $bg || :
	grep -q "samples (0 lost" err &&
	share=$(hot_share a.data) && test -n "$share" &&
	awk -v s="$share" "BEGIN { exit !(s > 0) }" &&
	perf script -i a.data -F comm 2>serr | sort -u >comms &&
	test "$(wc -l <comms)" -gt 1 && test -z "$(grep -v "^$" serr)" &&
	perf report -i a.data --stdio >/dev/null 2>rerr && test -z "$(grep -v "^$" rerr)"
'

test_expect_success PERF_EVENTS,PERF '-C 0 records only CPU 0' '
	"$KPROF" record -C 0 -e cpu-clock --duration 0.3 -o c.data 2>err &&
	perf script -i c.data -F cpu 2>/dev/null | sort -u >cpus &&
	test "$(cat cpus | tr -d " []")" = 000
'

test_expect_success PERF_EVENTS,PERF '-p attaches to a running process, its maps synthesized' '
	"$W" forever & bg=$!
	sleep 0.1
	"$KPROF" record -p $bg -g -e cpu-clock --duration 0.4 -o p.data 2>err
	kill $bg; wait $bg || :
	perf script -i p.data -F pid 2>/dev/null | sort -u >pids &&
	test "$(tr -d " " <pids)" = "$bg" &&
	share=$(hot_share p.data) &&
	awk -v s="$share" "BEGIN { exit !(s > 80) }" &&
	perf script -i p.data --show-mmap-events 2>/dev/null | grep -q "PERF_RECORD_MMAP2 $bg/$bg: .*record-work"
'

# Stopping while recording, without guessing how long a loaded machine takes: wait until kprof
# says it is recording (-v), then until the busy process has used CPU time since then.
wait_recording() {	# FILE
	for i in $(seq 600); do grep -q "recording into" "$1" && return 0; sleep 0.05; done
	return 1
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
wait_cpu() {		# PID TICKS: until PID used TICKS more clock ticks of CPU
	local t0
	t0=$(cpu_ticks "$1") || return 1
	for i in $(seq 600); do
		[ $(( $(cpu_ticks "$1") - t0 )) -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}

test_expect_success PERF_EVENTS,PERF 'Ctrl-C (SIGINT) stops -a and writes a valid file, exit 0' '
	"$W" forever & bg=$!
	"$KPROF" -v record -a -e cpu-clock -o i.data 2>err & rec=$!
	wait_recording err && wait_cpu $bg 10
	kill -INT $rec
	rc=0; wait $rec || rc=$?
	kill $bg; wait $bg || :
	test $rc = 0 && ! ls i.data.tmp* 2>/dev/null &&
	perf report -i i.data --stdio 2>rerr | grep -q "of event .cpu-clock." &&
	grep -q "recorded [1-9]" err
'

test_expect_success PERF_EVENTS,PERF 'SIGTERM stops a command recording, exit 0, valid file' '
	"$KPROF" -v record -e cpu-clock -g -o t.data -- "$W" forever 2>err & rec=$!
	wait_recording err && child=$(pgrep -P $rec -f "record-work forever") && wait_cpu $child 30
	kill -TERM $rec
	rc=0; wait $rec || rc=$?
	test $rc = 0 && test -n "$child" && ! grep -qs forever /proc/$child/cmdline &&
	test "$(hot_share t.data | cut -d. -f1)" -gt 80
'

test_expect_success PERF_EVENTS 'a pid that does not exist is a one-line error' '
	test_must_fail "$KPROF" record -p 999999999 -o x.data 2>err &&
	test "$(lines_said err)" = 1
'

test_done
