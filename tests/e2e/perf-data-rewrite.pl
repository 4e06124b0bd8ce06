#!/usr/bin/perl
# perf-data-rewrite.pl MODE IN OUT - make the sample layouts of hardware this machine lacks
# from a real `perf record -g` file (file mode, one attr of sample_type
# IP|TID|TIME|[ID|]CALLCHAIN|PERIOD, as perf record -g -e cpu-clock writes), so that perf 6.1
# and kprof can both be asked about the same bytes:
#
#   skid  precise-ip samples (cycles:pp on Intel): the sample ip is not the chain's first
#         entry. In every 2nd user sample the ip moves 1 byte into the same function, in every
#         3rd (with a caller) it becomes the caller's return address, another function.
#   lbr   --call-graph lbr: attr gets PERF_SAMPLE_BRANCH_STACK with branch_sample_type
#         USER|CALL_STACK; each sample's user call chain is cut to its first entry (as if the
#         frame-pointer walk had failed) and the full user stack goes into the LBR entries
#         ({from: caller's return address, to: callee}, newest first), the first "to" one byte
#         past the chain's first entry. perf resolves such samples from the LBR. User
#         samples without a caller are left out (an empty LBR stack is undefined in perf).
#         With LBR_DEPTH=N in the environment the LBR holds at least N user frames (the
#         outermost one repeated): deeper than perf's --max-stack, which LBR stacks ignore.
#   aux   Intel PT's records without the hardware: an AUXTRACE_INFO (type 1, Intel PT) first,
#         then after every 100th record an AUXTRACE record followed by its 4 KiB payload
#         (0xff bytes, no record boundary in them), as perf record -e intel_pt// writes them.
#         With NO_AUXTRACE_INFO=1 in the environment, without the AUXTRACE_INFO (perf 6.1 then
#         skips the trace; with a made-up one it fails to set up the Intel PT decoder).
#   utext  a kernel address in user call chains: in every 5th sample with a user chain of
#         two entries or more, the second becomes $ENV{ADDR} (hex; t4000 gives _text), as a
#         frame-pointer walk of a user stack can read one. perf looks it up in the process's
#         maps, as every user frame: [unknown] ([unknown]).
#   nodata  a --call-graph dwarf file as recorders wrote it before issue 11: the MMAP2
#         records of non-executable file mappings are dropped (any sample layout), so perf
#         finds no map holding .eh_frame for any process.
#   kbid  a --buildid-mmap file of another kernel: the build-id of the kernel's own MMAP2
#         ([kernel.kallsyms]_text, PERF_RECORD_MISC_MMAP_BUILD_ID) gets its first byte
#         inverted (any sample layout, any number of events); perf 6.1 takes the kernel's
#         build-id from it.
#
# The data section grows with lbr and aux (shrinks with nodata); the feature sections after it
# are moved along.
use strict;
use warnings;
no warnings 'portable';	# 64-bit addresses

my ($mode, $in, $out) = @ARGV;
die "usage: $0 skid|lbr|aux|nodata|utext|kbid IN OUT\n"
	unless $mode && $mode =~ /^(skid|lbr|aux|nodata|utext|kbid)$/ && $out;
open my $f, '<:raw', $in or die "$in: $!\n";
my $d = do { local $/; <$f> };
close $f;

my $CONTEXT_USER = 0xfffffffffffffe00;
my $CONTEXT_MAX = 0xfffffffffffff001;
my ($attr_size, $attrs_off, $attrs_size, $data_off, $data_size) =
	unpack 'x16 Q< Q< Q< Q< Q<', $d;
# kbid touches no sample: any number of attrs (perf sched record's several tracepoints)
die "$in: one attr expected\n" unless $attrs_size == $attr_size || $mode eq 'kbid';
my $sample_type = unpack 'Q<', substr $d, $attrs_off + 24, 8;
my $has_id = $sample_type & 64;
die "$in: sample_type $sample_type is not IP|TID|TIME|[ID|]CALLCHAIN|PERIOD\n"
	unless ($sample_type | 64) == (1 | 2 | 4 | 32 | 64 | 256) || $mode =~ /^(nodata|kbid)$/;
my $words = $has_id ? 5 : 4;	# ip, pid/tid, time, [id], period

if ($mode eq 'lbr') {
	substr($d, $attrs_off + 24, 8) = pack 'Q<', $sample_type | (1 << 11);	# BRANCH_STACK
	substr($d, $attrs_off + 72, 8) = pack 'Q<', 1 | (1 << 11);	# USER | CALL_STACK
}

my ($data, $at, $end, $n) = ('', $data_off, $data_off + $data_size, 0);
# AUXTRACE_INFO: u32 type (1: Intel PT), u32 reserved, u64 priv[]
$data .= pack 'V v v V V Q<', 70, 0, 24, 1, 0, 0 if $mode eq 'aux' && !$ENV{NO_AUXTRACE_INFO};
while ($at < $end) {
	my ($type, $misc, $size) = unpack 'V v v', substr $d, $at, 8;
	my $rec = substr $d, $at, $size;
	$at += $size;
	if ($mode eq 'aux') {
		$data .= $rec;
		# AUXTRACE: u64 size, offset, reference; u32 idx, tid, cpu, reserved; payload
		$data .= pack('V v v Q< Q< Q< V V V V', 71, 0, 48, 4096, $n * 4096, $n, 0, 0, 0, 0) .
			 "\xff" x 4096 if ++$n % 100 == 0;
		next;
	}
	if ($mode eq 'kbid') {
		# MMAP2 with a build-id: build_id_size at 40, build_id at 44, filename at 72
		substr($rec, 44, 1) = chr(0xff ^ ord substr $rec, 44, 1)
			if $type == 10 && ($misc & 0x4000) && substr($rec, 72, 18) eq '[kernel.kallsyms]_';
		$data .= $rec;
		next;
	}
	if ($mode eq 'nodata') {
		# MMAP2: pid, tid, start, len, pgoff, maj, min, ino, generation, prot at 56, flags,
		# filename at 64 (after the 8-byte header)
		my $prot = $type == 10 ? unpack('V', substr $rec, 64, 4) : 4;
		$data .= $rec unless !($prot & 4) && substr($rec, 72, 2) =~ m{^/[^/]};
		next;
	}
	if ($type != 9) {	# PERF_RECORD_SAMPLE
		$data .= $rec;
		next;
	}
	# ip, pid/tid, time, [id], period, nr, ips[nr]
	my @head = unpack "x8 (Q<)$words", $rec;
	my $ip = $head[0];
	my $nr = unpack 'Q<', substr $rec, 8 + 8 * $words, 8;
	my @ips = unpack 'x' . (16 + 8 * $words) . " (Q<)$nr", $rec;
	my $user = 0;
	$user++ while $user < @ips && $ips[$user] != $CONTEXT_USER;
	my @u = grep { $_ < $CONTEXT_MAX } @ips[$user + 1 .. $#ips];
	$n++;
	if ($mode eq 'utext') {
		substr($rec, 16 + 8 * ($words + $user + 2), 8) = pack 'Q<', hex $ENV{ADDR}
			if $n % 5 == 0 && @ips - $user > 2;
		$data .= $rec;
		next;
	}
	if ($mode eq 'skid') {
		if (($misc & 7) == 2 && @u) {	# PERF_RECORD_MISC_USER
			$ip = $u[0] + 1 if $n % 2 == 0;
			$ip = $u[1] if $n % 3 == 0 && @u > 1;
		}
		substr($rec, 8, 8) = pack 'Q<', $ip;
		$data .= $rec;
		next;
	}
	my @branches;
	# perf 6.1 reads entries[0] of an empty LBR stack (undefined): real ones are not empty
	next if $user < @ips && @u < 2;
	if ($user < @ips) {
		push @u, ($u[-1]) x ($ENV{LBR_DEPTH} - @u) if $ENV{LBR_DEPTH} && @u < $ENV{LBR_DEPTH};
		@ips = (@ips[0 .. $user], $u[0]);
		for my $i (0 .. $#u - 1) {
			push @branches, [$u[$i + 1], $i ? $u[$i] : $u[0] + 1];
		}
	}
	my $body = pack '(Q<)*', @head, scalar @ips, @ips;
	$body .= pack 'Q<', scalar @branches;
	$body .= pack 'Q< Q< Q<', $_->[0], $_->[1], 0 for @branches;
	$data .= pack('V v v', $type, $misc, 8 + length $body) . $body;
}

my $grow = length($data) - $data_size;
my @feat = unpack 'Q<4', substr $d, 72, 32;
my $nr_feat = 0;
for my $w (@feat) {
	for my $b (0 .. 63) { $nr_feat++ if ($w >> $b) & 1 }
}
my $table = substr $d, $end, 16 * $nr_feat;
my @sec = unpack '(Q< Q<)*', $table;
for (my $i = 0; $i < @sec; $i += 2) { $sec[$i] += $grow }
my $rest = substr $d, $end + 16 * $nr_feat;
substr($d, 48, 8) = pack 'Q<', length $data;	# header.data.size
my $outd = substr($d, 0, $data_off) . $data . pack('(Q< Q<)*', @sec) . $rest;
open my $o, '>:raw', $out or die "$out: $!\n";
print $o $outd;
close $o or die "$out: $!\n";
