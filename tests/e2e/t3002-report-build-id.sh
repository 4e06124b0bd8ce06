#!/usr/bin/env bash
# Build-ids: perf record notes the build-id of every file its samples hit (the BUILD_ID feature)
# and copies the file into its build-id cache. A program rebuilt at the same path between record
# and report must not lend its new symbols to the old addresses: kprof, like perf, uses the file
# only if its build-id is still the recorded one, else the cached copy, else leaves the frames
# unresolved -- and says so. perf 6.1 is the oracle for all three cases: the LKP keys must agree.
. "$(dirname "$0")/lib.sh"

E2E=$KPROF_SRC/tests/e2e
LKP_OPTS="--children --header -U -g folded,0.5,callee --sort=dso,symbol"

# keys CACHE_DIR DATA OUT: perf's and kprof's LKP keys with the build-id cache in CACHE_DIR (perf
# takes it as --buildid-dir, its subcommands and kprof as PERF_BUILDID_DIR)
keys() {
	# shellcheck disable=SC2086
	perf --buildid-dir "$1" report $LKP_OPTS -i "$2" 2>/dev/null |
		perl "$E2E/lkp-parse-perf-profile.pl" >"$3.perf" &&
	PERF_BUILDID_DIR=$1 "$KPROF" report --format lkp -i "$2" >"$3.kprof" 2>"$3.err" &&
	perl "$E2E/lkp-keys-compare.pl" "$3.perf" "$3.kprof" 0.01
}

test_expect_success PERF,PERF_EVENTS 'record a copy of the fixture, with a build-id cache' '
	mkdir bin cache &&
	cp "$FIXTURES/calltree" bin/prog &&
	perf --buildid-dir "$PWD/cache" record -q -g -e cpu-clock -o prog.data bin/prog 1 \
		>/dev/null 2>&1 &&
	test -s prog.data &&
	id=$(perf buildid-list -i prog.data 2>/dev/null | awk "/bin\/prog\$/ { print \$1 }") &&
	test -n "$id" &&
	test -r "cache/.build-id/${id:0:2}/${id:2}/elf" &&
	# the same cache without the program: perf finds the vdso there, as kprof finds it live
	cp -a cache partial &&
	rm -r "partial/.build-id/${id:0:2}/${id:2}" "partial/$PWD/bin/prog" &&
	test -d partial/.build-id
'

test_expect_success PERF,PERF_EVENTS 'same binary: keys equal perf, no warning' '
	keys "$PWD/partial" prog.data same &&
	grep -q "^perf-profile.children.cpu-clock.leaf_a: " same.kprof &&
	! grep -q "rebuilt" same.err
'

test_expect_success PERF,PERF_EVENTS 'rebuilt, not cached: frames unresolved as in perf, a warning' '
	# a new file, as a linker makes: the cache holds a hard link to the old one
	rm bin/prog && cp "$FIXTURES/record-work" bin/prog &&
	keys "$PWD/partial" prog.data stale &&
	! grep -q "leaf_a\|phase_a" stale.kprof &&
	grep -q "^kprof: warning: prog.data: 1 mapped file rebuilt since the recording.*bin/prog" \
		stale.err &&
	test $(lines_said stale.err) = 1
'

test_expect_success PERF,PERF_EVENTS 'rebuilt, cached: the cached copy names the frames' '
	keys "$PWD/cache" prog.data cached &&
	grep -q "^perf-profile.children.cpu-clock.leaf_a: " cached.kprof &&
	cmp same.kprof cached.kprof &&
	! grep -q "rebuilt" cached.err
'

test_expect_success PERF,PERF_EVENTS 'collapse warns too, and never names the new symbols' '
	PERF_BUILDID_DIR=$PWD/partial "$KPROF" collapse -i prog.data >stale.folded 2>c.err &&
	grep -q "rebuilt since the recording" c.err &&
	! grep -q "leaf_a" stale.folded &&
	PERF_BUILDID_DIR=$PWD/cache "$KPROF" collapse -i prog.data >cached.folded &&
	grep -q "phase_a;leaf_a" cached.folded
'

# perf record --buildid-mmap: the build-ids come in the MMAP2 records (no BUILD_ID entries, no
# cache). perf checks them as BUILD_ID entries; a rebuilt program stays unresolved.
test_expect_success PERF,PERF_EVENTS 'build-ids in MMAP2 records (--buildid-mmap): checked as perf' '
	cp "$FIXTURES/calltree" bin/mm &&
	perf --buildid-dir "$PWD/mmcache" record -q --buildid-mmap -g -e cpu-clock -o mm.data \
		bin/mm 1 >/dev/null 2>&1 &&
	perf script -i mm.data --show-mmap-events 2>/dev/null | grep -q "<[0-9a-f]*>.*bin/mm$" &&
	keys "$PWD/mmcache" mm.data mm-same &&
	grep -q "^perf-profile.children.cpu-clock.leaf_a: " mm-same.kprof &&
	rm bin/mm && cp "$FIXTURES/record-work" bin/mm &&
	keys "$PWD/mmcache" mm.data mm-stale &&
	! grep -q "leaf_a\|phase_a" mm-stale.kprof &&
	grep -q "^kprof: warning: mm.data: 1 mapped file rebuilt since the recording.*bin/mm" \
		mm-stale.err
'

test_done
