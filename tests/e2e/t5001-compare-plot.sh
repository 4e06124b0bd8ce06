#!/usr/bin/env bash
# kprof plot: LKP's bisect-style plot of one metric's per-run values, ASCII and SVG.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-compare.sh"
EXTRA_STATS='"aim9.other": 1'

make_runs base aim9.brk_test.ops_per_sec 1351624.95 1316322.79 1330363.33 1289563.33 1314100.0 \
	1335475.48
make_runs new aim9.brk_test.ops_per_sec 1268030.0 1277110.76 1226452.45 1275850.0 1249628.35 \
	1242148.6

test_expect_success 'an 80x20 ASCII plot: six * and six O, title, legend' '
	"$KPROF" plot base new aim9.brk_test.ops_per_sec >out &&
	[ "$(wc -l <out)" -eq 22 ] &&
	[ "$(head -n 20 out | tr -cd "*" | wc -c)" -eq 6 ] &&
	[ "$(head -n 20 out | tr -cd "O" | wc -c)" -eq 6 ] &&
	head -n 1 out | grep -q "^ *aim9.brk_test.ops_per_sec$" &&
	grep -q "bisect-good sample" out &&
	[ "$(awk "{ if (length(\$0) > m) m = length(\$0) } END { print m }" out)" -le 80 ]
'

test_expect_success '--size changes the geometry' '
	"$KPROF" plot --size 60x12 base new aim9.brk_test.ops_per_sec >out &&
	[ "$(wc -l <out)" -eq 14 ]
'

test_expect_success XMLLINT '--svg writes a well-formed picture with every run' '
	"$KPROF" plot --svg p.svg --label good --label bad base new aim9.brk_test.ops_per_sec \
		>/dev/null &&
	xmllint --noout p.svg &&
	[ "$(grep -c "<circle" p.svg)" -eq 7 ] &&
	grep -q "bisect-good sample (good)" p.svg
'

test_expect_success 'a key in neither set is a one-line error' '
	rc=0; "$KPROF" plot base new no.such.key 2>err || rc=$?
	[ "$rc" -eq 1 ] && [ "$(lines_said err)" -eq 1 ] && grep -q "no.such.key" err
'

test_expect_success 'an unwritable --svg path fails and leaves nothing behind' '
	rc=0; "$KPROF" plot --svg nodir/p.svg base new aim9.other >/dev/null 2>err || rc=$?
	[ "$rc" -eq 1 ] && grep -q "nodir/p.svg" err && ! ls nodir 2>/dev/null
'

test_expect_success 'usage errors exit 2' '
	rc=0; "$KPROF" plot base new 2>err || rc=$?; [ "$rc" -eq 2 ] &&
	rc=0; "$KPROF" plot --size 5x5 base new aim9.other 2>err || rc=$?; [ "$rc" -eq 2 ]
'

test_done
