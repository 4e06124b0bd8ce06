#!/usr/bin/env bash
# A kprof recording read two ways: `perf report` parsed with LKP's rules
# (lkp-parse-perf-profile.pl, the perfdata area's parser) and `kprof report --format lkp` must
# give the same perf-profile keys, every value within 0.01 (lkp-keys-compare.pl).
# perf 6.1 names padding after noreturn functions __pfx_*; those keys are not compared (see
# t3000-report-lkp-vs-perf.sh).
. "$(dirname "$0")/lib.sh"

E2E=$KPROF_SRC/tests/e2e
W=$FIXTURES/record-work
LKP_OPTS="--children --header -U -g folded,0.5,callee --sort=dso,symbol"

test_have_prereq PERF PERF_EVENTS || test_skip_all "needs perf and perf events (missing $missing_prereq)"

pfx_filter() { grep -v -E '(^|\.)__(pfx|cfi)_' "$1" >"$1.cmp" || true; }

compare_lkp() {
	local data=$1
	# shellcheck disable=SC2086
	perf report $LKP_OPTS -i "$data" 2>/dev/null | perl "$E2E/lkp-parse-perf-profile.pl" \
		>"$data.perf"
	"$KPROF" report --format lkp -i "$data" >"$data.kprof"
	test -s "$data.perf" && test -s "$data.kprof"
	pfx_filter "$data.perf"
	pfx_filter "$data.kprof"
	perl "$E2E/lkp-keys-compare.pl" "$data.perf.cmp" "$data.kprof.cmp" 0.01
}

test_expect_success PERF,PERF_EVENTS 'per command: kprof report = perf report (LKP rules)' '
	"$KPROF" record -e cpu-clock -g -o cmd.data -- "$W" spin 400 2>/dev/null &&
	compare_lkp cmd.data &&
	grep -q "^perf-profile.self.cpu-clock.hot_leaf: " cmd.data.kprof &&
	grep -q "^perf-profile.calltrace.cpu-clock.hot_leaf.hot_parent.main" cmd.data.kprof
'

# System wide, other users' processes are in the file too, and kprof report and perf report
# still disagree on some of their stacks (JIT code, chains broken inside libc: the same
# happens on perf's own recordings, t3000). The keys of the fixture's own stacks are compared.
test_expect_success PERF,PERF_EVENTS,KALLSYMS 'system wide: the fixture'"'"'s keys agree' '
	"$W" forever & bg=$!
	"$KPROF" record -a -g -e cpu-clock --duration 0.5 -o sys.data 2>/dev/null
	kill $bg; wait $bg || :
	compare_lkp sys.data || :
	grep -E "hot_leaf|hot_parent" sys.data.perf.cmp >sys.perf.fixture &&
	grep -E "hot_leaf|hot_parent" sys.data.kprof.cmp >sys.kprof.fixture &&
	test "$(wc -l <sys.kprof.fixture)" -ge 3 &&
	perl "$E2E/lkp-keys-compare.pl" sys.perf.fixture sys.kprof.fixture 0.01
'

test_expect_success PERF,PERF_EVENTS 'tracepoint call chains: page faults from touch_pages' '
	"$KPROF" record -e exceptions:page_fault_user -g -o pf.data -- "$W" pages 2000 \
		2>/dev/null &&
	compare_lkp pf.data &&
	grep -q "touch_pages" pf.data.kprof
'

test_done
