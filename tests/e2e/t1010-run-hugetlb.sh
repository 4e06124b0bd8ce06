#!/usr/bin/env bash
# Hugetlb cases: pages reserved through nr_overcommit_hugepages as setup_hugetlb does, the
# hugetlb fault path really used, the old setting restored afterwards; a clear error without
# root.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-run.sh"
sysstate_lock

# hugetlb pages can actually be had here
prereq_HUGETLB_PAGES() {
	prereq_HUGETLB &&
	"$KPROF" -q run anon-w-seq-hugetlb nr_task=1 unit_size=2M size=2M runtime=60 --runs 1 \
		--no-profile -o probe >/dev/null 2>&1
}
prereq_NOBODY() { prereq_ROOT && command -v setpriv >/dev/null; }

old=$(cat $HP/nr_overcommit_hugepages 2>/dev/null || echo 0)

for w in anon-w-seq-hugetlb anon-w-rand-hugetlb anon-cow-seq-hugetlb anon-cow-rand-hugetlb; do
	test_expect_success HUGETLB_PAGES "$w: runs, accounts, restores nr_overcommit_hugepages" '
		before=$(grep -E "^htlb_buddy_alloc_success " /proc/vmstat | cut -d" " -f2) &&
		"$KPROF" -q run '"$w"' nr_task=2 unit_size=8M size=16M runtime=60 --runs 1 \
			--no-profile >/dev/null 2>err &&
		after=$(grep -E "^htlb_buddy_alloc_success " /proc/vmstat | cut -d" " -f2) &&
		[ "$after" -gt "$before" ] &&
		[ "$(cat $HP/nr_overcommit_hugepages)" = "$old" ] &&
		d=$(echo results/'"$w"'/*/*/0) && log=$d/'"$w"'.log &&
		grep -q -- "-O -U" "$log" &&
		[ "$(grep -c " bytes / " "$log")" -eq 4 ] &&
		same_number "$(json_get "$d/stats.json" vm-scalability.workload)" "$(log_kb "$log")"
	'
done

test_expect_success HUGETLB_PAGES 'a non-zero setting is restored as it was' '
	echo 3 >$HP/nr_overcommit_hugepages &&
	"$KPROF" -q run anon-w-seq-hugetlb nr_task=1 unit_size=4M size=4M --runs 1 --no-profile \
		>/dev/null 2>&1; rc=$?
	now=$(cat $HP/nr_overcommit_hugepages); echo "$old" >$HP/nr_overcommit_hugepages
	[ "$rc" -eq 0 ] && [ "$now" -eq 3 ]
'

test_expect_success NOBODY 'without root: one clear error, exit 1, nothing changed' '
	cp "$KPROF" ./kprof-copy && chmod 755 ./kprof-copy . &&
	rc=0; setpriv --reuid=65534 --regid=65534 --clear-groups ./kprof-copy run \
		anon-w-seq-hugetlb -o /tmp/kprof-t1010-$$ 2>err || rc=$?
	rm -rf /tmp/kprof-t1010-$$
	[ "$rc" -eq 1 ] && grep -q root err && [ "$(cat $HP/nr_overcommit_hugepages)" = "$old" ]
'

test_done
