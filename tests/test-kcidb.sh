#!/bin/bash
# test-kcidb.sh - a run's kcidb.json (scripts/kcidb.sh, which report.sh
# calls), from the recorded 6.1 cells (fixtures/run-6.1, copied): the shape
# scripts/planner/kcidb.py documents, in KCIDB's I/O schema v4 terms: one
# checkout per tree and version, one build per image, a `leaptest` test per
# cell and a `leaptest.<check>` per KTAP result, IDs that link and that a
# merged run keeps, ORIGIN= and RESULTS_URL=, a cell that never booted.
# (Checked once by hand against kcidb-io's own schema: docs/ci.md.)
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp -r "$ROOT/tests/fixtures/run-6.1" "$w/run"
run=$w/run
k=$run/kcidb.json
q() { jq -r "$@" "$k"; }

"$ROOT/scripts/report.sh" "$run" >"$w/out" && rc=0 || rc=$?
check_eq "report.sh: exit 0, and kcidb.json written" "0 yes" "$rc $([ -s "$k" ] && echo yes)"
check "report.sh names it" grep -q "kcidb.json" "$w/out"
check_eq "schema version 4, a minor number" "4 number" "$(q '"\(.version.major) \(.version.minor | type)"')"
check_eq "only KCIDB's top-level lists" "builds checkouts tests version" "$(q 'keys | join(" ")')"
check_eq "no null anywhere (KCIDB takes none)" 0 "$(jq '[.. | select(. == null)] | length' "$k")"

# Checkouts: one per tree and version.
check_eq "one checkout: Debian's 6.1 tree at its version" "leaptest_local:linux-source-6.1@6.1.192-3 linux-source-6.1 true" \
	"$(q '.checkouts[] | "\(.id) \(.tree_name) \(.valid)"')"
# Builds: one per image (8 variants and arches: 8 image keys).
check_eq "one build per image: 8, each its image key" \
	"$(for c in "$run"/cells/*/cell.json; do jq -r '.image | capture("-(?<k>[0-9a-f]{12})/").k' "$c"; done | sort | paste -sd ' ')" \
	"$(q '[.builds[].misc.image_key] | sort | join(" ")')"
check_eq "builds: id is ORIGIN:<image key>, on the checkout" 8 \
	"$(q '[.builds[] | select(.id == "leaptest_local:" + .misc.image_key and .checkout_id == "leaptest_local:linux-source-6.1@6.1.192-3")] | length')"
check_eq "builds: the kernel's ARCH, tiny, valid" "arm64 tiny true|x86_64 tiny true" \
	"$(q '[.builds[] | "\(.architecture) \(.config_name) \(.valid)"] | unique | join("|")')"
check_eq "builds: the compiler from the kernel's banner" "aarch64-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0|gcc (Debian 12.2.0-14+deb12u1) 12.2.0" \
	"$(q '[.builds[].compiler] | unique | join("|")')"

# Tests: per cell, leaptest and one per top-level KTAP result.
ktap=0
for c in "$run"/cells/*/console.log; do ktap=$((ktap + $(grep -cE '^(not )?ok [0-9]+ [a-z0-9_]+' "$c"))); done
check_eq "tests: a leaptest node per cell, a check per KTAP result" "8 $ktap" \
	"$(q '[.tests[] | select(.path == "leaptest")] | length') $(q '[.tests[] | select(.path | startswith("leaptest."))] | length')"
check_eq "tests: every ID unique, each on a build of this file" "$(q '.tests | length') 0" \
	"$(q '[.tests[].id] | unique | length') $(jq '[.builds[].id] as $b | [.tests[] | select(.build_id as $x | $b | index($x) | not)] | length' "$k")"
check_eq "tests: every check is one of report.c's table" "" \
	"$(comm -23 <(q '.tests[].path | select(startswith("leaptest.")) | ltrimstr("leaptest.")' | sort -u) \
		<(grep -o '{ \.name = "[a-z0-9_]*"' "$ROOT/common-tests/report.c" | cut -d'"' -f2 | sort -u))"
check_eq "regress x86_64: its failed checks FAIL, the others PASS" \
	"$(jq -r '.failed_tests | sort | join(" ")' "$run/cells/6.1-x86_64-regress/cell.json")" \
	"$(q '[.tests[] | select(.misc == null and (.comment | startswith("6.1-x86_64-regress:")) and .status == "FAIL") | .path | ltrimstr("leaptest.")] | sort | join(" ")')"
check_eq "... and 7 PASS" 7 "$(q '[.tests[] | select((.comment | startswith("6.1-x86_64-regress: ")) and .path != "leaptest" and .status == "PASS")] | length')"
check_eq "leaptest node: each cell's verdict; waived where its harness expects no PASS" \
	"6.1-x86_64-stock PASS false|6.1-x86_64-regress FAIL true|6.1-x86_64-naive FAIL true|6.1-x86_64-fixed PASS false|6.1-arm64-stock PASS false|6.1-arm64-regress FAIL true|6.1-arm64-naive FAIL true|6.1-arm64-fixed PASS false" \
	"$(q '[.tests[] | select(.path == "leaptest") | "\(.misc.cell) \(.status) \(.waived)"] | join("|")')"
check_eq "the console: log_url and output file, a file that is there" 0 \
	"$(q '.tests[] | select(.path == "leaptest") | .output_files[0].url' | while read -r u; do [ "$u" = "file://$run/cells/${u#"file://$run/cells/"}" ] && [ -f "${u#file://}" ] || echo "$u"; done | wc -l)"
check "a check's excerpt is its own KTAP lines" grep -q '# Subtest: leap_edge' <<<"$(q '.tests[] | select(.path == "leaptest.leap_edge") | .log_excerpt' | head -n 40)"
check_eq "excerpts within KCIDB's 16384 characters" 0 "$(q '[.tests[] | select((.log_excerpt // "") | length > 16384)] | length')"
check_eq "load_after_insert carries the wake-ups figure" "$(jq '.metrics.wakeups_per_s' "$run/cells/6.1-x86_64-regress/cell.json") wakeups/s" \
	"$(q '.tests[] | select(.path == "leaptest.load_after_insert" and (.comment | startswith("6.1-x86_64-regress:"))) | "\(.number.value) \(.number.unit)"')"
check_eq "the patterns of KCIDB's v4 schema: origin, IDs, architecture, path" 0 \
	"$(jq '[(.checkouts[], .builds[], .tests[]) | select((.origin | test("^[a-z0-9_]+$") | not) or (.origin as $o | .id | startswith($o + ":") | not))] +
		[.builds[] | select(.architecture | test("^[a-z0-9_]*$") | not)] + [.tests[] | select(.path | test("^[.a-zA-Z0-9_-]*$") | not)] +
		[.tests[] | select(.status | IN("FAIL", "ERROR", "MISS", "PASS", "DONE", "SKIP") | not)] | length' "$k")"

# ORIGIN= and RESULTS_URL=.
ORIGIN=my_lab RESULTS_URL=https://example.org/runs/r1 "$ROOT/scripts/kcidb.sh" "$run"
check_eq "ORIGIN=: every object and ID is that origin's" 0 "$(jq '[(.checkouts[], .builds[], .tests[]) | select(.origin != "my_lab" or (.id | startswith("my_lab:") | not))] | length' "$k")"
check "RESULTS_URL=: the consoles' URLs under it" test "$(q '.tests[0].log_url')" = "https://example.org/runs/r1/cells/6.1-x86_64-stock/console.log"
err=$(ORIGIN=My-Lab "$ROOT/scripts/kcidb.sh" "$run" 2>&1) && rc=0 || rc=$?
check_eq "a bad ORIGIN: one line, exit 2" "2 1" "$rc $(grep -c '^kcidb: ORIGIN=My-Lab' <<<"$err")"

# A merged run: the same objects, the same IDs.
mkdir -p "$w/a/cells" "$w/b/cells"
for c in "$run"/cells/*x86_64*; do cp -r "$c" "$w/a/cells/"; done
for c in "$run"/cells/*arm64*; do cp -r "$c" "$w/b/cells/"; done
"$ROOT/scripts/kcidb.sh" "$run"
"$ROOT/scripts/merge-results.sh" "$w/merged" "$w/a" "$w/b" >/dev/null
check "merged run: kcidb.json written" test -s "$w/merged/kcidb.json"
check_eq "merged run: the same checkouts, builds and test IDs" \
	"$(jq -c '[.checkouts[].id, .builds[].id, .tests[].id] | sort' "$k")" "$(jq -c '[.checkouts[].id, .builds[].id, .tests[].id] | sort' "$w/merged/kcidb.json")"

# A cell that never reached the leap test, and one whose build failed.
cp -r "$run" "$w/odd"
head -n 20 "$run/cells/6.1-x86_64-stock/console.log" >"$w/odd/cells/6.1-x86_64-stock/console.log"
jq '.verdict = "BOOTFAIL" | .ok = false | .reason = "the leap test never started"' "$run/cells/6.1-x86_64-stock/cell.json" >"$w/odd/cells/6.1-x86_64-stock/cell.json"
rm "$w/odd/cells/6.1-arm64-fixed/console.log"
jq '.verdict = "ERROR" | .image = null | .reason = "build failed"' "$run/cells/6.1-arm64-fixed/cell.json" >"$w/odd/cells/6.1-arm64-fixed/cell.json"
"$ROOT/scripts/kcidb.sh" "$w/odd"
ko=$w/odd/kcidb.json
check_eq "BOOTFAIL: the leaptest node alone, ERROR" "leaptest ERROR" \
	"$(jq -r '[.tests[] | select(.id | contains(":6.1-x86_64-stock.")) | "\(.path) \(.status)"] | join("|")' "$ko")"
check_eq "a failed build: not valid, its leaptest ERROR without a console" "false leaptest ERROR 0" \
	"$(jq -r '(.builds[] | select(.misc.arch == "arm64" and .misc.variant == "fixed") | .valid),
		([.tests[] | select(.id | contains(":6.1-arm64-fixed.")) | "\(.path) \(.status) \(.output_files // [] | length)"] | join("|"))' "$ko" | paste -sd ' ')"
finish kcidb
