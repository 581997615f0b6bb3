#!/bin/bash
# test-trees-table.sh - the table of trees you bring, from made-up runs: one
# row per tree, what the plan read in its code, stock's failed checks, the
# fix patches fixed applied and the ones it found in the tree, and beside
# the version a distribution's release where the plan read one.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cell() { # RUN TREE VARIANT VERDICT OK FAILED FIX_STATE SKIPPED PATCH...
	local run=$1 tree=$2 v=$3 verdict=$4 ok=$5 failed=$6 state=$7 skipped=$8 d
	shift 8
	d=$w/$run/cells/$tree-$v
	mkdir -p "$d"
	jq -n --arg t "$tree" --arg v "$v" --arg verdict "$verdict" --argjson ok "$ok" --arg failed "$failed" --arg vendor "${VENDOR:-}" \
		--arg rt "${RT:-}" \
		'{cell: ("3.4-x86_64-" + $v), tree: ("/x/" + $t), tree_version: $t, tree_vendor: $vendor, tree_rt: $rt, arch: "x86_64", variant: $v,
		  verdict: $verdict, ok: $ok, failed_tests: ($failed | split(",") | map(select(. != ""))),
		  build_s: 100, boot_s: 7.5}' >"$d/cell.json"
	jq -n --arg s "$state" '{tree: {fix_state: $s}, patches: $ARGS.positional}' --args "$@" >"$d/plan.json"
	[ -z "$skipped" ] || echo "tree-patch: not applied to /x/$tree (its change is there already, or a build aid the tree does not take): $skipped" >"$d/patch.log"
}
e=/r/branches/3.4/edge
cell run1 3.4.113 stock FAIL true adjtimex_at_leap "2012 833f32d76302" ""
cell run1 3.4.113 fixed PASS true "" "2012 833f32d76302" "0002-aid.patch 0001-a.patch" /r/branches/old/compat/0002-aid.patch $e/0001-a.patch $e/0002-b.patch
cell run2 3.4.2 stock FAIL false wall_clock_sequence "" ""
cell run2 3.4.2 fixed PASS true "" "" "" /r/branches/3.4/fix/0001-f.patch /r/branches/3.4/fix/0002-g.patch \
	/r/branches/3.4/fix/0003-h.patch $e/0001-a.patch
# A tree that carries the whole fix: stock and regress, no fixed.
cell run3 4.4.178 stock PASS true "" fixed ""
cell run3 4.4.178 regress FAIL true leap_edge,load_after_insert fixed "" /r/branches/4.2/regress/0001-r.patch
# A distribution's tree of the same version as a vanilla one: a row of its own.
VENDOR="Ubuntu focal linux 4.4.0-1.1" cell run4 4.4.178 stock PASS true "" fixed ""
RT="-rt83, not built" cell run4 4.4.70 stock PASS true "" fixed ""
printf '# Results\n\n<!-- t: old -->\nold\n<!-- /t -->\n\nafter\n' >"$w/doc.md"
DOC=$w/doc.md "$ROOT/scripts/trees-table.sh" t "Trees" "$w/run1" "$w/run2" "$w/run3" "$w/run4" >/dev/null
rows=$(grep '^| 3\.' "$w/doc.md")
check_eq "a row per tree, in version order" "3.4.2 3.4.113" "$(cut -d'|' -f2 <<<"$rows" | tr -d ' ' | paste -sd ' ')"
check_eq "a late tree: its code, stock's failed check, what fixed applied and found" \
	"| 3.4.113 | x86_64 | 2012 fix, 833f32d7 | FAIL | adjtimex_at_leap | PASS | edge/0002 | edge/0001 | - | - | 100, 100 | 7.5, 7.5 | run1 |" \
	"$(grep '^| 3\.4\.113 ' <<<"$rows")"
check_eq "an early tree: none of the fix, an unexpected stock said so, runs of patches as ranges" \
	"| 3.4.2 | x86_64 | none of it | FAIL (unexpected) | wall_clock_sequence | PASS | fix/0001-0003 edge/0001 | - | - | - | 100, 100 | 7.5, 7.5 | run2 |" \
	"$(grep '^| 3\.4\.2 ' <<<"$rows")"
check_eq "a tree with the whole fix: regress's verdict and failed checks, its times and run" \
	"| 4.4.178 | x86_64 | the whole fix | PASS | - | - | - | - | FAIL | leap_edge, load_after_insert | 100, 100 | 7.5, 7.5 | run3 |" \
	"$(grep '^| 4\.4\.178 | ' "$w/doc.md")"
check_eq "a distribution's tree: its release beside the version, a row of its own" \
	"| 4.4.178 (Ubuntu focal linux 4.4.0-1.1) | x86_64 | the whole fix | PASS | - | - | - | - | - | - | 100, - | 7.5, - | run4 |" \
	"$(grep '^| 4\.4\.178 (' "$w/doc.md")"
check_eq "an RT tree built without its RT patch: said beside the version" \
	"| 4.4.70 (PREEMPT_RT -rt83, not built) | x86_64 | the whole fix | PASS | - | - | - | - | - | - | 100, - | 7.5, - | run4 |" \
	"$(grep '^| 4\.4\.70 ' "$w/doc.md")"
check "the table replaces its own section, nothing else" grep -qx after "$w/doc.md"
check "... and the old one is gone" not grep -qx old "$w/doc.md"
err=$("$ROOT/scripts/trees-table.sh" t "Trees" "$w/none" 2>&1) && rc=0 || rc=$?
check "not a results directory: one line" test "$rc" -ne 0 -a "$(grep -c . <<<"$err")" -eq 1
finish trees-table
