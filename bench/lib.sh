# shellcheck shell=bash
# bench/lib.sh - for bench/export.sh: the standard system-wide recording (the steady shape of
# bench/report.sh) and timing with bench/timed.py. Source it after setting src, KPROF, FIXTURE,
# work.

# record_busy SECONDS DATA: `perf record -a -g -F 10000 -e cpu-clock` for SECONDS while both
# CPUs are busy, one in user space (the calltree fixture: deep user call chains), one in the
# kernel (aim9's page_test through `kprof run --no-profile`: brk and page faults, as in an LKP
# profile), so 2 CPUs x 10 kHz x 30 s = 600K samples.
record_busy() {
	local secs=$1 data=$2
	[ -x "$FIXTURE" ] || make -C "$src" -s "${FIXTURE#"$src"/}"
	echo "recording $secs s system wide at 10 kHz with both CPUs busy ..."
	perf record -q -a -g -F 10000 -e cpu-clock -o "$data" -- \
		sh -c "'$FIXTURE' $secs & '$KPROF' run page_test runtime=$secs \
		       --runs 1 --no-profile -o '$work/results' & wait" >/dev/null 2>&1
}

# measure NAME OUTFILE CMD...: sets t_NAME (wall seconds), c_NAME (CPU seconds, user + system)
# and m_NAME (peak RSS, KiB), from bench/timed.py. CPU time is the fairer ratio on a shared
# machine.
measure() {
	local name=$1 out=$2 secs user sys rss
	shift 2
	python3 "$src/bench/timed.py" "$out" "$@" >"$work/time"
	read -r secs user sys rss _ <"$work/time"
	printf -v "t_$name" '%s' "$secs"
	printf -v "c_$name" '%s' "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
	printf -v "m_$name" '%s' "$rss"
	printf '  %-14s %8.2f s wall %8.2f s cpu %8d KiB peak RSS\n' "$name" "$secs" \
	       "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$rss"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
