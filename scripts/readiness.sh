#!/bin/bash
# readiness.sh - one page per kernel of a run, for a release or a bug: is
# this kernel ready for a leap second?  Markdown and HTML, from the cells'
# cell.json and the check sentences of common-tests/checks.txt.
#
# Usage: readiness.sh RUN_DIR [CELL] [OUT_DIR]
#   A kernel is a tree (or image) at a version, on an arch, in a
#   configuration; its page gathers the run's cells of it: the shipped
#   variant in each boot mode run (the answer), and the other variants
#   (regress, fixed, naive) that show the test catches the bug there.
#   CELL: only the kernel of that cell.  OUT_DIR default: RUN_DIR/readiness.
# Prints the path of each page written (NAME.md and NAME.html).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
case $# in 1 | 2 | 3) ;; *) echo "usage: readiness.sh RUN_DIR [CELL] [OUT_DIR]" >&2; exit 2 ;; esac
run=$(realpath "$1") want=${2:-} out=${3:-$1/readiness}
[ -d "$run/cells" ] || { echo "readiness: $run has no cells/ (not a results directory)" >&2; exit 2; }
shipped=$("$here/plan.sh" role shipped)
mkdir -p "$out"
checks=$(grep -v '^#' "$here/../common-tests/checks.txt" | jq -R -s 'split("\n") | map(select(. != "") | split("|")
	| {name: .[0], ok: .[1], bad: .[2]})')
cells=$(for c in "$run"/cells/*/cell.json; do [ -f "$c" ] && cat "$c"; done | jq -s .)
[ "$cells" != "[]" ] || { echo "readiness: no cell.json under $run/cells" >&2; exit 2; }
id=$(basename "$run")

# The kernels: one group per tree, version, arch and configuration.
model=$(jq --argjson checks "$checks" --arg want "$want" --arg shipped "$shipped" --arg run "$id" '
	def kernel: [.tree, .tree_version, .arch, .kconfig.name, .kconfig.source] | tostring;
	(if $want == "" then . else (map(select(.cell == $want)) | if length == 0 then error("no cell " + $want + " in the run") else . end) as $w
	 | map(select(kernel == ($w[0] | kernel))) end)
	| group_by(kernel) | map(
		(map(select(.variant == $shipped)) | sort_by(.boot_mode != "default", .boot_mode)) as $ship
		| ($ship[0] // .[0]) as $k
		| {
		name: (($k.tree_image.package // "" | if . != "" then . else empty end)
		       // (if ($k.tree_source // "") == "image" then $k.tree_image.release
		           elif ($k.tree | test("^linux-source")) then "Debian " + $k.tree + " " + $k.tree_version
		           else "Linux " + $k.tree_version + " (" + ($k.tree | split("/") | last) + ")" end)),
		slug: ([$k.tree | split("/") | last, $k.tree_version, $k.arch, $k.kconfig.name] | join("-") | gsub("[^A-Za-z0-9._-]"; "_")),
		what: [
			["source", (if ($k.tree_source // "") == "image" then "a kernel image, booted as it is (nothing built): " + $k.tree
			            elif ($k.tree | test("^linux-source")) then "Debian'"'"'s " + $k.tree + ", built by this project"
			            else "a tree brought with KSRC=, built by this project: " + $k.tree end)],
			(if $k.tree_image then ["package", ($k.tree_image.package // "" | if . == "" then "-" else . end)] else empty end),
			(if $k.tree_image then ["release", $k.tree_image.release] else empty end),
			(if $k.tree_image then ["banner", $k.tree_image.banner] else empty end),
			["version", $k.tree_version + (if ($k.tree_vendor // "") != "" then " (" + $k.tree_vendor + ")" else "" end)],
			(if ($k.tree_rt // "") != "" then ["PREEMPT_RT", $k.tree_rt] else empty end),
			["arch", $k.arch],
			["configuration", $k.kconfig.name + (if ($k.kconfig.source // "") != "" then ": " + $k.kconfig.source else "" end)],
			["timekeeping options", ($k.kconfig.options // {} | to_entries | map(.key + "=" + .value) | join(" ")
			                         | if . == "" then "not known (no configuration given or found)" else . end)]
		],
		branch: $k.branch,
		modes: ($ship | map(.boot_mode)),
		answer: (if ($ship | length) == 0 then "no verdict: no " + $shipped + " cell of this kernel in the run"
		         elif ($ship | all(.verdict == "PASS")) and ($ship | map(.unproven // []) | add | length) > 0 then
		           "PASS in every boot mode run (" + ($ship | map(.boot_mode) | join(", ")) + "), but not proven: "
		           + ($ship | map(select((.unproven // []) | length > 0) | (.unproven | join(", ")) + " in " + .boot_mode) | join("; "))
		           + " (no evidence there: run it again, on a quieter host)"
		         elif ($ship | all(.verdict == "PASS")) then
		           "ready: PASS in every boot mode run (" + ($ship | map(.boot_mode) | join(", ")) + ")"
		         elif ($ship | any(.verdict == "FAIL" or .verdict == "SPLAT" or .verdict == "TIMEOUT")) then
		           "NOT ready: " + ($ship | map(select(.verdict != "PASS") | .verdict + " in " + .boot_mode
		             + (if (.failed_tests | length) > 0 then " (" + (.failed_tests | join(", ")) + ")" else "" end)) | join("; "))
		         else "no verdict: " + ($ship | map(select(.verdict != "PASS") | .verdict + " in " + .boot_mode + ": " + .reason) | join("; ")) end),
		checks: [ $checks[] | . as $c | {name, ok, bad,
			results: [ $ship[] | if (.passed_tests // [] | index($c.name)) then "ok"
			            elif (.failed_tests | index($c.name)) then "FAILED"
			            elif ((.skipped_tests // []) | map(.test) | index($c.name)) then
			              "skipped: " + ((.skipped_tests | map(select(.test == $c.name)) | .[0].reason) // "")
			            else "-" end ] }
			| select(.results | any(. != "-")) ],
		others: [ .[] | select(.variant != $shipped) | {cell, variant, boot_mode, verdict, expected: (.expected | join(" or ")),
		          ok, failed: (.failed_tests | join(", ")), reason} ],
		evidence: [ $ship[] | {boot_mode, probe: .evidence.probe, windows: .evidence.window_reads, leaps: .evidence.leaps,
		            wakeups: .metrics.wakeups_per_s, boot_s} ],
		reproducers: ([ .[] | .reproducer ] | unique),
		cells: [ .[] | {cell, verdict, reason, console} ],
		run: $run
	})' <<<"$cells" 2>"$out/.jq.err") || {
	echo "readiness: $(sed 's/^jq: error ([^)]*): //' "$out/.jq.err" | head -n 1) ($run)" >&2; rm -f "$out/.jq.err"; exit 2; }
rm -f "$out/.jq.err"

n=$(jq length <<<"$model")
for i in $(seq 0 $((n - 1))); do
	# What both pages say in words, written once: the fix's sentence, the
	# one for a kernel with no other variant, and what each boot measured.
	k=$(jq --argjson i "$i" '.[$i] | . + {
		fix_note: (.answer as $answer | .branch as $branch | .others | map(select(.variant == "fixed" and .verdict == "PASS"))
			| if length > 0 and ($answer | test("^NOT")) then "Ready with the fix: the branch'"'"'s fix series (`make export BRANCH=" + $branch + "`) gives PASS." else null end),
		others_note: (if (.others | length) == 0 then "No other variant of this kernel in the run: a binary cannot be rebuilt with the bug put back. The same branch'"'"'s regress cells (make qemu-BRANCH) show what the test does to a kernel with the bug." else null end),
		measured: [.evidence[] | .boot_mode + ": " + (.leaps // 0 | tostring) + " leaps; wake-ups/s after the insertion " + (.wakeups // "-" | tostring)
			+ "; boot " + (.boot_s | tostring) + " s; per CPU tick and sleep lateness: "
			+ ((.probe // []) | map("cpu" + (.cpu | tostring) + " tick " + ((.tick_ms // "-") | tostring) + " ms, late " + (.late_ms | tostring) + " ms, " + .timers) | join("; "))
			+ "; sampler reads in the leap windows: " + ((.windows // {}) | to_entries | map(.key + " " + (.value | tostring)) | join(", "))]}' <<<"$model")
	slug=$(jq -r .slug <<<"$k")
	jq -r '
		def row: "| " + join(" | ") + " |";
		"# Leap-second readiness: " + .name, "",
		"**" + .answer + "**", "",
		"Run " + .run + "; every verdict below is what the guest printed (QEMU, two CPUs, an inserted and a deleted second).", "",
		"## The kernel", "", "| | |", "|---|---|", (.what[] | map(gsub("\\|"; "/")) | row), "",
		"## Each check", "",
		(["check", "what it shows"] + .modes | row), (["---", "---"] + (.modes | map("---")) | row),
		(.checks[] | [.name, (if (.results | any(. == "FAILED")) then "**" + .bad + "**" else .ok end)] + .results | row), "",
		"## The same kernel with the bug put back, or the fix applied", "",
		(.fix_note // empty | ., ""),
		(.others_note // ((["cell", "verdict", "expected", "as expected", "failed checks"] | row), "|---|---|---|---|---|",
		      (.others[] | [.cell, .verdict, .expected, (if .ok then "yes" else "**no**" end), .failed] | row))), "",
		"## What the test measured", "",
		(.measured[] | "- " + .), "",
		"## Reproduce", "", "```", .reproducers[], "```", "",
		"Consoles: " + (.cells | map(.console) | join(", "))' <<<"$k" >"$out/$slug.md"
	jq -r '
		def esc: tostring | gsub("&"; "&amp;") | gsub("<"; "&lt;") | gsub(">"; "&gt;");
		def td: "<td>" + esc + "</td>";
		def cls: if . == "ok" or . == "PASS" then "ok" elif (. | test("^(FAILED|FAIL|SPLAT|TIMEOUT|NOT)")) then "bad" elif . == "-" then "" else "warn" end;
		"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Leap-second readiness: " + (.name | esc) + "</title>",
		"<style>body{font-family:sans-serif;max-width:70em;margin:2em auto;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}th{background:#f0f0f0}.ok{background:#e3f5e1}.bad{background:#fbe0e0}.warn{background:#fdf3d6}.answer{font-size:1.3em;padding:.6em;border-radius:4px}pre{background:#f6f6f6;padding:.6em;overflow-x:auto}</style></head><body>",
		"<h1>Leap-second readiness: " + (.name | esc) + "</h1>",
		"<p class=\"answer " + (.answer | if test("^ready") then "ok" elif test("^NOT") then "bad" else "warn" end) + "\">" + (.answer | esc) + "</p>",
		"<p>Run " + (.run | esc) + "; every verdict below is what the guest printed (QEMU, two CPUs, an inserted and a deleted second).</p>",
		"<h2>The kernel</h2><table>", (.what[] | "<tr><th>" + (.[0] | esc) + "</th>" + (.[1] | td) + "</tr>"), "</table>",
		"<h2>Each check</h2><table><tr><th>check</th><th>what it shows</th>" + (.modes | map("<th>" + esc + "</th>") | join("")) + "</tr>",
		(.checks[] | "<tr><td><code>" + (.name | esc) + "</code></td>" + ((if (.results | any(. == "FAILED")) then .bad else .ok end) | td)
		  + (.results | map("<td class=\"" + (. | cls) + "\">" + esc + "</td>") | join("")) + "</tr>"), "</table>",
		"<h2>The same kernel with the bug put back, or the fix applied</h2>",
		(.fix_note // empty | "<p>" + (esc | gsub("`(?<c>[^`]*)`"; "<code>\(.c)</code>")) + "</p>"),
		(if .others_note then "<p>" + (.others_note | esc) + "</p>"
		 else "<table><tr><th>cell</th><th>verdict</th><th>expected</th><th>as expected</th><th>failed checks</th></tr>"
		      + (.others | map("<tr>" + (.cell | td) + "<td class=\"" + (if .ok then "ok" else "bad" end) + "\">" + (.verdict | esc) + "</td>" + (.expected | td)
		        + (if .ok then "yes" else "no" end | td) + (.failed | td) + "</tr>") | join("")) + "</table>" end),
		"<h2>What the test measured</h2><ul>", (.measured[] | "<li>" + esc + "</li>"), "</ul>",
		"<h2>Reproduce</h2><pre>" + (.reproducers | join("\n") | esc) + "</pre>",
		"<p>Consoles: " + (.cells | map(.console | esc) | join(", ")) + "</p></body></html>"' <<<"$k" >"$out/$slug.html"
	echo "$out/$slug.md"
	echo "$out/$slug.html"
done
