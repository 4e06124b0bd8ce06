#!/usr/bin/env bash
# truncate / truncate-seq: sparse files on a loop-mounted xfs image in tmpfs (never tmpfs
# itself), LKP's "bytes truncated/faulted in T1-T0 seconds" lines and metrics, and nothing left
# behind: no mount, no loop device, no image, no mount point.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"
sysstate_lock

test_expect_success LOOPFS 'truncate: concurrent rm of the sparse files, metrics from the lines' '
	"$KPROF" -q run truncate nr_task=2 unit_size=64M size=128M --runs 1 --no-profile \
		>/dev/null 2>err &&
	d=$(echo results/truncate/*/*/0) &&
	[ "$(grep -c "^67108864 bytes truncated in [0-9.]*-[0-9.]* seconds$" "$d/truncate.log")" -eq 2 ] &&
	[ "$(grep -c "./case-truncate$" "$d/truncate.log")" -eq 2 ] &&
	same_number "$(json_get "$d/stats.json" vm-scalability.workload)" 131072 &&
	want=$(awk -F"[ -]" "/truncated in/ { sub(/ seconds/, \"\"); t += int(\$1 / 1024) / (\$5 - \$6); n++ }
		END { printf \"%d\", t / n }" "$d/truncate.log") &&
	[ "$(json_get "$d/stats.json" vm-scalability.throughput)" = "$want" ] &&
	no_leftovers
'

test_expect_success LOOPFS 'truncate-seq: faulted and truncated series' '
	"$KPROF" -q run truncate-seq nr_task=2 unit_size=64M size=64M --runs 1 --no-profile \
		>/dev/null 2>err &&
	s=$(echo results/truncate-seq/*/*/0/stats.json) &&
	json_get "$s" vm-scalability.throughput_fault >/dev/null &&
	json_get "$s" vm-scalability.throughput >/dev/null &&
	l=$(echo results/truncate-seq/*/*/0/truncate-seq.log) &&
	grep -q "^67108864 bytes faulted in " "$l" && grep -q "^67108864 bytes truncated in " "$l" &&
	no_leftovers
'

test_expect_success LOOPFS 'the files were in the page cache and on xfs, not tmpfs' '
	s=$(echo results/truncate/*/*/0/stats.json) &&
	[ "$(json_get "$s" proc-vmstat.pgpgin 2>/dev/null || echo 0)" -lt 65536 ] &&
	json_get "$s" meminfo.Cached >/dev/null
'

test_done
