#!/usr/bin/env bash
# The fuzz harnesses (tests/fuzz/) on their committed seeds and on the inputs of every crash
# fuzzing found (tests/fuzz/regress/NAME/): in this build (ASan+UBSan under SANITIZE=1), each
# input runs to the end -- no crash, no sanitizer report.
. "$(dirname "$0")/lib.sh"

for h in "$KPROF_SRC"/tests/fuzz/fuzz-*.c; do
	name=$(basename "$h" .c) name=${name#fuzz-}
	test_expect_success "fuzz harness $name: seeds and regression inputs replay cleanly" '
		bin=$KPROF_BUILD/tests/fuzz/replay-'"$name"' &&
		dirs="" &&
		for d in corpus regress; do
			if [ -d "$KPROF_SRC/tests/fuzz/$d/'"$name"'" ]; then
				dirs="$dirs $KPROF_SRC/tests/fuzz/$d/'"$name"'"
			fi
		done &&
		test -n "$dirs" &&
		rc=0 && "$bin" $dirs >out 2>err || rc=$? &&
		tail -5 err && test $rc = 0 &&
		test "$(grep -c "^replay: " err)" -ge 1 &&
		! grep -qE "runtime error|Sanitizer|ERROR: " err
	'
done

test_done
