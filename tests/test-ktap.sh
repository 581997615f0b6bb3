#!/bin/bash
# test-ktap.sh - the leap test's real output (consoles recorded from guests)
# parses with the kernel's own KTAP parser, tools/testing/kunit/kunit.py, with
# the expected counts.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
kunit=$(packaged_tree)/tools/testing/kunit/kunit.py
parse() { python3 "$kunit" parse "$1" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' | grep 'Testing complete' | sed 's/^\[[^]]*\] //'; }

for log in "$ROOT"/tests/fixtures/6.1-*-stock.log; do
	check_eq "kunit.py parses $(basename "$log")" "Testing complete. Ran 21 tests: passed: 21" "$(parse "$log")"
done
for log in "$ROOT"/tests/fixtures/6.1-*-regress.log; do
	[ -f "$log" ] || continue
	check_eq "kunit.py parses $(basename "$log")" "Testing complete. Ran 21 tests: passed: 9, failed: 12" "$(parse "$log")"
done
check "a stock log was checked" test -f "$ROOT/tests/fixtures/6.1-x86_64-stock.log"
finish ktap
