#!/usr/bin/env bash
# `kprof collapse` on a perf.data recorded by perf equals `kprof collapse` on `perf script` of
# the same file: two independent paths (kprof's reader and symbolizer, perf's own script
# output parsed with stackcollapse-perf.pl's rules) must give the same folded stacks.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-perf-compare.sh"

prereq_RECORDED() { [ -s "$TRASH/perf.data" ] && [ -s "$TRASH/script.txt" ]; }

test_expect_success PERF,PERF_EVENTS 'record a fixture with perf record -g -e cpu-clock' '
	perf record -q -g -e cpu-clock -o perf.data -- "$FIXTURES/calltree" 0.3 >/dev/null 2>&1 &&
	perf script -i perf.data >script.txt 2>/dev/null &&
	perf script -i perf.data -F comm,pid,tid,time,period,event,ip,sym,dso \
		>script-pid.txt 2>/dev/null &&
	grep -q " leaf_a" script.txt
'

for opt in "" --kernel "--count samples"; do
	export opt
	test_expect_success RECORDED "perf.data equals its perf script text (${opt:-default})" '
		"$KPROF" collapse $opt -i perf.data >from-data &&
		"$KPROF" collapse $opt script.txt >from-script &&
		grep -q "^calltree;.*;main;run;phase_a;leaf_a;spin " from-script &&
		test_cmp from-script from-data
	'
done

# perf script prints the PID only when asked (-F ...,pid,tid,...); without it the root is comm-?.
for opt in --pid --tid "--tid --addrs --kernel" "--all --addrs"; do
	export opt
	test_expect_success RECORDED "perf.data equals perf script -F with pids ($opt)" '
		"$KPROF" collapse $opt -i perf.data >from-data &&
		"$KPROF" collapse $opt script-pid.txt >from-script &&
		grep -q "^calltree[-;]" from-script &&
		test_cmp from-script from-data
	'
done

# C++ functions in an anonymous namespace: perf names them "(anonymous namespace)::f", the
# Perl script drops them as process names (--perl-compat), kprof keeps them; either way both
# paths agree.
test_expect_success PERF,PERF_EVENTS 'anonymous namespace frames: kept, and dropped with --perl-compat' '
	perf record -q -g -e cpu-clock -o anon.data -- "$FIXTURES/anonns" 0.3 >/dev/null 2>&1 &&
	perf script -i anon.data >anon.txt 2>/dev/null &&
	grep -q "(anonymous namespace)::spin+0x" anon.txt &&
	"$KPROF" collapse -i anon.data >own-data 2>own-data.err &&
	"$KPROF" collapse anon.txt >own-script &&
	same_folded own-script own-data own-data.err &&
	grep -q "^anonns;.*;main;(anonymous namespace)::outer;(anonymous namespace)::spin " own-data &&
	"$KPROF" collapse --perl-compat -i anon.data >compat-data 2>compat-data.err &&
	"$KPROF" collapse --perl-compat anon.txt >compat-script &&
	same_folded compat-script compat-data compat-data.err &&
	! grep -q "anonymous namespace" compat-data &&
	# the spin samples are main'"'"'s there: its callees were dropped, and nothing else moved
	own=$(grep -c "^anonns;.*;main;(anonymous namespace)::outer;(anonymous namespace)::spin " own-data) &&
	grep -q "^anonns;.*;main " compat-data &&
	sed -E "s/;\(anonymous namespace\)::[a-z]+//g" own-data | sum_folded >own-dropped &&
	sum_folded compat-data >compat-summed &&
	test_cmp own-dropped compat-summed &&
	echo "$own stacks through the namespace" &&
	if command -v stackcollapse-perf.pl >/dev/null 2>&1; then
		stackcollapse-perf.pl anon.txt >pl && test_cmp pl compat-script
	fi
'

test_expect_success RECORDED 'counts sum to the total period and the sample count' '
	period=$(awk "/ cpu-clock:/ { s += \$(NF - 1) } END { print s }" script.txt) &&
	samples=$(grep -c " cpu-clock:" script.txt) &&
	"$KPROF" collapse -i perf.data | awk -v w=$period "{ s += \$NF } END { exit s != w }" &&
	"$KPROF" collapse --count samples -i perf.data |
		awk -v w=$samples "{ s += \$NF } END { exit s != w }"
'

test_expect_success RECORDED 'perf.data redirected to stdin is read as perf.data' '
	"$KPROF" collapse -i - <perf.data >out && "$KPROF" collapse -i perf.data >expected &&
	test_cmp expected out
'

test_expect_success RECORDED 'without -i and with stdin not a pipe, ./perf.data is read' '
	"$KPROF" collapse </dev/null >out && "$KPROF" collapse -i perf.data >expected &&
	test_cmp expected out
'

test_done
