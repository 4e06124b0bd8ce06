#!/usr/bin/env bash
# kprof report --format json's call tree (docs/formats.md, THE CALL TREE): its symbol rows are
# the Children/Self table's, row for row; the tree's weights add up (a node's period is its
# self period plus its callees'), each symbol's self weight summed over the tree is the table's,
# and the fixture's call paths are there.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/calltree

test_have_prereq PERF PERF_EVENTS || test_skip_all "needs perf and perf events (missing $missing_prereq)"

test_expect_success 'the call tree is in the JSON, one per event' '
	perf record -q -g -e cpu-clock -o perf.data "$W" 0.4 2>/dev/null &&
	"$KPROF" report --format json -i perf.data >out.json &&
	"$KPROF" report --format table -i perf.data >table.txt &&
	python3 -c "
import json
j = json.load(open(\"out.json\"))
ct = j[\"call_tree\"]
assert len(ct) == 1 and ct[0][\"event\"] == \"cpu-clock\" and ct[0][\"weight\"] == \"period\", ct[0].keys()
"
'

test_expect_success 'symbols: the table, row for row' '
	awk "!/^#/ && NF >= 5 { sub(/%/, \"\", \$1); sub(/%/, \"\", \$2);
		printf \"%s %s %s %s %s\n\", \$1, \$2, \$3, \$4, \$5 }" table.txt >want &&
	python3 -c "
import json, os
ct = json.load(open(\"out.json\"))[\"call_tree\"][0]
for r in ct[\"symbols\"]:
    print(\"%.2f %.2f %s %s %s\" % (r[\"children\"], r[\"self\"], os.path.basename(r[\"dso\"]),
          \"[k]\" if r[\"kernel\"] else \"[.]\", r[\"symbol\"]))
" >got &&
	test "$(wc -l <want)" -ge 10 && diff -u want got &&
	test "$(sed -n "s/^# Event count: //p" table.txt)" = \
	     "$(python3 -c "import json; print(json.load(open(\"out.json\"))[\"call_tree\"][0][\"total\"])")"
'

test_expect_success 'the tree adds up and agrees with the table' '
	python3 -c "
import json
ct = json.load(open(\"out.json\"))[\"call_tree\"][0]
selfsum = {}
def walk(n):
    key = (n[\"symbol\"], n[\"dso\"])
    selfsum[key] = selfsum.get(key, 0) + n[\"self_period\"]
    assert n[\"period\"] == n[\"self_period\"] + sum(c[\"period\"] for c in n[\"callees\"]), n[\"symbol\"]
    assert abs(n[\"children\"] - 100.0 * n[\"period\"] / ct[\"total\"]) <= 0.005 + 1e-9
    for c in n[\"callees\"]:
        walk(c)
for n in ct[\"tree\"]:
    walk(n)
assert sum(n[\"period\"] for n in ct[\"tree\"]) == ct[\"total\"]
for r in ct[\"symbols\"]:
    assert selfsum.get((r[\"symbol\"], r[\"dso\"]), 0) == r[\"self_period\"], r
def path(nodes, names):
    for n in nodes:
        if n[\"symbol\"] == names[0]:
            return n if len(names) == 1 else path(n[\"callees\"], names[1:])
top = [n for n in ct[\"tree\"] if n[\"symbol\"] == \"__libc_start_call_main\"][0]
spin = path(top[\"callees\"], [\"main\", \"run\", \"phase_a\", \"leaf_a\", \"spin\"])
assert spin and spin[\"self_period\"] > 0.3 * ct[\"total\"], spin
rec = path(top[\"callees\"], [\"main\", \"run\", \"phase_c\"] + [\"recurse\"] * 6 + [\"shared\", \"spin\"])
assert rec and rec[\"self_period\"] > 0, \"recursion: one node per level\"
"
'

test_done
