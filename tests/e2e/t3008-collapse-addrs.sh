#!/usr/bin/env bash
# The names perf gives addresses without a symbol in a file, and JIT code.
#
# collapse --addrs on perf.data: an unresolved frame shows its address as `perf script` prints
# it -- a user address in a file as its offset in the file (perf's map_ip), kernel and unmapped
# addresses as they are -- so `kprof collapse --addrs -i perf.data` equals
# `perf script | kprof collapse --perl-compat --addrs -`. The calltree fixture is stripped so
# that its frames have no names, and it is a PIE, so offsets and addresses differ.
. "$(dirname "$0")/lib.sh"

test_expect_success PERF,PERF_EVENTS 'record a stripped PIE' '
	strip -o prog "$FIXTURES/calltree" &&
	readelf -h prog | grep -q "DYN (" &&
	perf record -q -B -N -g -e cpu-clock -o strip.data ./prog 0.3 >/dev/null 2>&1 &&
	test -s strip.data
'

# perf would find the unstripped fixture in a build-id cache (~/.debug) by its build-id: an
# empty one keeps the frames unnamed for both.
test_expect_success PERF,PERF_EVENTS 'collapse --addrs equals perf script | collapse --addrs' '
	mkdir -p empty &&
	perf --buildid-dir "$PWD/empty" script -i strip.data 2>/dev/null |
		"$KPROF" collapse --perl-compat --addrs - | sort >perf.folded &&
	PERF_BUILDID_DIR=$PWD/empty "$KPROF" collapse --perl-compat --addrs -i strip.data | sort >kprof.folded &&
	grep -q "\[prog <[0-9a-f]*>\]" kprof.folded &&
	test_cmp perf.folded kprof.folded
'

test_expect_success PERF,PERF_EVENTS 'the offsets are small: in the file, not where it was mapped' '
	! grep -q "\[prog <[0-9a-f]\{9,\}>\]" kprof.folded
'

# A JIT (the jit fixture) names its code in /tmp/perf-PID.map: perf script shows that path as
# the dso, perf report's Shared Object column "[JIT] tid PID" (perf's short name for it).
test_expect_success PERF,PERF_EVENTS 'JIT code: named from /tmp/perf-PID.map, "[JIT] tid PID" as perf' '
	perf record -q -B -N -g -e cpu-clock -o jit.data "$FIXTURES/jit" 0.3 >jit.out 2>/dev/null &&
	map=$(cat jit.out) && pid=${map#/tmp/perf-} && pid=${pid%.map} &&
	test -s "$map" &&
	row() { grep "jitted_loop" | sed "s/ *- *- *\$//; s/  */ /g"; } &&
	perf report --children -g none --sort=dso,symbol -i jit.data 2>/dev/null | row >perf.row &&
	"$KPROF" report --format table -i jit.data | row >kprof.row &&
	rc=0 && test_cmp perf.row kprof.row || rc=1
	grep -q "\[JIT\] tid $pid " kprof.row || rc=1
	perf script -i jit.data 2>/dev/null | "$KPROF" collapse --perl-compat - | sort >pj.folded &&
	"$KPROF" collapse --perl-compat -i jit.data | sort >kj.folded &&
	grep -q ";jitted_loop " kj.folded && test_cmp pj.folded kj.folded || rc=1
	rm -f "$map"
	exit $rc
'

test_done
