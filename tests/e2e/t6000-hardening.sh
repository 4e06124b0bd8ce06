#!/usr/bin/env bash
# Hardening (issue 12): every reproducer of $KPROF_SHARED/testdata/fuzz-findings ends in a clear
# one-line error or the correct result; plus the fixes the reproducers cannot show alone (full
# disk, kill -9 recovery, --kallsyms that is not kallsyms).
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"

FF=$KPROF_SHARED/testdata/fuzz-findings
prereq_FINDINGS() { [ -r "$FF/README.md" ]; }
prereq_SETPRIV() { prereq_ROOT && command -v setpriv >/dev/null && command -v unshare >/dev/null; }

# ends_clearly NAME CMD...: CMD neither crashes nor trips a sanitizer, and when it fails its
# stderr is one "kprof: error:" line (warnings aside). NAME.rc / NAME.err are kept.
ends_clearly() {
	local name=$1 rc=0
	shift
	"$@" >"$name.out" 2>"$name.err" || rc=$?
	echo "$rc" >"$name.rc"
	cat "$name.err" >&2
	[ "$rc" -lt 128 ] || { echo "$name: killed by signal $((rc - 128))" >&2; return 1; }
	! grep -qE 'runtime error|Sanitizer|ERROR: |SUMMARY:' "$name.err" || return 1
	[ "$rc" -eq 0 ] && return 0
	[ "$(grep -vc '^kprof: warning: ' "$name.err")" -eq 1 ] && grep -q '^kprof: error: ' "$name.err"
}

# The README lists every reproducer; this test knows each one (a new file must be added here).
test_expect_success FINDINGS 'every file of fuzz-findings is covered by this test' '
	known="F4-comm-newline-tab.perf.data F9-nocallchain-min.perf.data
		T1-trace-hist-field-offset-oob.perf.data T2-libtraceevent-segv-0x38.perf.data
		T3-libtraceevent-strcmp-null.perf.data T4-trace-print_top-qsort-null.perf.data
		T5-leak-libfuzzer-input.bin concurrent-run-matrix.sh gen-eventdesc-quadratic.py
		gen-ids-amplification.py gen-text-abuse.py hugetlb-lock-symlink.sh perfgen.py
		symlink-tmp-clobber.sh README.md" &&
	for f in $(ls "$FF"); do
		echo "$known" | grep -qw -- "$f" || { echo "not covered: $f"; exit 1; }
	done
'

test_expect_success FINDINGS 'T1-T5: kprof trace on crafted tracepoint data: clear errors' '
	ends_clearly t1 "$KPROF" trace -i "$FF/T1-trace-hist-field-offset-oob.perf.data" \
		-f error_code --hist &&
	grep -q "T1-trace.*malformed TRACING_DATA.*line 11" t1.err &&
	ends_clearly t2 "$KPROF" trace -i "$FF/T2-libtraceevent-segv-0x38.perf.data" -f filename &&
	test "$(cat t2.rc)" = 1 &&
	ends_clearly t3 "$KPROF" trace -i "$FF/T3-libtraceevent-strcmp-null.perf.data" -f filename &&
	grep -q "malformed TRACING_DATA.*field declaration" t3.err &&
	for f in "" "-f error_code" "-f error_code --hist" "-f address --top 3"; do
		ends_clearly t4 "$KPROF" trace -i "$FF/T4-trace-print_top-qsort-null.perf.data" $f ||
			exit 1
	done &&
	ends_clearly t5 "$KPROF" trace -i "$FF/T5-leak-libfuzzer-input.bin" &&
	ends_clearly t5f "$KPROF" trace -i "$FF/T5-leak-libfuzzer-input.bin" -f filename --hist
'

test_expect_success FINDINGS 'a field offset inside 64 KiB but beyond the samples: skipped, said once' '
	python3 - "$FF/T1-trace-hist-field-offset-oob.perf.data" <<-\EOF &&
	import struct, sys
	d = bytearray(open(sys.argv[1], "rb").read())
	old = b"offset:2147483000;\tsize:8;\tsigned:0; \n"; new = b"offset:60000;\tsize:8;\tsigned:0;\n"
	i = d.index(old); j = d.rindex(b"name: page_fault_user", 0, i); cut = len(old) - len(new)
	struct.pack_into("<Q", d, j - 8, struct.unpack_from("<Q", d, j - 8)[0] - cut)
	data_off, data_size = struct.unpack_from("<QQ", d, 40)
	feat = struct.unpack_from("<4Q", d, 72)
	bits = [b for b in range(256) if feat[b // 64] >> (b % 64) & 1]
	for k in range(len(bits)):
	    at = data_off + data_size + 16 * k
	    off, sz = struct.unpack_from("<QQ", d, at)
	    if off > i: struct.pack_into("<Q", d, at, off - cut)
	    elif off <= i < off + sz: struct.pack_into("<Q", d, at + 8, sz - cut)
	d[i:i + len(old)] = new
	open("t1b.data", "wb").write(d)
	EOF
	for f in "-f error_code --hist" "-f error_code"; do
		ends_clearly t1b "$KPROF" trace -i t1b.data $f && test "$(cat t1b.rc)" = 0 &&
		grep -qx "kprof: warning: trace: t1b.data: 97 samples of exceptions:page_fault_user skipped: field error_code is not inside the sample" t1b.err ||
			exit 1
	done &&
	ends_clearly t1c "$KPROF" trace -i t1b.data -f address --top 2 &&
	grep -q "top values of address" t1c.out && test "$(lines_said t1c.err)" = 0
'

test_expect_success FINDINGS 'F4: a comm with \t and \n forges no folded line' '
	ends_clearly f4 "$KPROF" collapse -i "$FF/F4-comm-newline-tab.perf.data" &&
	test "$(cat f4.rc)" = 0 &&
	! grep -q " 999999999$" f4.out &&
	grep -qx "a?999999999?B;\[unknown\] 3000" f4.out &&
	test "$(wc -l <f4.out)" = 2 &&
	ends_clearly f4s "$KPROF" flamegraph -i "$FF/F4-comm-newline-tab.perf.data" -o f4.svg &&
	! grep -q "999999999 samples" f4.svg
'

test_expect_success FINDINGS 'F9: perf.data without call chains: the report (no UBSan abort)' '
	ends_clearly f9 "$KPROF" report -i "$FF/F9-nocallchain-min.perf.data" --format table &&
	test "$(cat f9.rc)" = 0 &&
	ends_clearly f9c "$KPROF" collapse -i "$FF/F9-nocallchain-min.perf.data"
'

test_expect_success FINDINGS 'ids sections shared by many attrs: refused, not multiplied' '
	(cd "$FF" && python3 gen-ids-amplification.py 64 "$TRASH/ids.data") &&
	ends_clearly ids "$KPROF" report -i ids.data &&
	grep -q "ids.data: ids sections of two attrs overlap" ids.err &&
	(cd "$FF" && python3 gen-ids-amplification.py 1 "$TRASH/ids1.data") &&
	ends_clearly ids1 "$KPROF" report -i ids1.data --format table
'

test_expect_success FINDINGS 'EVENT_DESC with many entries: read (linear matching)' '
	(cd "$FF" && python3 gen-eventdesc-quadratic.py 20000 "$TRASH/ed.data") &&
	ends_clearly ed timeout 300 "$KPROF" report -i ed.data --format table &&
	test "$(cat ed.rc)" = 0
'

test_expect_success FINDINGS 'text input: lines longer than 1 MiB are a clear error' '
	python3 -c "open(\"semis1m.folded\", \"w\").write(\";\" * (1 << 20) + \" 5\\n\")" &&
	ends_clearly semi "$KPROF" flamegraph -i semis1m.folded -o semi.svg &&
	grep -q "semis1m.folded: a line is longer than 1 MiB" semi.err && ! test -e semi.svg &&
	ends_clearly semi2 "$KPROF" flamegraph -o semi.svg <semis1m.folded &&
	python3 -c "import sys; sys.stdout.write(\"big 100 10.000002: 1000000 cpu-clock: \\n\\t  400000 \" + \"z\" * (3 << 20) + \"+0x1 (/usr/bin/big)\\n\\n\")" >long.script &&
	ends_clearly long "$KPROF" collapse -i long.script &&
	grep -q "longer than 1 MiB" long.err &&
	head -c 100000000 /dev/zero | ends_clearly zero "$KPROF" collapse &&
	grep -q "<stdin>: a line is longer than 1 MiB" zero.err &&
	ends_clearly zero2 "$KPROF" flamegraph -i /dev/zero -o z.svg &&
	head -c 50000000 /dev/zero | ends_clearly zero3 "$KPROF" flamegraph -o z.svg &&
	grep -q "longer than 1 MiB" zero3.err
'

test_expect_success FINDINGS,SETPRIV,PERF_EVENTS 'record -o P does not follow a planted P.tmp symlink' '
	KPROF="$KPROF" bash "$FF/symlink-tmp-clobber.sh" >clobber.out 2>&1 &&
	grep -q "victim now starts with: IMPORTAN" clobber.out
'

test_expect_success FINDINGS,SETPRIV,HUGETLB 'the hugetlb lock is not created through a user symlink' '
	sysstate_lock &&
	KPROF="$KPROF" bash "$FF/hugetlb-lock-symlink.sh" >hl.out 2>hl.err &&
	! test -s hl.out && grep -q "No such file" hl.err &&
	test "$(stat -c %a /run/kprof)" = 700
'

test_expect_success FINDINGS 'two kprof run into one result set: matrix.json keeps every run' '
	KPROF="$KPROF" bash "$FF/concurrent-run-matrix.sh" >conc.out 2>&1 &&
	cat conc.out &&
	dirs=$(sed -n "s/.*run_dirs=\([0-9]*\) .*/\1/p" conc.out) &&
	cols=$(sed -n "s/.*matrix.json: \([0-9]*\) columns.*/\1/p" conc.out) &&
	test "$dirs" -ge 4 && test "$dirs" = "$cols"
'

test_expect_success 'a second kprof run into a locked result set refuses in one line' '
	"$KPROF" run brk_test testtime=1 --runs 1 --no-profile -o set >/dev/null 2>&1 &&
	base=$(echo set/brk_test/*/*) && test -d "$base" &&
	exec 8>"$base/.lock" && flock -n 8 && echo 4242 >&8 &&
	rc=0 && "$KPROF" run brk_test testtime=1 --runs 1 --no-profile -o set 2>err >out || rc=$? &&
	exec 8>&- &&
	cat err && test "$rc" = 1 &&
	grep -q "^kprof: error: .*$base: another kprof run (pid 4242) is adding runs" err &&
	test "$(lines_said err)" = 1 &&
	test "$(ls "$base" | grep -c "^[0-9]*$")" = 1
'

# full_tmpfs DIR SIZE: a small tmpfs on DIR (unmounted by the test), or fail.
full_tmpfs() { mkdir -p "$1" && mount -t tmpfs -o size="$2" kprof-full "$1"; }

test_expect_success ROOT,PERF_EVENTS,KALLSYMS 'full disk: record stops at the first failed write' '
	full_tmpfs full 7m &&
	trap "umount full" EXIT &&
	rc=0 && timeout 300 "$KPROF" record -e cpu-clock -F 20000 -g -a -o full/p.data \
		--duration 600 2>rec.err || rc=$? &&
	cat rec.err && test "$rc" = 1 &&
	grep -q "^kprof: error: full/p.data: No space left on device$" rec.err &&
	test "$(grep -o "full/p.data" rec.err | wc -l)" = 1 &&
	test -z "$(ls -A full)"
'

test_expect_success ROOT 'full disk: kprof run keeps matrix.json and the run directories equal' '
	full_tmpfs runfull 400k &&
	trap "umount runfull" EXIT &&
	rc=0 && "$KPROF" run brk_test testtime=1 --runs 6 --no-profile -o runfull 2>run.err || rc=$? &&
	cat run.err && base=$(echo runfull/brk_test/*/*) &&
	n=$(ls "$base" | grep -c "^[0-9]*$") &&
	if [ "$n" -gt 0 ]; then
		cols=$(json_get "$base/matrix.json" stats_source | tr , "\n" | wc -l) &&
		test "$cols" = "$n"
	fi &&
	{ test "$rc" = 0 || grep -q "No space left on device" run.err; } &&
	! ls -a "$base" | grep -q "\.run-"
'

# wait_truncate_mounted PID: until `kprof run truncate` PID has its filesystem mounted
wait_truncate_mounted() {
	local i
	for i in $(seq 1500); do
		grep -qs mount /run/kprof/$1.state && grep -q kprof-truncate /proc/mounts && return 0
		sleep 0.02
	done
	return 1
}

# state_holders PID: "PID COMM" of each process with kprof PID's state file open
state_holders() {
	local p
	for p in /proc/[0-9]*; do
		ls -l "$p/fd" 2>/dev/null | grep -q "/run/kprof/$1\.state" &&
			echo "${p#/proc/} $(cat "$p/comm" 2>/dev/null)"
	done
	return 0
}

# Recovery waits for every holder of the state file's flock: the workload's program and its
# helpers hold it too, or truncate's `truncate FILE`, killed a moment after kprof, could create
# its file under the mount point after the guardian's unmount (seen once in CI).
test_expect_success ROOT,LOOPFS 'a truncate run: its workload program holds the state file'"'"'s flock too' '
	sysstate_lock || exit 1
	"$KPROF" run truncate nr_task=1 size=1G --runs 1 --no-profile -o k7 >k7.out 2>&1 &
	pid=$! &&
	wait_truncate_mounted $pid &&
	holders=$(state_holders $pid) && echo "$holders" &&
	wait $pid &&
	echo "$holders" | grep -q "^$pid kprof$" &&
	echo "$holders" | grep -q " vm-scalability$"
'

test_expect_success ROOT,LOOPFS 'kill -9 during a truncate run: its guardian undoes what it left at once' '
	sysstate_lock || exit 1
	"$KPROF" run truncate nr_task=1 size=1G --runs 1 --no-profile -o k8 >k8.out 2>k8.err &
	pid=$! &&
	wait_truncate_mounted $pid && guardian_of $pid >/dev/null &&
	kill -9 $pid && wait $pid || true &&
	for i in $(seq 250); do no_leftovers && grep -q "unmounted" k8.err && break; sleep 0.02; done &&
	cat k8.err &&
	grep -q "^kprof: warning: undone after a kprof that died: /tmp/kprof-truncate-.* unmounted; /dev/shm/kprof-truncate-.* removed" k8.err &&
	no_leftovers && ! test -e /run/kprof/$pid.state
'

test_expect_success ROOT,LOOPFS 'kill -9 of a truncate run and its guardian: the next run undoes what they left' '
	sysstate_lock || exit 1
	# (its own line: "a && b &" would put the lock in the background job too)
	"$KPROF" run truncate nr_task=1 size=1G --runs 1 --no-profile -o k9 >k9.out 2>&1 &
	pid=$! &&
	wait_truncate_mounted $pid && g=$(guardian_of $pid) &&
	kill -9 $g $pid && wait $pid || true &&
	grep -q kprof-truncate /proc/mounts &&
	ls -a k9/truncate/*/*/ | grep -q "^\.run-$pid\.tmp$" &&
	"$KPROF" run truncate nr_task=1 size=1G --runs 1 --no-profile -o k9 >k9b.out 2>k9b.err &&
	cat k9b.err &&
	grep -q "undone after a kprof that died: /tmp/kprof-truncate-.* unmounted; /dev/shm/kprof-truncate-.* removed" k9b.err &&
	grep -q "removed 1 unfinished run directory" k9b.err &&
	no_leftovers && ! test -e /run/kprof/$pid.state &&
	test "$(ls k9/truncate/*/*/ | grep -c "^[0-9]*$")" = 1
'

test_expect_success ROOT,HUGETLB 'a dead kprof state file: the hugetlb setting is set back, forged lines ignored' '
	sysstate_lock &&
	old=$(cat $HP/nr_overcommit_hugepages) &&
	trap "echo $old >$HP/nr_overcommit_hugepages" EXIT &&
	echo 7 >$HP/nr_overcommit_hugepages &&
	touch decoy && mkdir -p /run/kprof && chmod 700 /run/kprof &&
	printf "hugetlb %s %s\nimage %s\nmount /etc\nimage /dev/shm/kprof-truncate-../../etc/x\n" \
		$HP/nr_overcommit_hugepages "$old" "$TRASH/decoy" >/run/kprof/999999999.state &&
	"$KPROF" run brk_test testtime=1 --runs 1 --no-profile -o st 2>st.err >/dev/null &&
	cat st.err &&
	test "$(cat $HP/nr_overcommit_hugepages)" = "$old" &&
	grep -q "nr_overcommit_hugepages set back to $old" st.err &&
	test -e decoy && ! test -e /run/kprof/999999999.state
'

test_expect_success ROOT 'kill -9 of kprof run: the workload processes die with it' '
	"$KPROF" run anon-w-rand nr_task=2 unit_size=256M size=1G --runs 1 --no-profile \
		-o "$TRASH/pd" >pd.out 2>&1 &
	pid=$! &&
	for i in $(seq 600); do
		[ "$(pgrep -c -P $pid)" -ge 1 ] && kids=$(pgrep -g "$(pgrep -P $pid | head -1)") &&
			[ "$(echo "$kids" | wc -l)" -ge 3 ] && break
		sleep 0.05
	done &&
	echo "workers: $kids" &&
	kill -9 $pid && wait $pid || true &&
	for i in $(seq 100); do
		alive=0
		for k in $kids; do kill -0 $k 2>/dev/null && alive=1; done
		[ $alive = 0 ] && break
		sleep 0.05
	done &&
	test $alive = 0
'

test_expect_success PERF_EVENTS 'an explicit --kallsyms that is empty or not kallsyms is an error' '
	"$KPROF" record -e cpu-clock -o k.data -- sh -c "i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done" 2>/dev/null &&
	: >empty.ks && echo "hello world" >not.ks &&
	for ks in empty.ks not.ks; do
		ends_clearly ks "$KPROF" report -i k.data --kallsyms $ks &&
		test "$(cat ks.rc)" = 1 &&
		grep -q "k.data: cannot use the kernel symbols of $ks: no kernel symbol" ks.err || exit 1
	done &&
	rm -f k.data.kallsyms && : >k.data.kallsyms &&
	"$KPROF" report -i k.data >/dev/null
'

# Output to a device or a pipe is written in place: kprof's temporary-and-rename would put a
# regular file where the device was (as root: /dev/null itself). A null device of our own here.
test_expect_success ROOT,PERF_EVENTS 'record, flamegraph and export -o to a device: it stays one' '
	mknod null c 1 3 && chmod 666 null &&
	"$KPROF" record -e cpu-clock -o null -- true 2>rec.err &&
	test -c null && ! test -e null.kallsyms &&
	"$KPROF" record -e cpu-clock -o r.data -- true 2>/dev/null &&
	"$KPROF" flamegraph -i r.data -o null &&
	"$KPROF" export -f speedscope -i r.data -o null &&
	test -c null && test "$(stat -c %a null)" = 666 &&
	! ls | grep -q "^null\.tmp" &&
	mkfifo fifo && { cat fifo >fifo.out & } &&
	"$KPROF" export -f speedscope -i r.data -o fifo && wait &&
	test -p fifo && grep -q speedscope fifo.out
'

# A recording names the files its processes mapped, and anyone can put a FIFO (whose open()
# waits for a writer forever) or a device where one of them was: kprof reads regular files only
# (open_regular), so the report ends, with that file's frames unnamed. perf 6.1 waits forever.
test_expect_success PERF,PERF_EVENTS 'a mapped file that is a FIFO now: no hang, frames unnamed' '
	cp "$FIXTURES/calltree" victim &&
	perf record -q -B -N -g -e cpu-clock -o fp.data ./victim 0.2 >/dev/null 2>&1 &&
	perf record -q -B -N --call-graph dwarf -e cpu-clock -o dw.data ./victim 0.2 >/dev/null 2>&1 &&
	"$KPROF" collapse -i fp.data >named.txt 2>/dev/null &&
	grep -q "^victim;.*;main;" named.txt &&
	rm victim && mkfifo victim &&
	for d in fp dw; do
		ends_clearly $d timeout 60 "$KPROF" collapse -i $d.data &&
		test "$(cat $d.rc)" = 0 &&
		grep -q "^victim;" $d.out && ! grep -q "^victim;.*;main;" $d.out &&
		ends_clearly $d-lkp timeout 60 "$KPROF" report --format lkp -i $d.data &&
		test "$(cat $d-lkp.rc)" = 0 || exit 1
	done &&
	rm victim && mknod victim c 1 5 &&
	ends_clearly zero timeout 60 "$KPROF" collapse -i dw.data && test "$(cat zero.rc)" = 0
'

test_done
