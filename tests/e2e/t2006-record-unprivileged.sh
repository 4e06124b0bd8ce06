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
	test "$(wc -l <err)" = 1 && grep -q "perf_event_paranoid" err
'

test_expect_success 'stat a command: user space only, page-faults counted' '
	as_nobody "$KPROF" stat -e page-faults -- "$W" pages 500 >keys 2>err &&
	grep -q "counting user space only" err &&
	test "$(awk "\$2 == \"page-faults\" { print \$1 }" err)" -ge 500
'

test_done
