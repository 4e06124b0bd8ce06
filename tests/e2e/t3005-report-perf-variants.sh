#!/usr/bin/env bash
# perf.data as perf users record it, each case made by perf 6.1 and read back by perf as the
# oracle: pipe mode (perf record -o -, read from a file and from a pipe), zstd-compressed
# records (perf record -z), PERF_SAMPLE_READ with a group (leader sampling '{a,b}:S': one
# sample stream per member, with its own period) and without one ('cpu-clock:S').
# For each: every LKP key of every event within 0.01 of `perf report --no-group` parsed by
# LKP's rules, the sample count and the total period of every event equal to `perf script`'s,
# and `kprof collapse` equal to `perf script | kprof collapse --perl-compat -`.
. "$(dirname "$0")/lib.sh"

. "$KPROF_SRC/tests/e2e/lib-perf-compare.sh"

# -B -N: no build-id cache, perf reads the binaries by path as kprof does (see t3000).
test_expect_success PERF,PERF_EVENTS 'record: pipe mode, -z, a group read, a single read' '
	perf record -q -B -N -g -e cpu-clock -o - "$FIXTURES/calltree" 1 >pipe.data 2>/dev/null &&
	perf record -q -B -N -g -z -e cpu-clock -o z.data "$FIXTURES/calltree" 1 \
		>/dev/null 2>&1 &&
	perf record -q -B -N -g -e "{cpu-clock,task-clock}:S" -o group.data \
		"$FIXTURES/calltree" 1 >/dev/null 2>&1 &&
	perf record -q -B -N -g -e cpu-clock:S -o read.data "$FIXTURES/calltree" 1 \
		>/dev/null 2>&1 &&
	perf record -q -B -N -g -e cpu-clock -o file.data "$FIXTURES/calltree" 1 \
		>/dev/null 2>&1 &&
	perf inject -i file.data -o - >inject.data 2>/dev/null &&
	test -s pipe.data && test -s z.data && test -s group.data && test -s read.data &&
	head -c 8 pipe.data | grep -q PERFILE2
'

prereq_RECORDED() { [ -s "$TRASH/group.data" ]; }

# perf 6.1 reports a pipe-mode file without the Children column (it cannot know, when it sets
# up, that the samples will have call chains): the oracle of the pipe-mode keys is perf's
# report of the file that `perf inject -o -` turned into the pipe-mode stream.
test_expect_success RECORDED,KALLSYMS 'pipe mode (perf inject -o -): every lkp key equals perf' '
	head -c 16 inject.data | od -An -tu8 -j8 | grep -qx " *16" &&
	compare_keys inject.data file.data
'

for f in pipe z group read; do
	export f
	[ $f = pipe ] ||
	test_expect_success RECORDED,KALLSYMS "$f: every lkp key of every event equals perf" '
		compare_keys $f.data
	'
	test_expect_success RECORDED "$f: samples and period per event equal perf script" '
		compare_counts $f.data
	'
	test_expect_success RECORDED "$f: folded equals perf script | collapse --perl-compat" '
		compare_folded $f.data
	'
done

test_expect_success RECORDED 'group: both members are reported, each with its own period' '
	grep -q "^task-clock " group.data.perf-counts &&
	grep -q "^cpu-clock " group.data.perf-counts &&
	grep -q "^perf-profile.children.task-clock.main: " group.data.kprof &&
	grep -q "^perf-profile.children.cpu-clock.main: " group.data.kprof &&
	test "$(cut -d" " -f3 group.data.perf-counts | sort -u | wc -l)" -eq 2
'

test_expect_success RECORDED 'pipe mode from a pipe equals pipe mode from a file' '
	"$KPROF" report -i pipe.data >from-file &&
	cat pipe.data | "$KPROF" report -i - >from-pipe &&
	test -s from-file && test_cmp from-file from-pipe
'

test_expect_success PERF,PERF_EVENTS 'perf record -o - | kprof report -i -: straight from perf' '
	perf record -q -B -N -g -e cpu-clock -o - "$FIXTURES/calltree" 0.3 2>/dev/null |
		"$KPROF" report -i - >live &&
	grep -q "^perf-profile.children.cpu-clock.main: " live
'

test_expect_success RECORDED 'a file-mode perf.data from a pipe: one line, exit 1' '
	rc=0; cat group.data | "$KPROF" report -i - >out 2>err || rc=$?
	[ "$rc" -eq 1 ] && [ "$(lines_said err)" -eq 1 ] && grep -q "give its path" err
'

test_expect_success RECORDED 'a pipe-mode stream cut mid-record: one line, exit 1' '
	size=$(stat -c %s pipe.data) &&
	head -c $((size - 5)) pipe.data >cut.data &&
	for input in cut.data -; do
		rc=0; "$KPROF" report -i $input <cut.data >out 2>err || rc=$?
		[ "$rc" -eq 1 ] && [ "$(lines_said err)" -eq 1 ] || { cat err; exit 1; }
	done
'

# Intel PT needs the hardware, and perf 6.1 cannot read AUXTRACE records without a working
# decoder setup: perf-data-rewrite.pl adds them to file.data, and kprof must read the result
# exactly as file.data (whose keys equal perf's above), plus one line saying what it skipped.
test_expect_success RECORDED 'AUXTRACE records: skipped by their size, said in one line' '
	perl "$E2E/perf-data-rewrite.pl" aux file.data aux.data &&
	"$KPROF" report -i aux.data >aux.keys 2>aux.err &&
	"$KPROF" report -i file.data >file.keys 2>/dev/null &&
	test_cmp file.keys aux.keys &&
	cat aux.err && test "$(lines_said aux.err)" -eq 1 &&
	grep -q "AUXTRACE records (Intel PT) ignored" aux.err &&
	"$KPROF" collapse -i aux.data >aux.folded 2>aux.err &&
	"$KPROF" collapse -i file.data >file.folded 2>/dev/null &&
	test_cmp file.folded aux.folded && grep -q "(Intel PT) ignored" aux.err &&
	NO_AUXTRACE_INFO=1 perl "$E2E/perf-data-rewrite.pl" aux file.data aux2.data &&
	"$KPROF" report -i aux2.data >aux2.keys 2>aux2.err &&
	test_cmp file.keys aux2.keys && grep -q "AUXTRACE records (unknown) ignored" aux2.err
'

test_expect_success RECORDED 'a corrupt compressed record: one line naming it, exit 1' '
	off=$(perl -e '\''
		open my $f, "<:raw", $ARGV[0] or die; local $/; my $d = <$f>;
		my ($at, $size) = unpack "Q<Q<", substr $d, 40, 16; my $end = $at + $size;
		while ($at < $end) {
			($type, $len) = unpack "Vx2v", substr $d, $at, 8;
			if ($type == 81) { print $at; last } $at += $len;
		}'\'' z.data) &&
	test -n "$off" &&
	cp z.data zbad.data &&
	printf "\377\377\377\377\377\377\377\377" |
		dd of=zbad.data bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null &&
	rc=0; "$KPROF" report -i zbad.data >out 2>err || rc=$?
	[ "$rc" -eq 1 ] && [ "$(lines_said err)" -eq 1 ] && grep -q "compressed record at offset" err
'

test_done
