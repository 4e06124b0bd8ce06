#!/usr/bin/perl
# lkp-parse-perf-profile.pl - LKP's programs/perf-profile/parse, re-stated from its rules
# (../shared/spec/lkp-metrics.md §1.3) to turn `perf report --children --header -U
# -g folded,0.5,callee --sort=dso,symbol` output (stdin) into perf-profile.* keys:
#   1. the first line must be "# ========" or contain " --header", else nothing is printed;
#   2. .isra.N / .constprop.N / .part.N are stripped from every symbol;
#   3. the event is named by the first "# Events:" / "# Samples: ... of event 'X'" line, ':' -> '-',
#      quotes removed; later sections are filed under that first name (LKP's dead branch);
#   4. entry lines add children.<ev>.<sym> and self.<ev>.<sym>;
#   5. folded lines add calltrace.<ev>.<first five frames joined by '.'>;
#   6. keys >= 0.05 are printed sorted, "%s: %.2f". The "perf-profile." prefix of dump-stat is
#      added here so the output compares directly with kprof's.
use strict;
use warnings;

sub fixup { my $s = shift; $s =~ s/\.(isra|constprop|part)\.[0-9]+//g; return $s; }

my $first = <STDIN>;
exit 0 unless defined $first && ($first =~ /^# ========$/ || $first =~ / --header/);

my $ev;
while (<STDIN>) {
	if (/^# Events: \S+ (.*)$/ || /^# Samples: \d+[KMG ]? of event (.*)$/) {
		$ev = $1;
		$ev =~ s/'//g;
		$ev =~ s/:/-/g;
		last;
	}
}
exit 0 unless defined $ev;

my %v;
while (<STDIN>) {
	chomp;
	if (/^# /) {
		next;
	} elsif (/^\s*(\d+\.\d+)%\s+(\d+\.\d+)%\s+\S+\s+\S+\s+(\S+)(\s+\S+\s+\S+)?\s*$/) {
		my $sym = fixup($3);
		$v{"children.$ev.$sym"} += $1;
		$v{"self.$ev.$sym"} += $2;
	} elsif (/^(\d+\.\d+)%\s+(\S+)$/) {
		my $pct = $1;
		my @f = split /;/, $2;
		@f = @f[0 .. 4] if @f > 5;
		$v{"calltrace.$ev." . join('.', map { fixup($_) } @f)} += $pct;
	}
}
for my $k (sort keys %v) {
	printf "perf-profile.%s: %.2f\n", $k, $v{$k} if $v{$k} >= 0.05;
}
