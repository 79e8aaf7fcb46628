#!/usr/bin/perl
# Runs Chess::Elo's elo() on cases read from stdin and prints its answers as exact doubles.
#
# Usage: perl -I<dir holding Chess/Elo.pm> elo_classic_driver.pl < cases.txt
# Input: one case per line, "A result B factor divisor" (numbers as Perl reads them).
# Output: one line per case, "A result B factor divisor A2 B2", each printed with %.17g so the
# doubles survive the trip exactly (the inputs are echoed to prove Perl read what was meant).
use strict;
use warnings;
use Chess::Elo qw(elo);

while (my $line = <STDIN>) {
    chomp $line;
    next if $line eq '';
    my ($A, $result, $B, $factor, $divisor) = split ' ', $line;
    local $Chess::Elo::factor  = $factor;
    local $Chess::Elo::divisor = $divisor;
    my ($A2, $B2) = elo($A, $result, $B);
    printf "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
        $A, $result, $B, $factor, $divisor, $A2, $B2;
}
