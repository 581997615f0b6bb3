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

# packaged_tree: the Debian tree of the reference branch (harness.mk;
# fetched once, then reused), whose checkpatch.pl, kunit.py and kernel/time/
# several tests use.
packaged_tree() {
	local b
	b=$("$ROOT/scripts/plan.sh" role reference) || return 1
	"$ROOT/scripts/fetch-tree.sh" "$("$ROOT/scripts/plan.sh" get "$b" PACKAGE)" "$("$ROOT/scripts/plan.sh" get "$b" SUITES)" \
		"$(realpath -m "${BUILD_DIR:-$ROOT/build}")"
}
