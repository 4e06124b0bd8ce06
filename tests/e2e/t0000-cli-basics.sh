#!/usr/bin/env bash
# The command-line front door: help, version, usage errors and their exit codes.
. "$(dirname "$0")/lib.sh"

test_expect_success 'help lists the commands and exits 0' '
	"$KPROF" help >out &&
	grep -q "^usage: kprof" out
'

test_expect_success '--version prints the version' '
	"$KPROF" --version | grep -Eq "^kprof [0-9]+\.[0-9]+\.[0-9]+$"
'

test_expect_success 'no command is a usage error (2)' '
	rc=0; "$KPROF" 2>err || rc=$?; [ "$rc" -eq 2 ] && grep -q usage err
'

test_expect_success 'an unknown command is a one-line usage error (2)' '
	rc=0; "$KPROF" frobnicate 2>err || rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "frobnicate" err
'

test_expect_success 'an unknown global option is a usage error (2)' '
	rc=0; "$KPROF" --frobnicate 2>err || rc=$?; [ "$rc" -eq 2 ]
'

test_expect_success 'every command answers --help with exit 0' '
	for c in $("$KPROF" help | awk "/^commands:/ {on = 1; next} on && NF == 0 {exit} on { print \$1 }"); do
		"$KPROF" "$c" --help >out 2>&1 || { echo "$c --help failed"; exit 1; }
		grep -qi usage out || { echo "$c --help has no usage"; exit 1; }
	done
'

test_done
