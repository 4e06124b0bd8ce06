#!/usr/bin/env bash
# The command-line front door: help, version, usage errors and their exit codes.
. "$(dirname "$0")/lib.sh"

test_expect_success 'help lists the commands and exits 0' '
	"$KPROF" help >out &&
	grep -q "^usage: kprof" out
'

test_expect_success '--version prints the version' '
	"$KPROF" --version | grep -Eq "^kprof [0-9]+\.[0-9]+\.[0-9]+$"
'

test_expect_success 'no command is a usage error (2)' '
	rc=0; "$KPROF" 2>err || rc=$?; [ "$rc" -eq 2 ] && grep -q usage err
'

test_expect_success 'an unknown command is a one-line usage error (2)' '
	rc=0; "$KPROF" frobnicate 2>err || rc=$?
	[ "$rc" -eq 2 ] && [ "$(lines_said err)" -eq 1 ] && grep -q "frobnicate" err
'

test_expect_success 'an unknown global option is a usage error (2)' '
	rc=0; "$KPROF" --frobnicate 2>err || rc=$?; [ "$rc" -eq 2 ]
'

test_expect_success 'every command answers --help with exit 0' '
	for c in $("$KPROF" help | awk "/^commands:/ {on = 1; next} on && NF == 0 {exit} on { print \$1 }"); do
		"$KPROF" "$c" --help >out 2>&1 || { echo "$c --help failed"; exit 1; }
		grep -qi usage out || { echo "$c --help has no usage"; exit 1; }
	done
'

test_expect_success 'kprof help CMD is that command'"'"'s --help' '
	for c in $("$KPROF" help | awk "/^commands:/ {on = 1; next} on && NF == 0 {exit} on { print \$1 }"); do
		"$KPROF" help "$c" >a && "$KPROF" "$c" --help >b && test_cmp b a ||
			{ echo "help $c differs"; exit 1; }
	done &&
	test_must_fail "$KPROF" help frobnicate 2>err && grep -q frobnicate err
'

# One phrasing for every usage error: "kprof: error: <cmd>: --opt 'value': <what is valid>",
# exit 2, one line; unknown options and missing values name the command and point at its help.
usage_is() {	# EXPECTED-LINE ARGS...
	local want=$1 rc=0
	shift
	"$KPROF" "$@" >/dev/null 2>err || rc=$?
	[ "$rc" -eq 2 ] && [ "$(lines_said err)" -eq 1 ] && [ "$(cat err)" = "$want" ] ||
		{ echo "kprof $*: rc $rc: $(cat err) (want: $want)"; return 1; }
}

test_expect_success 'bad option values: one phrasing, exit 2' '
	usage_is "kprof: error: run: --runs '"'"'0'"'"': 1 to 1000" run --runs 0 anon-w-seq &&
	usage_is "kprof: error: report: --format '"'"'xml'"'"': lkp, table or json" report --format xml &&
	usage_is "kprof: error: collapse: --count '"'"'x'"'"': period or samples" collapse --count x &&
	usage_is "kprof: error: flamegraph: --width '"'"'3'"'"': a number of pixels, 40 to 100000" flamegraph --width 3 &&
	usage_is "kprof: error: compare: --top '"'"'0'"'"': a positive integer" compare --top 0 a b &&
	usage_is "kprof: error: plot: --size '"'"'1x1'"'"': WxH, 30x8 to 1000x1000" plot --size 1x1 a b k &&
	usage_is "kprof: error: record: -F '"'"'0'"'"': a frequency in Hz > 0" record -F 0 -a &&
	usage_is "kprof: error: stat: -I '"'"'5'"'"': 10 to 3600000 ms" stat -I 5 -a &&
	usage_is "kprof: error: trace: --top '"'"'0'"'"': a positive integer" trace --top 0 &&
	usage_is "kprof: error: record: -p '"'"'x'"'"': a comma-separated list of process ids" record -p x
'

test_expect_success 'unknown options and missing values: the command and its help' '
	for c in collapse compare flamegraph plot record report run stat trace; do
		usage_is "kprof: error: $c: --frobnicate: unknown option (see '"'"'kprof help $c'"'"')" \
			$c --frobnicate || exit 1
	done &&
	usage_is "kprof: error: run: -o needs a value (see '"'"'kprof help run'"'"')" run -o &&
	usage_is "kprof: error: report: --input needs a value (see '"'"'kprof help report'"'"')" report --input &&
	usage_is "kprof: error: --frobnicate: unknown option (see '"'"'kprof help'"'"')" --frobnicate
'

# The profile readers put their heap on huge pages (lib/heap.c: advised, and faulted in ahead by
# a thread); one asked for its help only does not need that. The sanitizer build's malloc is not
# glibc's brk heap: nothing is advised there for any command.
prereq_STRACE() { command -v strace >/dev/null 2>&1; }
test_expect_success STRACE 'a profile reader asked for its help sets no heap up' '
	export ASAN_OPTIONS=detect_leaks=0 &&	# LeakSanitizer cannot run under ptrace
	for c in report collapse export flamegraph; do
		strace -f -qq -e trace=clone,clone3,madvise -o "st.$c" "$KPROF" $c --help >/dev/null &&
		test -e "st.$c" && ! grep -E "clone|MADV_HUGEPAGE" "st.$c" || exit 1
	done &&
	{ strace -f -qq -e trace=madvise -o st.input "$KPROF" report -i /nonexistent 2>/dev/null
	  test -e st.input; } &&
	if ldd "$KPROF" | grep -q libasan; then
		! grep -q MADV_HUGEPAGE st.input
	else
		grep -q MADV_HUGEPAGE st.input
	fi
'

test_done
