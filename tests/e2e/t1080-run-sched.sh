#!/usr/bin/env bash
# kprof run's perf-sched monitor: the run's perf-sched.data (--keep-sched-data) is a file perf
# sched timehist reads,
# and the run's perf-sched.* keys are LKP's parse of perf's timehist of it (minus the zeros,
# which stats.json leaves out as LKP's dump-stat does); it is off unless --sched (or
# --keep-sched-data) asks; without tracepoints it is one line on stderr and no keys.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"

PARSE=$KPROF_SRC/tests/e2e/lkp-parse-perf-sched.pl

test_have_prereq ROOT TRACEPOINTS ||
	test_skip_all "the perf-sched monitor needs root and tracefs (missing $missing_prereq)"

# nonzero: "KEY: VALUE" lines as "KEY VALUE" (Perl's number form), zeros left out as stats.json
# leaves them out
nonzero() {
	perl -ne 'my ($k, $v) = /^(\S+): (\S+)$/ or next; print "$k ", $v + 0, "\n" if $v + 0 != 0'
}

# keys_of STATS: the perf-sched keys of a stats.json, "key value" sorted
keys_of() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
		for (sort keys %$j) { print "$_ ", $j->{$_} + 0, "\n" if /^perf-sched\./ }' "$1"
}

test_expect_success '--sched: the recording is made in $TMPDIR and removed' '
	mkdir tmp &&
	TMPDIR=$PWD/tmp "$KPROF" -q run brk_test testtime=1 --runs 1 --no-profile --sched -o D 2>err &&
	d=$(ls -d D/brk_test/*/*/0) &&
	grep -q "perf-sched.total_wait_and_delay.count.ms" "$d/stats.json" &&
	! test -e "$d/perf-sched.data" && test -z "$(ls -A tmp)"
'

test_expect_success 'what a SIGKILLed kprof left in $TMPDIR goes; a live one'"'"'s stays' '
	sh -c "exit 0" & dead=$! && wait $dead &&
	mkdir -m 700 tmp/kprof-sched-$dead.AAAAAA tmp/kprof-sched-$$.BBBBBB &&
	echo x >tmp/kprof-sched-$dead.AAAAAA/perf-sched.data.tmp.CCCCCC &&
	ln -s "$PWD/keepme" tmp/kprof-sched-$dead.AAAAAA/link && echo keep >keepme &&
	TMPDIR=$PWD/tmp "$KPROF" -q run brk_test testtime=1 --runs 1 --no-profile --sched -o D 2>err &&
	! test -e tmp/kprof-sched-$dead.AAAAAA && test -d tmp/kprof-sched-$$.BBBBBB &&
	test "$(cat keepme)" = keep
'

test_expect_success '--keep-sched-data: perf-sched.data in the run, and perf-sched keys' '
	"$KPROF" -q run brk_test testtime=1 --runs 1 --no-profile --keep-sched-data -o R 2>err &&
	cat err &&
	d=$(ls -d R/brk_test/*/*/0) && echo "$d" >rundir &&
	test -s "$d/perf-sched.data" && ! test -e "$d/perf-sched.data.kallsyms" &&
	keys_of "$d/stats.json" >keys &&
	grep -q "^perf-sched.total_wait_and_delay.count.ms [1-9]" keys &&
	grep -q "^perf-sched.wait_time.max.ms.[a-z_]*\.[a-z_]" keys
'

test_expect_success PERF 'the keys are LKP'"'"'s parse of perf sched timehist of that file' '
	d=$(cat rundir) &&
	perf sched timehist -i "$d/perf-sched.data" >perf.txt 2>/dev/null &&
	grep -q " <- " perf.txt &&
	perl "$PARSE" <perf.txt | nonzero | sort >expect &&
	test_cmp expect keys
'

test_expect_success 'kprof sched -i reads the run'"'"'s recording back to the same keys' '
	d=$(cat rundir) &&
	"$KPROF" sched -i "$d/perf-sched.data" --lkp | nonzero | sort >again &&
	test_cmp keys again
'

test_expect_success 'by default (and --no-sched): no recording, no perf-sched keys' '
	"$KPROF" -q run brk_test testtime=1 --runs 1 --no-profile -o N 2>err &&
	"$KPROF" -q run brk_test testtime=1 --runs 1 --no-profile --sched --no-sched -o N 2>>err &&
	for d in N/brk_test/*/*/0 N/brk_test/*/*/1; do
		! test -e "$d/perf-sched.data" && ! grep -q "perf-sched" "$d/stats.json" || exit 1
	done
'

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
prereq_NOBODY() {
	command -v setpriv >/dev/null && chmod 777 "$TRASH" && as_nobody test -x "$KPROF" &&
	! as_nobody test -r /sys/kernel/tracing/events/sched/sched_switch/id
}

test_expect_success NOBODY 'without tracepoints (user nobody): one line, no perf-sched keys' '
	setpriv --reuid=65534 --regid=65534 --clear-groups "$KPROF" run brk_test testtime=1 \
		--runs 1 --no-profile --sched -o U 2>err >/dev/null
	cat err &&
	d=$(ls -d U/brk_test/*/*/0) &&
	test "$(grep -c "perf-sched monitor: .*no perf-sched keys" err)" = 1 &&
	! grep -q "perf-sched" "$d/stats.json"
'

test_done
