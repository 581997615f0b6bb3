#!/bin/bash
# run-unit-tests.sh - every host-side test: the leap test's logic, the verdict
# parser, matrix planning, patch stacks, series checks, host refusal, shellcheck.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
total_pass=0 total_fail=0
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

tally() { # output of one suite: its "NAME: N passed, M failed" line counts
	local line
	line=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		echo "  (no result line: counted as one failure)"
		total_fail=$((total_fail + 1))
		return
	fi
	read -r _ p _ f _ <<<"$line"
	total_pass=$((total_pass + p)) total_fail=$((total_fail + f))
}

echo "== logic (common-tests/test_logic.c)"
if cc -Wall -Wextra -Werror -O2 -o "$w/test_logic" "$root/common-tests/test_logic.c" "$root/common-tests/logic.c"; then
	"$w/test_logic" | tee "$w/out"
else
	echo "logic: 0 passed, 1 failed" | tee "$w/out"
fi
tally "$w/out"

for t in "$root"/tests/test-*.sh; do
	echo "== $(basename "$t")"
	bash "$t" 2>&1 | tee "$w/out"
	tally "$w/out"
done

echo "== shellcheck"
cd "$root" || exit 1
files=(scripts/*.sh initramfs-builder/*.sh tests/*.sh tests/ci-validators/*.sh .ci/run)
if shellcheck -x "${files[@]}"; then
	echo "shellcheck: ${#files[@]} passed, 0 failed"; total_pass=$((total_pass + ${#files[@]}))
else
	echo "shellcheck: 0 passed, 1 failed"; total_fail=$((total_fail + 1))
fi

echo "unit tests: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
