#!/usr/bin/perl
# lkp-pfx-rename.pl KALLSYMS < KEYS > KEYS - where perf 6.1 is wrong, say what current perf says.
#
# perf 6.1 does not know the 16-byte __pfx_<fn> (and __cfi_<fn>) padding symbols that kernels
# built with call-depth tracking or CFI put before each function. An address in such padding --
# typically the return address after a noreturn call at the very end of the previous function,
# e.g. x86_64_start_reservations calling start_kernel -- is named "__pfx_clear_bss" by perf
# 6.1. Current perf (and kprof) skip these symbols, so the address belongs to the function
# before the padding. This rewrites every __pfx_/__cfi_ name in perf 6.1's keys into that
# function (looked up in KALLSYMS) and adds up keys that become equal, as LKP would have.
use strict;
use warnings;
no warnings "portable";	# 64-bit kernel addresses

my ($kallsyms) = @ARGV;
my (@keys, %pfx);
while (<STDIN>) {
	chomp;
	/^(\S+): (-?[0-9.]+)$/ or die "bad line '$_'\n";
	push @keys, [$1, $2];
	$pfx{$1} = undef while $1 =~ /(?:^|\.)(__(?:pfx|cfi)_[A-Za-z0-9_]+)/g;
}

if (%pfx) {
	# The symbol before each padding symbol, by address (padding symbols themselves skipped).
	open my $fh, '<', $kallsyms or die "$kallsyms: $!\n";
	my @syms;
	while (<$fh>) {
		my ($addr, $type, $name) = split;
		push @syms, [hex $addr, $name] if defined $name && $type =~ /^[tTwW]$/;
	}
	@syms = sort { $a->[0] <=> $b->[0] } @syms;
	my $prev;
	for my $s (@syms) {
		if ($s->[1] =~ /^__(pfx|cfi)_/) {
			$pfx{$s->[1]} = $prev if exists $pfx{$s->[1]} && defined $prev;
			next;
		}
		$prev = $s->[1];
	}
}

my (%sum, @order);
for my $kv (@keys) {
	my ($k, $v) = @$kv;
	for my $p (sort { length $b <=> length $a } grep { defined $pfx{$_} } keys %pfx) {
		$k =~ s/(^|\.)\Q$p\E(?=\.|$)/$1$pfx{$p}/g;
	}
	push @order, $k unless exists $sum{$k};
	$sum{$k} += $v;
}
printf "%s: %.2f\n", $_, $sum{$_} for sort @order;
