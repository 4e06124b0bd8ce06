#!/usr/bin/perl
# lkp-parse-perf-sched.pl - LKP's programs/perf-sched/parse (a Ruby script), re-stated from its
# rules (../shared/spec/lkp-metrics.md §4.4) to turn `perf sched timehist` output (stdin) into
# perf-sched.* keys, with Ruby's arithmetic where it shows in the numbers:
#   1. only lines containing " <- " count; " <- " becomes '.', the line is split at whitespace;
#      the wait time is the 4th field from the end, the delay the 3rd (String#to_f), the key the
#      first five '.'-separated pieces of the last field;
#   2. wait_and_delay of a line is (wait + delay).round(3);
#   3. averages are (Array#sum / size).round(3): Kahan-Babuska summation, Ruby's round-half-up;
#   4. totals over all lines, in the order of the keys' first appearance;
#   5. a key whose wait_and_delay average is below the total's and whose count is below
#      (lines * 0.005).to_i loses only its wait_and_delay keys.
# Output: "perf-sched.KEY: VALUE" with Ruby's Float#to_s (shortest round trip, "1.0"), sorted.
use strict;
use warnings;
use POSIX qw(floor);

sub ruby_round3 {
	my ($x) = @_;
	return $x if $x == 0;
	my $s = 1000.0;
	my $xs = $x * $s;
	# C round(): half away from zero
	my $f = $xs >= 0 ? floor($xs + 0.5) : -floor(-$xs + 0.5);
	# floor(x + 0.5) can differ from round() when x + 0.5 rounds up in binary: redo exactly
	$f -= 1 if $xs >= 0 && $f - $xs > 0.5;
	if ($x > 0) { $f += 1 if (($f + 0.5) / $s) <= $x; }
	else        { $f -= 1 if (($f - 0.5) / $s) >= $x; }
	return $f / $s;
}

sub ruby_sum {
	my ($f, $c) = (0.0, 0.0);
	for my $x (@_) {
		my $t = $f + $x;
		if (abs($f) >= abs($x)) { $c += ($f - $t) + $x; } else { $c += ($x - $t) + $f; }
		$f = $t;
	}
	return $f + $c;
}

sub to_f {
	my ($s) = @_;
	return 0.0 unless defined $s;
	return $s =~ /^\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/ ? $1 + 0.0 : 0.0;
}

sub ruby_float {
	my ($v) = @_;
	return "0.0" if $v == 0;
	my $str;
	for my $p (1 .. 17) {
		$str = sprintf("%.${p}g", $v);
		last if $str + 0.0 == $v;
	}
	# %g writes 50 as "5e+01" (its shortest digits, "5", in exponent form); Ruby writes the
	# shortest digits positionally for 1e-4 <= |v| < 1e16 ("50.0", "1200.0"); the exponent
	# form only outside that range, which these keys do not reach
	if ($str =~ /^[-+]?(\d)(?:\.(\d+))?e([-+]\d+)$/ && abs($v) >= 1e-4 && abs($v) < 1e16) {
		my $digits = length($1) + length($2 // '');
		my $decimals = $digits - 1 - $3;
		$str = sprintf("%.*f", $decimals > 0 ? $decimals : 0, $v);
	}
	$str .= ".0" unless $str =~ /[.e]/;
	return $str;
}

my (%vals, @order);
while (my $line = <STDIN>) {
	next unless $line =~ / <- /;
	(my $t = $line) =~ s/ <- /./g;
	my @data = split ' ', $t;
	my @pieces = split /\./, $data[-1];
	my $key = join('.', @pieces[0 .. ($#pieces < 4 ? $#pieces : 4)]);
	my ($w, $d) = (to_f($data[-4]), to_f($data[-3]));
	push @order, $key unless exists $vals{$key};
	push @{$vals{$key}[0]}, $w;
	push @{$vals{$key}[1]}, $d;
	push @{$vals{$key}[2]}, ruby_round3($w + $d);
}
exit 0 unless @order;

my @out;
my ($cmp_avg, $cmp_count) = (0, 0);
my @names = ('wait_time', 'sch_delay', 'wait_and_delay');
for my $i (0 .. 2) {
	my @v = map { @{$vals{$_}[$i]} } @order;
	my $avg = ruby_round3(ruby_sum(@v) / @v);
	my $max = $v[0];
	$max = $_ > $max ? $_ : $max for @v;
	if ($i == 2) {
		$cmp_avg = $avg;
		$cmp_count = int(@v * 0.005);
		push @out, "total_wait_and_delay.count.ms: " . scalar(@v);
	}
	push @out, "total_$names[$i].max.ms: " . ruby_float($max);
	push @out, "total_$names[$i].average.ms: " . ruby_float($avg);
}
for my $k (@order) {
	for my $i (0 .. 2) {
		my @v = @{$vals{$k}[$i]};
		my $avg = ruby_round3(ruby_sum(@v) / @v);
		my $max = $v[0];
		$max = $_ > $max ? $_ : $max for @v;
		if ($i == 2) {
			next if $avg < $cmp_avg && @v < $cmp_count;
			push @out, "$names[$i].count.$k: " . scalar(@v);
		}
		push @out, "$names[$i].max.ms.$k: " . ruby_float($max);
		push @out, "$names[$i].avg.ms.$k: " . ruby_float($avg);
	}
}
print "perf-sched.$_\n" for sort @out;
