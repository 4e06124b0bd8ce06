#!/usr/bin/env bash
# The regression workflow end to end, as a kernel developer runs it across two kernels (the two
# kernels simulated by two --name on this one): run, compare, plot, flamegraph --diff, each
# checked for its labels and warnings; sets that do not belong together are refused.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"

S=results/brk_test/1s
M=aim9.brk_test.ops_per_sec
if test_have_prereq PERF_EVENTS; then PROF=; else PROF=--no-profile; fi

test_expect_success 'run: two named sets of the same workload' '
	"$KPROF" run brk_test testtime=1 --runs 3 --name base --commit v6.11 $PROF >out.base 2>&1 &&
	"$KPROF" run brk_test testtime=1 --runs 3 --name new --commit 1a2b3c $PROF \
		--note "the suspect" >out.new 2>&1 &&
	test "$(json_get $S/base/0/meta.json name)" = base &&
	test "$(json_get $S/new/2/meta.json note)" = "the suspect" &&
	grep -q "results in .*/$S/new" out.new
'

test_expect_success 'compare: the names head the columns; the main metric is always there' '
	"$KPROF" compare $S/base $S/new >table 2>err &&
	sed -n "/^commit: $/,/^$/p" table | grep -qx "  base" &&
	sed -n "/^commit: $/,/^$/p" table | grep -qx "  new" &&
	grep -Eq "^ +base +new $" table &&
	grep -q "  $M$" table &&
	"$KPROF" compare --json $S/base $S/new >j.json &&
	perl -MJSON::PP -e "
		local \$/; my \$j = decode_json(<STDIN>);
		\$j->{main_metric} eq q($M) or die q(main_metric);
		my (\$m) = grep { \$_->{key} eq q($M) } @{\$j->{rows}};
		\$m->{listed} or die q(main metric not listed);
		my \$lkp = grep { \$_ eq q($M) } @{\$j->{lkp_selection}};
		print \$lkp ? q(lkp) : q(forced), qq(\n);
		scalar(@{\$j->{rows}}) > scalar(@{\$j->{lkp_selection}}) or die q(all rows);
	" <j.json >how &&
	if [ "$(cat how)" = forced ]; then
		grep -q "^# $M: the workload.s main metric, shown although LKP.s selection" table
	else
		! grep -q "shown although" table
	fi
'

test_expect_success 'compare --stats: q-values and how many rows were tested' '
	"$KPROF" compare --stats $S/base $S/new >stats &&
	grep -Eq "^# q is p adjusted for the false discovery rate \(Benjamini-Hochberg\) over all [0-9]+ tested rows" stats &&
	grep -q "q-value" stats &&
	grep -q "base (.*) \[3 runs\]" stats
'

test_expect_success 'compare: more than two sets are said to compare with the base only' '
	"$KPROF" compare $S/base $S/new $S/new >/dev/null 2>err &&
	grep -q "3 sets: each NEW column is compared with the BASE (base) only" err
'

test_expect_success 'compare and plot refuse sets of other parameters; --force warns' '
	"$KPROF" run brk_test testtime=2 --runs 1 --name base --no-profile >/dev/null 2>&1 &&
	rc=0; "$KPROF" compare $S/base results/brk_test/2s/base >out 2>err || rc=$? &&
	test $rc -eq 1 && ! test -s out &&
	grep -q "compare: the sets differ in parameters: .1s. (.*) vs .2s. (.*): they do not belong together (--force" err &&
	rc=0; "$KPROF" plot $S/base results/brk_test/2s/base $M >out 2>err || rc=$? &&
	test $rc -eq 1 && grep -q "plot: the sets differ in parameters" err &&
	"$KPROF" compare --force $S/base results/brk_test/2s/base >out 2>err &&
	grep -q "warning: COMPARED ANYWAY (--force): the sets differ in parameters" err && grep -q "  $M$" out
'

test_expect_success 'compare refuses two different workloads' '
	"$KPROF" run page_test testtime=1 --runs 1 --name new --no-profile >/dev/null 2>&1 &&
	rc=0; "$KPROF" compare $S/new results/page_test/1s/new 2>err || rc=$? &&
	test $rc -eq 1 && grep -q "the sets differ in workload: .brk_test. (.*) vs .page_test." err
'

test_expect_success XMLLINT 'plot --svg: both sets named, axis titles, round tics' '
	"$KPROF" plot --svg p.svg $S/base $S/new $M >ascii &&
	grep -q "bisect-good sample (base)" p.svg && grep -q "bisect-bad sample (new)" p.svg &&
	grep -q "<text id=\"ytitle\".*>$M</text>" p.svg && grep -q "id=\"xtitle\"" p.svg &&
	xmllint --noout p.svg
'

test_expect_success PERF_EVENTS 'the run graphs are titled with workload, params, set, kernel, run' '
	grep -q ">brk_test 1s — base (kernel $(uname -r)) — run 0</text>" $S/base/0/flamegraph.svg &&
	grep -q ">brk_test 1s — new (kernel $(uname -r)) — run 2</text>" $S/new/2/flamegraph.svg &&
	"$KPROF" flamegraph $S/new/1 -o one.svg &&
	grep -q ">brk_test 1s — new (kernel $(uname -r)) — run 1</text>" one.svg
'

test_expect_success PERF_EVENTS 'flamegraph --diff: BEFORE and AFTER named, the legend and its scale' '
	"$KPROF" flamegraph --diff $S/base/0 $S/new/0/perf.data -o diff.svg &&
	grep -q ">Differential Flame Graph</text>" diff.svg &&
	grep -q "BEFORE: base run 0 → AFTER: new run 0" diff.svg &&
	grep -q "<g id=\"legend\" fg:scale=\"5\">" diff.svg &&
	grep -q ">-5 pp</text>" diff.svg && grep -q ">+5 pp</text>" diff.svg &&
	"$KPROF" flamegraph --diff --before-name A --after-name B --diff-scale 2 $S/base/0 \
		$S/new/0 -o named.svg &&
	grep -q "BEFORE: A → AFTER: B" named.svg && grep -q ">+2 pp</text>" named.svg
'

test_expect_success 'a second build of one release cannot join the set' '
	perl -0pi -e "s/\"kernel_version\": \"[^\"]*\"/\"kernel_version\": \"#2 rebuilt\"/" \
		$S/new/0/meta.json &&
	rc=0; "$KPROF" run brk_test testtime=1 --runs 1 --name new --no-profile 2>err || rc=$? &&
	test $rc -eq 1 && grep -q "another build of the kernel" err
'

test_done
