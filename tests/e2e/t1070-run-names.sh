#!/usr/bin/env bash
# kprof run --name/--commit/--note: the set's directory, meta.json, and one kernel build per
# set (a run on another build is refused); the set's kallsyms snapshot shared by its runs; the
# noisy-machine warning (share of samples outside the workload).
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"

S=results/brk_test/1s

test_expect_success '--name is the directory; meta.json keeps name, commit, note, build' '
	"$KPROF" run brk_test testtime=1 --runs 1 --no-profile --name base --commit abc123 \
		--note "first try" >out 2>err &&
	m=$S/base/0/meta.json &&
	test "$(json_get $m name)" = base &&
	test "$(json_get $m commit)" = abc123 &&
	test "$(json_get $m note)" = "first try" &&
	test "$(json_get $m main_metric)" = aim9.brk_test.ops_per_sec &&
	test "$(json_get $m kernel_version)" = "$(uname -v)" &&
	if [ -r /proc/config.gz ]; then json_get $m kernel_config_hash | grep -Eq "^[0-9a-f]{16}$"; fi
'

test_expect_success 'without --name the set is the kernel release; commit and note are null' '
	"$KPROF" run brk_test testtime=1 --runs 1 --no-profile >out 2>err &&
	m=$S/$(uname -r)/0/meta.json &&
	test "$(json_get $m name)" = "$(uname -r)" &&
	! json_get $m commit
'

test_expect_success 'a run on another kernel build than the set is refused, nothing runs' '
	perl -0pi -e "s/\"kernel_version\": \"[^\"]*\"/\"kernel_version\": \"#7 SMP other\"/" \
		$S/base/0/meta.json &&
	rc=0; "$KPROF" run brk_test testtime=1 --runs 1 --no-profile --name base 2>err || rc=$? &&
	test $rc -eq 1 && test "$(lines_said err)" -eq 1 &&
	grep -q "run 0 was made on another build of the kernel (uname -v .#7 SMP other." err &&
	grep -q "give this one another --name" err &&
	! test -d $S/base/1
'

test_expect_success 'bad names are usage errors' '
	for n in ../x a/b .hidden -x "" "with space"; do
		rc=0; "$KPROF" run brk_test --name "$n" 2>err || rc=$?
		test $rc -eq 2 || { echo "--name \"$n\": exit $rc"; exit 1; }
		grep -q -- "--name" err || exit 1
	done
'

test_expect_success PERF_EVENTS 'one kallsyms snapshot per set: the runs link to it' '
	"$KPROF" run brk_test testtime=1 --runs 2 --name prof >out 2>err &&
	test -s $S/prof/kallsyms &&
	i=$(stat -c %i $S/prof/kallsyms) &&
	test "$(stat -c %i $S/prof/0/perf.data.kallsyms)" = "$i" &&
	test "$(stat -c %i $S/prof/1/perf.data.kallsyms)" = "$i" &&
	"$KPROF" report -i $S/prof/1/perf.data >keys &&
	grep -q "^perf-profile.children" keys
'

test_expect_success PERF_EVENTS 'a busy process beside the workload: the run says the machine is noisy' '
	"$FIXTURES/record-work" forever & bg=$!
	"$KPROF" run brk_test testtime=1 --runs 1 --name noisy >out 2>err; rc=$?
	kill $bg; wait $bg 2>/dev/null
	test $rc -eq 0 &&
	grep -q "warning: brk_test run 0: [0-9]*% of the samples (idle excluded) were outside the workload (.*): the machine is noisy" err &&
	pct=$(json_get $S/noisy/0/meta.json outside_samples_percent) &&
	awk -v p="$pct" "BEGIN { exit !(p >= 10) }"
'

test_expect_success '--no-profile: no share known (null)' '
	! json_get $S/base/0/meta.json outside_samples_percent
'

test_done
