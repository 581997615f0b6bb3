#!/bin/bash
# lib.sh - the assertions the shell unit tests share.  Source it, call check
# and check_eq, end with finish.
# shellcheck shell=bash
passed=0 failed=0
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export ROOT

check() { # DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

check_eq() { # DESCRIPTION EXPECTED ACTUAL
	if [ "$2" = "$3" ]; then passed=$((passed + 1)); else
		failed=$((failed + 1)); printf 'FAIL: %s\n  expected: %s\n  actual:   %s\n' "$1" "$2" "$3"
	fi
}

finish() { # NAME
	echo "$1: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

not() { ! "$@"; }

# packaged_tree: the Debian 6.1 tree (fetched once, then reused), whose
# checkpatch.pl, kunit.py and kernel/time/ several tests use.
packaged_tree() {
	"$ROOT/scripts/fetch-tree.sh" linux-source-6.1 "$("$ROOT/scripts/plan.sh" get 6.1 SUITES)" \
		"$(realpath -m "${BUILD_DIR:-$ROOT/build}")"
}
