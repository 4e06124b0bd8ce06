#!/usr/bin/env bash
# User-space ELF cases beyond a plain .symtab in the mapped file: a stripped library
# whose symbols are in a separate file named by .gnu_debuglink, one with an xz MiniDebugInfo
# section (.gnu_debugdata) -- a local function, absent from .dynsym, is the witness, and a
# stripped copy without either is the control --, a fixed-address (ET_EXEC) executable, and PLT
# stubs, which perf names "fn@plt".
. "$(dirname "$0")/lib.sh"

SYMFIX=$FIXTURES/symbolize
LIB=$SYMFIX/libsymfix.so
BASE=0x7f0000000000

# resolve FILE FUNCTION [SYMBOLS-FROM]: map FILE's executable segment as ld.so would (at BASE
# for a shared object, at its link address for ET_EXEC) and name the second byte of FUNCTION,
# whose address comes from SYMBOLS-FROM (default: the unstripped library).
resolve() {
	local v seg off va memsz BASE=$BASE
	v=$(nm "${3:-$LIB}" | awk -v f="$2" '$3 == f { print $1 }')
	readelf -h "$1" | grep -q "Type: *EXEC" && BASE=0
	seg=$(readelf -lW "$1" | awk '$1 == "LOAD" && / E +0x/ { print $2, $3, $6; exit }')
	read -r off va memsz <<<"$seg"
	printf "map 4242 0x%x 0x%x 0x%x %s\nu 4242 0x%x\n" \
		$((BASE + (va & ~0xfff))) $(((memsz + (va & 0xfff) + 0xfff) & ~0xfff)) \
		$((off & ~0xfff)) "$1" $((BASE + 0x$v + 1)) |
		"$SYMFIX/sym-resolve" --no-vmlinux-search | cut -f2
}

test_expect_success 'the unstripped library names its local function' '
	test "$(resolve "$LIB" symfix_lib_local)" = symfix_lib_local
'

test_expect_success 'control: stripped, without debug info, the local function has no name' '
	strip --strip-all -o nodebug.so "$LIB" &&
	test "$(resolve "$PWD/nodebug.so" symfix_lib_local)" = "[unknown]" &&
	test "$(resolve "$PWD/nodebug.so" symfix_lib_inner)" = symfix_lib_inner
'

test_expect_success 'stripped with .gnu_debuglink: named from the separate debug file' '
	readelf -S "$SYMFIX/debuglink/libsymfix.so" | grep -q gnu_debuglink &&
	test "$(resolve "$SYMFIX/debuglink/libsymfix.so" symfix_lib_local)" = symfix_lib_local &&
	test "$(resolve "$SYMFIX/debuglink/libsymfix.so" symfix_lib_outer)" = symfix_lib_outer
'

test_expect_success 'stripped with .gnu_debugdata (MiniDebugInfo): named from it' '
	readelf -S "$SYMFIX/minidebug/libsymfix.so" | grep -q gnu_debugdata &&
	test "$(resolve "$SYMFIX/minidebug/libsymfix.so" symfix_lib_local)" = symfix_lib_local &&
	test "$(resolve "$SYMFIX/minidebug/libsymfix.so" symfix_lib_inner)" = symfix_lib_inner
'

test_expect_success 'a fixed-address executable (ET_EXEC) and a PIE name the same functions' '
	for f in main_leaf main_middle main_syscalls main; do
		test "$(resolve "$SYMFIX/symfix-nopie" $f "$SYMFIX/symfix-nopie")" = $f &&
		test "$(resolve "$SYMFIX/symfix" $f "$SYMFIX/symfix")" = $f || exit 1
	done
'

test_expect_success 'PLT stubs are named fn@plt, as perf and objdump name them' '
	exe=$SYMFIX/symfix &&
	objdump -d -j .plt "$exe" | sed -n "s/^\([0-9a-f]*\) <\(.*@plt\)>:$/\1 \2/p" >plt &&
	[ "$(wc -l <plt)" -ge 3 ] &&
	echo "map 7 0x555555555000 0x1000 0x1000 $exe" >cmds &&
	while read -r addr name; do
		printf "u 7 0x%x\n" $((0x555555554000 + 0x$addr + 3)) >>cmds
		echo "$name" >>expect
	done <plt &&
	"$SYMFIX/sym-resolve" --no-vmlinux-search <cmds | cut -f2 >got &&
	test_cmp expect got
'

test_done
