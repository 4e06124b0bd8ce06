#!/usr/bin/env bash
# Workloads run as their own programs, as LKP runs them: the profile of `kprof run` is the
# benchmark's (comm usemem, usemem's frames, never kprof's), truncate's profile covers its timed
# phase (the truncation is the largest kernel share, as in report 002), AIM9's singleuser is
# a small process that execs a #!/bin/sh `true`, brk_test/page_test grow the heap as LKP's
# binary does (lkp_compat=0: the 64 KiB shrink), and the programs are found from a clean tree.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"
sysstate_lock

BIN=$(dirname "$KPROF")
[ -x "$BIN/usemem" ] || BIN=$BIN/build
prereq_STRACE() { command -v strace >/dev/null 2>&1; }

# kernel_share FOLDED [COMM_RE]: "share frame" per kernel frame (inclusive, % of the samples
# of the stacks whose comm matches COMM_RE), largest first
kernel_share() {
	perl -ne 'BEGIN { $re = shift @ARGV } chomp; my ($s, $n) = /^(.*) (\d+)$/ or next;
		next unless (split /;/, $s)[0] =~ /^(?:$re)$/; $t += $n; my %seen;
		for (split /;/, $s) { next unless /_\[k\]$/; next if $seen{$_}++; $c{$_} += $n }
		END { printf "%.2f %s\n", 100 * $c{$_} / $t, $_ for sort { $c{$b} <=> $c{$a} } keys %c }' \
		"${2:-.*}" "$1"
}

# callers_of FRAME FOLDED: the frames above FRAME in the stacks that hold it
callers_of() {
	perl -ne 'BEGIN { $f = shift @ARGV } chomp; my ($s) = /^(.*) \d+$/ or next;
		my @s = split /;/, $s; next unless grep { $_ eq $f } @s;
		for (@s) { last if $_ eq $f; $c{$_} = 1 } END { print "$_\n" for sort keys %c }' "$1" "$2"
}

# invented_callers DATA: the sampled stacks of THIS build's usemem loop (other checkouts' may
# run) that hold an [unknown] frame above the loop's frames. usemem has no frame pointers, as
# LKP's: perf's frame-pointer walk starts from whatever %rbp holds, and a pointer there (the
# buffer, the usemem state) makes it read memory as callers. Upstream's loop keeps the word
# index there, so its walk ends at do_rw_once or do_access, as LKP's profiles show. Frames below
# the loop are not callers: the leaf may be a vdso address perf leaves unnamed (clock_gettime's,
# through wl_now_us; seen once in 9 runs under SANITIZE=1).
invented_callers() {
	perf script -i "$1" -F ip,sym,dso 2>/dev/null |
		awk -v um="($(readlink -f "$BIN/usemem"))" 'BEGIN { RS = "" }
			{ n = split($0, l, "\n"); loop = 0
			  for (i = 1; i <= n; i++) {
				if (loop && index(l[i], "[unknown]")) { print; break }
				if (index(l[i], um) && l[i] ~ /do_rw_once|do_access/) loop = 1
			  } }'
}

# The machine may be shared: other kprof processes (other checkouts' tests) are system load
# that a system-wide profile rightly shows. This run's own process must never be in it, and
# when no other kprof ran, no kprof stack or frame is in the profile at all.
test_expect_success PERF_EVENTS,PERF 'anon-w-seq-mt: usemem stacks, nothing of kprof' '
	"$KPROF" run anon-w-seq-mt unit_size=256M --runs 1 -o r >out 2>err &
	kp=$!
	wait $kp
	d=$(echo r/anon-w-seq-mt/*/*/0) &&
	perf script -i "$d/perf.data" -F comm,pid 2>/dev/null >samples &&
	! awk -v p=$kp "\$2 == p" samples | grep . &&
	grep -q "^ *usemem " samples &&
	grep -q "^usemem;" "$d/profile.folded" &&
	# usemem lives shorter than a second here: still the workload, never noise (the share
	# itself is the machine'"'"'s: other load may be there)
	! grep -E "outside the workload \([^)]*usemem" err &&
	json_get "$d/meta.json" outside_samples_percent | grep -qE "^[0-9.]+$" &&
	# usemem is built as LKP'"'"'s, without frame pointers: the chains are LKP'"'"'s short ones
	grep -q "^usemem;do_rw_once " "$d/profile.folded" &&
	invented_callers "$d/perf.data" >invented && ! test -s invented &&
	grep -q "perf-profile.self.cpu-clock.do_rw_once\"" "$d/stats.json" &&
	grep -q "perf-profile.children.cpu-clock.do_access\"" "$d/stats.json" &&
	foreign=$(awk "\$1 == \"kprof\"" samples | wc -l) &&
	if [ "$foreign" -eq 0 ]; then
		! grep -E "^kprof;|cmd_run|run_once|child_main|supervise" "$d/profile.folded" &&
		! grep -E "cmd_run|run_once|child_main|supervise" "$d/stats.json"
	else
		echo "$foreign samples of other kprof processes (shared machine)"
	fi
'

test_expect_success PERF_EVENTS,PERF 'anon-w-seq-mt: the top rows are usemem and kernel frames' '
	d=$(echo r/anon-w-seq-mt/*/*/0) &&
	awk "/top perf-profile/ { on = 1; next } on && /%/ { print \$2 }" out >rows &&
	test -s rows &&
	# a row is a kernel frame, a frame of a usemem stack, or (on a shared machine) a frame
	# of another process that is not a workload program of this run
	while read -r sym; do
		grep -qE "(^|;)${sym}(\.[a-z]+\.[0-9]+)*_\[k\]( |;)" "$d/profile.folded" && continue
		grep -E "(^|;)${sym}(\.[a-z]+\.[0-9]+)*( |;)" "$d/profile.folded" | cut -d";" -f1 | sort -u >comms
		grep -qx usemem comms && continue
		if grep -qvxE "vm-scalability|kprof" comms ||
		   { grep -qx kprof comms && [ "$(awk "\$1 == \"kprof\"" samples | wc -l)" -gt 0 ]; }; then
			echo "row $sym: other load ($(paste -sd, comms))"; continue
		fi
		echo "row $sym is not usemem or kernel"; exit 1
	done <rows
'

# The whole stacks of the benchmark, unwound from the user stack dumps (DWARF CFI of usemem).
test_expect_success PERF_EVENTS,PERF '--call-graph dwarf: usemem -> do_units -> do_rw_once -> do_access' '
	"$KPROF" -q run anon-w-seq-mt unit_size=128M --runs 1 --call-graph dwarf -o rd >/dev/null 2>errd &&
	d=$(echo rd/anon-w-seq-mt/*/*/0) &&
	grep -qE "^usemem;([^;]+;)*thread_main;do_units;do_rw_once;do_access " "$d/profile.folded" &&
	grep -q "perf-profile.children.cpu-clock.do_units\"" "$d/stats.json" &&
	# the thread chain as a calltrace key (callee first, as perf prints it): glibc'"'"'s clone3
	# named as perf names it, not "__clone3 (inlined)", which LKP'"'"'s parser drops; or ending
	# at start_thread, as perf ends it when libc is misplaced by the parent'"'"'s maps (ASLR,
	# t3012): either way the key perf 6.1 makes of the run'"'"'s perf.data
	key=$(grep -oE "perf-profile.calltrace.cpu-clock.do_rw_once.do_units.thread_main[a-z_0-9.]*" \
		"$d/stats.json" | head -1) &&
	case $key in *.thread_main.start_thread.clone3|*.thread_main.start_thread) ;; *) false ;; esac &&
	perf report --children --header -U -g folded,0.5,callee --sort=dso,symbol \
		-i "$d/perf.data" 2>/dev/null | perl "$KPROF_SRC/tests/e2e/lkp-parse-perf-profile.pl" \
		>rd.perf &&
	grep -q "^$key: " rd.perf &&
	test_must_fail "$KPROF" run anon-w-seq-mt --call-graph dwarf,7 2>bad &&
	grep -q "kprof: error: run: --call-graph .dwarf,7.: fp, dwarf" bad
'

prereq_NUMA_SYSFS() { [ -r /sys/devices/system/node/node0/vmstat ]; }

test_expect_success PERF_EVENTS,NUMA_SYSFS 'numa-vmstat and numa-meminfo; sched_debug and latency_stats said when absent' '
	s=$(echo r/anon-w-seq-mt/*/*/0/stats.json) &&
	# (node memory may be hot-plugged by the VM host: a value, not the current one)
	total=$(json_get "$s" numa-meminfo.node0.MemTotal) && [ "${total%.*}" -gt 0 ] &&
	json_get "$s" numa-vmstat.node0.nr_free_pages >/dev/null &&
	hit=$(json_get "$s" numa-vmstat.node0.numa_hit) && [ "${hit%.*}" = "$hit" ] &&
	if [ -r /sys/kernel/debug/sched/debug ] || [ -r /proc/sched_debug ]; then
		json_get "$s" sched_debug.cpu.nr_running.avg >/dev/null
	else
		grep -q "sched_debug: .* no sched_debug keys" err
	fi &&
	if [ -r /proc/latency_stats ]; then :; else
		grep -q "latency_stats: /proc/latency_stats: .* no latency_stats keys" err
	fi
'

# Report 002's headline: unlinkat -> evict -> truncate_inode_pages_range. The profile covers
# the timed phase (the untimed create+read is paused); the shares are over the workload's own
# processes (the machine may be shared: other load is not the workload's). 8 GiB: xfs frees
# large folios, so 2 GiB were ~6 truncation samples at 1 kHz against ~17 of the processes'
# start and exit, a verdict by one or two samples; 8 GiB gives ~25 against the same ~17.
test_expect_success PERF_EVENTS,LOOPFS 'truncate: the truncation is the largest kernel share' '
	"$KPROF" -q run truncate unit_size=8G size=8G --runs 1 -o r >out 2>err &&
	d=$(echo r/truncate/*/*/0) &&
	kernel_share "$d/profile.folded" "rm|vm-scalability|sh|cat|truncate" >shares &&
	head -12 shares &&
	truncate_share=$(awk "/ truncate_inode_pages_range_\[k\]$/ { print \$1 }" shares) &&
	# the syscall entry frames are shared by every syscall, and the truncation'"'"'s own
	# callers (unlinkat, evict: 23.66 against 22.58 when one sample was elsewhere in
	# unlink) hold it: no other frame is larger (its own callees may equal it). On a PVM
	# guest a sample taken with interrupts off is taken where they are enabled again:
	# pvm_irq_enable then holds samples of every path (the truncation, page faults; 39.6
	# against the truncation 36.8 under SANITIZE=1), a point where samples land, not a
	# path, so it is not compared; nor are the exception entries (page faults: under
	# SANITIZE=1 the instrumented programs fault 29% at start).
	callers_of "truncate_inode_pages_range_[k]" "$d/profile.folded" >callers &&
	grep -vE " (entry_SYSCALL_64_after_hwframe|do_syscall_64|(asm_)?exc_[a-z_]+|(__raw_callee_save_)?pvm_irq_enable)_\[k\]$" \
		shares | awk "NR == FNR { c[\$0] = 1; next } !(\$2 in c)" callers - | head -1 >top &&
	cat top &&
	awk -v t="$truncate_share" "{ exit !(\$1 <= t) }" top &&
	read_share=$(awk "/ (filemap_read|ksys_read)_\[k\]$/ { s = \$1 > s ? \$1 : s } END { print s + 0 }" shares) &&
	awk -v t="$truncate_share" -v r="$read_share" "BEGIN { exit !(t > 20 && t > 2 * r) }"
'

# Which mkfs a run executes, seen by strace (polling /proc/mounts races with a short run).
mkfs_of() {
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=execve -o mkfs.trace \
		"$KPROF" -q run truncate "$@" unit_size=128M size=128M --runs 1 --no-profile -o x \
		>/dev/null 2>&1 &&
	grep -o "execve(\"[^\"]*mkfs[^\"]*\"" mkfs.trace | sed "s/.*mkfs\.//; s/\"//" | sort -u
}

test_expect_success LOOPFS,STRACE 'truncate: xfs by default, fs=ext4 on request' '
	test "$(mkfs_of)" = xfs &&
	test "$(mkfs_of fs=ext4)" = ext4 &&
	ls -d x/truncate/ext4-2-* >/dev/null && no_leftovers
'

sysctls() { cat /proc/sys/vm/overcommit_memory /proc/sys/vm/max_map_count /proc/sys/kernel/threads-max | paste -sd" "; }

# wait_sysctls VALUES: wait until the sysctls are VALUES (a run set them, or restored them)
wait_sysctls() {
	local i
	for i in $(seq 400); do
		[ "$(sysctls)" = "$1" ] && return 0; sleep 0.05
	done
	return 1
}
lkp_sysctls() { wait_sysctls "1 1073741824 1048576"; }

test_expect_success ROOT 'LKP sysctls during a vm-scalability run, restored after it and on Ctrl-C' '
	before=$(sysctls) &&
	{ "$KPROF" -q run anon-w-seq unit_size=64M runtime=3 --runs 1 --no-profile -o s >/dev/null 2>&1 & } &&
	pid=$! &&
	lkp_sysctls &&
	wait $pid &&
	[ "$(sysctls)" = "$before" ] &&
	{ "$KPROF" -q run anon-r-seq-mt runtime=30 --runs 1 --no-profile -o s >/dev/null 2>&1 & } &&
	pid=$! &&
	lkp_sysctls &&
	kill -INT $pid &&
	{ rc=0 && wait $pid || rc=$?; } &&
	[ $rc -eq 130 ] && [ "$(sysctls)" = "$before" ] && [ ! -e /run/kprof/sysctl.saved ]
'

# Two overlapping runs: the first sets, the last restores; a kprof killed with SIGKILL holds
# nothing from the moment it dies: its guardian puts the system's values back at once, and
# when the guardian was killed too, the next run does.
test_expect_success ROOT 'LKP sysctls: overlapping runs, and a kprof killed with SIGKILL' '
	before=$(sysctls) &&
	# (runtime is a cap: the read case is the one that lasts until it is stopped)
	{ "$KPROF" -q run anon-r-seq-mt runtime=30 --runs 1 --no-profile -o s1 >/dev/null 2>&1 & } &&
	long=$! &&
	lkp_sysctls &&
	"$KPROF" -q run anon-w-seq unit_size=64M runtime=1 --runs 1 --no-profile -o s2 >/dev/null 2>&1 &&
	[ "$(sysctls)" = "1 1073741824 1048576" ] &&
	kill -INT $long && { wait $long || :; } &&
	[ "$(sysctls)" = "$before" ] &&
	{ "$KPROF" -q run anon-r-seq-mt runtime=30 --runs 1 --no-profile -o s3 >/dev/null 2>g.err & } &&
	pid=$! &&
	lkp_sysctls && guardian_of $pid >/dev/null &&
	kill -KILL $pid && { wait $pid || :; } &&
	wait_sysctls "$before" && [ ! -e /run/kprof/sysctl.saved ] &&
	for i in $(seq 100); do grep -q "sysctls released" g.err && break; sleep 0.05; done &&
	cat g.err &&
	grep -q "^kprof: warning: undone after a kprof that died: .*LKP.s sysctls released" g.err &&
	{ "$KPROF" -q run anon-r-seq-mt runtime=30 --runs 1 --no-profile -o s4 >/dev/null 2>&1 & } &&
	pid=$! &&
	lkp_sysctls && g=$(guardian_of $pid) &&
	kill -KILL $g $pid && { wait $pid || :; } &&
	sleep 0.5 &&
	[ "$(sysctls)" = "1 1073741824 1048576" ] && [ -e /run/kprof/sysctl.saved ] &&
	"$KPROF" run brk_test testtime=1 --runs 1 --no-profile -o s5 >/dev/null 2>err &&
	grep -q "undone after a kprof that died: .*LKP.s sysctls released" err &&
	[ "$(sysctls)" = "$before" ] && [ ! -e /run/kprof/sysctl.saved ]
'

# The guardian is not a run's child as the batch sees it (no exit signal): a clean run leaves
# no guardian behind and nothing to undo, and `kprof recover` by hand finds nothing.
test_expect_success ROOT 'guardian: gone after a clean run; kprof recover finds nothing' '
	"$KPROF" run brk_test testtime=1 --runs 1 --no-profile -o s6 >/dev/null 2>c.err &&
	for i in $(seq 100); do
		pgrep -f "^kprof -q recover --wait-fd 3 --pid" >/dev/null || break; sleep 0.05
	done &&
	! pgrep -f "^kprof -q recover --wait-fd 3 --pid" &&
	! grep -q "undone" c.err &&
	"$KPROF" recover 2>r.err && grep -q "nothing to undo" r.err
'

# The saved values are root's alone: what another user plants in /dev/shm is never read.
test_expect_success ROOT 'LKP sysctls: nothing is read from or written to /dev/shm' '
	before=$(sysctls) &&
	echo "0 0 0" >/dev/shm/kprof-sysctl.state && echo 12345 >>/dev/shm/kprof-sysctl.state &&
	"$KPROF" -q run anon-w-seq unit_size=64M runtime=1 --runs 1 --no-profile -o s5 >/dev/null 2>&1 &&
	[ "$(sysctls)" = "$before" ] && [ "$(head -1 /dev/shm/kprof-sysctl.state)" = "0 0 0" ] &&
	rm -f /dev/shm/kprof-sysctl.state /dev/shm/kprof-sysctl.lock &&
	[ "$(stat -c %a /run/kprof)" = 700 ]
'

test_expect_success 'kprof recover: options' '
	rc=0; "$KPROF" recover --pid 12 2>e1 || rc=$?; [ $rc -eq 2 ] && grep -q "pid goes with --wait-fd" e1 &&
	rc=0; "$KPROF" recover --wait-fd x 2>e2 || rc=$?; [ $rc -eq 2 ] &&
	grep -q "recover: --wait-fd .x.: a file descriptor number" e2 &&
	rc=0; "$KPROF" recover extra 2>e3 || rc=$?; [ $rc -eq 2 ] && grep -q "unexpected argument" e3
'

test_expect_success 'singleuser: a small process, AIM'"'"'s ./true is a shell script' '
	head -1 "$BIN/true" | grep -qx "#!/bin/sh"
	"$BIN/singleuser" fork_test testtime=3 >fork.log &
	pid=$!
	sleep 1
	cp /proc/$pid/maps maps
	n=$(wc -l <maps)
	wait $pid
	echo "singleuser has $n mappings"
	grep -q " fork_test .* Task Creations/second$" fork.log || exit 1
	# a sanitizer build maps its runtime and shadow: the size is a property of the plain build,
	# and so is being position-dependent, as the binary LKP builds: loaded (and its heap) below
	# 2 GiB (Makefile; ASan has its shadow there)
	if ldd "$BIN/singleuser" | grep -q libasan; then echo "ASan build: not counted"; else
		[ "$n" -lt 28 ] && [ $((0x$(head -1 maps | cut -d- -f1))) -lt $((1 << 31)) ]
	fi
'

test_expect_success STRACE 'exec_test execs the true script; fork_test children exit(0)' '
	# (LeakSanitizer cannot run under ptrace: no leak check in a SANITIZE=1 build here)
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=execve,exit_group -o ex.trace \
		"$BIN/singleuser" exec_test \
		testtime=2 >ex.log &&
	grep -q "execve(\"$BIN/true\", \[\"true\"\]" ex.trace &&
	grep -q "execve(\"/bin/sh\", \[\"/bin/sh\", \"$BIN/true\"\]" ex.trace ||
	grep -q "execve(\"$BIN/true\", \[\"true\"\], .*) = 0" ex.trace
'

# brk_moves TRACE: "up down": how many brk() calls moved the break up, and down
brk_moves() {
	perl -ne '/^brk\(.*\)\s+=\s+(0x[0-9a-f]+)/ or next; $r = hex($1);
		$u++ if defined $p && $r > $p; $d++ if defined $p && $r < $p; $p = $r;
		END { printf "%d %d\n", $u, $d }' "$1"
}

test_expect_success STRACE 'brk_test: LKP binary grows only; lkp_compat=0 shrinks by 64 KiB' '
	export ASAN_OPTIONS=detect_leaks=0 &&	# LeakSanitizer cannot run under ptrace
	strace -qq -e trace=brk -o compat.trace "$BIN/singleuser" brk_test testtime=2 >c.log &&
	strace -qq -e trace=brk -o fixed.trace "$BIN/singleuser" brk_test testtime=2 \
		lkp_compat=0 >f.log &&
	read -r up down <<<"$(brk_moves compat.trace)" && echo "compat: $up up, $down down" &&
	# one shrink per call: the final brk(oldbrk)
	calls=$(awk "{ print \$4 }" c.log) && [ "$down" -le $((calls + 1)) ] && [ "$up" -gt 16000 ] &&
	read -r up down <<<"$(brk_moves fixed.trace)" && echo "fixed: $up up, $down down" &&
	[ "$down" -ge 1000 ]
'

test_expect_success 'the new cases run through the programs, their usemem line as upstream' '
	for c in anon-cow-seq-mt anon-cow-rand-mt anon-r-rand anon-r-rand-mt anon-rx-seq-mt \
		 anon-rx-rand-mt; do
		"$KPROF" -q run $c nr_task=2 unit_size=16M size=16M runtime=5 --runs 1 --no-profile -o n \
			>/dev/null 2>&1 || { echo "$c failed"; exit 1; }
		l=$(echo n/$c/*/*/0/$c.log)
		json_get "$(dirname "$l")/stats.json" vm-scalability.throughput >/dev/null
		[ "$(grep -c " bytes / .* KB/s$" "$l")" -eq 2 ] || { echo "$c: KB/s lines"; exit 1; }
	done
	grep -q "./usemem --runtime 5 -t 2 --prealloc --prefault 16777216$" n/anon-cow-seq-mt/*/*/0/*.log &&
	grep -q "./usemem --runtime 5 -t 2 --prealloc --prefault --random 16777216$" n/anon-cow-rand-mt/*/*/0/*.log &&
	grep -q "./usemem --runtime 5 -n 2 --random --readonly 8388608$" n/anon-r-rand/*/*/0/*.log &&
	grep -q "./usemem --runtime 5 -t 2 --random --readonly 8388608$" n/anon-r-rand-mt/*/*/0/*.log &&
	grep -q "./usemem --runtime 5 -t 2 --prealloc --readonly 16777216$" n/anon-rx-seq-mt/*/*/0/*.log &&
	grep -q "./usemem --runtime 5 -t 2 --prealloc --random --readonly 8388608$" n/anon-rx-rand-mt/*/*/0/*.log
'

test_expect_success 'the programs are found next to kprof, else a clear error' '
	mkdir -p lone && cp "$KPROF" lone/kprof &&
	test_must_fail lone/kprof run anon-w-seq --runs 1 -o l 2>lone.err &&
	grep -q "workload programs .* run make" lone.err
'

test_done
