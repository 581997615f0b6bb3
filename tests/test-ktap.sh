#!/bin/bash
# tier: full (kunit.py comes from the reference branch's packaged tree)
# test-ktap.sh - the leap test's real output (the consoles of fixtures/run-6.1,
# recorded from guests) parses with the kernel's own KTAP parser,
# tools/testing/kunit/kunit.py, with the expected counts; and a console with
# a result missing does not.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
kunit=$(packaged_tree)/tools/testing/kunit/kunit.py
run=$ROOT/tests/fixtures/run-6.1
parse() { python3 "$kunit" parse "$1" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | grep 'Testing complete' | sed 's/^\[[^]]*\] //'; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

for c in x86_64-stock arm64-stock x86_64-fixed arm64-fixed; do
	check_eq "kunit.py parses 6.1-$c" "Testing complete. Ran 44 tests: passed: 44" "$(parse "$run/cells/6.1-$c/console.log")"
done
for c in x86_64-regress arm64-regress; do
	check_eq "kunit.py parses 6.1-$c" "Testing complete. Ran 44 tests: passed: 26, failed: 18" "$(parse "$run/cells/6.1-$c/console.log")"
done
# A broken console: a top-level result gone.  The plan says 14, so the
# parser must not report the full count.
grep -v '^ok 9 ' "$run/cells/6.1-x86_64-stock/console.log" >"$w/cut.log"
cut=$(parse "$w/cut.log")
check "a console missing a result: kunit.py still says something" test -n "$cut"
check "... and not the full count" not grep -qx "Testing complete. Ran 44 tests: passed: 44" <<<"$cut"
finish ktap
