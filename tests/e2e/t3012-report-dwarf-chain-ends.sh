#!/usr/bin/env bash
# Where perf 6.1 ends a DWARF call chain, and kprof with it (symbolize/unwind-perf.c).
# Debian's perf unwinds with libunwind, which looks a frame's CFI up in the .eh_frame_hdr of its
# file placed at the lowest address any map of that file has in perf's map list -- maps left
# from before an exec included. The dwarf-threads fixture's --stale-exec maps libc low and
# execs itself (what `kprof run` workers get from their parent by chance of ASLR): perf finds
# no CFI for any libc frame and its fallback ends the thread's chains at start_thread (clone3
# zeroes %rbp) and main's at __libc_start_call_main; kprof used to go on to clone3 and _start.
# setarch -R keeps everything else where the exec puts it again, so only libc is misplaced.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-lkp.sh"

FX=$FIXTURES/dwarf-threads-nofp

# perf script's folded stacks (through stackcollapse's rules) and kprof's, sorted.
folded_both() {
	perf script -i "$1" 2>/dev/null | "$KPROF" collapse --perl-compat - | sort >"$1.pf" &&
	"$KPROF" collapse -i "$1" 2>"$1.err" | sort >"$1.kf" &&
	test -s "$1.pf"
}

# The folded stacks without the dynamic loader's start-up (_dl_start, _dl_init and what they
# call, e.g. libc's __libc_early_init): a rare sample in a PLT stub there, reached through a
# misplaced libc, is named differently by perf (docs/symbolize.md); every other stack is compared.
diff_no_ldso() {
	diff <(grep -Ev ';_dl_start;|;_dl_init;|ld-linux' "$1") <(grep -Ev ';_dl_start;|;_dl_init;|ld-linux' "$2")
}

# The functions kprof's report warns about: inlined frames of theirs that perf reaches through
# two map objects (here ld.so's, mapped again by the exec), whose hist entry perf report turns
# into one of the function's (hist.c hists__findnew_entry): their children.* keys can differ,
# and the calltrace.* keys of their file (the entries split, each chain under 0.5%). The
# warning must be there; every other key (self keys all, children of every other function,
# calltraces of other files) must equal perf's; without the warning all must.
INLINE_WARN="inlined frames of [0-9]* functions\? (e\.g\. [^)]*) that perf reaches through more than one mapping"
lkp_names() {
	sed -E 's/\.(isra|constprop|part)\.[0-9]+//g' | sed 's/[.[\]*^$]/\\&/g' | sort -u | paste -sd'|'
}
compare_lkp_inlined() {
	local names ldso
	compare_lkp "$1" >/dev/null 2>&1
	test -s "$1.perf.cmp" &&
	"$KPROF" -v report --format lkp -i "$1" 2>"$1.rerr" >/dev/null &&
	grep -q "$INLINE_WARN" "$1.rerr" &&
	names=$(sed -n 's/.*reaches through more than one mapping: //p' "$1.rerr" | tr ' ' '\n' |
		lkp_names) &&
	ldso=$(perf report $LKP_OPTS -i "$1" 2>/dev/null |
		sed -n 's/.*ld-linux[^ ]* *\[\.\] \([^ ]*\).*/\1/p' | grep -vx _start | lkp_names) &&
	test -n "$names" && test -n "$ldso" &&
	grep -Ev "^perf-profile\.(children\.[^.]*\.($names)|calltrace\.[^.]*\.($ldso))[.:]" \
		"$1.perf.cmp" >"$1.perf.kept" &&
	grep -Ev "^perf-profile\.(children\.[^.]*\.($names)|calltrace\.[^.]*\.($ldso))[.:]" \
		"$1.kprof" >"$1.kprof.kept" &&
	compare_keys_split "$1.perf.kept" "$1.kprof.kept"
}

# No map object seen twice: every key equal to perf's, and no warning.
compare_lkp_all() {
	compare_lkp "$1" 2>"$1.rerr" && ! grep -q "$INLINE_WARN" "$1.rerr"
}

test_expect_success PERF,PERF_EVENTS 'libc misplaced by a map from before the exec: chains end as perf ends them' '
	setarch "$(uname -m)" -R perf record -q -B -N --call-graph dwarf -e cpu-clock \
		-o se.data "$FX" --stale-exec 1 >/dev/null 2>&1 &&
	folded_both se.data &&
	diff_no_ldso se.data.pf se.data.kf &&
	grep -q "^dwarf-threads-n;start_thread;thread_main;spin " se.data.kf &&
	grep -q "^dwarf-threads-n;__libc_start_call_main;main;compute;spin " se.data.kf &&
	! grep -q "clone3;start_thread" se.data.kf &&
	! test -s se.data.err &&
	compare_lkp_inlined se.data &&
	grep -q "^perf-profile.calltrace.cpu-clock.spin.thread_main.start_thread: " se.data.kprof
'

test_expect_success PERF,PERF_EVENTS 'the same program exec'\''d without the stale map: clone3 and _start' '
	setarch "$(uname -m)" -R perf record -q -B -N --call-graph dwarf -e cpu-clock \
		-o ok.data "$FX" 1 spin >/dev/null 2>&1 &&
	folded_both ok.data &&
	diff ok.data.pf ok.data.kf &&
	grep -q "^dwarf-threads-n;clone3;start_thread;thread_main;spin " ok.data.kf &&
	grep -q "^dwarf-threads-n;_start;__libc_start_main_impl;__libc_start_call_main;main;" ok.data.kf &&
	compare_lkp_all ok.data
'

# kprof's own recorder writes the same maps (an exec'd command of kprof record -- CMD).
test_expect_success PERF,PERF_EVENTS 'kprof record -- CMD --stale-exec: equal to perf reading it' '
	setarch "$(uname -m)" -R "$KPROF" -q record --call-graph dwarf -e cpu-clock \
		-o kse.data -- "$FX" --stale-exec 1 >/dev/null 2>&1 &&
	folded_both kse.data &&
	diff_no_ldso kse.data.pf kse.data.kf &&
	grep -q "^dwarf-threads-n;start_thread;thread_main;spin " kse.data.kf &&
	compare_lkp_inlined kse.data
'

# A signal frame: libunwind looks a caller up less one byte unless the frame below it is a
# signal frame (libdwfl: the signal frame's own pc is exact), so __restore_rt is the byte
# before it, no symbol ("[libc.so.6]" folded), and the interrupted work() its exact pc.
test_expect_success PERF,PERF_EVENTS 'a signal handler: the frames through the signal frame as perf' '
	perf record -q -B -N --call-graph dwarf -e cpu-clock -o sig.data \
		"$FIXTURES/dwarf-signal-nofp" 1 >/dev/null 2>&1 &&
	folded_both sig.data &&
	diff sig.data.pf sig.data.kf &&
	grep -q ";main;work;\[libc.so.6\];handler;in_handler " sig.data.kf &&
	compare_lkp_all sig.data
'

test_done
