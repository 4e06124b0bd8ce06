#!/usr/bin/env bash
# bench/workload-throughput.sh - how the built-in workloads compare with plain code, and what
# profiling costs a run. Prints ratios; no thresholds (speed is not a test).
#
#   1. anon-w-seq (one worker, usemem's do_rw_once/do_access loop) against a plain memset of a
#      fresh MAP_PRIVATE /dev/zero mapping of the same size: first-touch write throughput.
#   2. kprof run anon-w-seq-mt with and without system-wide profiling: wall time per run and
#      throughput.
#
# Usage: bench/workload-throughput.sh [SIZE_MB] [RUNS]   (defaults 512, 3); KPROF=./kprof
set -euo pipefail

size_mb=${1:-512}
runs=${2:-3}
KPROF=${KPROF:-$(cd "$(dirname "$0")/.." && pwd)/kprof}
work=$(mktemp -d /tmp/kprof-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat >"$work/memset.c" <<'C'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
int main(int argc, char **argv)
{
	size_t bytes = strtoull(argv[1], NULL, 10);
	int fd = open("/dev/zero", O_RDWR);
	struct timeval a, b;
	char *p;

	gettimeofday(&a, NULL);		/* like usemem: the mmap and its faults are timed */
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return 1;
	memset(p, 1, bytes);
	gettimeofday(&b, NULL);
	printf("%zu %ld\n", bytes, (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_usec - a.tv_usec));
	return 0;
}
C
cc -O2 -o "$work/memset" "$work/memset.c"

bytes=$((size_mb << 20))
echo "== first-touch write of ${size_mb} MiB, one worker, best of $runs"
best_kprof=0 best_memset=0
for i in $(seq "$runs"); do
	"$KPROF" -q run anon-w-seq nr_task=1 unit_size=${size_mb}M size=${size_mb}M runtime=600 \
		--runs 1 --no-profile -o "$work/r" >/dev/null
	log=$(ls -t "$work"/r/anon-w-seq/*/*/*/anon-w-seq.log | head -1)
	# usemem reports bytes = size/8 credit + 8 per access: the written bytes are 8/9 of it
	r=$(awk '/ bytes \/ / { printf "%.0f", ($1 * 8 / 9) / $4 }' "$log")	# bytes per usec
	[ "$r" -gt "$best_kprof" ] && best_kprof=$r
	m=$("$work/memset" "$bytes" | awk '{ printf "%.0f", $1 / $2 }')
	[ "$m" -gt "$best_memset" ] && best_memset=$m
done
echo "kprof anon-w-seq : $best_kprof MB/s"
echo "plain memset     : $best_memset MB/s"
awk -v a="$best_kprof" -v b="$best_memset" 'BEGIN { printf "ratio kprof/memset: %.2f\n", a / b }'

echo "== kprof run anon-w-seq-mt (defaults), $runs runs, with and without profiling"
for mode in --no-profile ""; do
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	out=$("$KPROF" -q run anon-w-seq-mt --runs "$runs" $mode -o "$work/p${mode:-prof}" 2>/dev/null)
	end=$(date +%s.%N)
	tp=$(echo "$out" | awk '/vm-scalability.throughput/ { print $2 }')
	printf '%-14s wall %6.2f s for %d runs, throughput %s KB/s\n' "${mode:-profiled}" \
		"$(echo "$end - $start" | bc)" "$runs" "$tp"
	eval "wall_${mode:+plain}=$(echo "$end - $start" | bc)"
	eval "tp_${mode:+plain}=$tp"
done
awk -v a="$wall_" -v b="$wall_plain" -v c="$tp_" -v d="$tp_plain" \
	'BEGIN { printf "profiling overhead: wall x%.2f, throughput x%.2f\n", a / b, c / d }'
