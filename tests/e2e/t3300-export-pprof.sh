#!/usr/bin/env bash
# kprof export --format pprof read by the real client: Debian's `go tool pprof` (golang-go).
# Its totals equal kprof's sample and period totals, its top functions (self and cumulative)
# equal `kprof report --format table`, and the labels, mappings and build-ids are there.
. "$(dirname "$0")/lib.sh"

W=$FIXTURES/calltree

test_have_prereq PERF PERF_EVENTS || test_skip_all "needs perf and perf events (missing $missing_prereq)"
command -v go >/dev/null 2>&1 || test_skip_all "go tool pprof is needed (apt-get install golang-go)"
# go wants a writable cache even for `go tool`
export GOCACHE=$TRASH/gocache GOFLAGS=-mod=mod HOME=${HOME:-$TRASH}

pprof() { go tool pprof "$@" 2>/dev/null; }
# code N CMD...: CMD exits with status N
code() { local rc=0; "${@:2}" || rc=$?; [ "$rc" -eq "$1" ] || { echo "exit $rc, not $1: ${*:2}" >&2; return 1; }; }

# totals FILE: "samples period" summed over the samples of `pprof -raw`
raw_totals() {
	pprof -raw "$1" | awk '/^Samples:/ { s = 1; next } /^(Locations|Mappings)/ { s = 0 }
		s && $2 ~ /^[0-9]+:$/ { n += $1; p += $2 } END { printf "%.0f %.0f\n", n, p }'
}

# The table's rows "name children self" for resolved symbols with Children >= 1%.
table_rows() {
	"$KPROF" report --format table -i "$1" | awk '!/^#/ && NF >= 5 && $5 !~ /^\[/ &&
		$1 + 0 >= 1 { sub(/%/, "", $1); sub(/%/, "", $2); print $5, $1, $2 }' | sort
}

# The same rows from pprof -top: flat and cum as percentages of the total, 2 decimals. Unresolved
# frames are left out on both sides: the table has one [unknown] row per module, pprof merges
# functions by name.
pprof_rows() {
	local total
	total=$(raw_totals "$1" | cut -d" " -f2)
	pprof -top -unit=ns -nodecount=1000 "$1" | awk -v t="$total" '
		/^ *flat/ { s = 1; next } s { f = $1; c = $4; sub(/ns$/, "", f); sub(/ns$/, "", c);
		if ($6 !~ /^\[/ && 100 * c / t >= 0.995)
			printf "%s %.2f %.2f\n", $6, 100 * c / t, 100 * f / t }' |
		sort
}

test_expect_success 'a perf recording exports; pprof reads it' '
	perf record -q -g -e cpu-clock -o perf.data "$W" 0.5 2>/dev/null &&
	"$KPROF" export --format pprof -i perf.data -o prof.pb.gz &&
	test "$(head -c2 prof.pb.gz | od -An -tx1 | tr -d " ")" = 1f8b &&
	pprof -raw prof.pb.gz >raw.txt &&
	grep -q "^PeriodType: cpu-clock nanoseconds" raw.txt &&
	grep -q "^samples/count cpu-clock/nanoseconds\[dflt\]" raw.txt
'

test_expect_success 'totals: samples and period equal kprof report' '
	"$KPROF" report --format table -i perf.data >table.txt &&
	want="$(sed -n "s/^# Samples: //p" table.txt) $(sed -n "s/^# Event count: //p" table.txt)" &&
	got=$(raw_totals prof.pb.gz) && echo "pprof $got kprof $want" &&
	test "$got" = "$want"
'

test_expect_success 'top functions, self and cumulative, equal the Children/Self table' '
	table_rows perf.data >want.rows && pprof_rows prof.pb.gz >got.rows &&
	cat want.rows && test "$(wc -l <want.rows)" -ge 8 &&
	diff -u want.rows got.rows &&
	top_self=$(sort -k3,3nr want.rows | head -n1 | cut -d" " -f1) &&
	test "$(pprof -top prof.pb.gz | awk "/^ *flat/ { getline; print \$6 }")" = "$top_self" &&
	test "$top_self" = spin
'

test_expect_success 'the call graph: recurse under phase_c, shared under two callers' '
	pprof -peek "^shared$" prof.pb.gz >peek.txt &&
	grep -q "phase_b" peek.txt && grep -q "recurse" peek.txt
'

test_expect_success 'labels comm, pid and tid; mappings with build-ids; kernel functions' '
	pprof -tags prof.pb.gz >tags.txt &&
	grep -q "calltree" tags.txt && grep -q "^ *pid: Total" tags.txt &&
	grep -q "^ *tid: Total" tags.txt &&
	id=$(perf buildid-list -i perf.data 2>/dev/null | awk "/calltree\$/ { print \$1 }") &&
	test -n "$id" &&
	grep -E "^[0-9]+: 0x[0-9a-f]+/0x[0-9a-f]+/0x0 $W $id \[FN\]" raw.txt &&
	grep -E "^1: .* $W " raw.txt &&
	kid=$(perf buildid-list -i perf.data 2>/dev/null | awk "/kernel.kallsyms/ { print \$1 }") &&
	# perf lists the kernel only when a sample hit it (a user spinner may have none)
	{ test -z "$kid" ||
	  grep -E "^[0-9]+: 0xffff[0-9a-f]+/0x[0-9a-f]+/0x0 \[kernel.kallsyms\] $kid \[FN\]" raw.txt; }
'

test_expect_success KALLSYMS 'kernel frames keep their names (not one [kernel.kallsyms] node)' '
	# dd between /dev/zero and /dev/null: most samples in the kernel, so some always are
	"$KPROF" record -e cpu-clock -g -o sys.data -- \
		dd if=/dev/zero of=/dev/null bs=4k count=300000 2>/dev/null &&
	"$KPROF" export -f pprof -i sys.data -o sys.pb.gz &&
	"$KPROF" report --format table -i sys.data | awk "\$4 == \"[k]\" { print \$5 }" |
		sort -u >k.want &&
	test -s k.want &&
	pprof -top -nodecount=100000 -nodefraction=0 sys.pb.gz | awk "/^ *flat/ { s = 1; next } s { print \$6 }" |
		sort -u >all.got &&
	comm -23 k.want all.got >k.missing && test ! -s k.missing
'

test_expect_success 'a kprof run directory is read through its perf.data; stdout with -o -' '
	mkdir -p run/0 && cp perf.data run/0/perf.data &&
	"$KPROF" export -f pprof -i run/0 -o - >dir.pb.gz &&
	test "$(raw_totals dir.pb.gz)" = "$(raw_totals prof.pb.gz)"
'

test_expect_success 'bad input: one line naming the file, no output left behind' '
	printf "not perf data at all" >bad.data &&
	code 1 "$KPROF" export -f pprof -i bad.data -o bad.pb.gz 2>err &&
	test "$(lines_said err)" -eq 1 && grep -q "bad.data" err && test ! -e bad.pb.gz &&
	code 1 "$KPROF" export -f pprof -i missing.data -o m.pb.gz 2>err &&
	grep -q "missing.data" err && test ! -e m.pb.gz &&
	code 2 "$KPROF" export -i perf.data 2>err && grep -q "format" err &&
	code 2 "$KPROF" export -f svg -i perf.data 2>err &&
	code 1 "$KPROF" export -f pprof -i perf.data -e no-such -o e.pb.gz 2>err &&
	grep -q "no-such" err && test ! -e e.pb.gz
'

test_done
