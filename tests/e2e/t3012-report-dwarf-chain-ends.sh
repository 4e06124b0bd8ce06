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
	"$KPROF" collapse --perl-compat -i "$1" 2>"$1.err" | sort >"$1.kf" &&
	test -s "$1.pf"
}

# dwarf_both NAME CMD...: CMD recorded by perf with DWARF call chains to NAME, then folded_both.
dwarf_both() {
	local data=$1
	shift
	perf record -q -B -N --call-graph dwarf -e cpu-clock -o "$data" "$@" >/dev/null 2>&1 &&
	folded_both "$data"
}

# fixture_both NAME ARGS...: the fixture run with ARGS, recorded by perf with DWARF call chains
# to NAME (setarch -R: no ASLR, so that only the stale map misplaces libc), then folded_both.
fixture_both() {
	local data=$1
	shift
	setarch "$(uname -m)" -R perf record -q -B -N --call-graph dwarf -e cpu-clock \
		-o "$data" "$FX" "$@" >/dev/null 2>&1 &&
	folded_both "$data"
}

# Folded stacks with every PLT stub's frame and _init as one "PLT" frame, summed again.
plt_merged() {
	sed -E 's/;[^; ]*@plt([; ])/;PLT\1/g; s/;_init([; ])/;PLT\1/g' "$1" |
		awk '{ n = $NF; sub(/ [0-9]+$/, ""); sum[$0] += n } END { for (s in sum) print s, sum[s] }' |
		sort
}

# diff_said PERF KPROF ERR: perf's and kprof's folded stacks equal, but where kprof said in one
# line (its stderr, ERR) that a PLT stub is covered by a symbol without a size: perf names a
# sample there by either (docs/symbolize.md), so stubs and _init count as one frame then.
diff_said() {
	if grep -q "PLT stub address" "$3"; then
		diff <(plt_merged "$1") <(plt_merged "$2")
	else
		diff "$1" "$2"
	fi
}

# The folded stacks without the dynamic loader's start-up (_dl_start, _dl_init and what they
# call, e.g. libc's __libc_early_init), as diff_said: a rare sample in a PLT stub there, reached
# through a misplaced libc, is named differently by perf (docs/symbolize.md).
diff_no_ldso() {
	local ldso=';_dl_start;|;_dl_sysdep_start;|;_dl_init;|ld-linux'

	diff_said <(grep -Ev "$ldso" "$1") <(grep -Ev "$ldso" "$2") "$3"
}

# perf report's trees around inlined frames (docs/symbolize.md): kprof says in one line each
# what they can make differ, and every key must be within what it says (compare_lkp_said).
# This program's libc and ld.so entries are often not in one order for perf's hist tree
# (inlined names fall, by name, between functions that lie the other way round by address),
# so that line is there, naming one file or both: which depends on the functions sampled (a
# sanitizer-build run named ld.so alone); the stale map adds ld.so's inlined frames reached
# through two map objects (the exec maps ld.so again).
tree_said() {
	compare_lkp_said "$1" &&
	grep -q "$TREE_SPLIT [^:]*\(ld-linux-x86-64.so.2\|libc.so.6\)" "$1.verr"
}

test_expect_success PERF,PERF_EVENTS 'libc misplaced by a map from before the exec: chains end as perf ends them' '
	fixture_both se.data --stale-exec 1 &&
	diff_no_ldso se.data.pf se.data.kf se.data.err &&
	grep -q "^dwarf-threads-n;start_thread;thread_main;spin " se.data.kf &&
	grep -q "^dwarf-threads-n;__libc_start_call_main;main;compute;spin " se.data.kf &&
	! grep -q "clone3;start_thread" se.data.kf &&
	test "$(lines_said se.data.err)" = 0 &&
	tree_said se.data && grep -q "$TREE_TURNED" se.data.verr &&
	grep -q "^perf-profile.calltrace.cpu-clock.spin.thread_main.start_thread: " se.data.kprof
'

test_expect_success PERF,PERF_EVENTS 'the same program exec'\''d without the stale map: clone3 and _start' '
	fixture_both ok.data 1 spin &&
	diff_said ok.data.pf ok.data.kf ok.data.err &&
	grep -q "^dwarf-threads-n;clone3;start_thread;thread_main;spin " ok.data.kf &&
	grep -q "^dwarf-threads-n;_start;__libc_start_main_impl;__libc_start_call_main;main;" ok.data.kf &&
	tree_said ok.data && ! grep -q "$TREE_TURNED" ok.data.verr
'

# libunwind caches each frame's CFI once found (unwind-perf-cache.c): between the low map and
# the exec, __libc_start_call_main still unwinds (found before the map), so perf's chains of
# after_map go on to _start; the exec flushes the cache, and the exec'd program's end there.
test_expect_success PERF,PERF_EVENTS 'CFI found before the stale map: perf goes on from its cache until the exec' '
	fixture_both ss.data --stale-spin 0.8 &&
	diff_no_ldso ss.data.pf ss.data.kf ss.data.err &&
	grep -q "^dwarf-threads-n;_start;__libc_start_main_impl;__libc_start_call_main;main;stale_exec;after_map;compute;spin " ss.data.kf &&
	! grep -q "^dwarf-threads-n;__libc_start_call_main;main;stale_exec;after_map;" ss.data.kf &&
	grep -q "^dwarf-threads-n;__libc_start_call_main;main;compute;spin " ss.data.kf &&
	test "$(lines_said ss.data.err)" = 0
'

# kprof's own recorder writes the same maps (an exec'd command of kprof record -- CMD).
test_expect_success PERF,PERF_EVENTS 'kprof record -- CMD --stale-exec: equal to perf reading it' '
	setarch "$(uname -m)" -R "$KPROF" -q record --call-graph dwarf -e cpu-clock \
		-o kse.data -- "$FX" --stale-exec 1 >/dev/null 2>&1 &&
	folded_both kse.data &&
	diff_no_ldso kse.data.pf kse.data.kf kse.data.err &&
	grep -q "^dwarf-threads-n;start_thread;thread_main;spin " kse.data.kf &&
	tree_said kse.data && grep -q "$TREE_TURNED" kse.data.verr
'

# libdw 0.188's x86-64 ABI defaults keep %rax, not %rbx, in a caller whose callee's CFI does not
# mention it (backends/x86_64_cfi.c): a caller whose CFA is %rbx-based (glibc's
# _dl_runtime_resolve_xsavec over _dl_fixup's first bytes, once in a CI run) ended libdwfl's walk.
# libunwind keeps %rbx, as the ABI says, and so does kprof (rbx_restart in unwind.c).
test_expect_success PERF,PERF_EVENTS 'a caller with a %rbx-based CFA over a leaf that leaves %rbx alone' '
	dwarf_both rbx.data "$FIXTURES/dwarf-rbx-cfa" 0.3 &&
	diff_said rbx.data.pf rbx.data.kf rbx.data.err &&
	grep -q "^dwarf-rbx-cfa;_start;.*;main;rbx_frame;leaf_spin " rbx.data.kf &&
	! grep -q "^dwarf-rbx-cfa;rbx_frame;" rbx.data.kf &&
	test "$(lines_said rbx.data.err)" = 0 &&
	tree_said rbx.data
'

# A signal frame: libunwind looks a caller up less one byte unless the frame below it is a
# signal frame (libdwfl: the signal frame's own pc is exact), so __restore_rt is the byte
# before it, no symbol ("[libc.so.6]" folded), and the interrupted work() its exact pc.
test_expect_success PERF,PERF_EVENTS 'a signal handler: the frames through the signal frame as perf' '
	dwarf_both sig.data "$FIXTURES/dwarf-signal-nofp" 1 &&
	diff_said sig.data.pf sig.data.kf sig.data.err &&
	grep -q ";main;work;\[libc.so.6\];handler;in_handler " sig.data.kf &&
	compare_lkp_said sig.data
'

test_done
