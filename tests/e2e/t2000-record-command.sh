#!/usr/bin/env bash
# kprof record on a command: a perf.data that perf report/script read cleanly, call chains
# through the fixture's hot function, the kallsyms snapshot, the cycles -> cpu-clock fallback.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work

# perf's stderr on our files, minus lines that say nothing about the file.
perf_noise() { grep -v -e '^$' -e 'perf.data header info' "$@" || true; }

test_expect_success PERF_EVENTS,PERF 'record -e cpu-clock -g a command' '
	"$KPROF" record -e cpu-clock -g -o k.data -- "$W" spin 300 2>err &&
	test -s k.data && test -s k.data.kallsyms && ! ls k.data.tmp* 2>/dev/null &&
	grep -q "recorded [1-9][0-9]* samples (0 lost" err
'

test_expect_success PERF_EVENTS,PERF 'perf report reads it without warnings, hot_leaf on top' '
	perf report -i k.data --stdio --no-children --sort sym -g caller 2>rerr >rep &&
	test -z "$(perf_noise rerr)" &&
	grep -m1 "%" rep | grep -q "hot_leaf" &&
	grep -A8 "hot_leaf" rep | grep -q hot_parent
'

test_expect_success PERF_EVENTS,PERF 'perf script shows the call chain leaf first' '
	perf script -i k.data 2>serr >script &&
	test -z "$(perf_noise serr)" &&
	grep -A1 "hot_leaf+" script | grep -q "hot_parent+" &&
	grep -q "record-work" script
'

test_expect_success PERF_EVENTS,PERF 'the header carries the labels perf shows' '
	perf report -i k.data --header-only >hdr 2>&1 &&
	grep -q "^# hostname : $(uname -n)" hdr &&
	grep -q "^# os release : $(uname -r)" hdr &&
	grep -q "^# nrcpus online : $(nproc)" hdr &&
	grep -q "^# arch : $(uname -m)" hdr &&
	grep -q "^# cmdline : .*kprof record -e cpu-clock -g -o k.data" hdr &&
	grep -q "^# event : name = cpu-clock" hdr
'

test_expect_success KALLSYMS 'the kallsyms snapshot is this kernel'"'"'s' '
	grep -q " _text$" k.data.kallsyms &&
	test "$(grep -w _stext k.data.kallsyms)" = "$(grep -w _stext /proc/kallsyms)"
'

test_expect_success PERF_EVENTS,PERF,KALLSYMS 'kernel frames resolve through the kernel map' '
	perf script -i k.data --show-mmap-events 2>/dev/null |
		grep -q "PERF_RECORD_MMAP -1/0: .*\[kernel.kallsyms\]_text"
'

if test_have_prereq HWCOUNTERS; then
	test_skip 'default event falls back to cpu-clock' 'this machine has cycles'
	test_skip '-e cycles falls back to cpu-clock' 'this machine has cycles'
else
	test_expect_success PERF_EVENTS 'default event: cycles:pp falls back to cpu-clock, once' '
		"$KPROF" record -o d.data -- "$W" spin 50 2>err &&
		test "$(grep -c "not supported here" err)" = 1 &&
		grep -q "cycles:pp is not supported here, using cpu-clock" err &&
		grep -q "samples .* of cpu-clock into d.data" err
	'
	test_expect_success PERF_EVENTS,PERF '-e cycles falls back to cpu-clock with one message' '
		"$KPROF" record -e cycles -o c.data -- "$W" spin 50 2>err &&
		test "$(grep -c "not supported" err)" = 1 &&
		grep -q "cycles is not supported here, using cpu-clock" err &&
		perf report -i c.data --stdio 2>/dev/null | grep -q "of event .cpu-clock."
	'
fi

test_expect_success 'an unknown event is a one-line error' '
	test_must_fail "$KPROF" record -e no-such-event -o x.data -- true 2>err &&
	test "$(lines_said err)" = 1 && grep -q "no-such-event" err && ! test -e x.data
'

test_expect_success PERF_EVENTS 'a command that does not exist is a one-line error' '
	test_must_fail "$KPROF" record -e cpu-clock -o x.data -- /nonexistent/cmd 2>err &&
	test "$(lines_said err)" = 1 && grep -q "/nonexistent/cmd" err && ! test -e x.data
'

test_expect_success 'usage errors exit 2' '
	rc=0; "$KPROF" record 2>/dev/null || rc=$?; test $rc = 2 &&
	rc=0; "$KPROF" record -F 100 -c 100 -a 2>/dev/null || rc=$?; test $rc = 2 &&
	rc=0; "$KPROF" record -m 3 -a 2>/dev/null || rc=$?; test $rc = 2 &&
	rc=0; "$KPROF" record -a -p 1 2>/dev/null || rc=$?; test $rc = 2
'

test_done
