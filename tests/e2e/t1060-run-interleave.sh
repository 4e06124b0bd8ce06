#!/usr/bin/env bash
# kprof run --interleave: an A/B of parameters on one kernel, runs alternating A B A B so that a
# drift of the machine hits both sets alike; each set its own directory; compare accepts the
# pair (and only a pair of one interleaved run) without --force.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"

R=results/anon-w-seq

test_expect_success 'two sets, runs alternating, each in its own directory' '
	"$KPROF" run anon-w-seq nr_task=1 size=8M --interleave unit_size=4M \
		--interleave "unit_size=2M" --runs 2 --no-profile --name ab >out 2>err &&
	A=$R/1-10s-8M-4M/ab && B=$R/1-10s-8M-2M/ab &&
	test -s $A/1/stats.json && test -s $B/1/stats.json && ! test -e $A/2 &&
	grep "run [12] done" err | sed "s/.*-> //" >order &&
	printf "%s\n" "$PWD/$A/0" "$PWD/$B/0" "$PWD/$A/1" "$PWD/$B/1" >want &&
	test_cmp want order &&
	grep -q "interleaved 2 parameter sets, 2 runs each: kprof compare" out &&
	t=$(json_get $A/0/meta.json interleave) && test -n "$t" &&
	test "$(json_get $B/1/meta.json interleave)" = "$t"
'

test_expect_success 'compare takes the interleaved pair, and says what it is' '
	"$KPROF" compare -a $R/1-10s-8M-4M/ab $R/1-10s-8M-2M/ab >out 2>err &&
	grep -q "an interleaved A/B of parameters (.1-10s-8M-4M. vs .1-10s-8M-2M." err &&
	grep -q "vm-scalability.throughput" out
'

test_expect_success 'sets of two different interleaved runs are still refused' '
	"$KPROF" run anon-w-seq nr_task=1 size=8M --interleave unit_size=4M \
		--interleave unit_size=1M --runs 1 --no-profile --name cd >/dev/null 2>&1 &&
	rc=0; "$KPROF" compare $R/1-10s-8M-4M/ab $R/1-10s-8M-1M/cd 2>err || rc=$?
	test $rc -eq 1 && grep -q "differ in parameters" err
'

test_expect_success 'usage: one set alone, the same set twice, a bad k=v' '
	rc=0; "$KPROF" run anon-w-seq --interleave unit_size=4M 2>err || rc=$?
	test $rc -eq 2 && grep -q "two parameter sets or more" err &&
	rc=0; "$KPROF" run anon-w-seq size=8M --interleave unit_size=4M --interleave \
		unit_size=4M --no-profile 2>err || rc=$?
	test $rc -eq 1 && grep -q "the same parameters" err &&
	rc=0; "$KPROF" run anon-w-seq --interleave bogus=1 --interleave unit_size=4M 2>err || rc=$?
	test $rc -eq 2 && grep -q "interleave .bogus=1." err
'

test_done
