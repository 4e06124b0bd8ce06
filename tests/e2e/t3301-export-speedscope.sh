#!/usr/bin/env bash
# kprof export --format speedscope read by the real client: speedscope (the npm package's
# offline build) in Debian's headless chromium, driven by playwright-core
# (tests/e2e/speedscope-browser.js); both npm packages are installed into the build directory.
# The file's structure and totals are checked against kprof report and kprof collapse.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/calltree
CHROMIUM=/usr/bin/chromium
NODE_MODULES=$KPROF_BUILD/node-export/node_modules
SPEEDSCOPE_VERSION=1.25.0
PLAYWRIGHT_VERSION=1.65.1

test_have_prereq PERF PERF_EVENTS || test_skip_all "needs perf and perf events (missing $missing_prereq)"
command -v node >/dev/null 2>&1 || test_skip_all "node is needed to check the JSON and run speedscope"

value() { sed -n "s/^$1=//p" obs; }

# json FILE EXPR: evaluate EXPR in node with the parsed file as `j`
json() { node -e "const j = JSON.parse(require('fs').readFileSync('$1', 'utf8')); console.log($2)"; }

test_expect_success 'a recording exports as speedscope JSON' '
	perf record -q -g -e cpu-clock -o perf.data "$W" 0.5 2>/dev/null &&
	"$KPROF" export --format speedscope -i perf.data -o prof.json &&
	test "$(json prof.json "j[\"\$schema\"]")" = "https://www.speedscope.app/file-format-schema.json" &&
	test "$(json prof.json "j.profiles[0].type + \" \" + j.profiles[0].unit")" = "sampled nanoseconds" &&
	test "$(json prof.json "j.profiles[0].name")" = calltree
'

test_expect_success 'weights: one per sample, sums equal kprof report, endValue the sum' '
	total=$("$KPROF" report --format table -i perf.data | sed -n "s/^# Event count: //p") &&
	test "$(json prof.json "j.profiles.every(p => p.samples.length === p.weights.length &&
		p.endValue === p.weights.reduce((a, b) => a + b, 0) && p.startValue === 0)")" = true &&
	test "$(json prof.json "j.profiles.reduce((a, p) => a + p.endValue, 0)")" = "$total" &&
	test "$(json prof.json "j.profiles.every((p, i) => !i ||
		j.profiles[i - 1].endValue >= p.endValue)")" = true
'

test_expect_success 'samples are root first, indices into the shared frames' '
	test "$(json prof.json "j.profiles[0].samples.every(s => s.every(i =>
		Number.isInteger(i) && i >= 0 && i < j.shared.frames.length))")" = true &&
	test "$(json prof.json "j.profiles[0].samples.filter(s => {
		const n = s.map(i => j.shared.frames[i].name);
		return n.includes(\"spin\") && n.indexOf(\"main\") > n.indexOf(\"spin\"); }).length")" = 0 &&
	test "$(json prof.json "j.profiles[0].samples.filter(s =>
		j.shared.frames[s[s.length - 1]].name === \"spin\").length")" -ge 4
'

test_expect_success '--per-thread names comm pid/tid; --weight samples counts samples' '
	"$KPROF" export -f speedscope --per-thread --weight samples -i perf.data -o thr.json &&
	json thr.json "j.profiles[0].name" | grep -E "^calltree [0-9]+/[0-9]+$" &&
	n=$("$KPROF" report --format table -i perf.data | sed -n "s/^# Samples: //p") &&
	test "$(json thr.json "j.profiles.reduce((a, p) => a + p.endValue, 0)")" = "$n" &&
	test "$(json thr.json "j.profiles[0].unit")" = none
'

if [ ! -x "$CHROMIUM" ] && [ "$(id -u)" -eq 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
		>/dev/null 2>&1
fi
if [ ! -x "$CHROMIUM" ]; then
	test_skip 'speedscope shows the top frame' 'chromium is not installed and cannot be'
	test_done
fi
if [ ! -f "$NODE_MODULES/speedscope/package.json" ] ||
   [ ! -f "$NODE_MODULES/playwright-core/package.json" ]; then
	npm install --prefix "$KPROF_BUILD/node-export" --no-audit --no-fund --no-save \
		"speedscope@$SPEEDSCOPE_VERSION" "playwright-core@$PLAYWRIGHT_VERSION" >npm.log 2>&1 ||
		{ test_skip 'speedscope shows the top frame' "npm cannot install: $(tail -n 1 npm.log)"
		  test_done; }
fi

test_expect_success 'speedscope loads it offline: the top frame and its self time' '
	NODE_PATH=$NODE_MODULES timeout 180 node "$KPROF_SRC/tests/e2e/speedscope-browser.js" \
		"$NODE_MODULES/speedscope/dist/release/index.html" "$PWD/prof.json" >obs &&
	cat obs && test "$(value errors)" = none &&
	"$KPROF" report --format table -i perf.data >table.txt &&
	top=$(awk "!/^#/ && NF >= 5 { sub(/%/, \"\", \$2); print \$2, \$5 }" table.txt |
		sort -k1,1nr | head -n1 | cut -d" " -f2) &&
	test "$(value top.name)" = "$top" &&
	self=$("$KPROF" collapse -i perf.data | awk -v f="$top" "{ n = split(\$1, a, \";\");
		if (a[n] == f) s += \$NF } END { printf \"%.2fms\", s / 1e6 }") &&
	value top.self | grep -q "^$self (" &&
	test "$(value title)" = "cpu-clock - speedscope"
'

test_done
