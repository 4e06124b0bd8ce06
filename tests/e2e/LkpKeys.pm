# LkpKeys.pm - reading a file of LKP keys ("perf-profile.KEY: VALUE" lines), for the key
# comparators (lkp-keys-compare.pl, lkp-keys-compare-perf-tree.pl).
package LkpKeys;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT_OK = ('load_keys');

# load_keys FILE: a hash reference KEY => VALUE; dies naming the file on a line of another form
sub load_keys {
	my ($file) = @_;
	my %h;
	open my $fh, '<', $file or die "$file: $!\n";
	while (<$fh>) {
		chomp;
		/^(\S+): (-?[0-9.]+)$/ or die "$file: bad line '$_'\n";
		$h{$1} = $2;
	}
	return \%h;
}

1;
