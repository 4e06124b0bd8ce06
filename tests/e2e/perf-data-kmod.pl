#!/usr/bin/perl
# perf-data-kmod.pl IN OUT MODPATH MODID [MMAP2] - a recording with samples in a kernel module,
# made from a real kernel-heavy `perf record -g -e cpu-clock` file (one attr, sample_type
# IP|TID|TIME|[ID|]CALLCHAIN|PERIOD) for machines whose kernel has no loadable modules:
#
#   - the kernel MMAP ([kernel.kallsyms]_text, which perf record makes reach the top of the
#     address space when no module is loaded) ends at the module's start, as perf record
#     writes it on a machine with modules;
#   - a kernel MMAP of MODPATH (pid -1, "/lib/modules/.../NAME.ko" or "[NAME]") at
#     0xfffffffff0100000, 0x3000 bytes, right after it, as perf record synthesizes loaded
#     modules; with a 5th argument, an MMAP2 record carrying the build-id
#     (PERF_RECORD_MISC_MMAP_BUILD_ID) instead, and no BUILD_ID entry for it, as perf record
#     --buildid-mmap writes them;
#   - every 3rd kernel sample, from the 3rd, gets a leaf frame in the module: its ip becomes
#     0xfffffffff0100000 + 0x10 + 0x1000 * (n / 3 % 3) (three functions, one page each) and
#     that address is put in front of its kernel chain (the module called from the sampled
#     path). The earliest kernel sample (by time: the order perf reads them in, not the
#     file's) stays in the kernel: perf 6.1 leaves a module address it meets before the
#     kernel's kallsyms is loaded unnamed, and the module's first function for good
#     (symbolize/kmod.c); with KMOD_EARLY=1 in the environment it gets a module frame too,
#     and the samples before it are dropped (see below);
#   - without MMAP2, a BUILD_ID feature entry (misc KERNEL, pid -1) with MODID (40 hex digits)
#     for MODPATH, as perf record notes a hit module's build-id (/sys/module/NAME/notes).
# The feature sections after the data and the BUILD_ID entry are moved along.
use strict;
use warnings;
no warnings 'portable';	# 64-bit addresses

my ($in, $out, $modpath, $modid, $mmap2) = @ARGV;
die "usage: $0 IN OUT MODPATH MODID [MMAP2]\n"
	unless $modid && $modid =~ /^[0-9a-f]{40}$/;
open my $f, '<:raw', $in or die "$in: $!\n";
my $d = do { local $/; <$f> };
close $f;

my $MOD = 0xfffffffff0100000;
my $MODLEN = 0x3000;
my $CONTEXT_KERNEL = 0xffffffffffffff80;
my ($attr_size, $attrs_off, $attrs_size, $data_off, $data_size) =
	unpack 'x16 Q< Q< Q< Q< Q<', $d;
die "$in: one attr expected\n" unless $attrs_size == $attr_size;
my $sample_type = unpack 'Q<', substr $d, $attrs_off + 24, 8;
die "$in: sample_type $sample_type is not IP|TID|TIME|[ID|]CALLCHAIN|PERIOD\n"
	unless ($sample_type | 64) == (1 | 2 | 4 | 32 | 64 | 256);
my $words = $sample_type & 64 ? 5 : 4;	# ip, pid/tid, time, [id], period
# sample_id_all: MMAPs end with pid/tid, time, [id] (the sample's id fields)
my $attr_flags = unpack 'Q<', substr $d, $attrs_off + 40, 8;
my $id_all = ($attr_flags >> 18) & 1 ? pack('(Q<)*', (0) x ($words - 2)) : '';

sub name_pad {
	my ($s) = @_;
	return $s . "\0" x (8 - length($s) % 8);
}

my ($data, $at, $end, $n, $placed) = ('', $data_off, $data_off + $data_size, 0, 0);

# The time of the first kernel sample perf meets: records are in time order per CPU buffer
# only (a round holds one CPU's samples, then the other's), so the file's first kernel sample
# need not be the earliest; perf reads them in time order, and that one must stay in the kernel.
my $first_time;
for (my $p = $data_off; $p < $end;) {
	my ($type, $misc, $size) = unpack 'V v v', substr $d, $p, 8;
	my $time = unpack 'Q<', substr $d, $p + 8 + 16, 8;
	$first_time = $time if $type == 9 && ($misc & 7) == 1 &&
			       (!defined $first_time || $time < $first_time);
	$p += $size;
}

while ($at < $end) {
	my ($type, $misc, $size) = unpack 'V v v', substr $d, $at, 8;
	my $rec = substr $d, $at, $size;
	$at += $size;
	if ($type == 1 && !$placed && substr($rec, 40, 18) eq '[kernel.kallsyms]_') {
		# MMAP: pid, tid, start, len, pgoff, filename
		my $start = unpack 'Q<', substr $rec, 16, 8;
		substr($rec, 24, 8) = pack 'Q<', $MOD - $start;
		$data .= $rec;
		my $body;
		if ($mmap2) {
			# MMAP2 with a build-id: pid, tid, start, len, pgoff, u8 size, u8 u16
			# reserved, 20 id bytes, prot, flags, filename
			$body = pack('l< l< Q< Q< Q< C C v a20 V V', -1, 0, $MOD, $MODLEN, 0, 20, 0, 0,
				     pack('H*', $modid), 5, 2) . name_pad($modpath) . $id_all;
			$data .= pack('V v v', 10, 1 | (1 << 14), 8 + length $body) . $body;
		} else {
			$body = pack('l< l< Q< Q< Q<', -1, 0, $MOD, $MODLEN, 0) . name_pad($modpath) .
				$id_all;
			$data .= pack('V v v', 1, 1, 8 + length $body) . $body;
		}
		$placed = 1;
		next;
	}
	# With KMOD_EARLY, the first kernel sample is the first sample: perf 6.1 shows its quirk
	# only then (a user sample before it, as dd's first ones in ld.so, and the module's
	# first address is named; what loads the kernel there was not found), so earlier samples
	# go.
	next if $type == 9 && $ENV{KMOD_EARLY} &&
		unpack('Q<', substr $rec, 8 + 16, 8) < $first_time;
	if ($type != 9 || ($misc & 7) != 1) {	# kernel samples only
		$data .= $rec;
		next;
	}
	# ip, pid/tid, time, [id], period, nr, ips[nr]
	my @head = unpack "x8 (Q<)$words", $rec;
	my $nr = unpack 'Q<', substr $rec, 8 + 8 * $words, 8;
	my @ips = unpack 'x' . (16 + 8 * $words) . " (Q<)$nr", $rec;
	my $earliest = $head[2] == $first_time;
	if ((++$n % 3 && !($ENV{KMOD_EARLY} && $earliest)) || !@ips ||
	    $ips[0] != $CONTEXT_KERNEL || ($earliest && !$ENV{KMOD_EARLY})) {
		$data .= $rec;
		next;
	}
	my $ip = $MOD + 0x10 + 0x1000 * (($n / 3) % 3);
	$head[0] = $ip;
	splice @ips, 1, 0, $ip;
	my $body = pack '(Q<)*', @head, scalar @ips, @ips;
	$data .= pack('V v v', $type, $misc, 8 + length $body) . $body;
}
die "$in: no kernel MMAP\n" unless $placed;

# the feature sections: table of (offset, size) per set bit, after the data
my $grow = length($data) - $data_size;
my @feat = unpack 'Q<4', substr $d, 72, 32;
my (@bits, @sec);
for my $w (0 .. 3) {
	for my $b (0 .. 63) { push @bits, 64 * $w + $b if ($feat[$w] >> $b) & 1 }
}
@sec = unpack '(Q< Q<)*', substr $d, $end, 16 * @bits;
my @payload;
for my $i (0 .. $#bits) {
	push @payload, substr $d, $sec[2 * $i], $sec[2 * $i + 1];
}
# BUILD_ID (bit 2): header {type 0, misc KERNEL | BUILD_ID_SIZE, size}, pid, 20 id bytes, u8
# size, 3 pad, name
my ($bi) = grep { $bits[$_] == 2 } 0 .. $#bits;
die "$in: no BUILD_ID feature\n" unless defined $bi;
my $name = name_pad($modpath);
$name .= "\0" x (64 - length($name) % 64) if length($name) % 64;
$payload[$bi] .= $mmap2 ? '' : pack('V v v l< a20 C x3', 0, 1 | (1 << 15), 36 + length $name, -1,
		      pack('H*', $modid), 20) . $name;
my $off = $end + $grow + 16 * @bits;
my @table;
for my $p (@payload) {
	push @table, $off, length $p;
	$off += length $p;
}
substr($d, 48, 8) = pack 'Q<', length $data;	# header.data.size
my $outd = substr($d, 0, $data_off) . $data . pack('(Q< Q<)*', @table) . join '', @payload;
open my $o, '>:raw', $out or die "$out: $!\n";
print $o $outd;
close $o or die "$out: $!\n";
