#!/usr/bin/perl
# lkp-keys-compare-perf-tree.pl PERF_REPORT PERF_KEYS KPROF_KEYS KPROF_STDERR - kprof's LKP keys
# against perf report 6.1's where kprof says (in `kprof -v report`'s stderr) what perf's trees
# around inlined frames can make differ (cmd-report-tree.c); each key must be within what the
# warnings say, every other key within 0.01 (as lkp-keys-compare.pl):
#   - "turns such an inlined entry into one of the function's own": children.F of the -v list's
#     "F:+P" words: perf within [kprof - 0.01, kprof + P + 0.01];
#   - "not one order of the entries of FILES": calltrace.* keys whose first frame is a function
#     of one of FILES (by perf's entry lines): perf at most kprof + 0.01 (down to missing);
#     children/self of those functions within 0.005 per entry line perf prints of them + 0.005;
#   - "inlined functions named as functions framed too: NAMES": calltrace.* keys of which a
#     chain perf prints (NAME and "NAME (inlined)" read alike) passes through one of NAMES:
#     any value.
# A key kprof does not print counts as any share below LKP's 0.05 threshold, not as 0.
# PERF_REPORT is the raw `perf report --children --header -U -g folded,0.5,callee
# --sort=dso,symbol` output. Prints each difference and why it is allowed; exits 1 on any other.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use LkpKeys 'load_keys';

my ($raw_file, $want_file, $got_file, $err_file) = @ARGV;
my $eps = 1e-9;
my $threshold = 0.05;	# the smallest share LKP's perf-profile parser prints

sub fixup { my $s = shift; $s =~ s/\.(isra|constprop|part)\.[0-9]+//g; return $s; }

# What kprof said.
my (%bound, %files, %names);
open my $eh, '<', $err_file or die "$err_file: $!\n";
while (<$eh>) {
	if (/more than one mapping, with the most perf's children\.\* can add: (.*)$/) {
		for (split ' ', $1) { /^(.*):\+([0-9.]+)$/ and $bound{fixup($1)} = $2; }
	} elsif (/which is not one order of the entries of (.*?): it can split/) {
		$files{$_} = 1 for split ' ', $1;
	} elsif (/inlined functions named as functions framed too: (.*)$/) {
		$names{$_} = 1 for split ' ', $1;
	}
}

# perf's entries (function -> its files, entry lines) and the keys its chains pass through.
my (%dsos_of, %pieces, %through, $ev);
open my $rh, '<', $raw_file or die "$raw_file: $!\n";
while (<$rh>) {
	chomp;
	if (!defined $ev && /^# Samples: \d+[KMG ]? of event '?([^']*)'?$/) {
		($ev = $1) =~ s/:/-/g;
	} elsif (/^\s*[0-9.]+%\s+[0-9.]+%\s+(\S+)\s+\[.\]\s+(\S+)(\s+\S+\s+\S+)?\s*$/) {
		my $f = fixup($2);
		$dsos_of{$f}{$1} = 1;
		$pieces{$f}++;
	} elsif (/^[0-9.]+%\s+(.+)$/ && defined $ev) {
		my @f = split /;/, $1;
		my $hit = 0;
		for (@f) {
			s/ \(inlined\)$// if defined $names{$_ =~ s/ \(inlined\)$//r};
			$hit ||= defined $names{$_};
		}
		next unless $hit;
		@f = @f[0 .. 4] if @f > 5;
		$through{"perf-profile.calltrace.$ev." . join('.', map { fixup($_) } @f)} = 1;
	}
}

# The function a calltrace key starts with: the longest known one.
sub first_function {
	my ($k) = @_;
	my $best;
	return undef unless defined $ev;
	my $rest = substr($k, length("perf-profile.calltrace.$ev."));
	for my $f (keys %dsos_of) {
		next unless $rest eq $f || index($rest, "$f.") == 0;
		$best = $f if !defined $best || length($f) > length($best);
	}
	return $best;
}

sub in_files { my $f = shift; return defined $f && grep { $files{$_} } keys %{$dsos_of{$f} // {}}; }

my ($want, $got) = (load_keys($want_file), load_keys($got_file));
my ($bad, $n, $allowed) = (0, 0, 0);
for my $k (sort keys %{{ %$want, %$got }}) {
	my ($w, $g) = ($want->{$k} // 0, $got->{$k} // 0);
	my $tol = 0.01;
	my $why;
	$n++;
	# a key within 0.01 of the 0.05 print threshold may fall on either side
	next if (!defined $want->{$k} || !defined $got->{$k}) && $w + $g < $threshold + 0.01 + $eps;
	next if abs($w - $g) <= $tol + $eps;
	if ($k =~ /^perf-profile\.children\.[^.]+\.(.*)$/ && defined $bound{$1}) {
		# A key kprof does not print is below the threshold, not 0 (here and below): perf's
		# may be that and the turned entries' share (two entries of 0.04 where kprof counts one)
		my $g_hi = defined $got->{$k} ? $g : $threshold;
		$why = "children of a turned inlined entry (+$bound{$1})"
			if $w >= $g - 0.01 - $eps && $w <= $g_hi + $bound{$1} + 0.01 + $eps;
	}
	if (!$why && $k =~ /^perf-profile\.(children|self)\.[^.]+\.(.*)$/ && in_files($2)) {
		my $t = 0.005 * ($pieces{$2} // 1) + 0.005;
		my $off = defined $got->{$k} ? abs($w - $g) : $w - $threshold;
		$why = "$1 of a split entry ($pieces{$2} pieces)" if $off <= $t + $eps;
	}
	if (!$why && $k =~ /^perf-profile\.calltrace\./) {
		if ($through{$k}) {
			$why = "a chain through an inlined name merged with a function";
		} elsif (in_files(first_function($k)) && $w <= $g + 0.01 + $eps) {
			$why = "calltrace of a function of a file whose entries perf can split";
		}
	}
	if ($why) {
		$allowed++;
		print "said     $k: perf $w, kprof $g: $why\n";
	} else {
		$bad++;
		print "differs  $k: perf $w, kprof $g\n";
	}
}
print "$n keys compared, $allowed differences said by kprof, $bad not\n";
exit($bad ? 1 : 0);
