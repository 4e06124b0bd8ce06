#!/usr/bin/env bash
# kprof sched: `perf sched timehist` of a `perf sched record -g` file, line for line, and LKP's
# perf-sched keys (programs/perf-sched/parse, restated in lkp-parse-perf-sched.pl) equal to
# those LKP makes from perf's own timehist output; files it cannot use are one-line errors.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work
PARSE=$KPROF_SRC/tests/e2e/lkp-parse-perf-sched.pl

test_have_prereq PERF ROOT TRACEPOINTS ||
	test_skip_all "perf sched record needs perf, root and tracefs (missing $missing_prereq)"

test_expect_success 'perf sched record -g of two processes waking each other over pipes' '
	perf sched record -g -o s.data -- "$W" pingpong 2000 >/dev/null 2>&1 &&
	perf sched timehist -i s.data >perf.txt 2>/dev/null &&
	grep -q " <- " perf.txt
'

# Spaces differ only where perf widens its task column for a long name.
test_expect_success 'the table is perf sched timehist'"'"'s, line for line' '
	"$KPROF" sched -i s.data >kprof.txt &&
	tr -s " " <perf.txt >p && tr -s " " <kprof.txt >k &&
	test_cmp p k
'

test_expect_success 'the --lkp keys are LKP'"'"'s parse of perf'"'"'s timehist' '
	perl "$PARSE" <perf.txt >expect &&
	"$KPROF" sched -i s.data --lkp >keys &&
	sort keys >actual &&
	test_cmp expect actual &&
	test "$(wc -l <actual)" -gt 10
'

test_expect_success 'the pipe chain carries the ping-pong: 2000 waits or more, all key kinds' '
	c=$(sed -n "s/^perf-sched.wait_and_delay.count.[a-z_]*pipe_read.vfs_read.ksys_read.do_syscall_64.*: //p" keys) &&
	echo "pipe_read waits: $c" && test "$c" -ge 2000 &&
	for k in wait_time.max.ms wait_time.avg.ms sch_delay.max.ms sch_delay.avg.ms \
		 wait_and_delay.max.ms wait_and_delay.avg.ms; do
		grep -q "^perf-sched.$k.[a-z_]*pipe_read.vfs_read" keys || { echo "no $k"; exit 1; }
	done &&
	for k in total_wait_time.max.ms total_wait_time.average.ms total_sch_delay.max.ms \
		 total_sch_delay.average.ms total_wait_and_delay.max.ms \
		 total_wait_and_delay.average.ms total_wait_and_delay.count.ms; do
		grep -q "^perf-sched.$k: [0-9]" keys || { echo "no $k"; exit 1; }
	done
'

# A thread's last switch, once its tid is released, is recorded with tid -1 and its process's
# pid (perf_event_pid_type). perf finds threads by tid, and a thread keeps the pid it was made
# with: every later tid -1 line prints the first one's pid (thread_findnew). Two threaded
# processes in a row: the second one's exiting thread is "[-1/FIRST PID]" in perf.
test_expect_success 'exiting threads (tid -1) print the pid perf'"'"'s thread object has' '
	T=$FIXTURES/dwarf-threads-nofp &&
	perf sched record -g -o th.data -- sh -c "$T 0.2; $T 0.2" >/dev/null 2>&1 &&
	perf sched timehist -i th.data 2>/dev/null | tr -s " " >th.perf &&
	"$KPROF" sched -i th.data | tr -s " " >th.kprof &&
	test "$(grep -c ":-1\[-1/" th.perf)" -ge 2 &&
	test "$(grep -o ":-1\[-1/[0-9]*\]" th.perf | sort -u | wc -l)" = 1 &&
	test_cmp th.perf th.kprof
'

# perf record --buildid-mmap maps the kernel by an MMAP2 record, which perf sched timehist 6.1
# does not read (its tool has no mmap2 callback): it has no kernel map, and every kernel frame
# is [unknown] (schedule and __schedule too, which it leaves out by name when it can name them).
# kprof names them and says so in one line; everything but the chains is perf's. The kernel's
# build-id is taken from that MMAP2 as perf report does: a recording of another kernel
# (perf-data-rewrite.pl kbid) leaves the frames unresolved, said in one line, and the output is
# then perf's line for line.
no_chains() { sed "s/ [^ ]* <- .*//" "$@"; }
test_expect_success KALLSYMS 'the kernel in an MMAP2 only (--buildid-mmap): said; another kernel: as perf' '
	mkdir empty &&
	perf --buildid-dir "$PWD/empty" sched record -g --buildid-mmap -o bm.data -- \
		"$W" pingpong 300 >/dev/null 2>&1 &&
	perl "$KPROF_SRC/tests/e2e/perf-data-rewrite.pl" kbid bm.data bmf.data &&
	for f in bm bmf; do
		perf --buildid-dir "$PWD/empty" sched timehist -i $f.data 2>/dev/null |
			tr -s " " >$f.perf &&
		PERF_BUILDID_DIR=$PWD/empty "$KPROF" sched -i $f.data 2>$f.err | tr -s " " >$f.kprof ||
			exit 1
	done &&
	test "$(wc -l <bm.perf)" -gt 100 &&
	! grep " <- " bm.perf | grep -qv "^[^<]* [0-9.]* \[unknown\]\( <- \[unknown\]\)*$" &&
	grep -q "pipe_read <- vfs_read" bm.kprof &&
	no_chains bm.perf >bm.perf-nc && no_chains bm.kprof >bm.kprof-nc &&
	test_cmp bm.perf-nc bm.kprof-nc &&
	cat bm.err && test "$(lines_said bm.err)" = 1 &&
	grep -q "^kprof: warning: sched: bm.data: the kernel is mapped by an MMAP2 record only" bm.err &&
	test_cmp bmf.perf bmf.kprof && ! grep -q "pipe_read" bmf.kprof &&
	cat bmf.err && test "$(lines_said bmf.err)" = 1 &&
	grep -q "^kprof: warning: sched: bmf.data: no kallsyms or vmlinux with the recorded kernel.s build-id" bmf.err
'

test_expect_success 'a sched recording without call chains is a one-line error' '
	perf sched record -o nog.data -- "$W" sleeps 5 >/dev/null 2>&1 &&
	test_must_fail "$KPROF" sched -i nog.data 2>err &&
	cat err && test "$(lines_said err)" = 1 && grep -q "nog.data: .*without call chains" err
'

test_expect_success 'a recording without sched events is a one-line error' '
	perf record -e cpu-clock -o cpu.data -- "$W" spin 50 >/dev/null 2>&1 &&
	test_must_fail "$KPROF" sched -i cpu.data --lkp 2>err &&
	cat err && test "$(lines_said err)" = 1 && grep -q "cpu.data: " err
'

test_expect_success 'a truncated file is a one-line error' '
	size=$(stat -c %s s.data) &&
	head -c $((size / 2)) s.data >half.data &&
	test_must_fail "$KPROF" sched -i half.data --lkp >out 2>err &&
	cat err && test "$(lines_said err)" = 1 && grep -q "half.data: " err && ! test -s out
'

test_expect_success 'not a perf.data file, or none: one-line errors' '
	echo "not perf data" >junk.data &&
	test_must_fail "$KPROF" sched -i junk.data 2>err &&
	test "$(lines_said err)" = 1 && grep -q "junk.data: " err &&
	test_must_fail "$KPROF" sched -i missing.data 2>err &&
	test "$(lines_said err)" = 1 && grep -q "missing.data: " err
'

test_expect_success 'a --kallsyms that is not kallsyms text is a one-line error naming it' '
	test_must_fail "$KPROF" sched -i s.data --kallsyms /dev/null --lkp >out 2>err &&
	cat err && test "$(lines_said err)" = 1 && grep -q "/dev/null: no kernel symbols" err &&
	! test -s out
'

test_expect_success 'usage errors exit 2' '
	rc=0 && "$KPROF" sched extra 2>err || rc=$? &&
	test "$rc" = 2 && grep -q "unexpected argument" err &&
	rc=0 && "$KPROF" sched --bogus 2>err || rc=$? &&
	test "$rc" = 2 && test "$(lines_said err)" = 1
'

test_done
