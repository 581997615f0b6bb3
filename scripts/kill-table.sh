#!/bin/bash
# kill-table.sh - the mutants' kill table from the rounds of a mutants run.
#
# Usage: kill-table.sh ROUNDS OUT_DIR RESULTS_JSON...
#   ROUNDS        how many rounds (boots per cell) the run asked for
#   RESULTS_JSON  each round's results.json (report.sh)
# Writes OUT_DIR/kills.json (one row per cell over every round: its
# verdicts, how many rounds it was as expected in, each round's cell) and
# OUT_DIR/kill-table.txt, and prints the table: per cell its verdicts, killed
# (only when as expected in every round), in how many of the guests' leap
# rounds its killer tests all failed (a fault that shows in only some rounds
# is a weak kill, whatever the verdicts), and the failed KTAP tests.
# Exit 0 only if every cell was as expected in every round and every round
# left its results.
set -eu -o pipefail
[ $# -ge 2 ] || { echo "usage: kill-table.sh ROUNDS OUT_DIR RESULTS_JSON..." >&2; exit 2; }
runs=$1 out=$2
shift 2
case "$runs" in [1-9] | [1-9][0-9]) ;; *) echo "kill-table: ROUNDS=$runs: give a number of rounds, 1 to 99" >&2; exit 2 ;; esac
jq -s 'map(.[]) | group_by(.cell) | map({cell: .[0].cell, mutant: .[0].mutant, variant: .[0].variant,
	arch: .[0].arch, verdicts: map(.verdict), oks: (map(select(.ok)) | length), rows: .})' \
	"$@" </dev/null >"$out/kills.json"
jq -r --argjson runs "$runs" '
	# The leap rounds (over every boot) in which all the killer tests failed.
	def in_rounds: (.rows[0].killer_tests) as $k | [.rows[].leap_rounds // [] | .[]] as $r |
		if .mutant | not then "-" elif ($k | length) == 0 or ($r | length) == 0 then "-"
		else "\([$r[] | select(($k - .) | length == 0)] | length)/\($r | length)" end;
	(["mutant", "arch", "verdicts", "killed", "in leap rounds", "failed KTAP tests"] | @tsv),
	(.[] | [(if .mutant then .variant else "(stock)" end), .arch, (.verdicts | join(" ")),
		(if .mutant then (if .oks == $runs then "yes \(.oks)/\($runs)" else "no \(.oks)/\($runs)" +
			([.rows[] | select(.ok | not) |
			  if .verdict == "SPLAT" and (.expected | index(["SPLAT"])) then " (not the splat /" + .killer_splat + "/)"
			  elif (.verdict as $v | .expected | index([$v])) then " (not " + (.killer_tests - .failed_tests | join(",")) + ")"
			  else "" end] | unique | join("")) end)
		 else (if .oks == $runs then "-" else "stock wrong \($runs - .oks)/\($runs)" end) end),
		in_rounds, ([.rows[].failed_tests[]] | unique | join(","))] | @tsv),
	("mutants: \([.[] | select(.mutant and .oks == $runs)] | length)/\([.[] | select(.mutant)] | length) killed for their reason in \($runs) of \($runs) rounds; stock: " +
		([.[] | select(.mutant | not) | .arch + " " + (.verdicts | join(","))] | join(" ")))' "$out/kills.json" |
	awk -F'\t' 'NF > 1 { printf "%-32s %-7s %-20s %-9s %-14s %s\n", $1, $2, $3, $4, $5, $6; next } { print }' >"$out/kill-table.txt"
cat "$out/kill-table.txt"
# Every cell as expected in every round (and every round left its results).
[ "$#" -eq "$runs" ] && jq -e --argjson runs "$runs" 'all(.oks == $runs)' "$out/kills.json" >/dev/null
