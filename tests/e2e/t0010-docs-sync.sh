#!/usr/bin/env bash
# The manual stays in step with the binary: every command kprof lists has a row in
# docs/kprof.md that links an existing page, and that page documents `kprof <command>`.
. "$(dirname "$0")/lib.sh"

commands=$("$KPROF" help | awk '/^commands:/ {on = 1; next} on && NF == 0 {exit} on {print $1}')

test_expect_success 'kprof lists at least one command' '[ -n "$commands" ]'

for c in $commands; do
	test_expect_success "command '$c' has a manual page that documents it" '
		row=$(grep -E "^\| \`$c\` \|" "$KPROF_SRC/docs/kprof.md") &&
		page=$(printf "%s\n" "$row" | sed -E "s/.*\(([^)]+\.md)\).*/\1/") &&
		[ -f "$KPROF_SRC/docs/$page" ] &&
		grep -q "kprof $c" "$KPROF_SRC/docs/$page"
	'
done

test_expect_success 'every command in docs/kprof.md exists in the binary' '
	for c in $(sed -nE "s/^\| \`([a-z-]+)\` \|.*/\1/p" "$KPROF_SRC/docs/kprof.md"); do
		printf "%s\n" $commands | grep -qx "$c" || { echo "documented but missing: $c"; exit 1; }
	done
'

test_done
