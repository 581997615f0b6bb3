#!/bin/bash
# test-report.sh - the reports of a run, made from recorded real cells
# (fixtures/run-6.1: the 6.1 cells as the harness left them): the table and
# its summary line, results.json, junit.xml, and index.html (grid, chart bar
# heights) rendered in headless Chromium with a screenshot.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp -r "$ROOT/tests/fixtures/run-6.1" "$w/run"
run=$w/run
order=$(paste -sd " " "$run/cells.list")

out=$("$ROOT/scripts/report.sh" "$run") && rc=0 || rc=$?
check_eq "all 8 recorded cells as expected: exit 0" 0 "$rc"
check "LKFT-style summary line" grep -qx "cells: 8 total, 8 as expected, 0 unexpected (wall ? s)" <<<"$out"
check_eq "table rows in run order" "$order" "$(sed -n '2,9p' "$run/table.txt" | cut -d' ' -f1 | paste -sd ' ')"
check_eq "results.json: 8 cells in run order" "$order" "$(jq -r '.[].cell' "$run/results.json" | paste -sd ' ')"
check_eq "results.json: every key of every cell" 8 "$(jq '[.[] | select(has("cell") and has("verdict") and has("expected") and has("ok")
	and has("metrics") and has("build_s") and has("boot_s") and has("console") and has("plan") and has("reproducer"))] | length' "$run/results.json")"
check_eq "results.json: paths relative to the run directory" "" "$(jq -r '.[] | .console, .plan | select(startswith("/"))' "$run/results.json")"
check "results.json: each console is where it says" test "$(jq -r '.[].console' "$run/results.json" | while read -r c; do [ -f "$run/$c" ] && echo y; done | grep -c y)" -eq 8
check "table.md: a Markdown row per cell" test "$(grep -c '^| 6.1-' "$run/table.md")" -eq 8
check "junit.xml parses, 8 testcases, 0 failures" python3 -c "
import xml.etree.ElementTree as ET, sys
s = ET.parse('$run/junit.xml').getroot().find('testsuite')
sys.exit(not (len(s.findall('testcase')) == 8 and s.get('failures') == '0'))"

# The chart: bar height is log10(wakeups/s) of a 260-pixel, 5-decade axis, so
# above 1000/s is taller than 156 and a correct 100/s at most 104.
height() { # CELL: the height of its bar in index.html (0: no bar)
	grep -o "<rect class=\"bar\" data-cell=\"$1\"[^>]*" "$run/index.html" | sed -n 's/.* height="\([0-9]*\)".*/\1/p' | grep . || echo 0
}
check "chart: the regress spike (above 1000/s) is taller than 156" test "$(height 6.1-x86_64-regress)" -gt 156
check "chart: a stock bar (about 100/s) is at most 104" test "$(height 6.1-x86_64-stock)" -le 104
# The same check on a run whose regress cell measured no spike: it must fail.
cp -r "$run" "$w/calm"
jq '.metrics.wakeups_per_s = 90' "$w/calm/cells/6.1-x86_64-regress/cell.json" >"$w/c.json"
mv "$w/c.json" "$w/calm/cells/6.1-x86_64-regress/cell.json"
"$ROOT/scripts/report.sh" "$w/calm" >/dev/null || true
check "chart check fails on a run without the spike" not test "$(run=$w/calm height 6.1-x86_64-regress)" -gt 156

# Two runners' halves merged: one report, consoles still found (relative paths).
mkdir -p "$w/a/cells" "$w/b/cells"
for c in $order; do case "$c" in *x86_64*) cp -r "$run/cells/$c" "$w/a/cells/" ;; *) cp -r "$run/cells/$c" "$w/b/cells/" ;; esac; done
echo 100 >"$w/a/wall_s"
echo 23 >"$w/b/wall_s"
"$ROOT/scripts/merge-results.sh" "$w/merged" "$w/a" "$w/b" >/dev/null && rc=0 || rc=$?
check_eq "merged halves: exit 0, 8 cells" "0 8" "$rc $(jq length "$w/merged/results.json")"
check "merged: the wall is the parts' walls added" grep -qx "cells: 8 total, 8 as expected, 0 unexpected (wall 123 s)" "$w/merged/table.txt"
check "merged: junit and index.html written" test -s "$w/merged/junit.xml" -a -s "$w/merged/index.html"
check_eq "merged: every console found" 8 "$(jq -r '.[].console' "$w/merged/results.json" | while read -r c; do [ -f "$w/merged/$c" ] && echo y; done | grep -c y)"

# The same halves and a third runner's cells of the five other arches
# (fixtures/run-arches: real cells of two trees): one report over seven arches.
"$ROOT/scripts/merge-results.sh" "$w/all" "$w/a" "$w/b" "$ROOT/tests/fixtures/run-arches" >/dev/null && rc=0 || rc=$?
all=$w/all
check_eq "seven arches merged: exit 0, 13 cells" "0 13" "$rc $(jq length "$all/results.json")"
check_eq "seven arches merged: every arch in results.json" "arm64 armhf i386 ppc64el riscv64 s390x x86_64" \
	"$(jq -r '[.[].arch] | unique | join(" ")' "$all/results.json")"
check "seven arches merged: a part without a wall, so no wall" grep -q "(wall ? s)" "$all/table.txt"
check_eq "seven arches merged: a table row per cell" 13 "$(grep -cE '^[0-9.]+-[a-z0-9_]+-' "$all/table.txt")"
check_eq "seven arches merged: every console found" 13 "$(jq -r '.[].console' "$all/results.json" | while read -r c; do [ -f "$all/$c" ] && echo y; done | grep -c y)"
check_eq "junit: a class per branch and arch, no failure" "6.1.arm64 6.1.armhf 6.1.i386 6.1.ppc64el 6.1.s390x 6.1.x86_64 7.3.riscv64 0" \
	"$(python3 -c "
import xml.etree.ElementTree as ET
s = ET.parse('$all/junit.xml').getroot().find('testsuite')
print(' '.join(sorted({t.get('classname') for t in s.iter('testcase')})), s.get('failures'))")"
check_eq "grid: the five new arches' columns" 5 "$(grep -cE '<th>(i386<br>regress|armhf<br>naive|ppc64el<br>stock|s390x<br>regress|riscv64<br>fixed)</th>' "$all/index.html")"
check "grid: a row for 7.3, its riscv64 cell green" grep -q '<tr><th>7.3</th>.*<td class="ok" data-cell="7.3-riscv64-fixed"' "$all/index.html"

# A PASS with a check skipped (leaptest.skip=) names it in every report.
cp -r "$run" "$w/skip"
jq '.skipped_tests = ["leap_edge"]' "$w/skip/cells/6.1-x86_64-fixed/cell.json" >"$w/c.json"
mv "$w/c.json" "$w/skip/cells/6.1-x86_64-fixed/cell.json"
"$ROOT/scripts/report.sh" "$w/skip" >/dev/null
check_eq "skipped: results.json names the check" "leap_edge" "$(jq -r '.[] | select(.cell == "6.1-x86_64-fixed") | .skipped_tests | join(",")' "$w/skip/results.json")"
check "skipped: the table says it" grep -q '^6.1-x86_64-fixed .*PASS.*skipped: leap_edge' "$w/skip/table.txt"
check "skipped: the HTML cell says it" grep -q 'data-cell="6.1-x86_64-fixed"[^<]*><a [^>]*>PASS</a><br><small class="skipped">skipped: leap_edge</small>' "$w/skip/index.html"
check "skipped: junit says it" grep -q 'name="6.1-x86_64-fixed".*skipped=leap_edge' "$w/skip/junit.xml"
# Today's record: each skip with its reason, and what the PASS did not prove.
jq '.skipped_tests = [{test: "leap_edge", reason: "insert: timers tick-bound on cpu 0"}] | .unproven = ["leap_edge"]' \
	"$w/skip/cells/6.1-x86_64-fixed/cell.json" >"$w/c.json"
mv "$w/c.json" "$w/skip/cells/6.1-x86_64-fixed/cell.json"
"$ROOT/scripts/report.sh" "$w/skip" >/dev/null
check "unproven: the table says it, before the skips" grep -q '^6.1-x86_64-fixed .*PASS.*unproven: leap_edge; skipped: leap_edge' "$w/skip/table.txt"
check "unproven: the markdown table too" grep -q '^| 6.1-x86_64-fixed | .* | PASS (unproven: leap_edge; skipped: leap_edge' "$w/skip/table.md"
check "unproven: the HTML cell says it" grep -q 'data-cell="6.1-x86_64-fixed"[^<]*><a [^>]*>PASS</a><br><small class="unproven">unproven: leap_edge</small><br><small class="skipped">skipped: leap_edge</small>' "$w/skip/index.html"
check "unproven: junit says it" grep -q 'name="6.1-x86_64-fixed".*unproven=leap_edge skipped=leap_edge' "$w/skip/junit.xml"

# An unexpected verdict: the table says so, exit 1, junit carries the console.
jq '.verdict = "FAIL" | .ok = false' "$run/cells/6.1-arm64-fixed/cell.json" >"$w/c.json"
mv "$w/c.json" "$run/cells/6.1-arm64-fixed/cell.json"
out=$("$ROOT/scripts/report.sh" "$run") && rc=0 || rc=$?
check_eq "one unexpected cell: exit 1" 1 "$rc"
check "summary counts it" grep -q "cells: 8 total, 7 as expected, 1 unexpected" <<<"$out"
check "junit failure carries the console" python3 -c "
import xml.etree.ElementTree as ET, sys
f = [t.find('failure') for t in ET.parse('$run/junit.xml').getroot().iter('testcase') if t.find('failure') is not None]
sys.exit(not (len(f) == 1 and 'KTAP version 1' in f[0].text))"

html=$run/index.html
check "index.html needs no network" not grep -qE 'src="http|href="http|<script' "$html"
if command -v chromium >/dev/null; then
	flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
		--disable-component-update --disable-sync "--window-size=1200,900")
	timeout 120 chromium "${flags[@]}" --user-data-dir="$w/p1" --dump-dom "file://$html" >"$w/dom.html" 2>/dev/null || true
	timeout 120 chromium "${flags[@]}" --user-data-dir="$w/p2" --screenshot="$w/shot.png" "file://$html" >/dev/null 2>&1 || true
	check_eq "rendered grid: 8 cells" 8 "$(grep -o '<td class="[a-z]*" data-cell=' "$w/dom.html" | wc -l)"
	check_eq "rendered grid: 1 unexpected (red)" 1 "$(grep -o '<td class="bad"' "$w/dom.html" | wc -l)"
	check_eq "rendered chart: a bar per cell with a figure" "$(jq '[.[] | select(.metrics.wakeups_per_s != null)] | length' "$run/results.json")" \
		"$(grep -o '<rect class="bar"' "$w/dom.html" | wc -l)"
	check "screenshot taken" test "$(stat -c %s "$w/shot.png" 2>/dev/null || echo 0)" -gt 10000
	mkdir -p "${BUILD_DIR:-$ROOT/build}"
	cp "$w/shot.png" "${BUILD_DIR:-$ROOT/build}/report-screenshot.png" 2>/dev/null || true
else
	echo "SKIP: the report rendered: no chromium here (apt-get install chromium)"
fi
# doc_section (make bench's tables in docs/results.md): a table replaces its
# own marked section and nothing else; a new one goes at the end.
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"
printf '# doc\n<!-- bench: old -->\nold bench\n<!-- /bench -->\nbetween\n<!-- bench-kconfig: old -->\nold kc\n<!-- /bench-kconfig -->\nend\n' >"$w/doc.md"
printf '<!-- bench: new -->\nnew bench\n<!-- /bench -->\n' >"$w/t1.md"
doc_section bench "$w/t1.md" "$w/doc.md" "Speed" >/dev/null
check_eq "doc_section: its own section replaced, the other kept" \
	"# doc|<!-- bench: new -->|new bench|<!-- /bench -->|between|<!-- bench-kconfig: old -->|old kc|<!-- /bench-kconfig -->|end" "$(paste -sd '|' "$w/doc.md")"
printf '<!-- bench-x: new -->\nx\n<!-- /bench-x -->\n' >"$w/t2.md"
doc_section bench-x "$w/t2.md" "$w/doc.md" "Speed of x" >/dev/null
check_eq "... a section not there yet: at the end, under its title" "end||## Speed of x|<!-- bench-x: new -->|x|<!-- /bench-x -->" "$(tail -n 6 "$w/doc.md" | paste -sd '|')"
finish report
