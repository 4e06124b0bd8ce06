#!/usr/bin/perl
# lkp-keys-compare.pl EXPECTED ACTUAL [TOL] - compare two "key: value" files: the same key set,
# except keys within TOL of LKP's 0.05 print threshold (a rounding away from appearing), and
# every common value within TOL (default 0.01). Prints each difference; exits 1 if any.
use strict;
use warnings;
use FindBin;
use lib $FindBin::Bin;
use LkpKeys 'load_keys';

my ($want_file, $got_file, $tol) = @ARGV;
$tol //= 0.01;
my $eps = 1e-9;

my ($want, $got) = (load_keys($want_file), load_keys($got_file));
my ($bad, $n) = (0, 0);
for my $k (sort keys %{{ %$want, %$got }}) {
	my ($w, $g) = ($want->{$k}, $got->{$k});
	$n++;
	if (!defined $g) {
		next if $w < 0.05 + $tol + $eps;
		print "missing  $k: $w\n";
		$bad++;
	} elsif (!defined $w) {
		next if $g < 0.05 + $tol + $eps;
		print "extra    $k: $g\n";
		$bad++;
	} elsif (abs($w - $g) > $tol + $eps) {
		print "differs  $k: expected $w, got $g\n";
		$bad++;
	}
}
print "$n keys compared, $bad differences\n";
exit($bad ? 1 : 0);
