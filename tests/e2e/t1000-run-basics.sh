#!/usr/bin/env bash
# kprof run: command line, result layout (stats.json, log, meta.json, matrix.json), appending
# runs, and metrics that agree with the workload's own log lines.
. "$(dirname "$0")/lib.sh"

. "$KPROF_SRC/tests/e2e/lib-run.sh"

run_dir() { echo results/anon-w-seq/2-60s-8M-4M/"$(uname -r)"; }

test_expect_success '--list names every case and aim9 test' '
	"$KPROF" run --list >out &&
	for w in anon-w-seq anon-w-seq-mt anon-w-seq-hugetlb anon-r-seq anon-r-seq-mt \
		 anon-w-rand anon-w-rand-mt anon-w-rand-hugetlb anon-cow-seq anon-cow-rand \
		 anon-cow-seq-hugetlb anon-cow-rand-hugetlb anon-wx-seq-mt anon-wx-rand-mt \
		 truncate truncate-seq brk_test page_test fork_test exec_test; do
		grep -q "^$w " out || { echo "missing $w"; exit 1; }
	done
'

test_expect_success 'usage errors exit 2 with one line' '
	rc=0; "$KPROF" run 2>err || rc=$?; [ "$rc" -eq 2 ] &&
	rc=0; "$KPROF" run no-such-case 2>err || rc=$?; [ "$rc" -eq 2 ] &&
	[ "$(lines_said err)" -eq 1 ] && grep -q no-such-case err &&
	rc=0; "$KPROF" run anon-w-seq bogus=1 2>err || rc=$?; [ "$rc" -eq 2 ] && grep -q bogus err &&
	rc=0; "$KPROF" run anon-w-seq size=12Q 2>err || rc=$?; [ "$rc" -eq 2 ] &&
	rc=0; "$KPROF" run anon-w-seq --runs 0 2>err || rc=$?; [ "$rc" -eq 2 ] &&
	rc=0; "$KPROF" run brk_test nr_task=2 2>err || rc=$?; [ "$rc" -eq 2 ]
'

test_expect_success 'two runs write the result layout' '
	"$KPROF" run anon-w-seq nr_task=2 unit_size=4M size=8M runtime=60 --runs 2 \
		--no-profile >out 2>err &&
	d=$(run_dir) &&
	for r in 0 1; do
		for f in stats.json meta.json anon-w-seq.log; do
			test -s "$d/$r/$f" || { echo "missing $d/$r/$f"; exit 1; }
		done
	done &&
	test -s "$d/matrix.json" && ! ls -a "$d" | grep -q tmp &&
	grep -q "vm-scalability.throughput: .* ± " out
'

test_expect_success 'stats.json: workload KB matches the per-worker lines exactly' '
	d=$(run_dir)/0 &&
	same_number "$(json_get "$d/stats.json" vm-scalability.workload)" \
		"$(log_kb "$d/anon-w-seq.log")" &&
	[ "$(grep -c "bytes / " "$d/anon-w-seq.log")" -eq 4 ] &&
	[ "$(grep -c "^20.*  ./case-anon-w-seq$" "$d/anon-w-seq.log")" -eq 2 ]
'

test_expect_success 'stats.json: throughput is the mean of the iteration sums (LKP parse)' '
	d=$(run_dir)/0 &&
	want=$(awk "/case-/ { if (n) { t += s; k++ } s = 0; n = 0 }
		    / bytes \\/ / { s += \$(NF - 1); n++ }
		    END { if (n) { t += s; k++ } printf \"%d\", t / k }" "$d/anon-w-seq.log") &&
	[ "$(json_get "$d/stats.json" vm-scalability.throughput)" = "$want" ]
'

# (a run long enough for /proc/stat to tick between the monitor's samples: the 8M runs above
# can be shorter than the 10-ms tick the CPU shares are counted in)
test_expect_success 'stats.json: time.*, proc-vmstat, mpstat, vmstat and meminfo keys' '
	"$KPROF" -q run anon-w-seq nr_task=2 unit_size=64M size=128M --runs 1 --no-profile \
		-o mon >/dev/null 2>err &&
	s=$(echo mon/anon-w-seq/*/*/0/stats.json) &&
	for k in vm-scalability.time.page_size vm-scalability.time.minor_page_faults \
		 vm-scalability.time.maximum_resident_set_size proc-vmstat.pgfault \
		 proc-vmstat.nr_free_pages vmstat.system.cs \
		 meminfo.MemTotal meminfo.Memused vm-scalability.free_time; do
		json_get "$s" "$k" >/dev/null || { echo "missing $k"; exit 1; }
	done &&
	grep -q "\"mpstat.cpu.all.[a-z]*%\": [0-9]" "$s" &&
	faults=$(json_get "$s" vm-scalability.time.minor_page_faults) &&
	[ "$faults" -ge 2048 ]
'

test_expect_success 'meta.json names kernel, version, params, machine, date' '
	m=$(run_dir)/1/meta.json &&
	[ "$(json_get "$m" kernel)" = "$(uname -r)" ] &&
	[ "$(json_get "$m" workload)" = anon-w-seq ] &&
	json_get "$m" kprof_version | grep -Eq "^[0-9]+\.[0-9]+" &&
	json_get "$m" date | grep -Eq "^20[0-9-]+T" &&
	[ "$(json_get "$m" params)" = "{}" ] && [ "$(json_get "$m" machine)" = "{}" ]
'

test_expect_success 'matrix.json has one column per run and the stats sources' '
	x=$(run_dir)/matrix.json &&
	[ "$(json_get "$x" vm-scalability.throughput | tr , "\n" | wc -l)" -eq 2 ] &&
	json_get "$x" stats_source | grep -q "/0/stats.json,.*/1/stats.json$" &&
	[ "$(json_get "$x" vm-scalability.throughput | cut -d, -f1)" = \
	  "$(json_get "$(run_dir)/0/stats.json" vm-scalability.throughput)" ]
'

test_expect_success 'a second invocation appends runs 2 and 3 to the matrix' '
	"$KPROF" -q run anon-w-seq nr_task=2 unit_size=4M size=8M runtime=60 --runs 2 \
		--no-profile >/dev/null 2>&1 &&
	test -s "$(run_dir)/3/stats.json" &&
	[ "$(json_get "$(run_dir)/matrix.json" vm-scalability.throughput | tr , "\n" | wc -l)" -eq 4 ]
'

test_expect_success 'memory that cannot be mapped: the reason, exit 1, no run, no zero metric' '
	rc=0; "$KPROF" run anon-w-seq nr_task=1 unit_size=1P size=1P --runs 2 --no-profile \
		-o big >out 2>err || rc=$?
	[ "$rc" -eq 1 ] && grep -q "mmap failed: Cannot allocate memory" err &&
	! ls big/anon-w-seq/*/*/0 >/dev/null 2>&1 && ! ls -a big/anon-w-seq/*/* | grep -q tmp
'

test_expect_success 'an unwritable result root is a one-line error' '
	rc=0; "$KPROF" run brk_test testtime=1 --no-profile -o /proc/kprof-no/x 2>err || rc=$?
	[ "$rc" -eq 1 ] && [ "$(lines_said err)" -eq 1 ] && grep -q "/proc/kprof-no" err
'

test_expect_success 'a long -o path: the results are where it says, nowhere else' '
	part=$(printf "%0200d" 0) &&
	root=$PWD/long && for i in $(seq 15); do root=$root/$part; done &&
	[ ${#root} -gt 3000 ] &&
	"$KPROF" -q run anon-w-seq nr_task=1 unit_size=4M size=4M --runs 1 --no-profile \
		-o "$root" >out 2>err &&
	d=$(echo "$root"/anon-w-seq/*/"$(uname -r)") &&
	test -s "$d/0/stats.json" && test -s "$d/matrix.json" &&
	grep -qF "results in $d" out &&
	[ "$(find long -name stats.json | wc -l)" -eq 1 ]
'

prereq_THP() { [ -r /sys/kernel/mm/transparent_hugepage/enabled ] &&
	! grep -q "\[never\]" /sys/kernel/mm/transparent_hugepage/enabled; }

test_expect_success THP 'thp=always takes the THP fault path (MADV_HUGEPAGE in madvise mode)' '
	"$KPROF" -q run anon-w-seq thp=always nr_task=1 unit_size=64M size=64M --runs 1 \
		--no-profile -o thp >/dev/null 2>&1 &&
	s=$(echo thp/anon-w-seq/*/*/0/stats.json) &&
	case "$s" in *-always-*) ;; *) echo "thp not in path_params: $s"; exit 1 ;; esac &&
	[ "$(json_get "$s" proc-vmstat.thp_fault_alloc)" -ge 1 ]
'

test_expect_success 'piped output has no progress escapes' '
	"$KPROF" run brk_test testtime=1 --runs 1 --no-profile >out 2>err &&
	! grep -q "$(printf "\\033")" err &&
	grep -q "aim9.brk_test.ops_per_sec" out
'

test_done
