#!/usr/bin/env bash
# `kprof collapse` against stackcollapse-perf.pl's own test corpus (../shared/testdata/flamegraph):
# every input with every option the corpus has (pid tid kernel jit all addrs).
#
# --perl-compat must match the recorded Perl output byte for byte, except the 8 java --pid/--tid
# files upstream never re-recorded after the java tidying started to match "java-?" (the spec,
# profile-formats.md 1.7): for those, the expected output is the recorded file with that newer
# rule applied (leading 'L' removed from names with a '/' in java stacks), and the test also
# checks that the recorded file really differs. Without --perl-compat the only difference
# allowed is the last sample flushed at end of input: the output must equal --perl-compat's on
# the input followed by a blank line.
. "$(dirname "$0")/lib.sh"

test_have_prereq SHARED || test_skip_all "no test corpus in $KPROF_SHARED/testdata"
corpus=$KPROF_SHARED/testdata/flamegraph
stale=" perf-java-faults-01 perf-java-stacks-01 perf-java-stacks-02 perf-vertx-stacks-01 "

# The current upstream java rule applied to an old recording, re-merged and re-sorted.
unstale() {
	perl -ne '
		chomp; /^(.*) (\d+)$/ or die "bad line: $_\n";
		my ($stack, $count) = ($1, $2);
		my @f = split /;/, $stack, -1;
		if ($f[0] =~ /^java/) { for (@f[1 .. $#f]) { s/^L// if m:/: } }
		$sum{join(";", @f)} += $count;
		END { print "$_ $sum{$_}\n" for sort keys %sum }' "$1"
}

for opt in pid tid kernel jit all addrs; do
	for input in "$corpus"/*.txt; do
		name=$(basename "$input" .txt)
		expected=$corpus/results/$name-collapsed-$opt.txt
		export input expected opt
		case "$stale" in
		*" $name "*)
			if [ "$opt" = pid ] || [ "$opt" = tid ]; then
				test_expect_success "$name --$opt: stale upstream file, newer java rule" '
					unstale "$expected" >expected &&
					! cmp -s expected "$expected" &&
					"$KPROF" collapse --perl-compat --$opt "$input" >out &&
					test_cmp expected out
				'
				continue
			fi
		esac
		test_expect_success "$name --$opt matches stackcollapse-perf.pl" '
			"$KPROF" collapse --perl-compat --$opt "$input" >out &&
			test_cmp "$expected" out
		'
	done
done

for opt in pid tid kernel jit all addrs; do
	export opt
	test_expect_success "--$opt without --perl-compat: only the last sample is flushed" '
		for input in "$corpus"/*.txt; do
			{ cat "$input"; echo; } >padded &&
			"$KPROF" collapse --perl-compat --$opt padded >expected &&
			"$KPROF" collapse --$opt "$input" >out &&
			test_cmp expected out || exit 1
		done
	'
done

# A live oracle when the Perl script is installed (it is not packaged in Debian 12).
prereq_STACKCOLLAPSE() { command -v stackcollapse-perf.pl >/dev/null 2>&1; }
for opt in pid tid kernel jit all addrs; do
	export opt
	test_expect_success STACKCOLLAPSE "--$opt equals the installed stackcollapse-perf.pl" '
		for input in "$corpus"/*.txt; do
			stackcollapse-perf.pl --$opt "$input" >expected 2>/dev/null &&
			"$KPROF" collapse --perl-compat --$opt "$input" >out &&
			test_cmp expected out || exit 1
		done
	'
done

test_done
