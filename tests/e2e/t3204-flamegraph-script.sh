#!/usr/bin/env bash
# kprof flamegraph on `perf script` text (read by the script area's parser): recognised by
# content from a file or standard input, drawn exactly like its `kprof collapse --kernel` output,
# kernel frames told apart; and identical to the graph of the perf.data it was printed from.
. "$(dirname "$0")/lib.sh"

CORPUS=$KPROF_SHARED/testdata/flamegraph

test_expect_success SHARED 'every perf script text of the corpus draws like its collapsed form' '
	n=0
	for f in "$CORPUS"/perf-*.txt; do
		"$KPROF" collapse --kernel "$f" >folded 2>/dev/null
		# a frame ending in a blank cannot survive folded text (the count follows a blank)
		grep -q "[[:blank:]][[:blank:]][0-9.]*$" folded && continue
		"$KPROF" flamegraph --colors kernel "$f" >script.svg 2>/dev/null &&
		"$KPROF" flamegraph --colors kernel folded >folded.svg &&
		cmp script.svg folded.svg || { echo "differs: $f"; exit 1; }
		n=$((n + 1))
	done
	echo "$n files compared" && test "$n" -ge 10
'

test_expect_success SHARED 'perf script text on standard input' '
	f=$CORPUS/perf-dd-stacks-01.txt &&
	"$KPROF" flamegraph <"$f" >stdin.svg && "$KPROF" flamegraph "$f" >file.svg &&
	cmp stdin.svg file.svg
'

test_expect_success SHARED 'kernel frames of perf script text are orange with --colors kernel' '
	"$KPROF" flamegraph --colors kernel "$CORPUS/perf-dd-stacks-01.txt" >k.svg &&
	grep -o "<title>sys_read ([^<]*</title><rect [^>]*" k.svg | grep -q "rgb([0-9]*,[0-9]*,0)"
'

test_expect_success PERF,PERF_EVENTS 'perf script text and its perf.data draw the same graph' '
	perf record -q -e cpu-clock -F 2000 -g -o rec.data -- \
		sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done" 2>/dev/null &&
	perf script -i rec.data >rec.txt 2>/dev/null &&
	"$KPROF" flamegraph --diff rec.txt rec.data >d.svg &&
	test "$(grep -c "<g fg:x=" d.svg)" -gt 3 &&
	! grep -o "delta: [^,]*, self delta: [^)]*)" d.svg | grep -v "delta: +0.00%, self delta: +0.00%)" &&
	! grep -q "only in before" d.svg
'

test_done
