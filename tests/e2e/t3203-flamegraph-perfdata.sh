#!/usr/bin/env bash
# kprof flamegraph on perf.data (read by profile_load) against perf 6.1 as the oracle: the same
# samples, the same per-command shares as `perf report --sort comm`, kernel frames told apart,
# and a `kprof run`-style directory whose perf.data is preferred to its profile.folded.
. "$(dirname "$0")/lib.sh"

test_have_prereq PERF PERF_EVENTS || test_skip_all "perf cannot sample cpu-clock here"

# share_of NAME FILE: the percentage in the tooltip of the first frame NAME
share_of() { grep -o "<title>$1 ([^<]*" "$2" | head -n 1 | sed 's/.*, \([0-9.]*\)%)$/\1/'; }

test_expect_success 'record a profile with perf (cpu-clock, call graphs, kernel and user)' '
	perf record -q -e cpu-clock -F 2000 -g -o rec.data -- \
		sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done; cat /usr/bin/perl >/dev/null" \
		2>/dev/null &&
	test -s rec.data
'

test_expect_success XMLLINT 'perf.data is recognised and drawn: valid SVG' '
	"$KPROF" flamegraph rec.data -o rec.svg && xmllint --noout rec.svg &&
	grep -q "<title>all ([0-9,]* cpu-clock, 100.00%)" rec.svg
'

test_expect_success '--samples: the root holds every sample perf script prints' '
	n=$(perf script -i rec.data -F comm 2>/dev/null | wc -l) && test "$n" -gt 0 &&
	"$KPROF" flamegraph --samples rec.data >s.svg &&
	grep -q "<title>all ($n samples, 100.00%)" s.svg
'

test_expect_success 'per-command shares match perf report --sort comm' '
	perf report -i rec.data --no-children --sort comm --stdio -q -g none 2>/dev/null |
		awk "NF == 2 { sub(\"%\", \"\", \$1); print \$2, \$1 }" >perf-comm &&
	test -s perf-comm &&
	while read -r comm pct; do
		got=$(share_of "$comm" rec.svg)
		awk -v a="$got" -v b="$pct" "BEGIN { d = a - b; exit !(d < 0.011 && d > -0.011) }" ||
			{ echo "$comm: kprof $got%, perf $pct%"; exit 1; }
	done <perf-comm
'

test_expect_success '--colors kernel: kernel frames (from perf.data flags) are orange' '
	"$KPROF" flamegraph --colors kernel rec.data >k.svg &&
	grep -o "<title>[a-z_0-9]*syscall[a-z_0-9]* ([^<]*</title><rect [^>]*" k.svg |
		grep -q "fill=\"rgb([0-9]*,[0-9]*,0)\""
'

test_expect_success 'a run directory: perf.data is preferred to profile.folded' '
	mkdir -p run/0 && cp rec.data run/0/perf.data &&
	printf "other;stack 5\n" >run/0/profile.folded &&
	"$KPROF" flamegraph run/0 >d.svg && cmp d.svg rec.svg
'

test_expect_success '--event: an event the file lacks is a one-line error' '
	test_must_fail "$KPROF" flamegraph --event sched:sched_switch rec.data >/dev/null 2>err &&
	test "$(lines_said err)" -eq 1 && grep -q "cpu-clock" err
'

test_expect_success 'differential: perf.data against its per-command folded text' '
	perf script -i rec.data -F comm 2>/dev/null | sort | uniq -c |
		awk "{ print \$2, \$1 }" >comms.folded &&
	"$KPROF" flamegraph --samples --diff comms.folded rec.data >diff.svg &&
	while read -r comm n; do
		grep -q "<title>$comm (before: $n samples, [0-9.]*%; after: $n samples, [0-9.]*%; delta: +0.00%" diff.svg ||
			{ echo "$comm: not unchanged"; exit 1; }
	done <comms.folded
'

test_expect_success 'a bad perf.data: one error line that names the file' '
	head -c 200 rec.data >cut.data &&
	test_must_fail "$KPROF" flamegraph cut.data -o cut.svg 2>err &&
	[ "$(lines_said err)" -eq 1 ] && grep -q "^kprof: error: cut.data: " err && ! test -e cut.svg
'

test_done
