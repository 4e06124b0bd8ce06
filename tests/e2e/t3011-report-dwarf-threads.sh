#!/usr/bin/env bash
# DWARF call chains of a threaded program that lives in a syscall (the dwarf-threads fixture,
# no frame pointers): its thread's chains start in glibc's assembler clone3, whose DWARF
# (GNU as 2.40) holds one function per alias (__clone3, __GI___clone3, clone3). perf asks
# binutils, which names the last; naming the first made every thread chain hold a
# "__clone3 (inlined)" frame, and LKP's parser drops a chain with a space: no calltrace key.
# Then kprof's own recordings: perf's unwinder reads .eh_frame through the recorded maps, so
# a process that existed before the recording needs its read-only maps synthesized, or perf
# stops after its first frame (the system-wide recording of issue 11: __brk with no caller).
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-lkp.sh"

# Under ASan, full malloc stacks: LeakSanitizer's suppression of libdw's dwarf_getscopes leak
# (tests/lsan.supp) needs the frames below libdw, which the fast unwinder loses. No effect
# on other builds.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"

FX=$FIXTURES/dwarf-threads-nofp
THREAD_KEY="perf-profile.calltrace.cpu-clock.grow.thread_main.start_thread.clone3: "

# Start the fixture for SECONDS, wait until both its threads run; its pid in $fx_pid.
start_fixture() {
	"$FX" "$1" ready >ready.out &
	fx_pid=$!
	for _ in $(seq 100); do
		grep -q ready ready.out && return 0
		sleep 0.1
	done
	return 1
}

test_expect_success PERF,PERF_EVENTS 'perf record --call-graph dwarf: keys equal perf' '
	perf record -q -B -N --call-graph dwarf -e cpu-clock -o pr.data "$FX" 1 \
		>/dev/null 2>&1 &&
	compare_lkp_said pr.data &&
	grep -q "^$THREAD_KEY" pr.data.kprof &&
	grep -q "^perf-profile.children.cpu-clock.clone3: " pr.data.kprof &&
	! grep -q "clone3 (inlined)" pr.data.kprof &&
	"$KPROF" collapse -i pr.data 2>/dev/null | grep -q "^dwarf-threads-n;clone3;start_thread;thread_main;grow;"
'

test_expect_success PERF,PERF_EVENTS 'kprof record -p of a running process: perf unwinds it too' '
	start_fixture 3 &&
	"$KPROF" -q record -p "$fx_pid" --call-graph dwarf -e cpu-clock --duration 1 \
		-o kp.data 2>kp.err &&
	wait "$fx_pid" &&
	compare_lkp kp.data &&
	grep -q "^$THREAD_KEY" kp.data.perf &&
	grep -q "^$THREAD_KEY" kp.data.kprof
'

# A file recorded without the read-only maps (as kprof record wrote them before): perf finds
# no .eh_frame and stops after the first frame -- it places .eh_frame_hdr at the lowest map of
# the file, the executable one, where the table is not mapped -- and kprof stops there too
# (symbolize/unwind-perf.c; it used to unwind from the files and say so in a warning).
test_expect_success PERF,PERF_EVENTS 'no read-only maps recorded: perf stops, kprof too' '
	perl "$E2E/perf-data-rewrite.pl" nodata pr.data nodata.data &&
	compare_lkp nodata.data 2>nodata.err &&
	! grep -q "^$THREAD_KEY" nodata.data.perf &&
	! grep -q "^$THREAD_KEY" nodata.data.kprof &&
	! grep -q "unwound" nodata.err &&
	perf script -i nodata.data 2>/dev/null | "$KPROF" collapse --perl-compat - | sort >nd.pf &&
	"$KPROF" collapse --perl-compat -i nodata.data 2>/dev/null | sort >nd.kf &&
	diff nd.pf nd.kf
'

# The whole system's keys are not compared: other processes come and go during the recording
# (binaries rebuilt meanwhile, other tests' programs). The fixture's thread chain is.
test_expect_success PERF,PERF_EVENTS,ROOT 'kprof record -a: the running process is unwound by perf' '
	start_fixture 3 &&
	"$KPROF" -q record -a --call-graph dwarf -e cpu-clock --duration 1 -o sw.data &&
	wait "$fx_pid" &&
	perf report --children --header -U -g folded,0.5,callee --sort=dso,symbol \
		-i sw.data 2>/dev/null | perl "$E2E/lkp-parse-perf-profile.pl" >sw.perf &&
	"$KPROF" report --format lkp -i sw.data >sw.kprof 2>/dev/null &&
	grep -q "^$THREAD_KEY" sw.perf &&
	grep -q "^$THREAD_KEY" sw.kprof
'

test_done
