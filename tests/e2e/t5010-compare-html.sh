#!/usr/bin/env bash
# kprof compare --html: one self-contained page. Checked as written (no external reference,
# the flame graph embedded) and in Debian's headless chromium driven by playwright-core
# (tests/e2e/compare-html-browser.js) with every network request refused: no console error,
# the table has the rows `kprof compare` prints, its columns sort, the per-run plots and the
# perf-profile changes are there, and the embedded differential flame graph answers a hover.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-compare.sh"

CHROMIUM=/usr/bin/chromium
PLAYWRIGHT_VERSION=1.65.1
NODE_MODULES=$KPROF_BUILD/node-export/node_modules

value() { sed -n "s/^$1=//p" obs; }

# set DIR THROUGHPUTS... with perf-profile keys and a folded profile per run
make_set() {
	local dir=$1 spin=$2 i=0
	shift 2
	for v in "$@"; do
		mkdir -p "$dir/$i"
		printf '{"vm-scalability.throughput": %s, "perf-profile.self.cpu-clock.spin": %s, "perf-profile.children.cpu-clock.main": 90}\n' \
			"$v" "$((spin + i))" >"$dir/$i/stats.json"
		printf 'app;main;work;spin %s\napp;main;idle %s\n' "$spin" "$((100 - spin))" \
			>"$dir/$i/profile.folded"
		i=$((i + 1))
	done
}

# The keys of the rows `kprof compare` prints, in order.
compare_keys() {
	"$KPROF" compare "$@" | awk '/^ *\\ *\| *\\ *$/ { on = 1; next } on && NF == 0 { exit }
		on { print $NF }'
}

# The data: URL of the page's flame graph, decoded.
embedded_svg() {
	grep -o 'src="data:image/svg+xml;base64,[^"]*"' "$1" | sed 's/^src="[^,]*,//; s/"$//' |
		base64 -d
}

make_set base 60 1000 1010 990
make_set new 40 900 905 895

test_expect_success 'the page is written, whole and self-contained' '
	"$KPROF" compare --html -o report.html base new 2>err &&
	test ! -s err &&
	head -n1 report.html | grep -qx "<!DOCTYPE html>" &&
	tail -n1 report.html | grep -qx "</body></html>" &&
	! grep -Eo "(src|href)=\"(https?:)?//[^\"]*" report.html &&
	! grep -Eiq "<link|@import|url\((https?:)?//" report.html &&
	embedded_svg report.html >diff.svg &&
	grep -q "<title>spin (" diff.svg && grep -q "Differential flame graph: base (3 runs) to new (3 runs)" diff.svg
'

test_expect_success 'the table rows are the ones kprof compare prints' '
	compare_keys base new >want &&
	test "$(wc -l <want)" -eq 2 &&
	grep -o "<td class=\"key\">[^<]*</td></tr>" report.html | sed "s/<[^>]*>//g" | head -n 2 >got &&
	test_cmp want got
'

test_expect_success 'a set without profiles: a note instead of the flame graph' '
	EXTRA_STATS="\"perf-profile.self.cpu-clock.spin\": 50" make_runs bare \
		vm-scalability.throughput 700 710 690 &&
	"$KPROF" compare --html -o bare.html base bare 2>err &&
	grep -q "No flame graph: the bare set has no run with a profile" bare.html &&
	! grep -q "<iframe" bare.html
'

test_expect_success PERF,PERF_EVENTS 'runs with perf.data only: their profiles are read' '
	perf record -q -g -e cpu-clock -o perf.data "$FIXTURES/calltree" 0.2 2>/dev/null &&
	cp -r new pd && for i in 0 1 2; do rm pd/$i/profile.folded; cp perf.data pd/$i/; done &&
	"$KPROF" compare --html -o pd.html base pd &&
	embedded_svg pd.html | grep -q "<title>phase_a ("
'

test_expect_success 'bad use: --html needs -o; an unwritable place is one error line' '
	test_must_fail "$KPROF" compare --html base new 2>err && grep -q "html" err &&
	test_must_fail "$KPROF" compare --html -o x.html --json base new 2>err &&
	grep -q "one of" err && test ! -e x.html &&
	test_must_fail "$KPROF" compare --html -o /nonexistent/dir/r.html base new 2>err &&
	test "$(lines_said err)" -eq 1 && grep -q "/nonexistent/dir/r.html" err
'

if [ ! -x "$CHROMIUM" ] && [ "$(id -u)" -eq 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
		>/dev/null 2>&1
fi
if [ ! -x "$CHROMIUM" ] || ! command -v npm >/dev/null 2>&1; then
	test_skip 'the page in a browser' 'chromium or npm is not installed and cannot be'
	test_done
fi
if [ ! -f "$NODE_MODULES/playwright-core/package.json" ]; then
	npm install --prefix "$KPROF_BUILD/node-export" --no-audit --no-fund --no-save \
		"playwright-core@$PLAYWRIGHT_VERSION" >npm.log 2>&1 ||
		{ test_skip 'the page in a browser' "npm cannot install playwright-core: $(tail -n 1 npm.log)"
		  test_done; }
fi

test_expect_success 'in chromium, offline: no error, no request out' '
	NODE_PATH=$NODE_MODULES timeout 180 node "$KPROF_SRC/tests/e2e/compare-html-browser.js" \
		"$PWD/report.html" >obs &&
	cat obs && test "$(value errors)" = none && test "$(value remote)" = none &&
	test "$(value title)" = "kprof compare: base vs new"
'

test_expect_success 'the table: compare'"'"'s rows, sortable columns' '
	test "$(value rows)" = "$(tr "\n" " " <want | sed "s/ $//")" &&
	test "$(value heads)" = "base|%stddev base|%change new|p new|new|%stddev new|mark|metric" &&
	test "$(value sort1.values)" = "-10 -20" &&
	test "$(value sort2.values)" = "-20 -10" && test "$(value sort2.aria)" = ascending
'

test_expect_success 'a plot per row; the perf-profile changes' '
	test "$(value plots)" -eq 2 &&
	test "$(value pp.rows)" = "perf-profile.self.cpu-clock.spin:-20.00 perf-profile.children.cpu-clock.main:+0.00"
'

test_expect_success 'the embedded differential flame graph responds to hover' '
	test "$(value flame.frame)" = yes && test "$(value flame.frames)" -eq 6 &&
	test "$(value flame.hover)" != "$(value flame.before)" &&
	value flame.hover | grep -q "^Function: spin (.*60.00%.*40.00%" &&
	test "$(value flame.spin_fill)" = "rgb(0,0,255)"
'

test_done
