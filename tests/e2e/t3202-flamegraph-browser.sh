#!/usr/bin/env bash
# A generated flame graph in a real browser: Debian's chromium, headless, driven by playwright-core
# (tests/e2e/flamegraph-browser.js). Hover, regex search with the matched share, click-zoom, the
# state kept in the URL and restored on reload, reset. The browser and playwright-core are
# installed by the set-up below; the test is skipped (with the reason) only when they cannot be.
# Screenshots (decoded in the browser script): the first screen of a graph taller than the window
# shows frames (it opens as an icicle), and the diff graph shows its legend with both colours.
. "$(dirname "$0")/lib.sh"

CHROMIUM=/usr/bin/chromium
PLAYWRIGHT_VERSION=1.65.1
NODE_MODULES=$KPROF_BUILD/node_modules

if [ ! -x "$CHROMIUM" ] && [ "$(id -u)" -eq 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
		>/dev/null 2>&1
fi
[ -x "$CHROMIUM" ] || test_skip_all "chromium is not installed and cannot be (apt-get install chromium)"
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
	test_skip_all "node and npm are needed to install playwright-core"
if [ ! -f "$NODE_MODULES/playwright-core/package.json" ]; then
	npm install --prefix "$KPROF_BUILD" --no-audit --no-fund --no-save \
		"playwright-core@$PLAYWRIGHT_VERSION" >npm.log 2>&1 ||
		test_skip_all "npm cannot install playwright-core: $(tail -n 1 npm.log)"
fi

# value KEY: one observation recorded by the browser script
value() { sed -n "s/^$1=//p" obs; }

printf 'main;work;compute 60\nmain;work;io_wait_[k] 30\nmain;idle 10\n' >prof.folded
# tall.folded: 70 rows of wide frames (a deep kernel path) and a thin 150-frame tower
perl -e 'print join(";", map { "f$_" } 1..70), " 900\n";
	 print join(";", map { "t$_" } 1..150), " 2\n"; print "idle 98\n"' >tall.folded

test_expect_success 'the browser runs the SVG script without errors' '
	"$KPROF" flamegraph --width 1020 prof.folded >graph.svg &&
	printf "main;work;compute 40\nmain;idle 60\n" >before.folded &&
	"$KPROF" flamegraph --diff before.folded prof.folded >diff.svg &&
	"$KPROF" flamegraph tall.folded >tall.svg &&
	NODE_PATH=$NODE_MODULES timeout 180 node "$KPROF_SRC/tests/e2e/flamegraph-browser.js" \
		"$PWD/graph.svg" "$PWD/profile" "$PWD/diff.svg" "$PWD/tall.svg" "$PWD" >obs &&
	test "$(value errors)" = none && test "$(value frames)" -eq 6
'

test_expect_success 'as drawn: widths proportional to counts, labels fitted' '
	test "$(value load.compute)" = "110.0,600.0,$(value load.compute | cut -d, -f3-5),hidden=false,parent=false,label=compute" &&
	value load.io_wait | grep -q "^710.0,300.0," &&
	value load.idle | grep -q "^10.0,100.0,.*label=idle$" &&
	test "$(value load.query)" = ""
'

test_expect_success 'hover shows name, count and share' '
	test "$(value hover.details)" = "Function: compute (60 samples, 60.00%)"
'

test_expect_success 'search: matched frames painted, matched share shown, kept in the URL' '
	test "$(value search.matched)" = "Matched: 90.00%" &&
	test "$(value search.magenta)" -eq 2 &&
	value search.compute | grep -q "rgb(230,0,230)" &&
	value search.io_wait | grep -q "rgb(230,0,230)" &&
	! value search.work | grep -q "rgb(230,0,230)" &&
	test "$(value search.query)" = "?s=%5E%28comp%7Cio_%29"
'

test_expect_success 'click-zoom: the frame spans the width, children rescaled, others hidden' '
	value zoom.work | grep -q "^10.0,1000.0,.*hidden=false" &&
	value zoom.compute | grep -q "^10.0,666.7," &&
	value zoom.io_wait | grep -q "^676.7,333.3," &&
	value zoom.idle | grep -q "hidden=true" &&
	value zoom.main | grep -q "^10.0,1000.0,.*parent=true" &&
	test "$(value zoom.unzoom_hidden)" = false &&
	test "$(value zoom.query)" = "?x=10&y=2&s=%5E%28comp%7Cio_%29"
'

test_expect_success 'reload with the URL state restores zoom and search' '
	for f in main work compute io_wait idle matched magenta query; do
		test "$(value reload.$f)" = "$(value zoom.$f)" || { echo "reload.$f differs"; exit 1; }
	done
'

test_expect_success 'reset zoom restores the layout and keeps the search; Escape clears it' '
	for f in main work compute io_wait idle; do
		test "$(value reset.$f | cut -d, -f1,2)" = "$(value load.$f | cut -d, -f1,2)" ||
			{ echo "reset.$f differs"; exit 1; }
	done &&
	test "$(value reset.query)" = "?s=%5E%28comp%7Cio_%29" &&
	test "$(value escape.magenta)" -eq 0 && test "$(value escape.query)" = "" &&
	test "$(value escape.compute)" = "$(value load.compute)"
'

test_expect_success 'differential graph: before, after and delta on hover, red growth' '
	test "$(value diff.details)" = "Function: work (before: 40 samples, 40.00%; after: 90 samples, 90.00%; delta: +50.00%, self delta: +0.00%)" &&
	test "$(value diff.work)" = "rgb(255,0,0)"
'

test_expect_success 'screenshot: the first screen of a tall graph shows frames (icicle)' '
	test "$(value tall.svg_height)" -gt 720 &&
	test "$(value tall.inverted)" = 1 &&
	value tall.title | grep -q "root at the top" &&
	test -s first-screen.png &&
	awk -v s="$(value tall.frame_share)" "BEGIN { exit !(s > 0.3) }"
'

test_expect_success 'screenshot: the diff graph shows its legend, both ends of the scale' '
	test "$(value diff.legend_in_view)" = true &&
	test "$(value diff.legend_red)" -gt 50 && test "$(value diff.legend_blue)" -gt 50 &&
	value diff.legend_text | grep -q "BEFORE: before.folded → AFTER: prof.folded" &&
	test -s diff-legend.png
'

test_done
