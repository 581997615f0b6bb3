#!/bin/bash
# tier: full (the CI files' validators come from the npm registry)
# test-ci.sh - the CI files (.github/workflows/leap-matrix.yml, .gitlab-ci.yml
# and the child pipeline it writes) against each engine's own validator
# (action-validator and gitlab-ci-local, pinned in tests/ci-validators/),
# and the jobs their plan steps produce: run as the files say, with their
# defaults, they cover exactly `make list-cells`, each cell once, a job per
# tree and arch (or per cell).
# shellcheck disable=SC2016 # the CI files' own ${{ ... }} and $CELLS, literally
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/ci-lib.sh
. "$ROOT/tests/ci-lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
all_cells=$(make -s -C "$ROOT" list-cells)
# Trees x arches: the cells less their variant.
pairs=$(awk '{ sub(/-[^-]*$/, "") } !s[$0]++' <<<"$all_cells" | wc -l)

# --- GitHub Actions ------------------------------------------------------------
wf=$ROOT/.github/workflows/leap-matrix.yml
check "the workflow passes action-validator" action_validator "$wf"
sed 's/^    steps:/    stepz:/' "$wf" >"$w/broken.yml"
check "... which fails a broken copy (it can fail)" not action_validator "$w/broken.yml"
yaml2json "$wf" >"$w/wf.json"
# The plan step as a runner would run it: the inputs' defaults (or PER) in its env.
gh_jobs() { # PER
	local run env i
	i=$(gh_step_index "$w/wf.json" plan jobs)
	run=$(jq -r --argjson i "$i" '.jobs.plan.steps[$i].run' "$w/wf.json")
	env=$(gh_step_env "$w/wf.json" plan "$i" "{\"per\": \"$1\"}" '{}')
	: >"$w/out"
	(cd "$ROOT" && mapfile -t e <<<"$env" && env "${e[@]}" GITHUB_OUTPUT="$w/out" bash -eo pipefail -c "$run") >/dev/null
	sed -n 's/^jobs=//p' "$w/out"
}
for per in tree-arch cell; do
	json=$(gh_jobs "$per")
	check_eq "GitHub, a job per $per: its jobs' cells are make list-cells, in order" "$all_cells" "$(jq -r '.include[].cells | split(" ")[]' <<<"$json")"
	check_eq "... each job named once" "$(jq '.include | length' <<<"$json")" "$(jq '[.include[].job] | unique | length' <<<"$json")"
	want=$pairs; [ "$per" = tree-arch ] || want=$(wc -l <<<"$all_cells")
	check_eq "... $want jobs" "$want" "$(jq '.include | length' <<<"$json")"
done
check_eq "... the cells job takes the plan's jobs as its matrix" '${{ fromJSON(needs.plan.outputs.jobs) }}' "$(jq -r '.jobs.cells.strategy.matrix' "$w/wf.json")"
check "... and runs its cells with make cell" jq -e '[.jobs.cells.steps[] | select(.run == "make cell CELL=\"$CELLS\"" and .env.CELLS == "${{ matrix.cells }}")] | length == 1' "$w/wf.json"

# --- GitLab CI -----------------------------------------------------------------
check "the pipeline passes gitlab-ci-local's schema check" gitlab_ci_local "$w/gl" "$ROOT/.gitlab-ci.yml" --list
sed 's/^    strategy: depend/    strategy: sometimes/' "$ROOT/.gitlab-ci.yml" >"$w/broken.yml"
check "... which fails a broken copy (it can fail)" not gitlab_ci_local "$w/gl-broken" "$w/broken.yml" --list
yaml2json "$ROOT/.gitlab-ci.yml" >"$w/gl.json"
# The plan job's script as the runner would run it (less apt-get), its variables' defaults (or PER) set.
gl_jobs() { # PER
	local vars
	vars=$(gl_variables "$w/gl.json" "{\"PER\": \"$1\"}")
	(cd "$ROOT" && mapfile -t e <<<"$vars" && jq -r '.plan.script[] | select(startswith("apt-get") | not)' "$w/gl.json" \
		| while IFS= read -r line; do env "${e[@]}" bash -eo pipefail -c "cd '$w' && make -s -C '$ROOT' ${line#make -s }"; done)
}
for per in tree-arch cell; do
	rm -f "$w/jobs.yml"
	gl_jobs "$per"
	check "GitLab, a job per $per: the plan job writes the child pipeline" test -s "$w/jobs.yml"
	check "... which passes the schema check too" gitlab_ci_local "$w/child-$per" "$w/jobs.yml" --list
	gitlab_preview "$w/child2-$per" "$w/jobs.yml" >"$w/child.json"
	check_eq "... its jobs' cells are make list-cells, in order" "$all_cells" \
		"$(jq -r 'to_entries[] | select((.value | type) == "object" and .value.stage == "cells") | .value.variables.CELLS | split(" ")[]' "$w/child.json")"
	want=$pairs; [ "$per" = tree-arch ] || want=$(wc -l <<<"$all_cells")
	check_eq "... $want jobs, and the report a stage later" "$want report" \
		"$(jq -r '[to_entries[] | select((.value | type) == "object" and .value.stage == "cells")] | length' "$w/child.json") $(jq -r 'to_entries[] | select((.value | type) == "object" and .value.stage == "report") | .key' "$w/child.json")"
done
check_eq "... each cell job runs make cell" 'make cell CELL="$CELLS"' "$(jq -r '[to_entries[] | select((.value | type) == "object" and .value.stage == "cells") | .value.script[-1]] | unique[]' "$w/child.json")"
finish ci
