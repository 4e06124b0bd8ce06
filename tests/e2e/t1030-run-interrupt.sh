#!/usr/bin/env bash
# SIGINT in the middle of `kprof run`: the finished runs stay intact (stats.json, matrix.json),
# the unfinished one leaves no directory, the workload's processes are gone, and the system
# state is restored (hugetlb setting; truncate's mount, loop device and image).
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"
sysstate_lock


# interrupt_after_first_run DIR ARGS...: start kprof run, SIGINT it once run 0 is complete
# and run 1 has started; prints kprof's exit status.
interrupt_after_first_run() {
	local dir=$1 pid i rc=0
	shift
	"$KPROF" run "$@" -o "$dir" >out 2>err &
	pid=$!
	for i in $(seq 600); do
		ls "$dir"/*/*/*/0/stats.json >/dev/null 2>&1 && break
		sleep 0.1
	done
	sleep 0.3
	kill -INT $pid
	wait $pid || rc=$?
	echo $rc
}

# A workload's processes are children of kprof; none may survive it (matched by the unique
# result directory of this test, so other checkouts' runs do not count).
no_workers() { ! pgrep -f -- "-o $1\$" >/dev/null; }

test_expect_success 'anon-w-rand (profiled): finished runs intact, no temporary run directory' '
	rc=$(interrupt_after_first_run "$TRASH/r1" anon-w-rand nr_task=2 unit_size=128M size=512M \
		--runs 5) &&
	[ "$rc" -eq 130 ] && grep -q interrupted err &&
	base=$(echo r1/anon-w-rand/*/*) &&
	json_get "$base/0/stats.json" vm-scalability.throughput >/dev/null &&
	n=$(ls "$base" | grep -c "^[0-9]*$") && [ "$n" -ge 1 ] && [ "$n" -lt 5 ] &&
	[ "$(json_get "$base/matrix.json" vm-scalability.throughput | tr , "\n" | wc -l)" -eq "$n" ] &&
	! ls -a "$base" | grep -q tmp &&
	no_workers "$TRASH/r1"
'

test_expect_success HUGETLB 'anon-cow-rand-hugetlb: hugetlb setting restored on SIGINT' '
	old=$(cat $HP/nr_overcommit_hugepages) &&
	rc=$(interrupt_after_first_run "$TRASH/r2" anon-cow-rand-hugetlb nr_task=2 unit_size=96M \
		size=960M --runs 5 --no-profile) &&
	[ "$rc" -eq 130 ] &&
	[ "$(cat $HP/nr_overcommit_hugepages)" = "$old" ] &&
	json_get r2/anon-cow-rand-hugetlb/*/*/0/stats.json vm-scalability.throughput >/dev/null &&
	no_workers "$TRASH/r2"
'

test_expect_success LOOPFS 'truncate: mount, loop device, image and files gone on SIGINT' '
	rc=$(interrupt_after_first_run "$TRASH/r3" truncate nr_task=2 unit_size=512M size=4G --runs 5 \
		--no-profile) &&
	[ "$rc" -eq 130 ] &&
	json_get r3/truncate/*/*/0/stats.json vm-scalability.throughput >/dev/null &&
	no_leftovers && no_workers "$TRASH/r3"
'

test_done
