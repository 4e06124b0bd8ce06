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

# A harness's scratch files are memfds (fuzz-common.h), never files in /tmp, which every replay
# and fuzzing run on a shared machine would leave behind. Each replay runs with a /tmp of its
# own (a private tmpfs in a mount namespace) that must be empty when it ends.
prereq_PRIVATE_TMP() {
	prereq_ROOT && command -v unshare >/dev/null &&
		case "$KPROF_SRC/ $KPROF_BUILD/ $PWD/" in /tmp/*|*" /tmp/"*) false ;; esac &&
		unshare -m --propagation private sh -c 'mount -t tmpfs kprof-tmp /tmp' 2>/dev/null
}
test_expect_success PRIVATE_TMP "fuzz harnesses leave no file behind in /tmp" '
	for h in "$KPROF_SRC"/tests/fuzz/fuzz-*.c; do
		name=$(basename "$h" .c) && name=${name#fuzz-} &&
		seeds=$KPROF_SRC/tests/fuzz/corpus/$name &&
		{ [ -d "$seeds" ] || seeds=$KPROF_SRC/tests/fuzz/regress/$name; } &&
		TMPDIR=/tmp unshare -m --propagation private sh -c "
			mount -t tmpfs kprof-tmp /tmp || exit 1
			\"\$1\" \"\$2\" >/dev/null 2>&1; ls -A /tmp" sh \
			"$KPROF_BUILD/tests/fuzz/replay-$name" "$seeds" >left-$name &&
		{ test ! -s left-$name || { echo "$name left: $(cat left-$name)"; false; }; } ||
		exit 1
	done
'

test_done
