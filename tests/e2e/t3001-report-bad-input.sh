#!/usr/bin/env bash
# kprof report on bad perf.data files: each is refused with ONE line on stderr that names the
# file and the problem, exit status 1, no crash (signal) and no hang. The files are generated
# here from a real recording: cut at every byte of the header/attrs/ids region and at a spread of
# offsets through the data, sizes corrupted, magic changed, pipe mode and compressed files.
. "$(dirname "$0")/lib.sh"

# expect_refused FILE [PATTERN [OPTION...]]: `kprof report -i FILE OPTION...` exits 1 with
# exactly one stderr line naming FILE (and PATTERN).
expect_refused() {
	local rc=0 file=$1 pattern=${2:-}
	shift $(($# < 2 ? $# : 2))
	timeout 20 "$KPROF" report -i "$file" "$@" >/dev/null 2>err || rc=$?
	set -- "$file" "$pattern"
	if [ "$rc" -ne 1 ]; then echo "$1: exit $rc"; cat err; return 1; fi
	if [ "$(lines_said err)" -ne 1 ]; then echo "$1: not one line"; cat err; return 1; fi
	grep -qF "$1" err || { echo "$1: file not named"; cat err; return 1; }
	[ -z "${2:-}" ] || grep -qi -- "$2" err || { echo "$1: no '$2'"; cat err; return 1; }
}

# patch FILE OFFSET HEXBYTES: overwrite bytes in place.
patch() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }

test_expect_success 'a missing file' '
	expect_refused nonexistent.data "No such file"
'

test_expect_success 'an empty file' '
	: >empty.data && expect_refused empty.data empty
'

test_expect_success 'a text file (wrong magic)' '
	echo "hello world, this is not a perf.data file at all" >text.data &&
	expect_refused text.data magic
'

test_expect_success 'a directory' '
	mkdir dir.data && expect_refused dir.data
'

test_expect_success PERF,PERF_EVENTS 'record a small real perf.data' '
	perf record -q -g -e cpu-clock -F 2000 -o good.data "$FIXTURES/calltree" 0.1 \
		>/dev/null 2>&1 &&
	"$KPROF" report -i good.data >good.keys && test -s good.keys
'

test_expect_success PERF,PERF_EVENTS 'a --vmlinux or --kallsyms that does not exist' '
	expect_refused good.data /nonexistent/vmlinux --vmlinux /nonexistent/vmlinux &&
	expect_refused good.data /nonexistent/kallsyms --kallsyms /nonexistent/kallsyms
'

test_expect_success PERF,PERF_EVENTS 'byte-swapped (big-endian) magic' '
	cp good.data be.data && patch be.data 0 32454c4946524550 &&
	expect_refused be.data big-endian
'

# Pipe mode and zstd are read (t3003); what stays refused is said in one line.
test_expect_success PERF,PERF_EVENTS 'PERFFILE (version 1) magic' '
	cp good.data v1.data && patch v1.data 0 5045524646494c45 &&
	expect_refused v1.data "version 1 (PERFFILE) is not supported"
'

test_expect_success PERF,PERF_EVENTS 'a compression other than zstd (HEADER_COMPRESSED type)' '
	if perf record -q -z -e cpu-clock -o z.data "$FIXTURES/calltree" 0.05 >/dev/null 2>&1 &&
	   perf report --header-only -i z.data 2>/dev/null | grep -q "compressed"; then
		"$KPROF" report -i z.data >/dev/null &&
		off=$(perl -e '\''
			open my $f, "<:raw", $ARGV[0] or die; local $/; my $d = <$f>;
			my ($at, $size) = unpack "Q<Q<", substr $d, 40, 16;
			my @bits = unpack "Q<4", substr $d, 72, 32; my $i = 0;
			for my $b (0 .. 26) { $i++ if $bits[$b >> 6] >> ($b & 63) & 1 }
			print unpack "Q<", substr $d, $at + $size + 16 * $i, 8;
		'\'' z.data) &&
		patch z.data $((off + 4)) 07000000 &&
		expect_refused z.data "other than zstd"
	fi
'

test_expect_success PERF,PERF_EVENTS 'corrupt header sizes and sections' '
	for spec in "8:0010000000000000:header size" "16:0000000000000000:attr_size" \
		    "16:ffffffff00000000:attr_size" "24:ffffffffffffff00:attrs" \
		    "32:0700000000000000:attrs" "48:ffffffffffffff7f:data section"; do
		off=${spec%%:*} rest=${spec#*:} bytes=${rest%%:*} what=${rest#*:}
		cp good.data c$off.data && patch c$off.data "$off" "$bytes" &&
		expect_refused c$off.data "$what" || exit 1
	done
'

test_expect_success PERF,PERF_EVENTS 'cut at every byte of the header, attrs and ids' '
	data_off=$(u64 good.data 40) &&
	for n in $(seq 0 $((data_off + 16))); do
		head -c "$n" good.data >cut.data && expect_refused cut.data || exit 1
	done
'

test_expect_success PERF,PERF_EVENTS 'cut at a spread of offsets through the data and features' '
	size=$(stat -c %s good.data) data_off=$(u64 good.data 40) &&
	step=$(( (size - data_off) / 100 + 1 )) &&
	for n in $(seq "$((data_off + 17))" "$step" "$((size - 1))"); do
		head -c "$n" good.data >cut.data &&
		expect_refused cut.data "truncated\|outside the file" || exit 1
	done
'

test_expect_success PERF,PERF_EVENTS 'corrupt record sizes: zero, tiny, past the data section' '
	data_off=$(u64 good.data 40) &&
	for sz in 0000 0100 0700 ffff; do
		cp good.data r$sz.data && patch r$sz.data $((data_off + 6)) "$sz" &&
		expect_refused r$sz.data "offset $data_off" || exit 1
	done
'

test_done
