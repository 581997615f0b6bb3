#!/bin/bash
# test-kill-table.sh - the mutants' kill table (scripts/kill-table.sh) on
# rounds written here: killed only when as expected in every round, the
# reason when not, the leap rounds in which the killer tests failed, and the
# exit status.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
kt() { "$ROOT/scripts/kill-table.sh" "$@"; }

# row CELL MUTANT VERDICT OK FAILED ROUNDS: one cell of one round (FAILED a
# comma list, ROUNDS its leap_rounds as JSON: each round's failed checks).
row() {
	jq -n --arg cell "$1" --argjson mutant "$2" --arg verdict "$3" --argjson ok "$4" --arg failed "$5" --argjson rounds "$6" '
		{cell: $cell, mutant: $mutant, variant: ($cell | sub("^6.1-x86_64-"; "")), arch: "x86_64",
		 verdict: $verdict, ok: $ok, expected: (if $mutant then ["FAIL"] else ["PASS"] end),
		 failed_tests: ($failed | split(",") | map(select(. != ""))),
		 killer_tests: (if $mutant then ["leap_edge"] else [] end), killer_splat: "",
		 leap_rounds: $rounds}'
}
round() { jq -s . >"$w/$1.json"; }
{ row 6.1-x86_64-stock false PASS true "" '[[], []]'
  row 6.1-x86_64-M3 true FAIL true leap_edge '[["leap_edge"], []]'
  row 6.1-x86_64-M1 true FAIL true leap_edge,cancel_on_set '[["leap_edge", "cancel_on_set"], ["cancel_on_set"]]'; } | round r1
{ row 6.1-x86_64-stock false PASS true "" '[[], []]'
  row 6.1-x86_64-M3 true FAIL true leap_edge '[[], ["leap_edge"]]'
  row 6.1-x86_64-M1 true FAIL false cancel_on_set '[["cancel_on_set"], ["cancel_on_set"]]'; } | round r2

out=$(kt 2 "$w" "$w/r1.json" "$w/r2.json") && rc=0 || rc=$?
check_eq "a mutant not killed in one round: exit 1" 1 "$rc"
line() { grep "^$1 " <<<"$out" | tr -s ' '; }
check_eq "M3 killed in both rounds, its killer in 2 of 4 leap rounds" "M3 x86_64 FAIL FAIL yes 2/2 2/4 leap_edge" "$(line M3)"
check_eq "M1 not killed in round 2, and why" "M1 x86_64 FAIL FAIL no 1/2 (not leap_edge) 1/4 cancel_on_set,leap_edge" "$(line M1)"
check_eq "stock: no leap-round count" "(stock) x86_64 PASS PASS - -" "$(line '(stock)' | sed 's/ $//')"
check "the summary counts the kills" grep -qx "mutants: 1/2 killed for their reason in 2 of 2 rounds; stock: x86_64 PASS,PASS" <<<"$out"
check_eq "the table is written too" "$out" "$(cat "$w/kill-table.txt")"
check_eq "kills.json: one row per cell" 3 "$(jq length "$w/kills.json")"

# Every cell as expected in every round: exit 0; a round without results: not.
{ row 6.1-x86_64-stock false PASS true "" '[]'; row 6.1-x86_64-M3 true FAIL true leap_edge '[]'; } | round ok
check "all as expected: exit 0" kt 1 "$w" "$w/ok.json"
check "no leap rounds recorded (one round a boot): no count" grep -q "^M3 .* yes 1/1 *- *leap_edge$" <<<"$(kt 1 "$w" "$w/ok.json")"
check "a round missing its results: exit 1" not kt 2 "$w" "$w/ok.json"
check "no results at all: exit 1" not kt 1 "$w"
check "ROUNDS not a number: refused" not kt x "$w" "$w/ok.json"
finish kill-table
