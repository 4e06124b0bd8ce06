#!/usr/bin/env bash
# `kprof collapse` on perf script text: input forms, the deliberate differences from
# stackcollapse-perf.pl (docs/collapse.md), counts, malformed and hostile input, output file.
. "$(dirname "$0")/lib.sh"

test_must_be_empty() { [ ! -s "$1" ]; }

cat >two.txt <<'IN'
# comment lines are skipped
V8 WorkerThread 24636/25607 [000] 94564.109216:     250 cpu-clock:
	    7f1e214c24d9 SpinPause (/usr/lib/libjvm.so)
	    7f1e2162ad6f StealTask::do_it(GCTaskManager*, unsigned int) (/usr/lib/libjvm.so)
	ffffffff8103ce3b native_safe_halt+0x6 ([kernel.kallsyms])

dd 29776 666709.771979:   100 cpu-clock: 
	          414b3b fsnotify (/lib/modules/4.1.0-virtual/build/vmlinux)
	               0 [unknown] ([unknown])
IN

test_expect_success 'a file argument, -i FILE, -i - and a pipe give the same stacks' '
	"$KPROF" collapse two.txt >a &&
	"$KPROF" collapse -i two.txt >b &&
	"$KPROF" collapse -i - <two.txt >c &&
	cat two.txt | "$KPROF" collapse >d &&
	test_cmp a b && test_cmp a c && test_cmp a d &&
	printf "%s\n" \
		"V8_WorkerThread;native_safe_halt;StealTask::do_it;SpinPause 250" \
		"dd;[unknown];fsnotify 100" >expected &&
	test_cmp expected a
'

test_expect_success 'a pipe is read in pieces: lines across pieces, and longer than a piece' '
	for i in $(seq 3000); do cat two.txt; echo; done >many.txt &&
	awk "BEGIN { printf \"x 1 1.0: 1 cpu-clock:\n\t1 \"; for (i = 0; i < 90000; i++)
		printf \"long_name_\"; printf \" (/bin/x)\n\n\" }" >>many.txt &&
	test $(wc -c <many.txt) -gt 2000000 &&
	"$KPROF" collapse many.txt >expected &&
	cat many.txt | "$KPROF" collapse >out &&
	test_cmp expected out && grep -q "^x;long_name_long_name_" out &&
	grep -qx "dd;\[unknown\];fsnotify 300000" out
'

test_expect_success 'comm with spaces, --pid, --tid, --kernel, --addrs' '
	"$KPROF" collapse --tid --kernel --addrs two.txt >out &&
	printf "%s\n" \
		"V8_WorkerThread-24636/25607;native_safe_halt_[k];StealTask::do_it;SpinPause 250" \
		"dd-?/29776;[unknown <0>];fsnotify_[k] 100" >expected &&
	test_cmp expected out &&
	"$KPROF" collapse --pid two.txt | grep -qx "dd-?;\[unknown\];fsnotify 100"
'

test_expect_success 'the last sample is flushed at end of input; --perl-compat drops it' '
	"$KPROF" collapse --perl-compat two.txt >out &&
	grep -q "^V8_WorkerThread;" out && ! grep -q "^dd;" out
'

test_expect_success 'CRLF input gives the same stacks' '
	sed "s/\$/\r/" two.txt >crlf.txt &&
	"$KPROF" collapse crlf.txt >out &&
	"$KPROF" collapse two.txt >expected &&
	test_cmp expected out
'

test_expect_success 'counts sum to the total period, or to the samples with --count samples' '
	"$KPROF" collapse two.txt | awk "{ s += \$NF } END { exit s != 350 }" &&
	"$KPROF" collapse --count samples two.txt | awk "{ s += \$NF } END { exit s != 2 }"
'

test_expect_success SHARED 'corpus: counts sum to the headers period and count' '
	in=$KPROF_SHARED/testdata/flamegraph/perf-dd-stacks-01.txt &&
	want_period=$(awk "/cpu-clock:/ { s += \$(NF - 1) } END { print s }" "$in") &&
	want_samples=$(grep -c "cpu-clock:" "$in") &&
	"$KPROF" collapse "$in" | awk -v w=$want_period "{ s += \$NF } END { exit s != w }" &&
	"$KPROF" collapse --count samples "$in" |
		awk -v w=$want_samples "{ s += \$NF } END { exit s != w }"
'

cat >events.txt <<'IN'
p 1 [000] 1.0:   5 instructions: 
	1 a (/bin/p)

p 1 [000] 1.1:   7 cycles: 
	1 b (/bin/p)

p 1 [000] 1.2:   9 instructions: 
	1 c (/bin/p)

IN

test_expect_success 'the first event is kept; the others are reported in one line' '
	"$KPROF" collapse events.txt >out 2>err &&
	printf "p;a 5\np;c 9\n" >expected && test_cmp expected out &&
	test "$(lines_said err)" -eq 1 && grep -q "1 samples of events other than .instructions." err
'

test_expect_success '--event-filter picks the event' '
	"$KPROF" collapse --event-filter cycles events.txt >out 2>err &&
	printf "p;b 7\n" >expected && test_cmp expected out
'

test_expect_success 'samples printed on the header line (perf script without -g)' '
	# "%16s" comm, as perf prints it when there is no call chain
	line="%16s 39654 [001] 19115.4897%s: %10s cpu-clock:  %16s %s\n" &&
	{
		printf "$line" true 13 4 ffffffff9b201293 "clear_page+0x3 ([kernel.kallsyms])"
		printf "$line" true 19 6 7fa68b1f2d84 "_dl_start+0x4 (/usr/lib/ld-2.31.so)"
		printf "$line" true 20 1 7fa68b1f2d84 "_dl_start+0x8 (/usr/lib/ld-2.31.so)"
	} >single.txt &&
	"$KPROF" collapse --kernel single.txt >out &&
	printf "true;_dl_start 7\ntrue;clear_page_[k] 4\n" >expected && test_cmp expected out &&
	"$KPROF" collapse --perl-compat single.txt >out && test_must_be_empty out
'

test_expect_success 'malformed lines are counted on stderr, in one line, and skipped' '
	printf "pp 1 1.0: 3 c:\n\t1 a (/bin/p)\nnot a frame\n\t1 b (/bin/p)\n\ngarbage\n" >bad.txt &&
	"$KPROF" collapse bad.txt >out 2>err &&
	printf "pp;b;a 3\n" >expected && test_cmp expected out &&
	test "$(lines_said err)" -eq 1 && grep -q "2 unrecognized lines" err
'

test_expect_success 'empty input: no stacks, exit 0' '
	: >empty.txt &&
	"$KPROF" collapse empty.txt >out && test_must_be_empty out &&
	"$KPROF" collapse -i - </dev/null >out && test_must_be_empty out
'

test_expect_success 'binary garbage: a one-line error, no crash' '
	# the same pseudo-random bytes on every run
	LC_ALL=C awk "BEGIN { srand(7); for (i = 0; i < 100000; i++) printf \"%c\", int(rand() * 256) }" \
		</dev/null >garbage.bin &&
	test_must_fail "$KPROF" collapse "$KPROF" >out 2>err && test_must_be_empty out &&
	printf "\0\0\377\n(\n)" >>garbage.bin &&
	test_must_fail "$KPROF" collapse garbage.bin >out 2>err &&
	test "$(lines_said err)" -eq 1 && grep -q "garbage.bin" err && test_must_be_empty out
'

test_expect_success 'without -i and with stdin not a pipe, perf.data is read (like perf)' '
	mkdir -p nodata && (cd nodata && test_must_fail "$KPROF" collapse </dev/null 2>err &&
	grep -q "perf.data" err && test "$(lines_said err)" -eq 1)
'

test_expect_success '-o writes the file whole; a failed write leaves no file' '
	"$KPROF" collapse -o out.folded two.txt && "$KPROF" collapse two.txt >expected &&
	test_cmp expected out.folded &&
	test_must_fail "$KPROF" collapse -o /nonexistent/dir/out two.txt 2>err &&
	test "$(lines_said err)" -eq 1 && ! ls out.folded.tmp.* 2>/dev/null
'

test_expect_success 'usage errors exit 2' '
	rc=0; "$KPROF" collapse --count bogus two.txt 2>err || rc=$?; test $rc -eq 2 &&
	rc=0; "$KPROF" collapse --frobnicate two.txt 2>err || rc=$?; test $rc -eq 2 &&
	rc=0; "$KPROF" collapse a b 2>err || rc=$?; test $rc -eq 2 &&
	"$KPROF" collapse --help | grep -q "^usage: kprof collapse"
'

test_expect_success 'perf.data on stdin, piped or truncated: a one-line error' '
	printf "PERFILE2\0\0\0\0\0\0\0\0" >fake.data &&
	cat fake.data | test_must_fail "$KPROF" collapse -i - 2>err &&
	test "$(lines_said err)" -eq 1 && grep -q "perf.data, not perf script" err &&
	test_must_fail "$KPROF" collapse -i - <fake.data 2>err &&
	test "$(lines_said err)" -eq 1 && grep -q "stdin" err
'

test_expect_success 'a missing input file is a one-line error naming it' '
	test_must_fail "$KPROF" collapse -i missing.txt 2>err &&
	test "$(lines_said err)" -eq 1 && grep -q "missing.txt" err
'

test_done
