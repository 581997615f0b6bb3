#!/bin/bash
# html-report.sh - RUN_DIR/index.html and RUN_DIR/junit.xml from its results.json.
#
# Usage: html-report.sh RUN_DIR   (report.sh calls it after writing results.json)
#
# index.html is one self-contained page (no script, no network): the grid
# branch x arch x variant (with its @configuration and +boot mode) coloured
# by verdict (green as expected, red not), links to each console log, an SVG
# chart of wakeups/s after the leap on a log scale, and each cell's
# configuration with its timekeeping options.  junit.xml has one testcase per cell, the console attached to
# the cells whose verdict was not expected.
set -eu

[ $# -eq 1 ] || { echo "usage: html-report.sh RUN_DIR" >&2; exit 2; }
run=$1
[ -f "$run/results.json" ] || { echo "html-report: no $run/results.json (run report.sh)" >&2; exit 2; }
# One line per cell, the fields by name; the awk and shell below take them in
# this order.
rows=$(jq -r '.[] | [.cell, .branch, .arch, .variant, .tree_version, .verdict, (.expected | join(" ")), .ok,
	(.metrics.wakeups_per_s // "-"), .build_s, .boot_s, .reason, .console,
	((.skipped_tests // []) | map(.test? // .) | join(",")),
	((.kconfig.name // "tiny") + (if (.kconfig.source // "") != "" then " (" + .kconfig.source + ")" else "" end)),
	((.kconfig.options // {}) | to_entries | map(.key + "=" + .value) | join(" ")),
	((.unproven // []) | join(","))] | @tsv' "$run/results.json")
esc() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }

# --- junit.xml ---------------------------------------------------------------
{
	total=$(grep -c . <<<"$rows")
	bad=$(awk -F'\t' '$8 != "true"' <<<"$rows" | grep -c . || true)
	echo '<?xml version="1.0" encoding="UTF-8"?>'
	echo "<testsuites><testsuite name=\"leap-matrix\" tests=\"$total\" failures=\"$bad\">"
	while IFS=$'\t' read -r cell branch arch _ tv verdict expect ok wps build boot reason console skipped _ _ unproven; do
		t=$(awk -v a="$build" -v b="$boot" 'BEGIN { print a + b }')
		printf '<testcase classname="%s.%s" name="%s" time="%s">' "$branch" "$arch" "$cell" "$t"
		if [ "$ok" != true ]; then
			printf '<failure message="%s">' "$(printf '%s (expected %s): %s' "$verdict" "$expect" "$reason" | esc)"
			[ -f "$run/$console" ] && tr -d '\r' <"$run/$console" | tr -cd '\11\12\40-\176' | esc
			printf '</failure>'
		fi
		printf '<system-out>verdict=%s tree=%s wakeups_per_s=%s%s</system-out></testcase>\n' "$verdict" "$tv" "$wps" "${unproven:+ unproven=$unproven}${skipped:+ skipped=$skipped}"
	done <<<"$rows"
	echo '</testsuite></testsuites>'
} >"$run/junit.xml.tmp"
mv "$run/junit.xml.tmp" "$run/junit.xml"

# --- index.html --------------------------------------------------------------
awk -F'\t' -v run="$(basename "$run")" -v summary="$(grep '^cells:' "$run/table.txt" 2>/dev/null | esc)" '
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s); return s }
{
	n++; cell[n] = $1; br[n] = $2; ar[n] = $3; tv[n] = $5; vd[n] = $6; ex[n] = $7; ok[n] = $8; w[n] = $9; why[n] = $12; con[n] = $13; sk[n] = $14
	kc[n] = $15; ko[n] = $16; un[n] = $17
	# The column: the variant with the @configuration and +boot mode of the name.
	va[n] = substr($1, length($2 "-" $3 "-") + 1)
	if (!(($2) in seenb)) { seenb[$2] = 1; nb++; blist[nb] = $2 }
	if (!(($3 SUBSEP va[n]) in seenc)) { seenc[$3, va[n]] = 1; nc++; carch[nc] = $3; cvar[nc] = va[n] }
	key[$2, $3, va[n]] = n
}
END {
	print "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Leap-second matrix " run "</title><style>"
	print "body{font-family:sans-serif;margin:1.5em} table{border-collapse:collapse} td,th{border:1px solid #999;padding:4px 8px;text-align:center}"
	print "td.ok{background:#b6e3b6} td.bad{background:#f2a0a0} td.none{background:#eee} small{color:#333}"
	print "</style></head><body><h1>Leap-second matrix</h1><p>Run " esc(run) ": " summary "</p>"
	print "<p>Green: verdict in its expected set. Red: not. Each verdict links to the guest console.</p>"
	print "<table id=\"grid\"><tr><th>branch</th>"
	for (c = 1; c <= nc; c++) print "<th>" esc(carch[c]) "<br>" esc(cvar[c]) "</th>"
	print "</tr>"
	for (b = 1; b <= nb; b++) {
		printf "<tr><th>%s</th>", esc(blist[b])
		for (c = 1; c <= nc; c++) {
			i = key[blist[b], carch[c], cvar[c]]
			if (!i) { printf "<td class=\"none\">-</td>"; continue }
			# A PASS with checks skipped says which, so it is not read as a full
			# pass; the essential ones it did not prove first.
			printf "<td class=\"%s\" data-cell=\"%s\" title=\"%s\"><a href=\"%s\">%s</a>%s%s<br><small>want %s</small></td>", \
				(ok[i] == "true" ? "ok" : "bad"), esc(cell[i]), esc(why[i]), esc(con[i]), esc(vd[i]), \
				(un[i] != "" ? "<br><small class=\"unproven\">unproven: " esc(un[i]) "</small>" : ""), \
				(sk[i] != "" ? "<br><small class=\"skipped\">skipped: " esc(sk[i]) "</small>" : ""), esc(ex[i])
		}
		print "</tr>"
	}
	print "</table>"
	# Chart: one bar per cell with a wakeups/s figure, log10 scale 1..100000.
	bars = 0; for (i = 1; i <= n; i++) if (w[i] != "-" && w[i] != "") bars++
	bw = 26; H = 260; top = 20; left = 60; width = left + bars * bw + 90
	printf "<h2>Wakeups per second after the leap (10 ms CLOCK_REALTIME futex waits; a correct kernel does about 100)</h2>\n"
	printf "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-size=\"10\">\n", width, H + 150
	for (d = 0; d <= 5; d++) {
		y = top + H - d * H / 5
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"#ccc\"/><text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n", left, width - 10, y, y, left - 4, y + 3, 10 ^ d
	}
	x = left + 4
	for (i = 1; i <= n; i++) {
		if (w[i] == "-" || w[i] == "") continue
		v = w[i] + 0; lv = v < 1 ? 0 : log(v) / log(10); if (lv > 5) lv = 5
		h = lv * H / 5
		printf "<rect class=\"bar\" data-cell=\"%s\" data-value=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s: %s/s</title></rect>\n", \
			esc(cell[i]), v, x, top + H - h, bw - 6, h, (v > 200 ? "#c0392b" : "#27ae60"), esc(cell[i]), v
		printf "<text x=\"%d\" y=\"%d\" transform=\"rotate(60 %d %d)\">%s</text>\n", x + 4, top + H + 10, x + 4, top + H + 10, esc(cell[i])
		x += bw
	}
	print "</svg>"
	print "<h2>Configurations and their timekeeping options</h2><table id=\"options\"><tr><th>cell</th><th>configuration</th><th>options</th></tr>"
	for (i = 1; i <= n; i++)
		printf "<tr><td>%s</td><td>%s</td><td><small>%s</small></td></tr>\n", esc(cell[i]), esc(kc[i]), esc(ko[i] == "" ? "-" : ko[i])
	print "</table></body></html>"
}' <<<"$rows" >"$run/index.html.tmp"
mv "$run/index.html.tmp" "$run/index.html"
