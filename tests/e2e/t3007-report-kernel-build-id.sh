#!/usr/bin/env bash
# The kernel's build-id: perf record notes it (BUILD_ID of [kernel.kallsyms]) and saves the
# kallsyms in its build-id cache. perf report names kernel addresses only from symbols with that
# build-id: /proc/kallsyms when this machine runs that kernel, else the cached kallsyms, else
# nothing ("No kallsyms or vmlinux with build-id ... was found"). kprof must do the same, and say
# so, instead of naming another kernel's addresses after this one's symbols. The recording's
# kernel build-id is rewritten to a foreign one to make "a recording of another kernel"; perf
# 6.1 reading the same file is the oracle each time.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-perf-compare.sh"

# keys CACHE DATA OUT: compare_lkp with perf's build-id cache in CACHE (perf takes it as
# --buildid-dir, kprof as PERF_BUILDID_DIR); kprof's stderr in OUT.err
keys() {
	# shellcheck disable=SC2086
	perf --buildid-dir "$1" report $LKP_OPTS -i "$2" 2>/dev/null |
		perl "$KPROF_SRC/tests/e2e/lkp-parse-perf-profile.pl" |
		perl "$KPROF_SRC/tests/e2e/lkp-pfx-rename.pl" /proc/kallsyms >"$3.perf" &&
	PERF_BUILDID_DIR=$1 "$KPROF" report --format lkp -i "$2" >"$3.kprof" 2>"$3.err" &&
	test -s "$3.perf" &&
	perl "$KPROF_SRC/tests/e2e/lkp-keys-compare.pl" "$3.perf" "$3.kprof" 0.01
}

# kernel_keys KEYS: the keys naming a function that the host run named in the kernel ([k] rows
# of its table) and not in user space, one per line
kernel_keys() {
	if [ ! -s kernel.names ]; then
		"$KPROF" report --format table -i k.data >host.table &&
		awk "\$4 == \"[k]\" { print \$5 }" host.table | sort -u >k.names &&
		awk "\$4 == \"[.]\" { print \$5 }" host.table | sort -u >u.names &&
		comm -23 k.names u.names | sed "s/\.\(isra\|constprop\|part\)\.[0-9]*//g" |
			sort -u >kernel.names
	fi
	sed -n "s/^perf-profile\.\(children\|self\)\.[^.]*\.\([^:]*\):.*/\2/p" "$1" | sort -u |
		comm -12 - kernel.names
}

FOREIGN=112233445566778899aabbccddeeff0012345678

test_expect_success PERF,PERF_EVENTS,KALLSYMS 'record a kernel-heavy command, rewrite its kernel build-id' '
	mkdir cache &&
	perf --buildid-dir "$PWD/cache" record -q -g -e cpu-clock -o k.data \
		dd if=/dev/zero of=/dev/null bs=4k count=300000 >/dev/null 2>&1 &&
	id=$(perf buildid-list -i k.data 2>/dev/null | awk "\$2 == \"[kernel.kallsyms]\" { print \$1 }") &&
	test ${#id} = 40 &&
	# "empty": the cache without the kernel (perf names vdso frames only from its copy there)
	cp -a cache empty &&
	rm -rf "empty/[kernel.kallsyms]" "empty/.build-id/${id:0:2}/${id:2}" &&
	ID=$id NEW=$FOREIGN perl -0777 -pe "s/\Q\${\\pack(\"H*\", \$ENV{ID})}\E/pack(\"H*\", \$ENV{NEW})/ge" \
		k.data >foreign.data &&
	perf buildid-list -i foreign.data 2>/dev/null | grep -q "^$FOREIGN \[kernel.kallsyms\]" &&
	# a cache that has the foreign kernel: perf record saves its kallsyms as this
	cp -a empty fcache &&
	mkdir -p "fcache/[kernel.kallsyms]/$FOREIGN" &&
	cp /proc/kallsyms "fcache/[kernel.kallsyms]/$FOREIGN/kallsyms"
'

test_expect_success PERF,PERF_EVENTS,KALLSYMS 'this machine'"'"'s kernel: named, keys equal perf, no warning' '
	keys "$PWD/empty" k.data host &&
	test -n "$(kernel_keys host.kprof)" &&
	! grep -q "build-id" host.err
'

test_expect_success PERF,PERF_EVENTS,KALLSYMS 'another kernel, not cached: unresolved as in perf, one warning' '
	keys "$PWD/empty" foreign.data stale &&
	test -z "$(kernel_keys stale.kprof)" &&
	grep -q "^kprof: warning: foreign.data: no kallsyms or vmlinux with the recorded kernel.s build-id $FOREIGN" \
		stale.err &&
	test "$(grep -c "build-id" stale.err)" = 1
'

test_expect_success PERF,PERF_EVENTS,KALLSYMS 'another kernel, its kallsyms cached: named from the cache as in perf' '
	keys "$PWD/fcache" foreign.data cached &&
	test -n "$(kernel_keys cached.kprof)" &&
	! grep -q "build-id" cached.err
'

test_expect_success PERF,PERF_EVENTS,KALLSYMS 'collapse leaves the other kernel unnamed too' '
	PERF_BUILDID_DIR=$PWD/empty "$KPROF" collapse -i foreign.data >stale.folded 2>c.err &&
	grep -q "\[kernel.kallsyms\]" stale.folded &&
	grep -q "recorded kernel.s build-id" c.err
'

# perf record --buildid-mmap writes no BUILD_ID feature: the kernel's build-id is in its own
# MMAP2 record ([kernel.kallsyms]_text), which perf 6.1 gives to the kernel's dso. With that id
# rewritten (perf-data-rewrite.pl kbid), perf leaves kernel frames unresolved; kprof named them
# from this machine's kallsyms before.
test_expect_success PERF,PERF_EVENTS,KALLSYMS '--buildid-mmap: the kernel MMAP2 build-id decides, as in perf' '
	mkdir bmcache &&
	perf --buildid-dir "$PWD/bmcache" record -q --buildid-mmap -g -e cpu-clock -o bm.data \
		dd if=/dev/zero of=/dev/null bs=4k count=300000 >/dev/null 2>&1 &&
	perl "$KPROF_SRC/tests/e2e/perf-data-rewrite.pl" kbid bm.data bmf.data &&
	keys "$PWD/bmcache" bm.data bmhost &&
	test -n "$(kernel_keys bmhost.kprof)" &&
	! grep -q "build-id" bmhost.err &&
	keys "$PWD/bmcache" bmf.data bmstale &&
	test -z "$(kernel_keys bmstale.kprof)" &&
	grep -q "^kprof: warning: bmf.data: no kallsyms or vmlinux with the recorded kernel.s build-id" \
		bmstale.err
'

test_done
