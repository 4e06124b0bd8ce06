#!/usr/bin/env bash
# Same-named user functions stay apart, as in perf: perf keys report entries by (dso, symbol
# start), so two static work() of one program are two entries, while one function is one entry
# however many processes map its file, each at its own address (ASLR). The samename fixture
# (a PIE: main -> samename_a -> work -> samename_b -> work) runs twice at once under
# `perf record -g`; kprof's table and LKP keys must agree with perf report on it.
. "$(dirname "$0")/lib.sh"

E2E=$KPROF_SRC/tests/e2e
FIX=$FIXTURES/samename
LKP_OPTS="--children --header -U -g folded,0.5,callee --sort=dso,symbol"

# The "work" rows of a Children/Self table (perf's or kprof's) as "children self", sorted.
work_rows() {
	perl -ne 'print "$1 $2\n" if /^\s*([0-9.]+)%\s+([0-9.]+)%\s+\S*samename\s+(?:\[.\]\s+)?work(?:\s|$)/' \
		"$1" | sort -n
}

test_expect_success PERF,PERF_EVENTS 'record two processes of the fixture' '
	perf record -q -B -N -g -e cpu-clock -o two.data -- \
		sh -c "\"$FIX\" 0.5 & \"$FIX\" 0.5 & wait" >/dev/null 2>&1 &&
	perf script -i two.data --show-mmap-events 2>/dev/null |
		perl -ne "print \"\$1\n\" if /PERF_RECORD_MMAP2? .*: \[(0x[0-9a-f]+)\(.* r-xp .*samename\$/" |
		sort -u >maps && test -s maps
'

prereq_ASLR() { [ "$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null)" != 0 ]; }

test_expect_success PERF,PERF_EVENTS,ASLR 'the two processes mapped the program at different addresses' '
	cat maps && test "$(wc -l <maps)" -ge 2
'

test_expect_success PERF,PERF_EVENTS 'two work() entries, with the Children and Self of perf' '
	perf report --children -g none --sort=dso,symbol -i two.data 2>/dev/null >perf.table &&
	"$KPROF" report --format table -i two.data >kprof.table &&
	work_rows perf.table >perf.rows && work_rows kprof.table >kprof.rows &&
	cat perf.rows kprof.rows &&
	test "$(wc -l <perf.rows)" -eq 2 && test "$(wc -l <kprof.rows)" -eq 2 &&
	paste -d" " perf.rows kprof.rows | awk "function abs(x) { return x < 0 ? -x : x }
		abs(\$1 - \$3) > 0.0101 || abs(\$2 - \$4) > 0.0101 { bad = 1 } END { exit bad }"
'

test_expect_success PERF,PERF_EVENTS 'lkp keys equal perf report parsed by LKP rules' '
	# shellcheck disable=SC2086
	perf report $LKP_OPTS -i two.data 2>/dev/null |
		perl "$E2E/lkp-parse-perf-profile.pl" >perf.keys &&
	"$KPROF" report --format lkp -i two.data >kprof.keys &&
	grep "\.work" kprof.keys &&
	perl "$E2E/lkp-pfx-rename.pl" /proc/kallsyms <perf.keys >perf.keys.cmp &&
	perl "$E2E/lkp-keys-compare.pl" perf.keys.cmp kprof.keys 0.01
'

test_done
