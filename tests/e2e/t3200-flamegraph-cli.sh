#!/usr/bin/env bash
# kprof flamegraph: inputs (folded file, stdin, run directory, difffolded), options, output
# handling and errors.
. "$(dirname "$0")/lib.sh"

# frames NAME-REGEX FILE: number of drawn frames whose title starts with a name matching
frames() { grep -c "<title>$1 (" "$2" || true; }
# fill_of NAME FILE: the fill of frame NAME
fill_of() { grep -o "<title>$1 ([^<]*</title><rect [^>]*" "$2" | grep -o 'rgb([0-9,]*)'; }
# width_of NAME FILE
width_of() { grep -o "<title>$1 ([^<]*</title><rect [^>]*" "$2" | sed 's/.* width="\([0-9.]*\)".*/\1/'; }

cat >prof.folded <<'X'
main;work;compute 60
main;work;io_wait_[k] 30
main;idle 10
X

test_expect_success '--help prints the usage' '
	"$KPROF" flamegraph --help >out && grep -q "^usage: kprof flamegraph" out
'

test_expect_success XMLLINT 'folded file to SVG: valid XML, one <g> per frame' '
	"$KPROF" flamegraph -i prof.folded -o out.svg &&
	xmllint --noout out.svg &&
	test "$(grep -c "<g fg:x=" out.svg)" -eq 6 &&
	grep -q "<title>compute (60 samples, 60.00%)</title>" out.svg
'

test_expect_success 'widths are proportional to counts' '
	"$KPROF" flamegraph --width 1020 prof.folded >out.svg &&
	test "$(width_of all out.svg)" = 1000.0 &&
	test "$(width_of compute out.svg)" = 600.0 &&
	test "$(width_of io_wait out.svg)" = 300.0 &&
	test "$(width_of idle out.svg)" = 100.0
'

test_expect_success 'standard input, positional input and -i agree' '
	"$KPROF" flamegraph <prof.folded >a.svg &&
	"$KPROF" flamegraph prof.folded >b.svg &&
	"$KPROF" flamegraph -i - <prof.folded >c.svg &&
	cmp a.svg b.svg && cmp a.svg c.svg
'

test_expect_success 'the output is deterministic' '
	"$KPROF" flamegraph prof.folded >a.svg && "$KPROF" flamegraph prof.folded >b.svg &&
	cmp a.svg b.svg
'

test_expect_success '--colors kernel: _[k] frames orange, user frames green' '
	"$KPROF" flamegraph --colors kernel prof.folded >k.svg &&
	fill_of io_wait k.svg | grep -q "rgb([0-9]*,[0-9]*,0)" &&
	! grep -q "io_wait_\[k\]" k.svg &&
	c=$(fill_of compute k.svg | tr -d "rgb()" | tr , " ") &&
	set -- $c && test "$2" -gt "$1" && test "$2" -gt "$3"
'

test_expect_success '--inverted, --title, --subtitle, --countname, --nametype' '
	"$KPROF" flamegraph --inverted --subtitle "sub & title" --countname ms \
		--nametype "Frame:" prof.folded >i.svg &&
	grep -q ">Icicle Graph<" i.svg && grep -q ">sub &amp; title<" i.svg &&
	grep -q "<title>compute (60 ms, 60.00%)" i.svg && grep -q "fg:nametype=\"Frame:\"" i.svg &&
	"$KPROF" flamegraph --title "<T>" prof.folded | grep -q ">&lt;T&gt;<"
'

test_expect_success '--height sets the row height; the image grows with the depth' '
	"$KPROF" flamegraph --height 20 prof.folded >h.svg &&
	grep -q "<rect x=\"[0-9.]*\" y=\"[0-9]*\" width=\"[0-9.]*\" height=\"19\"" h.svg &&
	h16=$(sed -n "s/.*<svg [^>]* height=\"\([0-9]*\)\".*/\1/p" out.svg) &&
	h20=$(sed -n "s/.*<svg [^>]* height=\"\([0-9]*\)\".*/\1/p" h.svg) &&
	test $((h20 - h16)) -eq $((4 * 4))
'

test_expect_success 'a 10000-frame stack is drawn (no recursion limit)' '
	seq 10000 | sed "s/^/f/" | paste -sd";" | sed "s/$/ 3/" >deep.folded &&
	"$KPROF" flamegraph deep.folded >deep.svg &&
	test "$(grep -c "<g fg:x=" deep.svg)" -eq 10001
'

test_expect_success '--reverse merges at the leaf' '
	printf "a;x 1\nb;x 2\n" >r.folded &&
	"$KPROF" flamegraph --reverse r.folded >r.svg &&
	test "$(frames x r.svg)" -eq 1 && grep -q "<title>x (3 samples" r.svg &&
	"$KPROF" flamegraph r.folded >n.svg && test "$(frames x n.svg)" -eq 2
'

test_expect_success '--minwidth in pixels and percent culls frames' '
	"$KPROF" flamegraph --minwidth 15% prof.folded >m.svg &&
	test "$(frames idle m.svg)" -eq 0 && test "$(frames compute m.svg)" -eq 1 &&
	"$KPROF" flamegraph --width 1020 --minwidth 150 prof.folded >m.svg &&
	test "$(frames idle m.svg)" -eq 0 && test "$(frames io_wait m.svg)" -eq 1
'

test_expect_success 'fractional counts are kept' '
	printf "a;b 0.25\na;c 0.75\n" | "$KPROF" flamegraph >f.svg &&
	grep -q "<title>b (0.25 samples, 25.00%)" f.svg
'

test_expect_success 'invalid lines are reported, valid ones drawn' '
	printf "a;b 3\nnot a stack\n" | "$KPROF" flamegraph >o.svg 2>err &&
	grep -q "ignored 1 lines with invalid format (first at line 2)" err &&
	test "$(frames b o.svg)" -eq 1
'

test_expect_success 'a kprof run directory: its profile.folded' '
	mkdir -p run/0 && cp prof.folded run/0/profile.folded &&
	"$KPROF" flamegraph run/0 >d.svg && "$KPROF" flamegraph prof.folded >p.svg && cmp d.svg p.svg
'

test_expect_success '--diff: widths from after, inclusive colouring, before-only frames listed' '
	printf "main;work;compute 60\nmain;old 40\n" >before.folded &&
	"$KPROF" flamegraph --diff before.folded prof.folded >diff.svg &&
	grep -q ">Differential Flame Graph<" diff.svg &&
	grep -q "<title>work (before: 60 samples, 60.00%; after: 90 samples, 90.00%; delta: +30.00%, self delta: +0.00%)" diff.svg &&
	grep -q "only in before: old (40 samples, 40.00%)" diff.svg &&
	test "$(frames old diff.svg)" -eq 0 &&
	test "$(fill_of work diff.svg)" = "rgb(255,0,0)" &&
	"$KPROF" flamegraph --self-delta --diff before.folded prof.folded >self.svg &&
	test "$(fill_of work self.svg)" = "rgb(255,255,255)"
'

test_expect_success 'difffolded.pl output draws a differential graph' '
	printf "a;b 10 30\na;c 30 10\n" | "$KPROF" flamegraph >dd.svg &&
	grep -q "<title>b (before: 10 samples, 25.00%; after: 30 samples, 75.00%" dd.svg
'

test_expect_success 'usage errors exit 2' '
	for args in "--width abc" "--width 5" "--height 0" "--minwidth -1" "--minwidth 5%x" \
		    "--colors java" "--frobnicate" "--diff prof.folded" "a b" "-i a b"; do
		rc=0; "$KPROF" flamegraph $args </dev/null >/dev/null 2>err || rc=$?
		test "$rc" -eq 2 || { echo "$args: exit $rc"; exit 1; }
	done
'

test_expect_success 'bad input: one-line error, exit 1, existing output kept' '
	echo keep >kept.svg &&
	for input in missing.folded run /dev/null; do
		rc=0; "$KPROF" flamegraph -i $input -o kept.svg 2>err || rc=$?
		test "$rc" -eq 1 && test "$(lines_said err)" -eq 1 && grep -q "$input" err ||
			{ echo "$input: exit $rc"; cat err; exit 1; }
	done &&
	head -c 100000 /dev/urandom | tr "0-9" "a-j" >garbage && test_must_fail "$KPROF" flamegraph garbage -o kept.svg &&
	test "$(cat kept.svg)" = keep && ! ls kept.svg.tmp* 2>/dev/null
'

test_expect_success 'an unwritable output is an error' '
	test_must_fail "$KPROF" flamegraph prof.folded -o /nonexistent/dir/x.svg 2>err &&
	grep -q "/nonexistent/dir/x.svg" err
'

test_expect_success XMLLINT,SHARED 'every stackcollapse result in the corpus draws a valid SVG' '
	for f in "$KPROF_SHARED"/testdata/flamegraph/results/*.txt; do
		"$KPROF" -q flamegraph --colors kernel "$f" >c.svg 2>/dev/null || {
			test ! -s "$f" && continue; echo "failed: $f"; exit 1; }
		xmllint --noout c.svg || { echo "invalid: $f"; exit 1; }
	done
'

test_done
