#!/bin/bash
# ci-root.sh - the CI files' jobs run for real (make test-ci-root): each job
# in a fresh clean Debian 12 root (scripts/clean-root.sh: what a runner's
# debian:12 image is, as root), its steps (GitHub's run:, GitLab's script:)
# as the file writes them, with their env or variables, one after another
# as the engine runs them.  What is the engines' plumbing is simulated here,
# and each job's log says so where it happens: actions/checkout and GitLab's
# own clone (a git clone of the repository's committed HEAD, depth 1 as
# actions/checkout's default, 20 as GitLab's), actions/upload-artifact,
# actions/download-artifact and artifacts: (copies through the run
# directory), a job's outputs (from $GITHUB_OUTPUT), the child pipeline
# (gitlab-ci-local --preview of the plan's jobs.yml: includes and extends
# resolved; the parent's variables' defaults are passed down as
# trigger:forward's default passes them).
#
# Usage: ci-root.sh [github] [gitlab] [broken] [check]   (default: all four)
#   github  .github/workflows/leap-matrix.yml: the plan job, the one job of
#           its matrix, the report job
#   gitlab  .gitlab-ci.yml: the plan job (jobs.yml), the one job of the
#           child pipeline, its report job
#   broken  each file with its apt-get install lines removed: every job
#           fails; and with the install lines less python3 and jq: the plan
#           job fails (on GitHub, not one job later)
#   check   make check in a clean root with only make installed (it must
#           name what is missing in one line), then with README's packages
#
# The cell: BRANCH, ARCH and VARIANT (default 6.1 x86_64 stock, the
# cheapest), set as a user starting the workflow or pipeline sets them,
# with PER=cell: one job of one cell.  LEAP_CPU_LOCK=FILE: the cell jobs and
# make check hold that lock (flock -x) while their steps run, for a host
# whose other CPU-heavy work takes it too.  Needs root, mmdebstrap, node
# (the validators of tests/ci-validators/) and the network (Debian's
# archive).  Results: BUILD_DIR/ci-root/<run id>/ (each job's log, the
# artifacts, summary.txt); the roots are removed when their job ends.
# shellcheck disable=SC2016 # jq programs and the CI files' ${{ ... }}, literally
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/ci-lib.sh
. "$ROOT/tests/ci-lib.sh"
build=$(realpath -m "${BUILD_DIR:-$ROOT/build}")
export BUILD_DIR=$build
cr=$ROOT/scripts/clean-root.sh
parts=("$@")
[ $# -gt 0 ] || parts=(github gitlab broken check)
for p in "${parts[@]}"; do
	case "$p" in github | gitlab | broken | check) ;; *) echo "usage: ci-root.sh [github] [gitlab] [broken] [check]" >&2; exit 2 ;; esac
done
want() { case " ${parts[*]} " in *" $1 "*) ;; *) return 1 ;; esac; }
branch=${BRANCH:-6.1} arch=${ARCH:-x86_64} variant=${VARIANT:-stock}
cell=$branch-$arch-$variant
run_id=$(date +%Y%m%d-%H%M%S)
out=$build/ci-root/$run_id
roots=$build/ci-root/roots
mkdir -p "$out" "$roots"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$cr" image >/dev/null
head=$(git -C "$ROOT" rev-parse --short HEAD)
exec 3>&1
echo "ci-root: run $run_id, commit $head, cell $cell; logs in $out" | tee "$out/summary.txt"

# One line of the summary: LABEL, its status and its duration.
record() { # LABEL STATUS SECONDS
	printf '%-34s %-8s %5s s\n' "$1" "$2" "$3" | tee -a "$out/summary.txt" >&3
}

# --- GitHub Actions --------------------------------------------------------------
gh_inputs=$(jq -cn --arg b "$branch" --arg a "$arch" --arg v "$variant" '{per: "cell", branch: $b, arch: $a, variant: $v}')
# A `uses:` step in ROOT's workspace WS (plumbing: simulated).
gh_uses() { # ROOT WS USES WITH ARTIFACTS
	local root=$1 ws=$2 uses=$3 with=$4 arts=$5 name path a
	name=$(jq -r '.name // empty' <<<"$with") path=$(jq -r '.path // empty' <<<"$with")
	case "${uses%@*}" in
	actions/checkout)
		echo "== $uses: simulated: git clone --depth 1 of $head into $ws"
		"$cr" clone "$root" "$ws" 1 ;;
	actions/upload-artifact)
		echo "== $uses: simulated: $ws/$path copied as artifact $name"
		if [ -e "$root$ws/$path" ]; then
			mkdir -p "$arts/$name"
			cp -a "$root$ws/$path/." "$arts/$name/"
		else
			echo "no files at $path (if-no-files-found: $(jq -r '."if-no-files-found" // "warn"' <<<"$with"))"
			[ "$(jq -r '."if-no-files-found" // "warn"' <<<"$with")" != error ]
		fi ;;
	actions/download-artifact)
		echo "== $uses: simulated: the artifacts $(jq -r .pattern <<<"$with") copied into $ws/$path"
		[ "$(jq -r '."merge-multiple"' <<<"$with")" = true ] || { echo "only merge-multiple: true is simulated"; return 1; }
		mkdir -p "$root$ws/$path"
		for a in "$arts"/$(jq -r .pattern <<<"$with"); do
			[ -d "$a" ] && cp -a "$a/." "$root$ws/$path/"
		done ;;
	*) echo "== $uses: not simulated"; return 1 ;;
	esac
}
# One job of WORKFLOW_JSON in a fresh root: its steps in order (if:
# success() or always()), its outputs in OUT/LABEL.outputs/.  Status: the job's.
gh_job() { # WORKFLOW_JSON JOB MATRIX LABEL ARTIFACTS [heavy]
	local wf=$1 job=$2 matrix=$3 label=$4 arts=$5 heavy=${6:-} root ws=/__w/leap/leap n i step cond status=success rc k v
	local -a lock=() env args
	root=$roots/$label
	[ -z "$heavy" ] || [ -z "${LEAP_CPU_LOCK:-}" ] || lock=(flock -x "$LEAP_CPU_LOCK")
	mkdir -p "$out/$label.outputs" "$arts"
	"$cr" remove "$root"
	"$cr" new "$root"
	mkdir -p "$root$ws"
	n=$(jq --arg j "$job" '.jobs[$j].steps | length' "$wf")
	for ((i = 0; i < n; i++)); do
		step=$(jq -c --arg j "$job" --argjson i "$i" '.jobs[$j].steps[$i]' "$wf")
		cond=$(jq -r '.if // "success()"' <<<"$step")
		case "$cond" in
		"success()") [ "$status" = success ] || { echo "== step $i: skipped (a step before failed)"; continue; } ;;
		"always()") ;;
		*) echo "== step $i: if: $cond is not simulated"; status=failure; continue ;;
		esac
		if jq -e .uses <<<"$step" >/dev/null; then
			gh_uses "$root" "$ws" "$(jq -r .uses <<<"$step")" \
				"$(gh_jq "$wf" "$gh_inputs" "$matrix" -c --arg j "$job" --argjson i "$i" '.jobs[$j].steps[$i].with // {} | expr')" "$arts" || status=failure
			continue
		fi
		jq -r .run <<<"$step" >"$root/tmp/step-$i.sh"
		mapfile -t env < <(gh_step_env "$wf" "$job" "$i" "$gh_inputs" "$matrix")
		args=()
		for k in ${env[@]+"${env[@]}"}; do args+=(-e "$k"); done
		: >"$root/tmp/output-$i"
		echo "== step $i: run: $(cat "$root/tmp/step-$i.sh")${env[*]:+ (env: ${env[*]})}"
		rc=0
		${lock[@]+"${lock[@]}"} "$cr" exec "$root" -w "$ws" -e CI=true -e GITHUB_ACTIONS=true -e GITHUB_WORKSPACE="$ws" \
			-e GITHUB_OUTPUT="/tmp/output-$i" ${args[@]+"${args[@]}"} -- bash -e "/tmp/step-$i.sh" || rc=$?
		[ "$rc" -eq 0 ] || { echo "== step $i: failed (exit $rc)"; status=failure; }
		k=$(jq -r '.id // empty' <<<"$step")
		[ -z "$k" ] || cp "$root/tmp/output-$i" "$out/$label.outputs/steps.$k"
	done
	# The job's outputs: ${{ steps.ID.outputs.NAME }}.
	while IFS=$'\t' read -r k v; do
		[ -n "$k" ] || continue
		[[ $v =~ ^\$\{\{\ *steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)\ *\}\}$ ]] || { echo "== output $k: $v is not simulated"; continue; }
		sed -n "s/^${BASH_REMATCH[2]}=//p" "$out/$label.outputs/steps.${BASH_REMATCH[1]}" >"$out/$label.outputs/$k"
	done < <(jq -r --arg j "$job" '.jobs[$j].outputs // {} | to_entries[] | "\(.key)\t\(.value)"' "$wf")
	"$cr" remove "$root"
	echo "== job $job: $status"
	[ "$status" = success ]
}
# Timed: LABEL's job, its log OUT/LABEL.log, a line of the summary.
timed() { # LABEL COMMAND...
	local label=$1 t rc=0
	shift
	t=$(date +%s)
	"$@" >"$out/$label.log" 2>&1 || rc=$?
	record "$label" "$([ "$rc" -eq 0 ] && echo success || echo "failure")" "$(($(date +%s) - t))"
	return "$rc"
}
# The workflow's three jobs: plan, the matrix's one job, report (needs:
# cells, if: always()).  PREFIX names them; the artifacts go to ARTIFACTS.
github() { # WORKFLOW_YML PREFIX [broken]
	local wf=$w/$2.json arts=$out/$2.artifacts matrix job
	yaml2json "$1" >"$wf"
	check_eq "$2: the cells job's matrix is the plan job's output" '${{ fromJSON(needs.plan.outputs.jobs) }}' "$(jq -r .jobs.cells.strategy.matrix "$wf")"
	if [ -n "${3:-}" ]; then
		check "$2: the plan job fails" not timed "$2-plan" gh_job "$wf" plan '{}' "$2-plan" "$arts"
		[ "$3" = plan ] && return 0
		matrix=$(jq -c '.include[0]' "$out/github-plan.outputs/jobs")
		check "$2: the cells job fails" not timed "$2-cells" gh_job "$wf" cells "$matrix" "$2-cells" "$arts"
		cp -a "$out/github.artifacts/." "$arts/"
		check "$2: the report job fails" not timed "$2-report" gh_job "$wf" report '{}' "$2-report" "$arts"
		return 0
	fi
	check "$2: the plan job succeeds" timed "$2-plan" gh_job "$wf" plan '{}' "$2-plan" "$arts"
	check_eq "$2: ... its output (the matrix) is one job of $cell" "[{\"job\":\"$cell\",\"cells\":\"$cell\"}]" \
		"$(jq -c .include "$out/$2-plan.outputs/jobs" 2>/dev/null)"
	matrix=$(jq -c '.include[0]' "$out/$2-plan.outputs/jobs" 2>/dev/null) || return 0
	job=$(jq -r .job <<<"$matrix")
	check "$2: the cells job $job succeeds" timed "$2-cells" gh_job "$wf" cells "$matrix" "$2-cells" "$arts" heavy
	check "$2: ... and uploads run-$job with $cell's verdict, as expected" \
		jq -e .ok "$arts/run-$job/$job/cells/$cell/cell.json"
	check "$2: the report job succeeds" timed "$2-report" gh_job "$wf" report '{}' "$2-report" "$arts"
	check "$2: ... and uploads matrix-report with $cell in junit.xml" grep -q "$cell" "$arts/matrix-report/junit.xml"
	check "$2: ... and in results.json, as expected" jq -e --arg c "$cell" '[.. | objects | select(.cell? == $c and .ok? == true)] | length > 0' "$arts/matrix-report/results.json"
}

# --- GitLab CI ---------------------------------------------------------------------
gl_vars=$(jq -cn --arg b "$branch" --arg a "$arch" --arg v "$variant" '{PER: "cell", BRANCH: $b, ARCH: $a, VARIANT: $v}')
# One job (JOB_JSON: the job as the pipeline resolves it) in a fresh root:
# GitLab's clone, the artifacts of the jobs before it, its script in one
# shell (set -eo pipefail, as the runner's), its after_script in another,
# its artifacts (paths:, when:) to ARTIFACTS/NAME.  VARS: NAME=VALUE lines
# of the pipeline's variables.  Status: the job's.
gl_job() { # JOB_JSON VARS NAME LABEL ARTIFACTS [heavy] [FROM...]
	local job=$1 vars=$2 name=$3 label=$4 arts=$5 heavy=${6:-} root ws=/builds/leap status=success rc when p a
	local -a lock=() args=()
	shift 6 || shift $#
	root=$roots/$label
	[ -z "$heavy" ] || [ -z "${LEAP_CPU_LOCK:-}" ] || lock=(flock -x "$LEAP_CPU_LOCK")
	"$cr" remove "$root"
	"$cr" new "$root"
	echo "== simulated: the runner's clone of $head (git clone --depth 20) into $ws"
	"$cr" clone "$root" "$ws" 20
	for a in "$@"; do
		echo "== simulated: the artifacts of $a copied into $ws"
		cp -a "$arts/$a/." "$root$ws/"
	done
	while IFS= read -r a; do [ -z "$a" ] || args+=(-e "$a"); done < <(printf '%s\n' "$vars"; jq -r '.variables // {} | to_entries[] | "\(.key)=\(.value)"' <<<"$job")
	args+=(-e CI=true -e GITLAB_CI=true -e CI_JOB_NAME="$name" -e CI_PROJECT_DIR="$ws" -e CI_BUILDS_DIR=/builds)
	{ echo 'set -eo pipefail'; jq -r '.script[] | "echo \("$ \(.)" | @sh)", .' <<<"$job"; } >"$root/tmp/script.sh"
	echo "== script: $(jq -r '.script | join(" ; ")' <<<"$job") (variables: ${args[*]})"
	rc=0
	${lock[@]+"${lock[@]}"} "$cr" exec "$root" -w "$ws" "${args[@]}" -- bash "/tmp/script.sh" || rc=$?
	[ "$rc" -eq 0 ] || { echo "== script: failed (exit $rc)"; status=failure; }
	if jq -e .after_script <<<"$job" >/dev/null; then
		{ echo 'set -eo pipefail'; jq -r '.after_script[] | "echo \("$ \(.)" | @sh)", .' <<<"$job"; } >"$root/tmp/after.sh"
		echo "== after_script (its status does not count)"
		"$cr" exec "$root" -w "$ws" "${args[@]}" -- bash "/tmp/after.sh" || echo "== after_script: failed"
	fi
	when=$(jq -r '.artifacts.when // "on_success"' <<<"$job")
	case "$status-$when" in
	success-on_success | success-always | failure-on_failure | failure-always)
		mkdir -p "$arts/$name"
		while IFS= read -r p; do
			[ -n "$p" ] || continue
			echo "== simulated: artifacts: $p"
			(cd "$root$ws" && cp -a --parents "${p%/}" "$arts/$name/") || echo "no files at $p"
		done < <(jq -r '.artifacts.paths // [] | .[]' <<<"$job") ;;
	esac
	"$cr" remove "$root"
	echo "== job $name: $status"
	[ "$status" = success ]
}
# The pipeline's plan job, the child pipeline's one cells job and its report
# job.  CHILD_INCLUDES: the directory of ci/*.yml the child includes.
gitlab() { # PIPELINE_YML PREFIX CHILD_INCLUDES [broken]
	local gl=$w/$2.json arts=$out/$2.artifacts vars job
	mkdir -p "$arts"
	yaml2json "$1" >"$gl"
	vars=$(gl_variables "$gl" "$gl_vars")
	if [ -n "${4:-}" ]; then
		check "$2: the plan job fails" not timed "$2-plan" gl_job "$(jq -c .plan "$gl")" "$vars" plan "$2-plan" "$arts"
		[ "$4" = plan ] && return 0
		cp "$out/gitlab.artifacts/plan/jobs.yml" "$w/$2-jobs.yml"
	else
		check "$2: the plan job succeeds" timed "$2-plan" gl_job "$(jq -c .plan "$gl")" "$vars" plan "$2-plan" "$arts"
		cp "$arts/plan/jobs.yml" "$w/$2-jobs.yml" 2>/dev/null || return 0
	fi
	check_eq "$2: the trigger runs the plan job's jobs.yml" '[{"artifact":"jobs.yml","job":"plan"}]' "$(jq -c .cells.trigger.include "$gl")"
	CI_INCLUDES=$3 gitlab_preview "$w/$2-child" "$w/$2-jobs.yml" >"$w/$2-child.json"
	job=$(jq -r 'to_entries[] | select((.value | type) == "object" and .value.stage == "cells") | .key' "$w/$2-child.json")
	[ -n "${4:-}" ] || check_eq "$2: ... its cells stage is one job, $cell" "$cell" "$job"
	[ -n "$job" ] || return 0
	# The trigger passes the pipeline's variables as the file sets them.
	vars=$(gl_variables "$gl" '{}')
	if [ -n "${4:-}" ]; then
		check "$2: the child's job $job fails" not timed "$2-cells" gl_job "$(jq -c --arg j "$job" '.[$j]' "$w/$2-child.json")" "$vars" "$job" "$2-cells" "$arts"
		mkdir -p "$arts/$job"
		cp -a "$out/gitlab.artifacts/$job/." "$arts/$job/"
		check "$2: the child's report job fails" not timed "$2-report" gl_job "$(jq -c .report "$w/$2-child.json")" "$vars" report "$2-report" "$arts" "" "$job"
		return 0
	fi
	check "$2: the child's job $job succeeds" timed "$2-cells" gl_job "$(jq -c --arg j "$job" '.[$j]' "$w/$2-child.json")" "$vars" "$job" "$2-cells" "$arts" heavy
	check "$2: ... its artifacts hold runs/$job with $cell's verdict, as expected" jq -e .ok "$arts/$job/runs/$job/cells/$cell/cell.json"
	check_eq "$2: the report job is a stage later, when: always" "report always" "$(jq -r '.report | "\(.stage) \(.when)"' "$w/$2-child.json")"
	check "$2: the report job succeeds" timed "$2-report" gl_job "$(jq -c .report "$w/$2-child.json")" "$vars" report "$2-report" "$arts" "" "$job"
	check "$2: ... its artifacts hold merged/junit.xml with $cell" grep -q "$cell" "$arts/report/merged/junit.xml"
	check "$2: ... and merged/results.json, as expected" jq -e --arg c "$cell" '[.. | objects | select(.cell? == $c and .ok? == true)] | length > 0' "$arts/report/merged/results.json"
}

if want github; then github "$ROOT/.github/workflows/leap-matrix.yml" github; fi
if want gitlab; then gitlab "$ROOT/.gitlab-ci.yml" gitlab "$ROOT/ci"; fi
if want broken; then
	# Each file less its apt-get install lines: every job fails (its cells
	# and report jobs run on the good files' plan and artifacts when there).
	nojq() { sed -E '/apt-get install/s/ (python3|jq)\b//g' "$1"; }
	sed '/apt-get install/d' "$ROOT/.github/workflows/leap-matrix.yml" >"$w/gh-noinstall.yml"
	nojq "$ROOT/.github/workflows/leap-matrix.yml" >"$w/gh-nojq.yml"
	sed '/apt-get install/d' "$ROOT/.gitlab-ci.yml" >"$w/gl-noinstall.yml"
	nojq "$ROOT/.gitlab-ci.yml" >"$w/gl-nojq.yml"
	mkdir -p "$w/ci-noinstall"
	for f in "$ROOT"/ci/*.yml; do sed '/apt-get install/d' "$f" >"$w/ci-noinstall/${f##*/}"; done
	for f in "$w"/gh-*.yml "$w"/gl-*.yml "$w"/ci-noinstall/*.yml; do
		check "broken: ${f##*/} installs no python3 and jq" not grep -q 'apt-get install.*python3.*jq\|apt-get install.*jq.*python3' "$f"
	done
	if [ -s "$out/github-plan.outputs/jobs" ]; then github "$w/gh-noinstall.yml" github-noinstall all; else github "$w/gh-noinstall.yml" github-noinstall plan; fi
	github "$w/gh-nojq.yml" github-nojq plan
	if [ -s "$out/gitlab.artifacts/plan/jobs.yml" ]; then gitlab "$w/gl-noinstall.yml" gitlab-noinstall "$w/ci-noinstall" all; else gitlab "$w/gl-noinstall.yml" gitlab-noinstall "$w/ci-noinstall" plan; fi
	gitlab "$w/gl-nojq.yml" gitlab-nojq "$ROOT/ci" plan
fi

# --- make check ------------------------------------------------------------------
# In a clean root: with make alone it names what is missing in one line;
# with the packages README names for it (its quick start's make check
# line), it passes.
check_job() { # PACKAGES LABEL
	local root=$roots/$2 rc=0
	local -a lock=()
	[ -z "${LEAP_CPU_LOCK:-}" ] || lock=(flock -x "$LEAP_CPU_LOCK")
	"$cr" remove "$root"
	"$cr" new "$root"
	"$cr" clone "$root" /src 1
	echo "== apt-get install $1"
	# shellcheck disable=SC2086 # a list of packages
	"$cr" exec "$root" -e DEBIAN_FRONTEND=noninteractive -- sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends $1" >"$out/$2.apt.log" 2>&1 \
		|| { echo "== apt-get failed: $out/$2.apt.log"; rc=1; }
	if [ "$rc" -eq 0 ]; then
		echo "== make check"
		${lock[@]+"${lock[@]}"} "$cr" exec "$root" -w /src -- make check >"$out/$2.stdout" 2>"$out/$2.stderr" || rc=$?
		cat "$out/$2.stdout" "$out/$2.stderr"
		echo "== make check: exit $rc"
	fi
	"$cr" remove "$root"
	return "$rc"
}
if want check; then
	readme=$(sed -n 's/^\$ make check .*# .*(\([^;)]*\)[;)].*/\1/p' "$ROOT/README.md" | tr -d ,)
	check "README names make check's packages" test -n "$readme"
	check "make check with make alone fails" not timed check-bare check_job make check-bare
	check_eq "... naming what is missing in one line (and make's own line)" 1 "$(grep -vc '^make: \*\*\*' "$out/check-bare.stderr")"
	echo "make check with make alone: $(cat "$out/check-bare.stderr")" >>"$out/summary.txt"
	check "make check with README's packages ($readme) passes" timed check-readme check_job "$readme" check-readme
	tail -n 1 "$out/check-readme.stdout" >>"$out/summary.txt" || true
fi

echo "roots left: $(find "$roots" -mindepth 1 -maxdepth 1 | wc -l)" >>"$out/summary.txt"
finish ci-root | tee -a "$out/summary.txt"
