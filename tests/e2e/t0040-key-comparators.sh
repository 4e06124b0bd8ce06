#!/usr/bin/env bash
# The key comparators the perf agreement tests rely on (lkp-keys-compare-perf-tree.pl) accept
# what kprof said and nothing more: a comparator that cannot fail would hide a silent difference.
. "$(dirname "$0")/lib.sh"

CMP_TREE=$KPROF_SRC/tests/e2e/lkp-keys-compare-perf-tree.pl

# perf's raw report (only its event line matters here) and kprof's -v line of bounds
setup_tree() {
	echo "# Samples: 5K of event 'cpu-clock'" >raw &&
	echo "kprof: debug: x.data: functions whose inlined frames perf reaches through more than one mapping, with the most perf's children.* can add: f:+0.04" >verr
}

test_expect_success 'a turned entry: perf up to kprof + the bound said' '
	setup_tree &&
	echo "perf-profile.children.cpu-clock.f: 0.12" >perf &&
	echo "perf-profile.children.cpu-clock.f: 0.08" >kprof &&
	perl "$CMP_TREE" raw perf kprof verr >out &&
	grep "^said .*children.cpu-clock.f: perf 0.12, kprof 0.08" out &&
	echo "perf-profile.children.cpu-clock.f: 0.14" >perf &&
	test_must_fail perl "$CMP_TREE" raw perf kprof verr >out &&
	grep "^differs .*children.cpu-clock.f: perf 0.14" out
'

# t3012 #3 in CI: kprof 2 samples of 5,671 (0.04, not printed), perf the same two plus its turned
# entry's (0.08): kprof said +0.04, and its own share is below the threshold, not 0.
test_expect_success 'a turned entry: kprof below the 0.05 threshold prints no key' '
	setup_tree &&
	echo "perf-profile.children.cpu-clock.f: 0.08" >perf &&
	: >kprof &&
	perl "$CMP_TREE" raw perf kprof verr >out &&
	grep "^said .*children.cpu-clock.f: perf 0.08, kprof 0" out &&
	echo "perf-profile.children.cpu-clock.f: 0.11" >perf &&
	test_must_fail perl "$CMP_TREE" raw perf kprof verr >out &&
	echo "perf-profile.children.cpu-clock.g: 0.08" >perf &&
	test_must_fail perl "$CMP_TREE" raw perf kprof verr >out &&
	grep "^differs .*children.cpu-clock.g: perf 0.08, kprof 0" out
'

test_done
