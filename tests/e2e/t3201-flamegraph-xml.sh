#!/usr/bin/env bash
# Every SVG kprof flamegraph writes is well-formed XML 1.0 (xmllint), whatever the frame names
# hold: markup characters, control bytes, invalid and valid UTF-8, very long names, empty frames,
# CDATA and comment terminators; in every mode (plain, icicle, reverse, kernel colours, diff).
. "$(dirname "$0")/lib.sh"

test_have_prereq XMLLINT || test_skip_all "xmllint not installed (libxml2-utils)"

# Nasty names, one stack each; printf interprets the escapes.
{
	printf 'comm;<script>alert(1)</script>;a&b 5\n'
	printf 'comm;"quoted" & '"'"'apos'"'"';x<y>z 4\n'
	printf 'comm;ctl\001\002\003\004\005\006\007\010\013\014\016\017\020\037end 3\n'
	printf 'comm;tab\there;del\177x 3\n'
	printf 'comm;cr\rmid 2\n'
	printf 'comm;bad utf8 \377\376 \300\257 \355\240\200 \357\277\276 \303 3\n'
	printf 'comm;caf\303\251;\344\275\240\345\245\275;\360\237\224\245 fire 6\n'
	printf 'comm;]]>;<!-- -- -->;<![CDATA[x]]> 2\n'
	printf 'comm;;;empty 2\n'
	printf ';;;; 1\n'
	printf 'comm;%s 7\n' "$(head -c 100000 /dev/zero | tr '\0' L)"
	printf 'comm;%s 7\n' "$(for i in $(seq 2000); do printf '\303\251<&>'; done)"
	printf 'comm;k_[k];\001_[k] 4\n'
	printf 'comm;%%s%%n%%x\\\\ 2\n'
} >nasty.folded

test_expect_success 'the nasty input is read' '
	"$KPROF" flamegraph nasty.folded >plain.svg 2>err && test -s plain.svg
'

for mode in "" "--inverted" "--reverse" "--colors kernel" "--colors mem --minwidth 0" \
	    "--inverted --reverse --colors io"; do
	test_expect_success "valid XML: ${mode:-default}" '
		"$KPROF" flamegraph $mode nasty.folded >m.svg && xmllint --noout m.svg
	'
done

test_expect_success 'valid XML: nasty title, subtitle, countname, nametype' '
	"$KPROF" flamegraph --title "$(printf "<t>&\001\377")" --subtitle "]]>\"" \
		--countname "$(printf "a\002<")" --nametype "&x;" nasty.folded >t.svg &&
	xmllint --noout t.svg
'

test_expect_success 'valid XML: differential graph of nasty names (and before-only ones)' '
	head -n 7 nasty.folded >before.folded && printf "comm;gone\001<&> 9\n" >>before.folded &&
	"$KPROF" flamegraph --diff before.folded nasty.folded >d.svg && xmllint --noout d.svg &&
	grep -q "only in before: gone" d.svg &&
	"$KPROF" flamegraph --self-delta --no-normalize --diff before.folded nasty.folded >d2.svg &&
	xmllint --noout d2.svg
'

test_expect_success 'names survive escaping: markup is text, control bytes are U+FFFD' '
	# xmllint prints text re-escaped, so these are the names as XML spells them
	xmllint --xpath "//*[local-name()=\"title\"]/text()" plain.svg >titles 2>/dev/null &&
	grep -q "^&lt;script&gt;alert(1)&lt;/script&gt; (5 samples" titles &&
	grep -q "^a&amp;b (5 samples" titles &&
	grep -q "^ctl$(printf "\357\277\275%.0s" $(seq 14))end (3 samples" titles &&
	grep -q "^tab here (3 samples" titles &&
	grep -q "^caf$(printf "\303\251") (6 samples" titles &&
	grep -q "^]]&gt; (2 samples" titles
'

test_expect_success 'empty frames are drawn (and the empty stack counts for the root)' '
	grep -q "<title> (" plain.svg &&
	grep -q "<title>all (51 samples, 100.00%)" plain.svg
'

test_expect_success 'very long names: full in the tooltip, short label' '
	test "$(grep -o "<title>LL*" plain.svg | awk "{ print length(\$0) - 7 }")" -eq 100000 &&
	grep -q ">LLLLLLLLLL*\.\.</text>" plain.svg &&
	test "$(grep -o ">LLLLLLLLLL*\.\.</text>" plain.svg | wc -c)" -lt 300
'

test_expect_success 'the SVG has no raw control bytes (tab and newline aside)' '
	! LC_ALL=C grep -qP "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]" plain.svg d.svg t.svg
'

test_done
