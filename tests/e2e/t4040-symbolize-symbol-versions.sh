#!/usr/bin/env bash
# Versioned symbols (".symver foo_v2, foo@@VER_2" with a version script): only .symtab has the
# names "foo@@VER_2" and "foo@VER_1" (.dynsym has "foo" with a version index), so which table a
# library's names come from shows in the names. perf 6.1 reads the first of its candidates that
# has a .symtab, the build-id cache's copy before the file: a library stripped after perf record
# cached it is still named from the unstripped copy, "foo@@VER_2" and its static functions.
# kprof must read the same table. perf 6.1 reading the same files is the oracle; $HOME is the
# test's, so ~/.debug is a cache of its own for perf and kprof alike.
. "$(dirname "$0")/lib.sh"
. "$KPROF_SRC/tests/e2e/lib-perf-compare.sh"

export HOME=$TRASH/home
unset PERF_BUILDID_DIR

prereq_CC() { command -v "${CC:-cc}" >/dev/null && command -v strip >/dev/null; }

test_expect_success PERF,PERF_EVENTS,CC 'a library with versioned symbols, recorded' '
	mkdir -p "$HOME" &&
	cat >lib.c <<-\EOF &&
	volatile int sink;
	__attribute__((noinline)) void foo_v1(void) { for (int i = 0; i < 20000; i++) sink += i; }
	__attribute__((noinline)) void foo_v2(void) { for (int i = 0; i < 20000; i++) sink -= i; }
	__attribute__((noinline)) void bar(void) { for (int i = 0; i < 20000; i++) sink ^= i; }
	__attribute__((noinline)) static void helper(void) { for (int i = 0; i < 20000; i++) sink |= i; }
	void baz(void) { helper(); }
	__asm__(".symver foo_v1, foo@VER_1");
	__asm__(".symver foo_v2, foo@@VER_2");
	EOF
	printf "VER_1 { global: foo; local: *; };\nVER_2 { global: foo; bar; baz; } VER_1;\n" \
		>ver.map &&
	cat >main.c <<-\EOF &&
	void foo(void); void bar(void); void baz(void);
	int main(void) { for (int i = 0; i < 3000; i++) { foo(); bar(); baz(); } return 0; }
	EOF
	"${CC:-cc}" -O1 -fPIC -fno-omit-frame-pointer -shared -Wl,--version-script=ver.map \
		-o libvs.so lib.c &&
	"${CC:-cc}" -O0 -fno-omit-frame-pointer main.c -L. -lvs -Wl,-rpath,"$PWD" -o vsmain &&
	perf record -q -g -e cpu-clock -o full.data ./vsmain >/dev/null 2>&1 &&
	perf script -i full.data -F ip,sym 2>/dev/null | grep -q " foo@@VER_2$" &&
	compare_folded full.data
'

prereq_RECORDED() { [ -s "$TRASH/full.data" ]; }

test_expect_success RECORDED 'stripped since: named from the cached copy as perf, else from .dynsym' '
	# a new file, as a package update installs it (strip in place would also strip the cached
	# hard link)
	strip --strip-all -o libvs.new libvs.so && mv libvs.new libvs.so &&
	perf record -q -g -e cpu-clock -o stripped.data ./vsmain >/dev/null 2>&1 &&
	perf script -i stripped.data -F ip,sym 2>/dev/null | grep -q " helper$" &&
	compare_folded stripped.data &&
	compare_keys stripped.data &&
	grep -q "^perf-profile.self.cpu-clock.foo@@VER_2: " stripped.data.kprof &&
	grep -q "^perf-profile.self.cpu-clock.helper: " stripped.data.kprof &&
	# a cache without it: the stripped file, .dynsym, plain names in both
	mv "$HOME/.debug" cache.saved &&
	perf record -q -g -e cpu-clock -o plain.data ./vsmain >/dev/null 2>&1 &&
	compare_folded plain.data &&
	grep -q ";foo [0-9]*$" plain.data.folded-kprof &&
	! grep -q "VER_" plain.data.folded-kprof
'

test_done
