#!/usr/bin/env bash
# Without privilege (an unprivileged user, perf_event_paranoid >= 2): record and stat of a
# command fall back to user space only with one warning; system-wide is a clear error.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work

test_have_prereq ROOT || test_skip_all "needs root to switch to an unprivileged user"
command -v setpriv >/dev/null || test_skip_all "no setpriv"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] ||
	test_skip_all "perf_event_paranoid < 2: the kernel is not off limits here"
chmod 777 "$TRASH"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody test -x "$KPROF" || test_skip_all "the build is not reachable for user nobody"

test_expect_success PERF 'record a command: user space only, one warning, a valid file' '
	as_nobody "$KPROF" record -e cpu-clock -g -o n.data -- "$W" spin 200 2>err &&
	test "$(grep -c "recording user space only" err)" = 1 &&
	perf report -f -i n.data --stdio --no-children 2>/dev/null | grep -m1 "%" |
		grep -q hot_leaf &&
	! perf script -f -i n.data -F ip,sym 2>/dev/null | grep -q "ffffffff"
'

test_expect_success 'record -a: a one-line error naming perf_event_paranoid' '
	test_must_fail as_nobody "$KPROF" record -a -e cpu-clock -o a.data --duration 0.1 2>err &&
	test "$(lines_said err)" = 1 && grep -q "perf_event_paranoid" err
'

test_expect_success 'stat a command: user space only, page-faults counted' '
	as_nobody "$KPROF" stat -e page-faults -- "$W" pages 500 >keys 2>err &&
	grep -q "counting user space only" err &&
	test "$(awk "\$2 == \"page-faults\" { print \$1 }" err)" -ge 500
'

test_expect_success TRACEFS 'a tracepoint without access names the tracefs mode' '
	mode=$(stat -c %a /sys/kernel/tracing) &&
	if as_nobody test -x /sys/kernel/tracing; then
		echo "# tracefs is open to everyone here (mode $mode)"
	else
		test_must_fail as_nobody "$KPROF" record -e sched:sched_switch -o t.data -- true \
			2>err &&
		test "$(lines_said err)" = 1 &&
		grep -q "tracefs is mode 0$mode, owner uid 0): run as root, or remount" err &&
		as_nobody "$KPROF" list >l 2>err &&
		grep -qx "  cpu-clock" l && grep -q "no tracepoints: .*tracefs is mode" err
	fi
'

test_expect_success 'kprof run without privilege: perf_event_paranoid named, --no-profile suggested' '
	test_must_fail as_nobody "$KPROF" run brk_test testtime=1 --runs 1 -o res 2>err &&
	grep -q "perf_event_paranoid <= 0 (it is [0-9]*)" err &&
	grep -q "kprof run --no-profile" err &&
	as_nobody "$KPROF" run brk_test testtime=1 --runs 1 --no-profile -o res >out 2>err &&
	grep -q "aim9.brk_test.ops_per_sec" out
'

test_done
