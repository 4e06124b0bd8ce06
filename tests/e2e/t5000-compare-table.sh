#!/usr/bin/env bash
# kprof compare: LKP's comparison table from result sets on disk (run directories with
# stats.json, kernel directories with matrix.json, a matrix.json path), labels, options, and bad
# input. Report 004's aim9 row is rebuilt from the raw per-run values quoted in its thread.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-compare.sh"

R=RESULTS/aim9/300s-brk_test
BASE=$R/fc21959f74bc1138
NEW=$R/cacded5e42b9609b07b22d80c10
make_runs $BASE aim9.brk_test.ops_per_sec 1351624.95 1316322.79 1330363.33 1289563.33 1314100.0 \
	1335475.48
make_runs $NEW aim9.brk_test.ops_per_sec 1268030.0 1277110.76 1226452.45 1275850.0 1249628.35 \
	1242148.6

cat >aim9.expected <<'EOF'
=========================================================================================
testcase/path_params:
  aim9/300s-brk_test

commit: 
  fc21959f74bc1138
  cacded5e42b9609b07b22d80c10

fc21959f74bc1138 cacded5e42b9609b07b22d80c10 
---------------- --------------------------- 
         %stddev     %change         %stddev
             \          |                \  
   1322908            -5.0%    1256536        aim9.brk_test.ops_per_sec

EOF

test_expect_success 'report 004: the aim9 row byte for byte from 6+6 stats.json runs' '
	"$KPROF" compare $BASE $NEW >out &&
	test_cmp aim9.expected out
'

# The same values as LKP's commit-level matrix.json files.
M=m/aim9/300s-brk_test
mkdir -p $M/fc21959f74bc1138 $M/cacded5e42b9609b07b22d80c10
cat >$M/fc21959f74bc1138/matrix.json <<'EOF'
{"aim9.brk_test.ops_per_sec": [1351624.95, 1316322.79, 1330363.33, 1289563.33, 1314100.0,
 1335475.48],
 "stats_source": ["a", "b", "c", "d", "e", "f"]}
EOF
cat >$M/cacded5e42b9609b07b22d80c10/matrix.json <<'EOF'
{"aim9.brk_test.ops_per_sec": [1268030.0, 1277110.76, 1226452.45, 1275850.0, 1249628.35,
 1242148.6]}
EOF

test_expect_success 'the same from matrix.json files (kernel dir and file path)' '
	"$KPROF" compare $M/fc21959f74bc1138 $M/cacded5e42b9609b07b22d80c10/matrix.json >out &&
	test_cmp aim9.expected out
'

test_expect_success '--label names the columns; meta.json gives the release' '
	"$KPROF" compare --label v6.11 --label v6.12-rc1 $BASE $NEW >out &&
	grep -q "^           v6.11                   v6.12-rc1 $" out &&
	printf "{\"kernel_release\": \"6.12.0-rc1+\", \"params\": {\"x\": 1}}\n" >$NEW/meta.json &&
	"$KPROF" compare $BASE $NEW >out &&
	grep -q "^  6.12.0-rc1+$" out &&
	rm $NEW/meta.json
'

test_expect_success 'run directories in numeric order; "kernel" in a run meta.json labels' '
	make_runs order/a aim9.x 0 1 2 3 4 5 6 7 8 9 10 &&
	make_runs order/b aim9.x 0 1 2 3 4 5 6 7 8 9 10 &&
	printf "{\"kernel\": \"6.18.0-kprof\"}" >order/a/0/meta.json &&
	"$KPROF" compare -a --raw order/a order/b >out &&
	grep -q "^            6.18.0-kprof: 0 1 2 3 4 5 6 7 8 9 10$" out
'

test_expect_success 'a row LKP would not list is not listed; -a lists it' '
	make_runs same/a aim9.x 100 101 99 &&
	make_runs same/b aim9.x 100 99 101 &&
	"$KPROF" compare same/a same/b >out 2>err &&
	! grep -q aim9.x out && [ ! -s out ] && grep -q "no row changed" err &&
	"$KPROF" compare -a same/a same/b >out &&
	grep -q "^    100.00            +0.0%     100.00        aim9.x$" out
'

test_expect_success 'meta.json "family" makes a workload the test (1% rule, listed first)' '
	make_runs fam/a mybench.ops 100 100 100 &&
	make_runs fam/b mybench.ops 103 103 103 &&
	"$KPROF" compare fam/a fam/b >out 2>&1 &&
	! grep -q mybench.ops out &&
	printf "{\"family\": \"mybench\"}" >fam/a/0/meta.json &&
	"$KPROF" compare fam/a fam/b >out &&
	grep -q "^    100.00            +3.0%     103.00        mybench.ops$" out
'

test_expect_success 'two runs per side: nothing listed, and a warning says why' '
	make_runs two/a aim9.x 1 1 &&
	make_runs two/b aim9.x 9 9 &&
	"$KPROF" compare two/a two/b >out 2>err &&
	! grep -q aim9.x out &&
	grep -q "no set has 3 runs" err
'

test_expect_success '--stats: stddev, runs and a Welch p-value; the header says so' '
	"$KPROF" compare --stats $BASE $NEW >out &&
	grep -q "Welch" out &&
	grep -q "over all 1 tested rows" out &&
	row="   1322908 ±  1.5%    6      -5.0%  2.6e-04  2.6e-04    1256536 ±  1.5%    6  "
	grep -q "^${row}aim9.brk_test.ops_per_sec$" out
'

test_expect_success '--stats --alpha: a noisy row is marked' '
	"$KPROF" compare -a --stats same/a same/b >out &&
	grep -q " ~aim9.x$" out &&
	grep -q "fewer than 5 runs" out
'

test_expect_success 'drift: a main metric that rises run by run is named' '
	make_runs drift/a aim9.x 100.0 101.0 102.0 103.0 104.0 &&
	make_runs drift/b aim9.x 100.0 102.0 101.0 100.5 101.5 &&
	for i in 0 1 2 3 4; do printf "{\"main_metric\": \"aim9.x\"}" >drift/a/$i/meta.json; done &&
	"$KPROF" compare drift/a drift/b >out 2>err &&
	grep -q "warning: a: aim9.x rises strictly run by run over 5 runs: the machine drifts" err &&
	"$KPROF" compare drift/b drift/a >out 2>err &&
	grep -q "b: aim9.x\|a: aim9.x rises" err &&
	"$KPROF" compare --json drift/a drift/b | grep -q "\"drift\": 1"
'

test_expect_success '--raw: per-run values under each row, 5 significant digits' '
	"$KPROF" compare --raw $BASE $NEW >out &&
	grep -q "fc21959f74bc1138: 1351625 1316323 1330363 1289563 1314100 1335475$" out
'

test_expect_success '--json: valid JSON with means, p-values and raw values' '
	"$KPROF" compare --json $BASE $NEW >out.json &&
	perl -MJSON::PP -e "
		local \$/; my \$j = decode_json(<STDIN>);
		my \$r = \$j->{rows}[0];
		\$r->{key} eq q(aim9.brk_test.ops_per_sec) or die q(key);
		abs(\$r->{cells}[1]{p} - 0.000261209741821) < 1e-9 or die q(p);
		abs(\$r->{cells}[1]{change} + 5.01716) < 1e-4 or die q(change);
		scalar(@{\$r->{cells}[0]{values}}) == 6 or die q(values);
	" <out.json
'

test_expect_success '--perf-profile: shares ranked by change' '
	mkdir -p pp/a/0 pp/a/1 pp/a/2 pp/b/0 pp/b/1 pp/b/2 &&
	p=perf-profile &&
	for i in 0 1 2; do
		printf "{\"$p.self.cpu-clock.f\": 40.0, \"$p.self.cpu-clock.g\": 10.0}" \
			>pp/a/$i/stats.json
		printf "{\"$p.self.cpu-clock.g\": 12.0, \"$p.children.cpu-clock.h\": 3.0}" \
			>pp/b/$i/stats.json
	done &&
	"$KPROF" compare --perf-profile --top 5 pp/a pp/b >out &&
	grep -q "^     40.00       0.00   -40.00  cpu-clock.f$" out &&
	grep -q "^      0.00       3.00    +3.00  cpu-clock.h$" out &&
	"$KPROF" compare pp/a pp/b >out &&
	grep -q "^     40.00           -40.0        0.00        $p.self.cpu-clock.f$" out &&
	grep -q "^      0.00            +3.0        3.00        $p.children.cpu-clock.h$" out
'

test_expect_success 'a missing result set is a one-line error (exit 1)' '
	rc=0; "$KPROF" compare $BASE nosuch 2>err || rc=$?
	[ "$rc" -eq 1 ] && [ "$(lines_said err)" -eq 1 ] && grep -q "nosuch: No such file" err
'

test_expect_success 'malformed JSON: one line naming the file and the byte offset' '
	make_runs bad aim9.x 1 2 3 &&
	printf "{\"aim9.x\": 1,, }" >bad/1/stats.json &&
	rc=0; "$KPROF" compare $BASE bad 2>err || rc=$?
	[ "$rc" -eq 1 ] && [ "$(lines_said err)" -eq 1 ] &&
	grep -q "bad/1/stats.json: byte offset 13: expected a string key" err
'

test_expect_success 'an empty result set is an error' '
	mkdir -p empty &&
	rc=0; "$KPROF" compare $BASE empty 2>err || rc=$?
	[ "$rc" -eq 1 ] && grep -q "empty: no runs" err
'

test_expect_success 'usage errors exit 2' '
	rc=0; "$KPROF" compare $BASE 2>err || rc=$?; [ "$rc" -eq 2 ] &&
	rc=0; "$KPROF" compare --alpha 2 $BASE $NEW 2>err || rc=$?; [ "$rc" -eq 2 ] &&
	grep -q "bad value" err &&
	rc=0; "$KPROF" compare --label a --label b --label c $BASE $NEW 2>err || rc=$?
	[ "$rc" -eq 2 ] &&
	rc=0; "$KPROF" compare --frob $BASE $NEW 2>err || rc=$?; [ "$rc" -eq 2 ]
'

test_done
