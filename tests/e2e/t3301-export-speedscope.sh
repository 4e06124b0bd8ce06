#!/usr/bin/env bash
# kprof export --format speedscope (and --format chrome, Chrome's .cpuprofile) read by the real
# client: speedscope (the npm package's offline build) in Debian's headless chromium, driven by
# playwright-core (tests/e2e/speedscope-browser.js); both npm packages are installed into the
# build directory. The files' structure and totals are checked against kprof report and kprof
# collapse.
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

test_expect_success 'chrome: a .cpuprofile whose tree and times add up' '
	"$KPROF" export --format chrome -i perf.data -o prof.cpuprofile &&
	total=$("$KPROF" report --format table -i perf.data | sed -n "s/^# Event count: //p") &&
	n=$("$KPROF" report --format table -i perf.data | sed -n "s/^# Samples: //p") &&
	test "$(json prof.cpuprofile "j.timeDeltas.reduce((a, b) => a + b, 0) + \" \" + j.endTime")" = \
	     "$(((total + 500) / 1000)) $(((total + 500) / 1000))" &&
	test "$(json prof.cpuprofile "j.nodes.reduce((a, x) => a + x.hitCount, 0)")" = "$n" &&
	test "$(json prof.cpuprofile "j.samples.length === j.timeDeltas.length &&
		j.nodes[0].callFrame.functionName === \"(root)\" &&
		j.nodes.every((x, i) => x.id === i + 1 && (x.children || []).every(c =>
			c > x.id && c <= j.nodes.length)) &&
		j.samples.every(s => s >= 1 && s <= j.nodes.length)")" = true &&
	test "$(json prof.cpuprofile "j.nodes[j.nodes[0].children[0] - 1].callFrame.functionName")" = calltree
'

if [ ! -x "$CHROMIUM" ] && [ "$(id -u)" -eq 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium \
		>/dev/null 2>&1
fi
if [ ! -x "$CHROMIUM" ]; then
	test_skip 'speedscope shows the top frame' 'chromium is not installed and cannot be'
	test_skip 'speedscope reads the .cpuprofile' 'chromium is not installed and cannot be'
	test_done
fi
if [ ! -f "$NODE_MODULES/speedscope/package.json" ] ||
   [ ! -f "$NODE_MODULES/playwright-core/package.json" ]; then
	npm install --prefix "$KPROF_BUILD/node-export" --no-audit --no-fund --no-save \
		"speedscope@$SPEEDSCOPE_VERSION" "playwright-core@$PLAYWRIGHT_VERSION" >npm.log 2>&1 ||
		{ test_skip 'speedscope shows the top frame' "npm cannot install: $(tail -n 1 npm.log)"
		  test_skip 'speedscope reads the .cpuprofile' "npm cannot install"
		  test_done; }
fi

test_expect_success 'speedscope loads it offline: the top frame and its self time' '
	NODE_PATH=$NODE_MODULES timeout 180 node "$KPROF_SRC/tests/e2e/speedscope-browser.js" \
		"$NODE_MODULES/speedscope/dist/release/index.html" "$PWD/prof.json" >obs &&
	cat obs && test "$(value errors)" = none &&
	"$KPROF" report --format table -i perf.data >table.txt &&
	top=$(awk "!/^#/ && NF >= 5 { sub(/%/, \"\", \$2); print \$2, \$5 }" table.txt |
		sort -k1,1nr | head -n1 | cut -d" " -f2) &&
	test "$(value top.name)" = "$top" && echo "$top" >top &&
	self=$("$KPROF" collapse -i perf.data | awk -v f="$top" "{ n = split(\$1, a, \";\");
		if (a[n] == f) s += \$NF } END { printf \"%.2fms\", s / 1e6 }") &&
	value top.self | grep -q "^$self (" && echo "$self" >self &&
	test "$(value title)" = "cpu-clock - speedscope"
'

test_expect_success 'speedscope reads the .cpuprofile: the same top frame and self time' '
	NODE_PATH=$NODE_MODULES timeout 180 node "$KPROF_SRC/tests/e2e/speedscope-browser.js" \
		"$NODE_MODULES/speedscope/dist/release/index.html" "$PWD/prof.cpuprofile" >obs.cp &&
	cat obs.cp && test "$(sed -n "s/^errors=//p" obs.cp)" = none &&
	top=$(cat top) && self=$(cat self) && test -n "$top" && test -n "$self" &&
	test "$(sed -n "s/^top.name=//p" obs.cp)" = "$top" &&
	sed -n "s/^top.self=//p" obs.cp | grep -q "^$self ("
'

test_done
