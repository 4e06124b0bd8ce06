#!/usr/bin/env bash
# bench/report.sh - `kprof report --format lkp` against `perf report` with LKP's options, and
# `kprof collapse` against `perf script`, on two recording shapes of >= 450K samples each:
#
#   steady  `perf record -a -g -F 10000 -e cpu-clock` for SECONDS while both CPUs are busy, one
#           in user space (the calltree fixture: deep user call chains), one in the kernel
#           (aim9's page_test through `kprof run --no-profile`: brk and page faults, as in an
#           LKP profile): 2 CPUs x 10 kHz x 30 s = 600K samples from a few long-lived tasks.
#   make-B  the same recording for MAKE_SECONDS (25) during a `make -B -j2` loop of kprof itself
#           in a scratch copy of the source (it unpacks and builds libperf too): hundreds of
#           short-lived, stripped processes without frame pointers (xz, cc1, as, ld, tar), the
#           shape a kernel developer records while building.
#
# Each command runs RUNS times (default 5), interleaved (perf report, kprof report, perf script,
# kprof collapse, then again), and the ratios are those of the medians: wall time, CPU time
# (user + system; the fairer one on a shared machine) and peak RSS, each run's from
# bench/timed.py (wait4). The keys of kprof are also checked against perf's (LKP's parser
# rules), since a fast wrong answer is no answer.
#
# With CALLGRAPH=dwarf the one shape is `perf record --call-graph dwarf -F 4000 -e cpu-clock` of
# the calltree fixture built without frame pointers, for SECONDS (each sample carries an 8 KiB
# stack copy, so system wide at 10 kHz would be gigabytes): DWARF unwinding against perf's.
#
# usage: bench/report.sh [SECONDS] [STEADY_DATA] [MAKE_DATA]   (existing files are reused)
#        CALLGRAPH=dwarf bench/report.sh [SECONDS] [DWARF_DATA]
# Targets: on both shapes report and collapse >= 10x faster than perf report and
# perf script, peak RSS below perf's.
set -euo pipefail

SECONDS_REC=${1:-30}
MAKE_SECONDS=${MAKE_SECONDS:-25}
RUNS=${RUNS:-5}
src=$(cd "$(dirname "$0")/.." && pwd)
KPROF=${KPROF:-$src/kprof}
FIXTURE=${FIXTURE:-$src/build/tests/fixtures/calltree}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
STEADY=${2:-$work/steady.data}
MAKEB=${3:-$work/make.data}

command -v python3 >/dev/null || { echo "bench/report.sh: needs python3 (.ci/install-deps)" >&2; exit 1; }
[ -x "$KPROF" ] || { echo "bench/report.sh: build kprof first (make)" >&2; exit 1; }

record_steady() {
	[ -x "$FIXTURE" ] || make -C "$src" -s "${FIXTURE#"$src"/}"
	echo "recording the steady shape: $SECONDS_REC s system wide at 10 kHz, both CPUs busy ..."
	perf record -q -a -g -F 10000 -e cpu-clock -o "$1" -- \
		sh -c "'$FIXTURE' $SECONDS_REC & '$KPROF' run page_test runtime=$SECONDS_REC \
		       --runs 1 --no-profile -o '$work/results' & wait" >/dev/null 2>&1
}

# A scratch copy without build/: `make -B` there unpacks libperf from the kernel source tarball
# into its own build/ksrc and never touches the shared one.
record_make() {
	local copy=$work/make-src

	mkdir -p "$copy"
	(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$copy")
	echo "recording the make -B shape: $MAKE_SECONDS s system wide at 10 kHz during a" \
	     "make -B -j2 loop ..."
	perf record -q -a -g -F 10000 -e cpu-clock -o "$1" -- \
		timeout "$MAKE_SECONDS" sh -c "while :; do make -C '$copy' -B -j2 -s; done" \
		>/dev/null 2>&1 || true
	rm -rf "$copy"
	[ -s "$1" ] || { echo "bench/report.sh: the make -B recording failed" >&2; exit 1; }
}

# run NAME OUTFILE CMD...: appends "wall cpu rss faults" to $work/NAME.runs (faults: minor page
# faults, which cost ~5-10 us each on a virtual machine: 21,000 of them were a third of kprof's
# CPU time on the make -B recording before its heap went onto huge pages). Timed by
# bench/timed.py (wait4), not GNU time, whose 10 ms steps flattered a 0.2 s run by up to 5%.
run() {
	local name=$1 out=$2 secs user sys rss faults
	shift 2
	python3 "$src/bench/timed.py" "$out" "$@" >"$work/time"
	read -r secs user sys rss faults <"$work/time"
	echo "$secs $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss $faults" \
		>>"$work/$name.runs"
}

# median NAME COLUMN (1 wall, 2 cpu, 3 rss, 4 page faults)
median() {
	sort -g -k"$2,$2" "$work/$1.runs" | awk -v c="$2" '{ v[NR] = $c }
		END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }

line() {
	printf '  %-14s %8.3f s wall %8.3f s cpu %8d KiB peak RSS %7.0f faults (medians of %d)\n' \
	       "$1" "$(median "$1" 1)" "$(median "$1" 2)" "$(median "$1" 3)" "$(median "$1" 4)" \
	       "$RUNS"
}

# compare PERF KPROF WHAT: the ratios of the medians
compare() {
	echo "  $3 is $(ratio "$(median "$1" 1)" "$(median "$2" 1)")x faster (wall)," \
	     "$(ratio "$(median "$1" 2)" "$(median "$2" 2)")x (cpu) (target >= 10x);" \
	     "peak RSS $(ratio "$(median "$2" 3)" "$(median "$1" 3)")x of perf's (target < 1x)"
}

bench_shape() {
	local shape=$1 data=$2 samples

	samples=$(perf report --stats -i "$data" 2>/dev/null |
		  awk '/SAMPLE events:/ { print $3; exit }')
	printf '%s: %s, %s bytes, %s samples\n' "$shape" "$data" "$(stat -c %s "$data")" "$samples"
	rm -f "$work"/*.runs
	for ((i = 0; i < RUNS; i++)); do
		run perf_report "$work/perf.txt" perf report --children --header -U \
			-g folded,0.5,callee --sort=dso,symbol -i "$data"
		run kprof_report "$work/kprof.keys" "$KPROF" report --format lkp -i "$data"
		run perf_script /dev/null perf script -i "$data"
		run kprof_collapse /dev/null "$KPROF" collapse -i "$data"
	done
	echo " report:"
	line perf_report
	line kprof_report
	compare perf_report kprof_report "kprof report"
	# perf 6.1 names the return address just past a noreturn function after the next
	# function's __pfx_ padding symbol; kprof, like current perf, skips those: rename as
	# tests/e2e/t3000 does.
	perl "$src/tests/e2e/lkp-parse-perf-profile.pl" <"$work/perf.txt" |
		perl "$src/tests/e2e/lkp-pfx-rename.pl" /proc/kallsyms >"$work/perf.keys"
	if perl "$src/tests/e2e/lkp-keys-compare.pl" "$work/perf.keys" "$work/kprof.keys" \
		>"$work/cmp" 2>&1; then
		echo "  keys agree with perf: $(tail -1 "$work/cmp")"
	else
		echo "  keys DIFFER from perf: $(tail -1 "$work/cmp") (first ones below)"
		head -5 "$work/cmp" | sed 's/^/    /'
	fi
	echo " collapse:"
	line perf_script
	line kprof_collapse
	compare perf_script kprof_collapse "kprof collapse (against perf script alone)"
}

record_dwarf() {
	local fixture=$src/build/tests/fixtures/calltree-nofp

	[ -x "$fixture" ] || make -C "$src" -s "${fixture#"$src"/}"
	echo "recording the dwarf shape: $SECONDS_REC s of the fixture, --call-graph dwarf, 4 kHz ..."
	perf record -q --call-graph dwarf -F 4000 -e cpu-clock -o "$1" -- \
		"$fixture" "$SECONDS_REC" >/dev/null 2>&1
}

if [ "${CALLGRAPH:-fp}" = dwarf ]; then
	[ -s "$STEADY" ] || record_dwarf "$STEADY"
	bench_shape dwarf "$STEADY"
	exit 0
fi
[ -s "$STEADY" ] || record_steady "$STEADY"
[ -s "$MAKEB" ] || record_make "$MAKEB"
bench_shape steady "$STEADY"
bench_shape make-B "$MAKEB"
