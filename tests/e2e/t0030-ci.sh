#!/usr/bin/env bash
# CI never skips the corpus tests: .ci/run fails before doing anything when ../shared/testdata
# is missing, and with KPROF_REQUIRE_SHARED=1 a check that needs the corpus fails instead of
# skipping.
. "$(dirname "$0")/lib.sh"

test_expect_success '.ci/run fails when ../shared/testdata is missing' '
	mkdir -p repo/.ci &&
	cp "$KPROF_SRC/.ci/run" repo/.ci/run &&
	printf "#!/bin/sh\necho installing\n" >repo/.ci/install-deps && chmod +x repo/.ci/install-deps &&
	test_must_fail repo/.ci/run >out 2>err &&
	grep "shared/testdata is missing" err &&
	! grep installing out
'

test_expect_success 'a corpus check fails, not skips, under KPROF_REQUIRE_SHARED=1 without it' '
	cat >corpus.sh <<-\EOT &&
	. "$KPROF_SRC/tests/e2e/lib.sh"
	test_expect_success SHARED "needs the corpus" "true"
	test_done
	EOT
	KPROF_SHARED=/nonexistent KPROF_REQUIRE_SHARED=0 bash corpus.sh >plain.tap &&
	grep "^ok 1 # skip needs the corpus (missing SHARED)" plain.tap &&
	! KPROF_SHARED=/nonexistent KPROF_REQUIRE_SHARED=1 bash corpus.sh >ci.tap &&
	grep "^not ok 1 - needs the corpus" ci.tap
'

test_done
