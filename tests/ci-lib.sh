# ci-lib.sh - reading the CI files (.github/workflows/leap-matrix.yml,
# .gitlab-ci.yml, ci/gitlab-cells.yml) as their engines do, for
# tests/test-ci.sh (the plan steps on this host) and tests/ci-root.sh (every
# job in a clean Debian 12 root).  Source it after tests/lib.sh (ROOT); it
# installs the validators pinned in tests/ci-validators/ (npm registry, once).
# shellcheck shell=bash
# shellcheck disable=SC2016 # the CI files' own ${{ ... }}, literally
CI_TOOLS=$(realpath -m "${BUILD_DIR:-$ROOT/build}")/tools/ci-validators
"$ROOT/tests/ci-validators/install.sh" "$CI_TOOLS"
nm=$CI_TOOLS/node_modules
yaml2json() { node "$nm/js-yaml/bin/js-yaml.js" "$1"; }
action_validator() { node "$nm/@action-validator/cli/cli.mjs" "$@"; }
# gitlab-ci-local reads .gitlab-ci.yml (and its local includes, ci/*.yml:
# CI_INCLUDES names another directory of them) from a git checkout: a
# repository in DIR holding FILE as .gitlab-ci.yml and ci/.
gitlab_ci_local() { # DIR FILE ARGS...
	local d=$1 f=$2
	shift 2
	mkdir -p "$d/ci"
	cp "$f" "$d/.gitlab-ci.yml"
	cp "${CI_INCLUDES:-$ROOT/ci}"/*.yml "$d/ci/"
	(cd "$d" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm t \
		&& node "$nm/gitlab-ci-local/src/index.js" "$@" 2>/dev/null)
}
# A pipeline as GitLab runs it, as JSON: its includes merged, each job's
# extends resolved (gitlab-ci-local --preview).
gitlab_preview() { # DIR FILE
	gitlab_ci_local "$1" "$2" --preview | tail -n +2 >"$1.preview.yml" || true
	yaml2json "$1.preview.yml"
}

# GitHub: jq's FILTER on the workflow, with `expr`: a value's ${{ inputs.X }}
# the workflow_dispatch inputs' defaults (or INPUTS, a JSON object, for those
# set when it was started), its ${{ matrix.X }} MATRIX's (a JSON object: the
# job's matrix entry).  An expression of any other kind is an error: it is
# not simulated.
gh_jq() { # WORKFLOW_JSON INPUTS MATRIX [JQ OPTIONS...] FILTER
	local wf=$1 over=$2 matrix=$3
	shift 3
	jq -r --argjson over "$over" --argjson matrix "$matrix" "${@:1:$#-1}" '
		(((.on.workflow_dispatch.inputs // {}) | map_values(.default // "")) + $over) as $in
		| def expr: if type == "string" then gsub("\\$\\{\\{ *(?<e>[^ }]+) *\\}\\}";
				.e as $e | if ($e | startswith("inputs.")) then $in[$e[7:]] // ""
				elif ($e | startswith("matrix.")) then $matrix[$e[7:]] // ""
				else error("not simulated: ${{ \($e) }}") end | tostring)
			elif type == "object" then map_values(expr) elif type == "array" then map(expr) else . end;
		'"${!#}" "$wf"
}
# A step's environment, as the runner gives it: the workflow's, the job's
# and the step's env, evaluated (gh_jq).  NAME=VALUE lines.
gh_step_env() { # WORKFLOW_JSON JOB STEP_INDEX INPUTS MATRIX
	gh_jq "$1" "$4" "$5" --arg job "$2" --argjson i "$3" \
		'(.env // {}) + (.jobs[$job].env // {}) + (.jobs[$job].steps[$i].env // {}) | to_entries[] | "\(.key)=\(.value | tostring | expr)"'
}
# The index of a GitHub job's step with that id.
gh_step_index() { # WORKFLOW_JSON JOB ID
	jq -r --arg job "$2" --arg id "$3" '.jobs[$job].steps | to_entries[] | select(.value.id == $id) | .key' "$1"
}

# GitLab: the pipeline's variables, their defaults (value:) or, for those
# set when it was started, VARS (a JSON object).  NAME=VALUE lines.
gl_variables() { # PIPELINE_JSON VARS
	jq -r --argjson over "$2" '(.variables // {} | map_values(if type == "object" then .value else . end)) + $over
		| to_entries[] | "\(.key)=\(.value)"' "$1"
}
