#!/usr/bin/env bash
# `kprof run` draws flamegraph.svg into each run directory: valid XML, the same total as the
# run's profile.folded, kernel/user colours; and `kprof flamegraph RUN-DIR` reads the directory.
. "$(dirname "$0")/lib.sh"

test_have_prereq PERF_EVENTS || test_skip_all "no software perf events here"

test_expect_success 'a profiled run leaves flamegraph.svg beside profile.folded' '
	"$KPROF" -q run anon-w-seq unit_size=64M --runs 1 -e cpu-clock -o res >/dev/null 2>&1 &&
	dir=$(dirname "$(find res -name profile.folded | head -n 1)") &&
	test -s "$dir/flamegraph.svg" && echo "$dir" >rundir
'

test_expect_success XMLLINT 'it is valid XML with the run profile total' '
	dir=$(cat rundir) && xmllint --noout "$dir/flamegraph.svg" &&
	total=$(awk "{ n += \$NF } END { printf \"%.0f\", n }" "$dir/profile.folded") &&
	grep -o "<title>all ([0-9,]* " "$dir/flamegraph.svg" | tr -d "," | grep -q "($total "
'

test_expect_success 'kernel frames are orange, user frames green' '
	dir=$(cat rundir) &&
	grep -o "<title>do_anonymous_page ([^<]*</title><rect [^>]*" "$dir/flamegraph.svg" |
		grep -q "rgb([0-9]*,[0-9]*,0)" &&
	grep -o "<title>do_rw_once ([^<]*</title><rect [^>]*" "$dir/flamegraph.svg" | head -n 1 |
		grep -vq "rgb([0-9]*,[0-9]*,0)"
'

test_expect_success 'kprof flamegraph reads the run directory' '
	dir=$(cat rundir) && "$KPROF" flamegraph --colors kernel "$dir" >again.svg &&
	test "$(grep -o "<title>all ([^<]*" again.svg)" = \
	     "$(grep -o "<title>all ([^<]*" "$dir/flamegraph.svg")"
'

test_expect_success 'collapse and report read the run directory the same way' '
	dir=$(cat rundir) &&
	"$KPROF" collapse "$dir" >dir.folded && "$KPROF" collapse "$dir/perf.data" >file.folded &&
	test -s dir.folded && test_cmp file.folded dir.folded &&
	"$KPROF" report -i "$dir" >dir.keys && "$KPROF" report -i "$dir/perf.data" >file.keys &&
	test -s dir.keys && test_cmp file.keys dir.keys
'

test_expect_success 'a directory that is no run: one error line naming it' '
	mkdir empty &&
	for c in "collapse empty" "flamegraph empty" "report -i empty"; do
		test_must_fail "$KPROF" $c >/dev/null 2>err &&
		[ "$(lines_said err)" -eq 1 ] && grep -q "empty: not a kprof run directory" err || exit 1
	done
'

test_done
