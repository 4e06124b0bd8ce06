#!/usr/bin/env bash
# bench/export.sh - `kprof export` (pprof, speedscope, chrome) against `perf report --stdio` (perf's
# default report, the cheapest thing perf does with every sample of the file) on a perf.data of
# >= 500K samples: bench/lib.sh's recording, `perf record -a -g -F 10000 -e cpu-clock` for
# SECONDS with both CPUs busy. Prints wall time, CPU time and peak RSS (bench/timed.py) and the
# ratios; checks that the pprof file's totals (go tool pprof -raw) are kprof report's, and
# prints how many distinct stacks (pprof samples) the file holds.
#
# usage: bench/export.sh [SECONDS] [PERF_DATA]   (default 30; an existing PERF_DATA is reused)
# Target (issue 15): export >= 5x faster than perf report, peak RSS below perf report's.
set -euo pipefail

SECONDS_REC=${1:-30}
src=$(cd "$(dirname "$0")/.." && pwd)
KPROF=${KPROF:-$src/kprof}
FIXTURE=${FIXTURE:-$src/build/tests/fixtures/calltree}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
DATA=${2:-$work/perf.data}

command -v python3 >/dev/null || { echo "bench/export.sh: needs python3 (.ci/install-deps)" >&2; exit 1; }
[ -x "$KPROF" ] || { echo "bench/export.sh: build kprof first (make)" >&2; exit 1; }

. "$src/bench/lib.sh"
[ -s "$DATA" ] || record_busy "$SECONDS_REC" "$DATA"
samples=$(perf report --stats -i "$DATA" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
printf 'perf.data: %s, %s bytes, %s samples\n' "$DATA" "$(stat -c %s "$DATA")" "$samples"

measure perf_report /dev/null perf report --stdio -i "$DATA"
# for scale: what loading the profile costs (export = this + writing the distinct stacks)
measure kprof_report /dev/null "$KPROF" report --format table -i "$DATA"
for fmt in pprof speedscope chrome; do
	measure "kprof_$fmt" /dev/null "$KPROF" export -f "$fmt" -i "$DATA" -o "$work/out.$fmt"
	t=t_kprof_$fmt c=c_kprof_$fmt m=m_kprof_$fmt
	echo "  kprof export -f $fmt is $(ratio "$t_perf_report" "${!t}")x faster (wall)," \
	     "$(ratio "$c_perf_report" "${!c}")x (cpu) (target >= 5x); peak RSS" \
	     "$(awk -v a="${!m}" -v b="$m_perf_report" 'BEGIN { printf "%.3f", a / b }')x of" \
	     "perf's (target < 1x);" \
	     "$(stat -c %s "$work/out.$fmt") bytes"
done

if command -v go >/dev/null 2>&1; then
	export GOCACHE=$work/gocache
	go tool pprof -raw "$work/out.pprof" 2>/dev/null | awk '/^Samples:/ { s = 1; next }
		/^(Locations|Mappings)/ { s = 0 } s && $2 ~ /^[0-9]+:$/ { d++; n += $1; p += $2 }
		END { printf "%.0f %.0f %.0f\n", d, n, p }' >"$work/raw"
	read -r distinct n p <"$work/raw"
	"$KPROF" report --format table -i "$DATA" 2>/dev/null >"$work/table"
	want_n=$(sed -n 's/^# Samples: //p' "$work/table" | head -n1)
	want_p=$(sed -n 's/^# Event count: //p' "$work/table" | head -n1)
	echo "  pprof: $distinct distinct stacks for $n samples;" \
	     "totals $([ "$n $p" = "$want_n $want_p" ] && echo "equal" || echo "DIFFER from") kprof report's"
fi
