#!/usr/bin/env bash
# record-overhead.sh - what system-wide profiling costs a busy two-CPU workload.
#
# Two copies of tests/fixtures/record-work spin in hot_leaf() for SECS seconds each (one per
# CPU) and report how many calls they made. Each round runs the workload three ways, in turn:
# not profiled, under `kprof record -a -g`, under `perf record -a -g` at the same rate
# (-e cpu-clock -F 4000, kprof's default for cpu-clock). Prints each round and the median
# throughput loss of kprof and perf as a ratio of the unprofiled throughput, and the lost
# samples of each recording. Needs root (system-wide) and perf.
#
#   bench/record-overhead.sh [ROUNDS=3] [SECS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
secs=${2:-3}
ms=$((secs * 1000))
W=build/tests/fixtures/record-work
K=./kprof
make -s "$W" "$K" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

workload() { # run two spinners, print the sum of their calls
	"$W" count $ms >"$tmp/a" & local a=$!
	"$W" count $ms >"$tmp/b" & local b=$!
	wait $a $b
	echo $(($(cat "$tmp/a") + $(cat "$tmp/b")))
}

lost_kprof() { sed -n 's/.*samples (\([0-9]*\) lost.*/\1/p' "$tmp/kerr"; }
lost_perf() { perf report -i "$tmp/p.data" --stats 2>/dev/null |
	awk '/LOST events:/ { print $3; found = 1 } END { if (!found) print 0 }'; }

declare -a base kp pf
printf '%-6s %14s %14s %14s %10s %10s\n' round unprofiled kprof perf kprof-lost perf-lost
for r in $(seq 1 "$rounds"); do
	base[r]=$(workload)

	"$K" record -a -g -e cpu-clock -F 4000 -o "$tmp/k.data" 2>"$tmp/kerr" & rec=$!
	sleep 0.3
	kp[r]=$(workload)
	kill -INT $rec; wait $rec

	perf record -q -a -g -e cpu-clock -F 4000 -o "$tmp/p.data" 2>/dev/null & rec=$!
	sleep 0.3
	pf[r]=$(workload)
	kill -INT $rec; wait $rec || :

	printf '%-6s %14s %14s %14s %10s %10s\n' "$r" "${base[r]}" "${kp[r]}" "${pf[r]}" \
		"$(lost_kprof)" "$(lost_perf)"
done

# Loss per round = 1 - profiled / unprofiled of the same round; the median over rounds.
median_loss() { # NAME...: values of the profiled array
	local -n arr=$1
	for r in $(seq 1 "$rounds"); do
		awk -v p="${arr[r]}" -v b="${base[r]}" 'BEGIN { printf "%.4f\n", 1 - p / b }'
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
echo "kprof record -a -g: median throughput loss $(median_loss kp)"
echo "perf record -a -g:  median throughput loss $(median_loss pf)"
