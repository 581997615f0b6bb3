#!/bin/bash
# test-readiness.sh - the readiness page: its check sentences are the leap
# test's checks, and a recorded run's kernel gets a page that says what the
# guest printed (ready, or not ready naming the failed checks).
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# The sentences name report.c's top-level tests, in its order.
check_eq "checks.txt names report.c's tests, in order" \
	"$(sed -n '/^static const struct top_test tests\[\] = {/,/^};/p' "$ROOT/common-tests/report.c" | grep -o '\.name = "[a-z_]*"' | cut -d'"' -f2 | paste -sd' ')" \
	"$(grep -v '^#' "$ROOT/common-tests/checks.txt" | cut -d'|' -f1 | paste -sd' ')"
check_eq "every line has a name and two sentences" 0 "$(grep -v '^#' "$ROOT/common-tests/checks.txt" | awk -F'|' 'NF != 3 || $2 == "" || $3 == ""' | wc -l)"

# A recorded run (tests/fixtures/run-6.1), its passed checks read again from
# each console by verdict.sh, as boot-cell.sh records them now.
cp -r "$ROOT/tests/fixtures/run-6.1" "$w/run"
for d in "$w"/run/cells/*/; do
	p=$("$ROOT/scripts/verdict.sh" "$d/console.log" 0 | sed -n 's/^passed=//p')
	jq --arg p "$p" '.passed_tests = ($p | split(",") | map(select(. != "")))' "$d/cell.json" >"$d/c" && mv "$d/c" "$d/cell.json"
done
check "verdict.sh names the passed checks" grep -q "leap_edge" <(jq -r '.passed_tests | join(" ")' "$w/run/cells/6.1-x86_64-stock/cell.json")
out=$("$ROOT/scripts/readiness.sh" "$w/run" 6.1-x86_64-stock "$w/pages")
check_eq "one kernel's page, Markdown and HTML" 2 "$(grep -c . <<<"$out")"
md=$(grep '\.md$' <<<"$out")
check "the page answers first: ready" grep -q '^\*\*ready: PASS in every boot mode run (default)\*\*' "$md"
check "each check in a sentence, its result per boot mode" \
	grep -q '^| leap_edge | a timer for 00:00:00 fires when 00:00:00 comes, after the inserted second, not during 23:59:60 | ok |' "$md"
check "the other variants show the test catches the bug: regress FAIL as expected" \
	grep -q '^| 6.1-x86_64-regress | FAIL | FAIL | yes |' "$md"
check "the arm64 cells are another kernel's page" not grep -q 'arm64' "$md"
check "the reproducer" grep -q '^make cell CELL=6.1-x86_64-stock' "$md"
check "the HTML page has the same answer" grep -q 'class="answer ok">ready: PASS' "$(grep '\.html$' <<<"$out")"

# A kernel that fails: the answer says so and names the check, whose row
# gives what the failure means.
c=$w/run/cells/6.1-x86_64-stock/cell.json
jq '.verdict = "FAIL" | .ok = false | .failed_tests = ["leap_edge"] | .passed_tests -= ["leap_edge"]' "$c" >"$c.new" && mv "$c.new" "$c"
md=$("$ROOT/scripts/readiness.sh" "$w/run" 6.1-x86_64-stock "$w/pages2" | grep '\.md$')
check "a FAIL: not ready, naming the check" grep -q '^\*\*NOT ready: FAIL in default (leap_edge)\*\*' "$md"
check "a FAIL: the row says what the failure means" grep -q '^| leap_edge | \*\*a timer for midnight fires during 23:59:60' "$md"
check "a FAIL: the row's result" grep -q 'FAILED |$' <(grep '^| leap_edge' "$md")
# A PASS that left an essential check unproven is not called ready.
jq '.verdict = "PASS" | .ok = false | .failed_tests = [] | .unproven = ["adjtimex_at_leap"] | .skipped_tests = [{test: "adjtimex_at_leap", reason: "insert: 0 samples"}] | .passed_tests -= ["adjtimex_at_leap"]' "$c" >"$c.new" && mv "$c.new" "$c"
md=$("$ROOT/scripts/readiness.sh" "$w/run" 6.1-x86_64-stock "$w/pages5" | grep '\.md$')
check "an unproven PASS: not called ready, the check named" grep -q '^\*\*PASS in every boot mode run (default), but not proven: adjtimex_at_leap in default' "$md"
check "an unproven PASS: the check's row says skipped and why" grep -q '^| adjtimex_at_leap | .* | skipped: insert: 0 samples |$' "$md"
# Every kernel of the run without CELL: one page each (x86_64 and arm64).
check_eq "the whole run: a page per kernel" 4 "$("$ROOT/scripts/readiness.sh" "$w/run" "" "$w/pages3" | grep -c .)"
out=$("$ROOT/scripts/readiness.sh" "$w/run" 6.1-x86_64-bogus "$w/pages4" 2>&1) && rc=0 || rc=$?
check_eq "a cell not in the run: exit 2" 2 "$rc"
check_eq "a cell not in the run: one line" 1 "$(grep -c . <<<"$out")"

finish test-readiness
