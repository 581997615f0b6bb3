#!/bin/bash
# test-report.sh - the reports of a run, made from recorded real cells
# (fixtures/run-6.1: consoles of 6.1 guests): the table and its summary line,
# results.json, junit.xml, and index.html rendered in headless Chromium (grid
# and chart present, screenshot taken).
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cp -r "$ROOT/tests/fixtures/run-6.1" "$w/run"
printf '%s\n' 6.1-x86_64-stock 6.1-x86_64-regress 6.1-x86_64-naive 6.1-x86_64-fixed \
	6.1-arm64-stock 6.1-arm64-regress 6.1-arm64-naive 6.1-arm64-fixed >"$w/run/cells.list"

out=$("$ROOT/scripts/report.sh" "$w/run") && rc=0 || rc=$?
check_eq "all 8 recorded cells as expected: exit 0" 0 "$rc"
check "LKFT-style summary line" grep -qx "cells: 8 total, 8 as expected, 0 unexpected (wall ? s)" <<<"$out"
check_eq "rows in run order" "6.1-x86_64-stock" "$(sed -n 2p "$w/run/table.txt" | cut -d' ' -f1)"
check "results.json is JSON with 8 cells" python3 -c "
import json, sys
r = json.load(open('$w/run/results.json'))
keys = {'cell', 'branch', 'arch', 'variant', 'tree_version', 'verdict', 'expected', 'ok', 'metrics', 'build_s', 'boot_s', 'console', 'image'}
sys.exit(not (len(r) == 8 and all(keys <= set(c) for c in r)))"
check "junit.xml parses, 8 testcases, 0 failures" python3 -c "
import xml.etree.ElementTree as ET, sys
s = ET.parse('$w/run/junit.xml').getroot().find('testsuite')
sys.exit(not (len(s.findall('testcase')) == 8 and s.get('failures') == '0'))"

# An unexpected verdict: the table says so, exit 1, junit carries the console.
sed -i 's/\tPASS\tPASS\ttrue\t/\tFAIL\tPASS\tfalse\t/' "$w/run/cells/6.1-arm64-fixed/cell.tsv"
out=$("$ROOT/scripts/report.sh" "$w/run") && rc=0 || rc=$?
check_eq "one unexpected cell: exit 1" 1 "$rc"
check "summary counts it" grep -q "cells: 8 total, 7 as expected, 1 unexpected" <<<"$out"
check "junit failure carries the console" python3 -c "
import xml.etree.ElementTree as ET, sys
f = [t.find('failure') for t in ET.parse('$w/run/junit.xml').getroot().iter('testcase') if t.find('failure') is not None]
sys.exit(not (len(f) == 1 and 'KTAP version 1' in f[0].text))"

html=$w/run/index.html
check "index.html needs no network" not grep -qE 'src="http|href="http|<script' "$html"
if command -v chromium >/dev/null; then
	flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking
		--disable-component-update --disable-sync "--window-size=1200,900")
	timeout 120 chromium "${flags[@]}" --user-data-dir="$w/p1" --dump-dom "file://$html" >"$w/dom.html" 2>/dev/null || true
	timeout 120 chromium "${flags[@]}" --user-data-dir="$w/p2" --screenshot="$w/shot.png" "file://$html" >/dev/null 2>&1 || true
	check_eq "rendered grid: 8 cells" 8 "$(grep -o '<td class="[a-z]*" data-cell=' "$w/dom.html" | wc -l)"
	check_eq "rendered grid: 1 unexpected (red)" 1 "$(grep -o '<td class="bad"' "$w/dom.html" | wc -l)"
	check_eq "rendered chart: 8 bars" 8 "$(grep -o '<rect class="bar"' "$w/dom.html" | wc -l)"
	check "rendered chart: a spike bar above 1000/s" grep -q 'data-cell="6.1-x86_64-regress"' "$w/dom.html"
	check "screenshot taken" test "$(stat -c %s "$w/shot.png" 2>/dev/null || echo 0)" -gt 10000
	mkdir -p "${BUILD_DIR:-$ROOT/build}"
	cp "$w/shot.png" "${BUILD_DIR:-$ROOT/build}/report-screenshot.png" 2>/dev/null || true
else
	check "chromium is installed (apt-get install chromium)" false
fi
finish report
