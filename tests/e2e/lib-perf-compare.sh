# shellcheck shell=bash
# lib-perf-compare.sh - kprof against perf 6.1 reading the same perf.data (sourced after
# lib.sh): LKP keys per event, sample counts and periods per event, folded stacks.

E2E=$KPROF_SRC/tests/e2e
LKP_OPTS="--no-group --children --header -U -g folded,0.5,callee --sort=dso,symbol"

# perf's keys for every event of a file: each "# Samples: ... of event 'X'" section alone
# through LKP's parser (which reads the first event of its input only).
perf_keys() {
	# shellcheck disable=SC2086
	perf report $LKP_OPTS -i "$1" 2>/dev/null |
		awk -v p="$1.sec" '/^# Samples: .* of events? / {
			n++; f = p "." n; print "# ========" >f; sub(/of events /, "of event ")
		} n { print >f }'
	for sec in "$1".sec.*; do
		perl "$E2E/lkp-parse-perf-profile.pl" <"$sec"
	done | perl "$E2E/lkp-pfx-rename.pl" /proc/kallsyms | LC_ALL=C sort
}

# kprof's keys of $1 against perf's keys of $2 (default: the same file).
compare_keys() {
	perf_keys "${2:-$1}" >"$1.perf"
	"$KPROF" report --format lkp -i "$1" >"$1.kprof" 2>"$1.err"
	test -s "$1.perf" && test -s "$1.kprof"
	perl "$E2E/lkp-keys-compare.pl" "$1.perf" "$1.kprof" 0.01
}

# "event samples period" per event, from perf script and from kprof's table.
compare_counts() {
	perf script -G -F event,period -i "$1" 2>/dev/null |
		awk '{ sub(/:$/, "", $2); n[$2]++; s[$2] += $1 }
		     END { for (e in n) printf "%s %d %d\n", e, n[e], s[e] }' |
		LC_ALL=C sort >"$1.perf-counts"
	"$KPROF" report --format table -i "$1" 2>/dev/null |
		awk '/^# Event: / { e = $3; gsub("\047", "", e) } /^# Samples: / { n = $3 }
		     /^# Event count: / { printf "%s %d %d\n", e, n, $4 }' |
		LC_ALL=C sort >"$1.kprof-counts"
	cat "$1.perf-counts"
	test -s "$1.perf-counts" && test_cmp "$1.perf-counts" "$1.kprof-counts"
}

# Folded stacks summed by their text, sorted (two stacks become one when a frame is renamed).
sum_folded() {
	awk '{ n = $NF; $NF = ""; s[$0] += n } END { for (k in s) print k s[k] }' "$@" |
		LC_ALL=C sort
}

# Folded stacks with a PLT stub's frame and _init's made one: perf 6.1 names a stub that
# _init's fixed-up end covers by either, as its symbol tree's shape has it (docs/symbolize.md);
# kprof names the stub and says so ("PLT stub address").
stub_as_one() {
	sed -E "s/;(_init|[^; ]*@plt)( |;)/;<stub>\2/g" "$1" | sum_folded
}

# Folded files $1 (from perf script) and $2 (kprof's, its stderr in $3) equal, or equal but
# for the PLT stubs kprof said perf may name otherwise.
same_folded() {
	cmp -s "$1" "$2" && return 0
	if grep -q "PLT stub address" "$3"; then
		stub_as_one "$1" >"$1.stub"
		stub_as_one "$2" >"$2.stub"
		cmp -s "$1.stub" "$2.stub" && return 0
	fi
	test_cmp "$1" "$2"
	return 1
}

# kprof collapse of $1 against kprof collapse of its perf script text, with --perl-compat
# (stackcollapse-perf.pl exactly) and without (kprof's deliberate differences, the same on both
# paths); on a difference both programs' stderr are shown too (what either said it did not
# understand).
compare_folded() {
	perf script -i "$1" >"$1.script" 2>"$1.folded-perf.err"
	"$KPROF" collapse --perl-compat "$1.script" >"$1.folded-perf"
	"$KPROF" collapse --perl-compat -i "$1" >"$1.folded-kprof" 2>"$1.folded-kprof.err"
	"$KPROF" collapse "$1.script" >"$1.folded-perf-own"
	"$KPROF" collapse -i "$1" >"$1.folded-kprof-own" 2>/dev/null
	test -s "$1.folded-perf" || return 1
	same_folded "$1.folded-perf" "$1.folded-kprof" "$1.folded-kprof.err" &&
		same_folded "$1.folded-perf-own" "$1.folded-kprof-own" "$1.folded-kprof.err" &&
		return 0
	echo "perf script said:"; head -5 "$1.folded-perf.err"
	echo "kprof collapse said:"; head -5 "$1.folded-kprof.err"
	return 1
}

