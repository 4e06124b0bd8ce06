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

# compare_lkp_tree_split DATA: compare_lkp, except when kprof says that perf's --children tree
# turned an inlined entry into one of a function's own (the inlined-frames warning, docs/
# report.md): that rb-tree is then no longer ordered, a later search can miss an existing entry
# of any file and split its chain, so calltrace keys may move by a sample or two (seen under
# load: calltrace.start_thread 8.92 in perf, 8.94 in kprof, folded stacks equal). Then the
# calltrace keys are compared within 0.05 and all the others within 0.01.
compare_lkp_tree_split() {
	local data=$1
	compare_lkp "$data" && return 0
	"$KPROF" report --format lkp -i "$data" 2>&1 >/dev/null |
		grep -q "that perf reaches through more than one mapping" || return 1
	compare_keys_split "$data.perf.cmp" "$data.kprof"
}

# compare_keys_split PERF KPROF: calltrace keys within 0.05, the others within 0.01.
compare_keys_split() {
	perl "$E2E/lkp-keys-compare.pl" <(grep -v "^perf-profile\.calltrace\." "$1") \
		<(grep -v "^perf-profile\.calltrace\." "$2") 0.01 &&
	perl "$E2E/lkp-keys-compare.pl" <(grep "^perf-profile\.calltrace\." "$1") \
		<(grep "^perf-profile\.calltrace\." "$2") 0.05
}
