#!/usr/bin/env bash
# Kernel names from a vmlinux through libdwfl, tested without a real vmlinux: kvmlinux is a small
# ELF linked at 0xffffffff81000000 with _text/_etext, functions and __pfx_ padding symbols like a
# kernel's. Names are checked against nm; a copy without a symbol table is named from DWARF; a
# KASLR slide is applied from the kernel MMAP; without a vmlinux, kallsyms is used.
. "$(dirname "$0")/lib.sh"

SYMFIX=$FIXTURES/symbolize
KV=$SYMFIX/kvmlinux

# nm's sized functions other than padding: "ADDR SIZE NAME"
nm_functions() {
	nm -S --defined-only "$1" |
		awk '$3 ~ /^[Tt]$/ && $4 !~ /^__(pfx|cfi)_/ { print $1, $2, $4 }'
}

test_expect_success 'the fixture vmlinux has functions and padding symbols' '
	nm_functions "$KV" >functions &&
	[ "$(wc -l <functions)" -ge 5 ] &&
	nm "$KV" | grep -q " __pfx_kfix_alpha$"
'

test_expect_success 'first and last byte of every function name it, as nm says' '
	echo source >cmds &&
	while read -r addr size name; do
		printf "k 0x%s\nk 0x%x\n" "$addr" $((0x$addr + 0x$size - 1)) >>cmds
		printf "%s\n%s\n" "$name" "$name" >>expect
	done <functions &&
	"$SYMFIX/sym-resolve" --vmlinux "$KV" --no-vmlinux-search <cmds >out &&
	test "$(head -1 out)" = "vmlinux $KV" &&
	tail -n +2 out | cut -f2 >got &&
	test_cmp expect got &&
	tail -n +2 out | cut -f3 | sort -u >dsos &&
	echo "[kernel.kallsyms]" >expect_dso && test_cmp expect_dso dsos
'

test_expect_success 'a __pfx_ padding address has no name (its symbol is skipped)' '
	pfx=$(nm "$KV" | awk "\$3 == \"__pfx_kfix_alpha\" { print \$1 }") &&
	printf "k 0x%x\n" $((0x$pfx + 8)) |
		"$SYMFIX/sym-resolve" --vmlinux "$KV" --no-vmlinux-search >out &&
	test "$(cut -f2,3 out)" = "[unknown]	[kernel.kallsyms]"
'

test_expect_success 'a KASLR slide from the kernel MMAP (pgoff = _text at record time)' '
	slide=0x200000 &&
	text=$(nm "$KV" | awk "\$3 == \"_text\" { print \$1 }") &&
	gamma=$(nm "$KV" | awk "\$3 == \"kfix_gamma\" { print \$1 }") &&
	{
		printf "map -1 0x%x 0x100000 0x%x [kernel.kallsyms]_text\n" \
			$((0x$text + slide)) $((0x$text + slide))
		printf "k 0x%x\n" $((0x$gamma + slide + 1))
	} | "$SYMFIX/sym-resolve" --vmlinux "$KV" --no-vmlinux-search >out &&
	test "$(cut -f2,4 out)" = "kfix_gamma	+0x1"
'

test_expect_success 'without a symbol table, names come from DWARF' '
	nm_functions "$KV" | grep -E " kfix_(gamma|delta)$" >c_functions &&
	[ "$(wc -l <c_functions)" -eq 2 ] &&
	while read -r addr size name; do
		printf "k 0x%x\n" $((0x$addr + 2)) >>dcmds
		echo "$name" >>dexpect
	done <c_functions &&
	"$SYMFIX/sym-resolve" --vmlinux "$SYMFIX/kvmlinux-nosyms" --no-vmlinux-search <dcmds >out &&
	cut -f2 out >dgot && test_cmp dexpect dgot
'

test_expect_success 'a missing --vmlinux is an error, not a fallback' '
	echo source >cmds &&
	test_must_fail "$SYMFIX/sym-resolve" --vmlinux /nonexistent/vmlinux <cmds 2>err &&
	grep -q "No such file" err
'

test_expect_success 'a --vmlinux that is not ELF is an error' '
	echo source >cmds &&
	echo "not an ELF file" >notelf &&
	test_must_fail "$SYMFIX/sym-resolve" --vmlinux notelf <cmds 2>err &&
	[ "$(lines_said err)" -eq 1 ]
'

# No vmlinux in any place symbolize/ searches (docs/symbolize.md).
prereq_NO_VMLINUX() {
	local r p
	r=$(uname -r)
	for p in "/usr/lib/debug/boot/vmlinux-$r" "/boot/vmlinux-$r" \
		 "/lib/modules/$r/build/vmlinux" "/usr/lib/debug/lib/modules/$r/vmlinux" \
		 "/usr/lib/debug/boot/vmlinux-$r.debug"; do
		[ -e "$p" ] && return 1
	done
	return 0
}

test_expect_success KALLSYMS,NO_VMLINUX 'without a vmlinux anywhere, kallsyms names the kernel' '
	line=$(awk "\$2 == \"T\" && \$3 == \"do_syscall_64\"" /proc/kallsyms) &&
	addr=${line%% *} &&
	printf "source\nk 0x%s\n" "$addr" | "$SYMFIX/sym-resolve" >out &&
	test "$(head -1 out)" = "kallsyms /proc/kallsyms" &&
	test "$(tail -1 out | cut -f2,3)" = "do_syscall_64	[kernel.kallsyms]"
'

test_done
