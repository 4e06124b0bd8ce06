#!/usr/bin/env bash
# kprof list: the events and tracepoints -e accepts here (the tracepoints are perf list's, one
# for one); a bad -e is a usage error (exit 2) pointing at it, before anything runs.
. "$(dirname "$0")/lib.sh"

test_expect_success 'the named events, with what this machine cannot count marked' '
	"$KPROF" list >list &&
	grep -qx "  cpu-clock" list && grep -qx "  page-faults" list &&
	grep -q "^software events:" list && grep -q "^hardware events:" list &&
	if perf stat -e cycles -x, true >/dev/null 2>&1 &&
	   ! perf stat -e cycles -x, true 2>&1 | grep -q "not supported"; then
		grep -qx "  cycles" list
	else
		grep -q "^  cycles  *\[not supported here\]$" list
	fi
'

test_expect_success PERF,TRACEPOINTS 'the tracepoints are exactly perf list'"'"'s' '
	"$KPROF" list >list &&
	awk "/^tracepoint events:/ { on = 1; next } on { print \$1 }" list | sort >k.tp &&
	perf list tracepoint 2>/dev/null | awk "/Tracepoint event/ { print \$1 }" | sort >p.tp &&
	test -s k.tp && test_cmp p.tp k.tp
'

test_expect_success TRACEPOINTS 'a glob narrows the list' '
	"$KPROF" list "sched:sched_sw*" >g &&
	grep -qx "  sched:sched_switch" g && ! grep -q "cpu-clock" g &&
	"$KPROF" list "*fault*" >f && grep -qx "  page-faults" f &&
	grep -qx "  exceptions:page_fault_user" f
'

test_expect_success 'a bad -e is a usage error naming kprof list, for record, stat and run' '
	rc=0; "$KPROF" record -e bogus -o x.data -- true 2>err || rc=$?
	test $rc -eq 2 && grep -q "unknown event .bogus. (.kprof list. shows" err && ! test -e x.data &&
	rc=0; "$KPROF" stat -e cpu-clokc -- true 2>err || rc=$?
	test $rc -eq 2 && grep -q "kprof list" err &&
	rc=0; "$KPROF" run brk_test testtime=1 -e cyclez -o res 2>err || rc=$?
	test $rc -eq 2 && grep -q "kprof list" err && ! test -d res/brk_test/1s/*/0
'

test_expect_success TRACEPOINTS 'a tracepoint that does not exist is a usage error too' '
	rc=0; "$KPROF" record -e sched:no_such_tp -o x.data -- true 2>err || rc=$?
	test $rc -eq 2 && grep -q "no tracepoint matches .sched:no_such_tp." err &&
	grep -q "kprof list \"sched:\*\"" err
'

test_expect_success 'usage errors of list itself' '
	rc=0; "$KPROF" list a b 2>err || rc=$?; test $rc -eq 2 &&
	rc=0; "$KPROF" list --bogus 2>err || rc=$?; test $rc -eq 2
'

test_done
