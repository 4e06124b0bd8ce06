# shellcheck shell=bash
# lib-run.sh - helpers shared by the `kprof run` end-to-end tests (t1xxx); source after lib.sh.

# json_get FILE KEY: a top-level value (arrays joined with ','; objects as "{}"), fails if absent.
json_get() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
		my $v = $j->{$ARGV[1]}; exit 1 unless defined $v;
		print ref $v eq "ARRAY" ? join(",", @$v) : ref $v eq "HASH" ? "{}" : $v, "\n"' "$1" "$2"
}

# log_kb LOG: the workload KB LKP derives from the per-worker lines of a vm-scalability log.
log_kb() {
	awk '/ bytes \/ / || / bytes truncated in / { s += $1 } END { printf "%.2f", s / 1024 }' "$1"
}

# same_number A B: numerically equal (stats.json writes 12288 where LKP prints 12288.00).
same_number() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == b + 0) }'; }

# no_leftovers: nothing of a run is left on the system (mounts, loop devices, images, dirs).
# Only meaningful under sysstate_lock (other checkouts' tests create the same names).
no_leftovers() {
	! grep -q kprof-truncate /proc/mounts &&
	! ls /dev/shm/kprof-truncate-* >/dev/null 2>&1 &&
	! ls -d /tmp/kprof-truncate-* >/dev/null 2>&1 &&
	! { command -v losetup >/dev/null && losetup -a | grep -q kprof-truncate; }
}

# guardian_of PID: the pid of the guardian (`kprof -q recover --wait-fd 3 --pid PID`) root's
# `kprof run` PID started (profiler/run/run-guardian.c; not its child: a double fork), waiting
# up to 10 s for it to appear; fails without one.
guardian_of() {
	local i
	for i in $(seq 200); do
		pgrep -f "^kprof -q recover --wait-fd 3 --pid $1\$" && return 0
		sleep 0.05
	done
	return 1
}

# Prerequisites of the cases that change the system (see lib.sh's prereq_* convention).
HP=/sys/kernel/mm/hugepages/hugepages-2048kB
prereq_HUGETLB() { prereq_ROOT && [ -w $HP/nr_overcommit_hugepages ]; }
prereq_LOOPFS() {
	prereq_ROOT && [ -c /dev/loop-control ] && command -v mkfs.ext4 >/dev/null &&
	command -v mkfs.xfs >/dev/null && grep -q " /dev/shm tmpfs " /proc/mounts &&
	{ grep -qw xfs /proc/filesystems || modprobe -q xfs 2>/dev/null; }
}

# sysstate_lock: e2e tests that change or check global system state (hugetlb setting, loop
# mounts) take turns with the same tests of other checkouts running at the same time.
sysstate_lock() {
	exec 9>/dev/shm/kprof-e2e-sysstate.lock && flock 9
}
