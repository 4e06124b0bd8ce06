#!/usr/bin/env bash
# kprof report with perf report's habits: --sort comm/pid/dso/sym agrees with perf report's
# percentages, --comm/--pid/--dso filters, --no-children, --percent-limit, --stdio accepted;
# the table is the default on a terminal, the LKP keys when piped.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/record-work

test_have_prereq PERF PERF_EVENTS || test_skip_all "needs perf and perf events (missing $missing_prereq)"

"$KPROF" record -e cpu-clock -g -o w.data -- "$W" spin 300 2>/dev/null

# rows PCT-COLUMNS... : the table's rows without the header, whitespace squeezed
rows() { grep -v '^#' | grep -v '^$' | sed 's/  */ /g; s/^ //; s/ $//'; }

test_expect_success 'piped: LKP keys; on a terminal: the table' '
	"$KPROF" report -i w.data >keys &&
	grep -q "^perf-profile.children.cpu-clock" keys &&
	script -qec "$KPROF report -i w.data" /dev/null >tty &&
	grep -q "# Children      Self" tty
'

test_expect_success '--sort comm and --sort dso agree with perf report' '
	for s in comm dso; do
		"$KPROF" report -i w.data --sort $s --no-children | rows >k.$s &&
		perf report -i w.data --sort $s --no-children --stdio -g none 2>/dev/null |
			rows >p.$s &&
		test_cmp p.$s k.$s || exit 1
	done
'

test_expect_success '--sort sym --no-children --percent-limit 5 agrees with perf report' '
	"$KPROF" report -i w.data --sort sym --no-children --percent-limit 5 --stdio | rows >k &&
	perf report -i w.data --sort sym --no-children --percent-limit 5 --stdio -g none \
		2>/dev/null | rows >p &&
	test -s k && test_cmp p k
'

test_expect_success '--sort pid,comm: processes by pid' '
	"$KPROF" report -i w.data --sort pid,comm --no-children | rows >k &&
	grep -Eq "^[0-9.]+% [0-9]+ record-work$" k &&
	pid=$(grep record-work k | head -1 | cut -d" " -f2) &&
	"$KPROF" report -i w.data --pid $pid --sort comm --no-children | rows >one &&
	test "$(wc -l <one)" -eq 1 && grep -q " record-work$" one
'

test_expect_success '--comm keeps that command only; percentages stay of all samples' '
	"$KPROF" report -i w.data --comm no-such-command --sort sym | rows >none &&
	! test -s none &&
	"$KPROF" report -i w.data --comm record-work --sort comm,sym | rows >k &&
	! grep -v " record-work " k
'

test_expect_success '--dso keeps rows of that module (file name or path)' '
	"$KPROF" report -i w.data --dso record-work | rows >k &&
	test -s k && ! grep -v " record-work " k &&
	"$KPROF" report -i w.data --dso "$W" | rows >k2 && test_cmp k k2
'

# perf's heaviest chain under a row: the frames of the lines after "] SYM" up to the next row,
# but not into a branch lighter than the rest of its node (a 6% branch of reschedule IPIs under
# a busy machine's 98% hot_leaf: the heaviest chain ends at hot_leaf, as kprof's first line)
cat >perf-chain.awk <<'EOF'
$0 ~ "\\] " s "$" { on = 1; cur = 100; next }
on && /^ +[0-9.]+%/ { exit }
on && match($0, /--[0-9.]+%--/) {
	p = substr($0, RSTART + 2, RLENGTH - 5) + 0
	if (p < cur - p) exit
	cur = p
}
on { gsub(/[-|]+[0-9.]*%?-*/, ""); gsub(/^ +| +$/, ""); if ($0 != "") printf "%s ", $0 }
EOF
# kprof's heaviest chain under a row: the first "--P%--a <- b" line after "] SYM"
cat >kprof-chain.awk <<'EOF'
$0 ~ "\\] " s "$" { on = 1; next }
on && /--[0-9.]+%--/ { sub(/.*--[0-9.]+%--/, ""); gsub(/ (<-|->) /, " "); print; exit }
EOF
perf_chain() {
	perf report -i w.data --children --stdio -g "$1,5" --sort dso,sym 2>/dev/null |
		awk -v s="$2" -f perf-chain.awk | sed "s/ $//"
}
kprof_chain() { "$KPROF" report -i w.data -g "$1" | awk -v s="$2" -f kprof-chain.awk; }

test_expect_success '-g callee and -g caller: the chains perf report prints' '
	test -n "$(perf_chain callee hot_leaf)" &&
	test "$(kprof_chain callee hot_leaf)" = "$(perf_chain callee hot_leaf)" &&
	test "$(kprof_chain caller __libc_start_call_main)" = \
	     "$(perf_chain caller __libc_start_call_main)" &&
	"$KPROF" report -i w.data -g callee,50 >k &&
	grep -q -- "--9[0-9].[0-9][0-9]%--hot_leaf <- hot_parent <- main" k
'

test_expect_success 'bad values and key-format conflicts are usage errors' '
	for a in "--sort bogus" "--sort comm,comm" "--pid x" "--pid 1," "--percent-limit 200" \
		 "--format lkp --sort comm" "--format json --no-children" "-g sideways" \
		 "-g caller,x" "-g caller --sort comm" "--format lkp -g callee"; do
		rc=0; "$KPROF" report -i w.data $a >/dev/null 2>err || rc=$?
		test $rc -eq 2 || { echo "$a: exit $rc"; exit 1; }
	done
'

test_done
