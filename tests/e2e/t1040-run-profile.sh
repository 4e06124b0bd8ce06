#!/usr/bin/env bash
# Profiles show what each workload exists to stress. perf 6.1 is the oracle: `perf record -g`
# of `kprof run --no-profile` must show the usemem frames do_access/do_rw_once and the kernel
# path of the case; then kprof run's own system-wide profile must carry the same frames in its
# perf-profile keys and profile.folded.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"
sysstate_lock


# perf_symbols ARGS...: the symbols (children view) perf sees while `kprof run ARGS` runs.
perf_symbols() {
	perf record -q -g -e cpu-clock -o p.data -- "$KPROF" -q run "$@" --runs 1 --no-profile \
		-o perf-results >/dev/null 2>&1 &&
	perf report -i p.data --stdio --children --sort sym -g none -q 2>/dev/null |
		awk '{ print $4 }' >syms
}

# has SYM...: every symbol is in the perf oracle's list.
has() {
	local s
	for s in "$@"; do grep -qx -- "$s" syms || { echo "no $s in the profile"; return 1; }; done
}

test_expect_success PERF_EVENTS 'anon-w-seq: do_access, do_rw_once, anonymous fault path' '
	perf_symbols anon-w-seq unit_size=128M &&
	has do_access do_rw_once asm_exc_page_fault handle_mm_fault do_anonymous_page
'

test_expect_success PERF_EVENTS 'anon-cow-seq: COW fault path under do_access' '
	perf_symbols anon-cow-seq unit_size=96M &&
	has do_access do_rw_once do_wp_page
'

test_expect_success PERF_EVENTS 'anon-r-seq: zero-page read faults' '
	perf_symbols anon-r-seq unit_size=256M && has do_access do_rw_once do_anonymous_page
'

test_expect_success PERF_EVENTS 'brk_test: the brk syscall path (report 004)' '
	perf_symbols brk_test testtime=1 &&
	# glibc sbrk keeps no frame pointer: the unwinder shows the caller of its caller, aim9_run;
	# aim9_brk_test itself only by its few own samples (none in a slow SANITIZE=1 build)
	has aim9_run __do_sys_brk do_brk_flags vma_expand
'

test_expect_success PERF_EVENTS 'fork_test and exec_test: fork and exec paths' '
	perf_symbols fork_test testtime=1 && has copy_process dup_mmap &&
	perf_symbols exec_test testtime=1 && has bprm_execve load_elf_binary
'

test_expect_success PERF_EVENTS,HUGETLB 'anon-w-seq-hugetlb: the hugetlb fault path' '
	perf_symbols anon-w-seq-hugetlb unit_size=64M && has do_access hugetlb_fault
'

test_expect_success PERF_EVENTS,LOOPFS 'truncate: truncate_inode_pages_range under unlink' '
	perf_symbols truncate unit_size=256M &&
	has truncate_inode_pages_range evict do_unlinkat filemap_read
'

# kprof run's own profile (system-wide, every run): perf.data, kallsyms, folded, keys.
if test_have_prereq PERF_EVENTS; then
	"$KPROF" run anon-w-seq unit_size=128M size=128M --runs 2 -o own >out 2>err
	own_rc=$?
	own=$(echo own/anon-w-seq/*/*/0)
fi

test_expect_success PERF_EVENTS 'kprof run profiles and counts each run: perf.data, perf-stat' '
	[ "$own_rc" -eq 0 ] && test -s "$own/perf.data" && test -s "$own/perf.data.kallsyms" &&
	perf report -i "$own/perf.data" --stdio -q --sort sym 2>/dev/null | grep -q do_rw_once &&
	[ -n "$(json_get "$own/meta.json" event)" ] &&
	json_get "$own/stats.json" perf-stat.ps.cpu-clock >/dev/null &&
	json_get "$own/stats.json" perf-stat.i.page-faults >/dev/null
'

if test_have_prereq PERF_EVENTS && test -s "$own/profile.folded"; then
	test_expect_success 'perf-profile keys and profile.folded show the usemem frames' '
		ev=$(json_get "$own/meta.json" event | tr : -) &&
		json_get "$own/stats.json" "perf-profile.self.$ev.do_rw_once" &&
		json_get "$own/stats.json" "perf-profile.children.$ev.do_access" &&
		json_get "$own/stats.json" "perf-profile.children.$ev.do_anonymous_page" &&
		grep -q "perf-profile.calltrace.$ev.*asm_exc_page_fault.do_access\"" \
			"$own/stats.json" &&
		# usemem has no frame pointers, as LKP'"'"'s: its chains are LKP'"'"'s short ones
		grep -q "^usemem;do_access;asm_exc_page_fault_\[k\];" "$own/profile.folded" &&
		grep -q "top perf-profile.self" out
	'

	test_expect_success 'perf-profile keys: COW path for anon-cow-seq, brk path for brk_test' '
		"$KPROF" -q run anon-cow-seq unit_size=96M size=96M --runs 1 -o cow >/dev/null 2>&1 &&
		"$KPROF" -q run brk_test testtime=1 --runs 1 -o brk >/dev/null 2>&1 &&
		c=$(echo cow/anon-cow-seq/*/*/0) && b=$(echo brk/brk_test/*/*/0) &&
		ev=$(json_get "$c/meta.json" event | tr : -) &&
		json_get "$c/stats.json" "perf-profile.children.$ev.do_wp_page" &&
		json_get "$c/stats.json" "perf-profile.children.$ev.do_access" &&
		json_get "$b/stats.json" "perf-profile.children.$ev.__do_sys_brk" &&
		json_get "$b/stats.json" "perf-profile.children.$ev.do_brk_flags" &&
		json_get "$b/stats.json" aim9.brk_test.ops_per_sec
	'
else
	test_skip 'perf-profile keys and profile.folded show the usemem frames' \
		"kprof could not read its perf.data back: $(grep -m1 perf.data err 2>/dev/null)"
	test_skip 'perf-profile keys: COW path for anon-cow-seq, brk path for brk_test' \
		"kprof could not read its perf.data back: $(grep -m1 perf.data err 2>/dev/null)"
fi

test_done
