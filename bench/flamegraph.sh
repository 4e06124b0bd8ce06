#!/usr/bin/env bash
# bench/flamegraph.sh - size and time of `kprof flamegraph` on a 500K-sample profile.
#
# The profile is synthetic folded text: SAMPLES samples spread over STACKS distinct stacks,
# 4..40 frames deep, drawn from a vocabulary of 3000 function names (deterministic, awk's srand).
# Prints absolute numbers: wall time, peak RSS, SVG size and frames drawn, for the default
# --minwidth (0.1 px) and for --minwidth 0 (nothing culled). flamegraph.pl is compared when it is
# on PATH (it is not packaged in Debian 12).
#
# usage: bench/flamegraph.sh [SAMPLES [STACKS]]    (defaults 500000 100000)
set -euo pipefail

SAMPLES=${1:-500000}
STACKS=${2:-100000}
src=$(cd "$(dirname "$0")/.." && pwd)
KPROF=${KPROF:-$src/kprof}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

awk -v samples="$SAMPLES" -v stacks="$STACKS" 'BEGIN {
	srand(42)
	left = samples
	for (s = 0; s < stacks; s++) {
		depth = 4 + int(rand() * 37)
		line = "bench"
		# shared prefixes, so the tree has realistic fan-out
		for (d = 0; d < depth; d++)
			line = line ";fn_" int(rand() ^ 3 * 3000) "_" d % 7
		n = s == stacks - 1 ? left : 1 + int(rand() * (2 * samples / stacks - 1))
		if (n > left) n = left
		if (n <= 0) break
		left -= n
		print line, n
	}
}' >"$work/profile.folded"

measure() {	# measure LABEL CMD...: wall and CPU time, peak RSS, output size
	local label=$1; shift
	python3 "$src/bench/timed.py" "$work/out.svg" "$@" >"$work/time"
	local secs user sys rss cpu
	read -r secs user sys rss _ <"$work/time"
	cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
	printf '%-27s %6.2f s wall %6.2f s CPU %7d KiB RSS %10d B SVG %8d frames\n' "$label" \
		"$secs" "$cpu" "$rss" "$(stat -c %s "$work/out.svg")" \
		"$(grep -c '^<g' "$work/out.svg" || true)"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs (wall time suffers when busy)"
echo "input: $(wc -l <"$work/profile.folded") distinct stacks," \
	"$(awk '{ n += $NF } END { print n }' "$work/profile.folded") samples," \
	"$(stat -c %s "$work/profile.folded") bytes of folded text"
measure "kprof (minwidth 0.1 px)" "$KPROF" flamegraph "$work/profile.folded"
measure "kprof --minwidth 0" "$KPROF" flamegraph --minwidth 0 "$work/profile.folded"
measure "kprof --reverse --inverted" "$KPROF" flamegraph --reverse --inverted "$work/profile.folded"
cp "$work/profile.folded" "$work/before.folded"
measure "kprof --diff (same input)" "$KPROF" flamegraph --diff "$work/before.folded" \
	"$work/profile.folded"
if command -v flamegraph.pl >/dev/null 2>&1; then
	measure "flamegraph.pl" flamegraph.pl "$work/profile.folded"
else
	echo "flamegraph.pl: not on PATH, no comparison"
fi
