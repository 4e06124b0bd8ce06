#!/usr/bin/env bash
# record-overhead.sh - what system-wide profiling costs a busy two-CPU workload.
#
# Two copies of tests/fixtures/record-work spin in hot_leaf() for SECS seconds (one per CPU)
# and report their calls and the CPU time they used. Each round runs the workload three ways,
# in turn: not profiled, under `kprof record -a -g`, under `perf record -a -g` at the same rate
# (-e cpu-clock -F 4000, kprof's default rate for cpu-clock).
#
# Two throughputs per run, because this machine is shared and wall-clock speed swings with
# other users' load:
#   wall  calls per second of wall time (what the workload sees, noise included);
#   cpu   calls per CPU second of the workload: the cost of sampling inside the workload
#         (interrupts, kernel + user call-chain walks), independent of other load.
# plus the CPU seconds the profiler itself used. Reported: median over rounds of each loss
# ratio (1 - profiled / unprofiled of the same round) and the samples lost. Needs root and perf.
#
#   bench/record-overhead.sh [ROUNDS=5] [SECS=3]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
secs=${2:-3}
ms=$((secs * 1000))
W=build/tests/fixtures/record-work
K=./kprof
make -s "$W" "$K" >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

workload() { # two spinners; prints "calls cpu_seconds" summed
	"$W" count $ms >"$tmp/a" & local a=$!
	"$W" count $ms >"$tmp/b" & local b=$!
	wait $a $b
	cat "$tmp/a" "$tmp/b" | awk '{ c += $1; s += $2 } END { printf "%d %.6f\n", c, s }'
}

cpu_of() { # PID: its user + system CPU seconds so far
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f\n", ($14 + $15) / hz }' "/proc/$1/stat"
}

lost_kprof() { sed -n 's/.*samples (\([0-9]*\) lost.*/\1/p' "$tmp/kerr"; }
lost_perf() { perf report -i "$tmp/p.data" --stats 2>/dev/null |
	awk '/LOST events:/ { n = $3 } END { print n + 0 }'; }

profiled() { # NAME CMD...: run the workload under CMD; sets run_NAME and cpu_NAME
	"${@:2}" & local rec=$!
	sleep 1		# both tools open events and synthesize /proc before the workload
	local out
	out=$(workload)
	local cpu
	cpu=$(cpu_of $rec)
	kill -INT $rec
	wait $rec || :
	printf -v "run_$1" '%s' "$out"
	printf -v "cpu_$1" '%s' "$cpu"
}

rows=()
printf '%-5s %-22s %-22s %-22s %8s %8s %6s %6s\n' round "unprofiled calls cpu-s" \
	"kprof calls cpu-s" "perf calls cpu-s" kprof-cpu perf-cpu k-lost p-lost
for r in $(seq 1 "$rounds"); do
	run_base=$(workload)
	profiled kprof "$K" record -a -g -e cpu-clock -F 4000 -o "$tmp/k.data" 2>"$tmp/kerr"
	profiled perf perf record -q -a -g -e cpu-clock -F 4000 -o "$tmp/p.data" 2>/dev/null
	# shellcheck disable=SC2154
	rows+=("$run_base $run_kprof $run_perf")
	# shellcheck disable=SC2154
	printf '%-5s %-22s %-22s %-22s %8s %8s %6s %6s\n' "$r" "$run_base" "$run_kprof" \
		"$run_perf" "$cpu_kprof" "$cpu_perf" "$(lost_kprof)" "$(lost_perf)"
done

# Median over rounds of 1 - profiled/unprofiled, on wall (calls) and cpu (calls/cpu-s).
printf '%s\n' "${rows[@]}" | awk -v secs="$secs" '
function median(a, n,    i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return a[int((n + 1) / 2)]
}
{
	n++
	kw[n] = 1 - $3 / $1; pw[n] = 1 - $5 / $1
	kc[n] = 1 - ($3 / $4) / ($1 / $2); pc[n] = 1 - ($5 / $6) / ($1 / $2)
}
END {
	printf "median loss, wall throughput:   kprof %.4f  perf %.4f\n", median(kw, n), median(pw, n)
	printf "median loss, per workload CPU:  kprof %.4f  perf %.4f\n", median(kc, n), median(pc, n)
}'
