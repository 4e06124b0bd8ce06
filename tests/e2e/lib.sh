# shellcheck shell=bash
# lib.sh - helpers for kprof's end-to-end tests, in the spirit of git's test-lib: every
# tests/e2e/tNNNN-*.sh sources this, declares its checks with test_expect_success, and ends
# with test_done. Output is TAP for prove. A check whose prerequisite is missing is a skip
# with a reason, never a pass and never a failure.
#
# Environment (set by `make test`): KPROF (the binary), KPROF_BUILD (build dir, fixtures in
# $KPROF_BUILD/tests/fixtures), KPROF_SRC (source tree), KPROF_SHARED (../shared, may be absent:
# its corpus checks skip then, unless KPROF_REQUIRE_SHARED=1, as in CI, makes them fail),
# KPROF_FAILURES (a file each failed check's output is appended to).

set -u
: "${KPROF_SRC:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${KPROF_BUILD:=$KPROF_SRC/build}"
: "${KPROF:=$KPROF_SRC/kprof}"
: "${KPROF_SHARED:=$KPROF_SRC/../shared}"
export KPROF KPROF_BUILD KPROF_SRC KPROF_SHARED
FIXTURES=$KPROF_BUILD/tests/fixtures

test_count=0
test_failed=0
test_name=$(basename "$0" .sh)
TRASH=$KPROF_BUILD/trash/$test_name
rm -rf "$TRASH" && mkdir -p "$TRASH" && cd "$TRASH" || exit 1

say() { printf '# %s\n' "$*" >&2; }

# test_skip_all REASON: the whole script is skipped.
test_skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

declare -A prereq_cache
# Prerequisites: each prereq_NAME function returns 0 when the machine has it.
prereq_ROOT() { [ "$(id -u)" -eq 0 ]; }
prereq_PERF() { command -v perf >/dev/null 2>&1; }
prereq_PERF_EVENTS() { perf stat -e cpu-clock -x, true >/dev/null 2>&1; }
prereq_HWCOUNTERS() {
	perf stat -x, -e cycles true 2>&1 | grep -qv 'not supported' &&
		! perf stat -x, -e cycles true 2>&1 | grep -q 'not supported'
}
prereq_TRACEFS() { [ -r /sys/kernel/tracing/events/sched/sched_switch/id ]; }
# Tracepoints can be used: tracefs is mounted, or the kernel has it and we may mount it (kprof
# mounts it when it runs as root, as perf does).
prereq_TRACEPOINTS() {
	prereq_TRACEFS || { grep -qw tracefs /proc/filesystems && prereq_ROOT; }
}
prereq_KALLSYMS() { awk '$1 != "0000000000000000" { found = 1; exit } END { exit !found }' /proc/kallsyms; }
prereq_XMLLINT() { command -v xmllint >/dev/null 2>&1; }
prereq_SHARED() { [ -d "$KPROF_SHARED/testdata" ]; }
prereq_VALGRIND() { command -v valgrind >/dev/null 2>&1; }

test_have_prereq() {
	local p
	for p in "$@"; do
		if [ -z "${prereq_cache[$p]+x}" ]; then
			if "prereq_$p"; then prereq_cache[$p]=1; else prereq_cache[$p]=0; fi
		fi
		[ "${prereq_cache[$p]}" = 1 ] || { missing_prereq=$p; return 1; }
	done
}

# test_expect_success [PREREQ[,PREREQ]] 'description' 'shell body'
# The body runs in a subshell with `set -e`; it passes when it exits 0.
test_expect_success() {
	local prereq="" desc body
	if [ $# -eq 3 ]; then prereq=$1; shift; fi
	desc=$1 body=$2
	test_count=$((test_count + 1))
	if [ -n "$prereq" ] && ! test_have_prereq ${prereq//,/ }; then
		if [ "$missing_prereq" = SHARED ] && [ "${KPROF_REQUIRE_SHARED:-0}" = 1 ]; then
			# CI (.ci/run) sets this: the corpus tests must run there, never skip
			echo "not ok $test_count - $desc (no $KPROF_SHARED/testdata)"
			test_failed=$((test_failed + 1))
			return 0
		fi
		echo "ok $test_count # skip $desc (missing $missing_prereq)"
		return 0
	fi
	# The body is traced to a file of its own (stderr stays the body's): on failure the last
	# commands it ran say which check of an && chain failed.
	if (set -e; exec 19>"$TRASH/.trace.$test_count"; BASH_XTRACEFD=19; set -x; eval "$body") \
			>"$TRASH/.out.$test_count" 2>&1; then
		echo "ok $test_count - $desc"
	else
		echo "not ok $test_count - $desc"
		sed 's/^/#   /' "$TRASH/.out.$test_count" | tail -40 >&2
		tail -12 "$TRASH/.trace.$test_count" | cut -c1-300 | sed "s/^/#   /" >&2
		# `make test` prints this file again after prove's summary: CI shows the tail of a
		# run, where the diagnostics printed in the middle are gone.
		if [ -n "${KPROF_FAILURES:-}" ]; then
			{ echo "== $test_name #$test_count: $desc"
			  tail -60 "$TRASH/.out.$test_count"
			  echo "-- its last commands:"
			  tail -12 "$TRASH/.trace.$test_count" | cut -c1-300; } >>"$KPROF_FAILURES"
		fi
		test_failed=$((test_failed + 1))
	fi
}

# test_skip 'description' 'reason': record a check that cannot run here.
test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1 ($2)"
}

# lines_said FILE: the lines of a kprof stderr, but for the note that perf may name a PLT stub
# by the size-0 symbol covering it too (docs/symbolize.md): it comes with any recording of a
# program with symbols whose samples hit a stub, which tests counting lines cannot foresee.
lines_said() { grep -vc "PLT stub address" "$1"; }

# test_cmp EXPECTED ACTUAL: diff -u, shown on failure.
test_cmp() { diff -u "$1" "$2"; }

# test_must_fail CMD...: CMD exits non-zero but neither crashes nor is killed by a signal.
test_must_fail() {
	local rc=0
	"$@" || rc=$?
	if [ "$rc" -eq 0 ]; then echo "expected failure: $*" >&2; return 1; fi
	if [ "$rc" -ge 128 ]; then echo "died with signal $((rc - 128)): $*" >&2; return 1; fi
	return 0
}

test_done() {
	echo "1..$test_count"
	if [ "$test_failed" -eq 0 ]; then
		cd / && rm -rf "$TRASH"
		exit 0
	fi
	exit 1
}
