# shellcheck shell=bash
# lib-lkp.sh - kprof's LKP keys against perf 6.1's, for tests that source it after lib.sh.
#
# compare_lkp DATA: `perf report` with LKP's options, parsed with LKP's rules
# (lkp-parse-perf-profile.pl), must give the keys of `kprof report --format lkp`: the same set
# (keys within 0.01 of the 0.05 print threshold may fall on either side) and every value within
# 0.01. perf 6.1's __pfx_ names are first rewritten as current perf and kprof name those
# addresses (lkp-pfx-rename.pl; see t3000). Leaves DATA.perf, DATA.perf.cmp and DATA.kprof.

E2E=$KPROF_SRC/tests/e2e
LKP_OPTS="--children --header -U -g folded,0.5,callee --sort=dso,symbol"

compare_lkp() {
	local data=$1
	# shellcheck disable=SC2086
	perf report $LKP_OPTS -i "$data" 2>/dev/null |
		perl "$E2E/lkp-parse-perf-profile.pl" >"$data.perf"
	"$KPROF" report --format lkp -i "$data" >"$data.kprof"
	test -s "$data.perf" && test -s "$data.kprof"
	perl "$E2E/lkp-pfx-rename.pl" /proc/kallsyms <"$data.perf" >"$data.perf.cmp"
	! grep -E "(^|\.)__(pfx|cfi)_" "$data.kprof"
	perl "$E2E/lkp-keys-compare.pl" "$data.perf.cmp" "$data.kprof" 0.01
}

# compare_lkp_said DATA: compare_lkp, where kprof may say in one line each what perf report 6.1's
# trees around inlined frames can make differ (docs/symbolize.md, "perf report's trees and
# inlined frames"): every key must then be within what kprof's `-v report` lines say
# (lkp-keys-compare-perf-tree.pl), every other key within 0.01; without such a line, all
# within 0.01. Leaves DATA.raw (perf report's output) and DATA.verr (kprof -v's stderr).
compare_lkp_said() {
	local data=$1
	# shellcheck disable=SC2086
	perf report $LKP_OPTS -i "$data" 2>/dev/null >"$data.raw"
	perl "$E2E/lkp-parse-perf-profile.pl" <"$data.raw" |
		perl "$E2E/lkp-pfx-rename.pl" /proc/kallsyms >"$data.perf.cmp"
	"$KPROF" -v report --format lkp -i "$data" >"$data.kprof" 2>"$data.verr"
	test -s "$data.perf.cmp" && test -s "$data.kprof" &&
	perl "$E2E/lkp-keys-compare-perf-tree.pl" "$data.raw" "$data.perf.cmp" "$data.kprof" \
		"$data.verr"
}

# The lines compare_lkp_said reads (cmd-report-tree.c).
TREE_TURNED="that perf reaches through more than one mapping of their file"
TREE_SPLIT="which is not one order of the entries of"
TREE_MERGED="named as functions framed too"
