#!/usr/bin/env bash
# kprof report and collapse against perf 6.1 on the many-short-lived-processes shape (issue
# 16): a shell loop running xz, gzip and sort hundreds of times, recorded with
# `perf record -g -F 10000 -e cpu-clock`. Stripped programs without frame pointers, a new
# address space per exec, a FORK/COMM/MMAP2 storm and kernel frames in every sample: the case
# where kprof names kernel frames on the reading thread (with kallsyms loading in a thread of
# its own) and user frames on the resolving thread. Every LKP key must equal perf's (LKP's
# parser rules, see lib-lkp.sh), and collapse must count every sample of every process where
# perf script does.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-lkp.sh"

prereq_RECORDED() { [ -s "$TRASH/sl.data" ]; }

# -B -N: perf report reads the binaries by path, as kprof does (see t3000).
test_expect_success PERF,PERF_EVENTS 'record 300 short-lived processes' '
	head -c 200000 "$KPROF" >input &&
	perf record -q -B -N -g -F 10000 -e cpu-clock -o sl.data -- sh -c "
		i=0
		while [ \$i -lt 100 ]; do
			xz -1 -c input >/dev/null; gzip -c input >/dev/null
			sort input >/dev/null; i=\$((i + 1))
		done" >/dev/null 2>&1 &&
	perf script -i sl.data -F pid 2>/dev/null | sort -u >pids &&
	test "$(wc -l <pids)" -ge 250
'

test_expect_success RECORDED,KALLSYMS 'lkp keys equal perf report parsed by LKP rules' '
	compare_lkp sl.data &&
	grep -q "^perf-profile.children.cpu-clock.do_syscall_64: " sl.data.kprof &&
	grep -q "^perf-profile.calltrace.cpu-clock.__x64_sys_execve\." sl.data.kprof
'

# Every sample in its process, as perf script has it (a sample whose chain ends in an unknown
# context marker, garbage without frame pointers, is its comm alone in both).
test_expect_success RECORDED 'collapse: every sample of every process, each in its process' '
	perf script -i sl.data -F comm,pid 2>/dev/null |
		awk "{ n[\$1 \"-\" \$2]++ } END { for (k in n) print k, n[k] }" |
		LC_ALL=C sort >want &&
	"$KPROF" collapse --pid --count samples -i sl.data |
		awk "{ split(\$1, f, \";\"); n[f[1]] += \$NF } END { for (k in n) print k, n[k] }" |
		LC_ALL=C sort >got &&
	test "$(wc -l <want)" -ge 250 &&
	test_cmp want got
'

test_done
