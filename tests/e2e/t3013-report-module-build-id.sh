#!/usr/bin/env bash
# Kernel modules' build-ids, against perf 6.1 reading the same file. perf names a module's
# frames from its .ko in the build-id cache (.build-id/NN/REST/elf), else the .ko the recording
# names if it has the recorded build-id, else the kernel's kallsyms; kprof must do the same, show
# unresolved module frames under perf script's dso name, and take a module's build-id from an
# MMAP2 (perf record --buildid-mmap) too. This machine's kernel may have no loadable modules:
# perf-data-kmod.pl turns a real recording into one with samples in a module "kmodx", and the
# test builds that module's .ko (an ET_REL object with a build-id, like a real .ko).
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-perf-compare.sh"

MODID=aabbccddeeff00112233445566778899aabbccdd
OTHER=00112233445566778899aabbccddeeff00112233
FOREIGN=112233445566778899aabbccddeeff0012345678
MODPATH=/lib/modules/6.1.0-kprof-test/kernel/drivers/kmodx.ko
CACHED_KO=${MODPATH#/}/$MODID/elf

# The module's address range is free on this machine (perf report places this machine's
# modules too).
prereq_FREE_RANGE() {
	! awk '$1 >= "fffffffff0100000" && $1 < "fffffffff0103000" { found = 1 } END { exit !found }' \
		/proc/kallsyms
}
prereq_LD() { command -v ld >/dev/null && command -v "${CC:-cc}" >/dev/null; }

# both CACHE DATA OUT: perf (--buildid-dir CACHE) and kprof (PERF_BUILDID_DIR) on DATA: the LKP
# keys compared, folded stacks equal to `perf script | kprof collapse --perl-compat -`, kprof's
# stderr in OUT.err
both() {
	# shellcheck disable=SC2086
	perf --buildid-dir "$1" report $LKP_OPTS -i "$2" 2>/dev/null |
		perl "$E2E/lkp-parse-perf-profile.pl" | perl "$E2E/lkp-pfx-rename.pl" /proc/kallsyms \
		>"$3.perf" &&
	PERF_BUILDID_DIR=$1 "$KPROF" report --format lkp -i "$2" >"$3.kprof" 2>"$3.err" &&
	test -s "$3.perf" &&
	perl "$E2E/lkp-keys-compare.pl" "$3.perf" "$3.kprof" 0.01 &&
	perf --buildid-dir "$1" script -i "$2" 2>/dev/null |
		"$KPROF" collapse --perl-compat - >"$3.folded-perf" &&
	PERF_BUILDID_DIR=$1 "$KPROF" collapse --perl-compat -i "$2" >"$3.folded-kprof" 2>>"$3.err" &&
	test_cmp "$3.folded-perf" "$3.folded-kprof"
}

# foreign IN OUT: IN with its kernel build-id made FOREIGN
foreign() {
	ID=$KID NEW=$FOREIGN perl -0777 -pe \
		"s/\Q\${\\pack(\"H*\", \$ENV{ID})}\E/pack(\"H*\", \$ENV{NEW})/ge" "$1" >"$2"
}

test_expect_success PERF,PERF_EVENTS,KALLSYMS,FREE_RANGE,LD 'record, add module samples, build the module' '
	mkdir cache &&
	perf --buildid-dir "$PWD/cache" record -q -g -e cpu-clock -o k.data \
		dd if=/dev/zero of=/dev/null bs=4k count=300000 >/dev/null 2>&1 &&
	KID=$(perf buildid-list -i k.data 2>/dev/null |
		awk "\$2 == \"[kernel.kallsyms]\" { print \$1 }") &&
	test ${#KID} = 40 && echo "$KID" >kid &&
	cat >kmodx.c <<-\EOF &&
	int kmodx_sink;
	void ko_first(void) { for (int i = 0; i < 9; i++) kmodx_sink += i; asm(".skip 0xfc0, 0x90"); }
	void ko_second(void) { for (int i = 0; i < 9; i++) kmodx_sink -= i; asm(".skip 0xfc0, 0x90"); }
	EOF
	"${CC:-cc}" -O1 -c kmodx.c -o kmodx.o &&
	ld -r --build-id=0x$MODID kmodx.o -o kmodx.ko &&
	mkdir other && ld -r --build-id=0x$OTHER kmodx.o -o other/kmodx.ko &&
	perl "$E2E/perf-data-kmod.pl" k.data m.data "$MODPATH" $MODID &&
	perf buildid-list -i m.data 2>/dev/null | grep -q "^$MODID $MODPATH" &&
	perl "$E2E/perf-data-kmod.pl" k.data mmap2.data "$MODPATH" $MODID MMAP2 &&
	perl "$E2E/perf-data-kmod.pl" k.data atpath.data "$PWD/kmodx.ko" $MODID &&
	perl "$E2E/perf-data-kmod.pl" k.data other.data "$PWD/other/kmodx.ko" $MODID &&
	perl "$E2E/perf-data-kmod.pl" k.data short.data "[kmodx]" $MODID &&
	KMOD_EARLY=1 perl "$E2E/perf-data-kmod.pl" k.data early.data "[kmodx]" $MODID &&
	foreign other.data fother.data && foreign short.data fshort.data &&
	foreign early.data fearly.data &&
	# the module in the build-id cache, as perf record puts it there
	cp -a cache kcache &&
	mkdir -p "kcache/${CACHED_KO%/elf}" kcache/.build-id/${MODID:0:2} &&
	cp kmodx.ko "kcache/$CACHED_KO" &&
	ln -s "../../${CACHED_KO%/elf}" kcache/.build-id/${MODID:0:2}/${MODID:2} &&
	# the foreign kernel in the cache, its kallsyms with the module loaded
	cp -a cache fcache && rm -rf "fcache/[kernel.kallsyms]" &&
	mkdir -p "fcache/[kernel.kallsyms]/$FOREIGN" &&
	{ cat /proc/kallsyms; printf "fffffffff0100000 t kmodx_one\t[kmodx]\n";
	  printf "fffffffff0101000 T kmodx_two\t[kmodx]\nfffffffff0102000 t kmodx_three\t[kmodx]\n"; } \
		>"fcache/[kernel.kallsyms]/$FOREIGN/kallsyms"
'

prereq_MODDATA() { [ -s "$TRASH/m.data" ] && [ -s "$TRASH/kcache/$CACHED_KO" ]; }
KID=$(cat "$TRASH/kid" 2>/dev/null)

test_expect_success MODDATA 'the module in perf'"'"'s build-id cache: named from its .ko, as perf' '
	both "$PWD/kcache" m.data cached &&
	grep -q "^perf-profile.self.cpu-clock.ko_first: " cached.kprof &&
	grep -q "^perf-profile.self.cpu-clock.ko_second: " cached.kprof &&
	! grep -q "kernel module" cached.err
'

test_expect_success MODDATA 'not cached, not loaded here: unresolved as perf script shows them, one warning' '
	both "$PWD/cache" m.data stale &&
	! grep -q "ko_first\|kmodx_one" stale.kprof &&
	grep -q ";\[kmodx.ko\] [0-9]*$" stale.folded-kprof &&
	both "$PWD/cache" fshort.data fshort &&
	grep -q ";\[\[kmodx\]\] [0-9]*$" fshort.folded-kprof &&
	grep -q "^kprof: warning: m.data: 1 kernel module .*(e.g. \[kmodx\])" stale.err &&
	test "$(grep -c "kernel module" stale.err)" = 2
'

test_expect_success MODDATA 'the .ko the recording names: used only with the recorded build-id' '
	both "$PWD/cache" atpath.data atpath &&
	grep -q "^perf-profile.self.cpu-clock.ko_first: " atpath.kprof &&
	both "$PWD/cache" other.data other &&
	! grep -q "ko_first" other.kprof &&
	both "$PWD/fcache" fother.data fother &&
	! grep -q "ko_first" fother.kprof &&
	grep -q "^perf-profile.self.cpu-clock.kmodx_one: " fother.kprof &&
	! grep -q "before any kernel frame" fother.err
'

# perf 6.1 loads the kernel's kallsyms at the first kernel address it resolves; a module frame
# met before that stays unnamed, and the module's first symbol is dropped for good
# (symbolize/kmod.c). kprof names them and says so in one line; that is all that differs.
test_expect_success MODDATA 'a module frame before any kernel frame: what perf leaves unnamed is said' '
	perf --buildid-dir "$PWD/fcache" script -i fearly.data 2>/dev/null |
		"$KPROF" collapse --perl-compat - >early.folded-perf &&
	PERF_BUILDID_DIR=$PWD/fcache "$KPROF" collapse --perl-compat -i fearly.data >early.folded-kprof \
		2>early.err &&
	cat early.err && test "$(lines_said early.err)" = 1 &&
	grep -q "1 kernel module named from kallsyms had a frame before any kernel frame (e.g. \[kmodx\]).* kmodx_one (the module.s first symbol) unnamed for good" early.err &&
	grep -q ";kmodx_one [0-9]*$" early.folded-kprof &&
	! grep -q "kmodx_one" early.folded-perf &&
	sed "s/;kmodx_one \([0-9]*\)$/;[[kmodx]] \1/" early.folded-kprof | sum_folded >early.k &&
	sum_folded early.folded-perf >early.p &&
	{ diff early.p early.k >early.diff; test $? -le 1; } && cat early.diff &&
	# the one sample perf met before the kernel: one stack on each side, nothing else
	test "$(grep -c "^<" early.diff)" -le 1 && test "$(grep -c "^>" early.diff)" -le 1 &&
	PERF_BUILDID_DIR=$PWD/fcache "$KPROF" report --format lkp -i fearly.data >/dev/null \
		2>early-report.err &&
	test_cmp early.err early-report.err
'

test_expect_success MODDATA 'a build-id in the module'"'"'s MMAP2 (--buildid-mmap), as perf' '
	! perf buildid-list -i mmap2.data 2>/dev/null | grep -q kmodx &&
	both "$PWD/kcache" mmap2.data mmap2 &&
	grep -q "^perf-profile.self.cpu-clock.ko_first: " mmap2.kprof
'

test_expect_success MODDATA 'the table shows the module as perf report does' '
	PERF_BUILDID_DIR=$PWD/kcache "$KPROF" report --format table -i m.data >t.kprof &&
	grep -q " \[kmodx\]  *\[k\] ko_first$" t.kprof &&
	PERF_BUILDID_DIR=$PWD/kcache "$KPROF" report --format table --dso "[kmodx]" -i m.data \
		>t-dso.kprof &&
	grep -q "ko_first" t-dso.kprof && ! grep -q "kernel.kallsyms" t-dso.kprof
'

test_done
