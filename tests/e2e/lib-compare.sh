# shellcheck shell=bash
# lib-compare.sh - result-set fixtures for the compare tests (t5xxx), sourced after lib.sh.

# make_runs DIR KEY V1 V2 ...: one run directory per value, DIR/<i>/stats.json holding KEY
# (plus any "key": value pairs in $EXTRA_STATS, e.g. EXTRA_STATS='"aim9.other": 1').
make_runs() {
	local dir=$1 key=$2 i=0
	shift 2
	for v in "$@"; do
		mkdir -p "$dir/$i"
		printf '{"%s": %s%s}\n' "$key" "$v" "${EXTRA_STATS:+, $EXTRA_STATS}" \
			>"$dir/$i/stats.json"
		i=$((i + 1))
	done
}
