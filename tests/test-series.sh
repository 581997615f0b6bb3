#!/bin/bash
# test-series.sh - every series of every branch: the series file and its
# directory agree, each patch is a complete mbox (From, Date, Subject,
# Signed-off-by) with its reference (test-checkpatch.sh runs the kernel's
# checkpatch.pl on them).
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

entries() { sed -e '/^#/d' -e '/^[[:space:]]*$/d' "$1"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
nl=$'\n'

# One pass over a patch gives the facts its checks ask about: a word per
# line kind found, and "key=value" for the values compared (mawk has no
# {n} intervals, so hex runs are built).
cat >"$scratch/facts.awk" <<'AWK'
BEGIN { h = "[0-9a-f]"; h12 = h h h h h h h h h h h h; h8 = substr(h12, 1, 8 * length(h))
	h40 = h12 h12 h12 h h h h }
function say(w) { if (!(w in said)) { said[w] = 1; print w } }
$0 ~ ("^From " h40 " ") { say("mbox") }
/^From: .* <.*@.*>$/ { say("from") }
/^From: / && author == "" { author = substr($0, 7); print "author=" author }
/^From: .*(linutronix|linaro|ibm\.com|gmail)/ { say("upstream-author") }
/^Date: / { say("date") }
/^Subject: \[PATCH/ { say("subject") }
/^diff --git / { say("diff") }
$0 ~ ("^Signed-off-by: .*(\\.example>|[Ss]eed " h8 ")") { say("placeholder") }
/^Signed-off-by:/ { say("signoff"); so[substr($0, 16)] = 1 }
/^Test-build aid, not part of the fix/ { say("build-aid") }
/^Test fixture, not a fix/ { say("fixture") }
/^Expected killer: / { say("killer") }
/^\[ [0-9.-]* only/ { say("branch-only") }
/^Our description \(upstream's changelog is in the commit\):$/ { say("ours") }
/^\[ Backport/ { say("backport-note") }
/^The full 40-digit id was not found/ { say("id-not-found") }
tolower($0) ~ /from memory|check it against linux\.git|not checked here/ { say("unverified") }
$0 ~ ("commit " h12) { say("names-commit") }
$0 ~ ("^commit " h12 "[0-9a-f]*" " upstream\\.$") && length($0) <= 57 {
	if (!c) { c = 1; print "commit=" $0 }
	if (!c40 && length($0) == 57) { c40 = 1; print "commit40=" $0 } }
blank == 1 && !gotfirst { gotfirst = 1; print "first=" $0 }
/^$/ && !blank { blank = 1; next }
END { if (author != "" && (author in so)) say("author-signs") }
AWK
has() { [[ "$nl$facts$nl" == *"$nl$1$nl"* ]]; }
has_line() { [[ "$nl$2$nl" == *"$nl$1$nl"* ]]; }	# LINE TEXT
fact() { # KEY: the value awk printed for it
	local v=$nl$facts$nl
	case $v in *"$nl$1="*) v=${v#*"$nl$1="}; printf '%s' "${v%%"$nl"*}" ;; esac
}
is_commit_line() { [[ $1 =~ ^commit\ [0-9a-f]{12,40}\ upstream\.$ ]]; }

ndirs=0
for series in "$ROOT"/branches/*/*/series "$ROOT"/mutants/*/*/series; do
	dir=$(dirname "$series")
	rel=${dir#"$ROOT"/}
	ndirs=$((ndirs + 1))
	listed=$(entries "$series")
	for p in $listed; do
		check "$rel/series: $p exists" test -f "$dir/$p"
	done
	check "$rel: mutant.mk or a branch's patches" test -f "$dir/mutant.mk" -o "${rel#branches/}" != "$rel"
	for f in "$dir"/*.patch; do
		[ -f "$f" ] || continue	# a series of patches kept elsewhere
		name=${f##*/}
		facts=$(awk -f "$scratch/facts.awk" "$f")
		check "$rel/$name is listed in its series" has_line "$name" "$listed"
		check "$rel/$name: mbox From line" has mbox
		check "$rel/$name: From:" has from
		check "$rel/$name: Date:" has date
		check "$rel/$name: Subject:" has subject
		check "$rel/$name: has a diff" has diff
		# No made-up sign-off: make export adds the exporter's own.
		check "$rel/$name: no placeholder sign-off" not has placeholder
		case "$rel" in
		*/compat)
			check "$rel/$name: says it is a build aid, not the fix" has build-aid ;;
		mutants/*)
			check "$rel/$name: says it is a test fixture" has fixture
			check "$rel/$name: names the check that must kill it" has killer ;;
		*/fix | */edge)
			first=$(fact first)
			if [ "${first#Not an upstream commit}" != "$first" ]; then
				# Code no upstream commit has: the project's own patch,
				# authored by it, saying why the branch needs it; no
				# sign-off (make export adds the exporter's).
				check "$rel/$name: the project's own patch has no upstream author" not has upstream-author
				check "$rel/$name: the project's own patch carries no sign-off" not has signoff
				check "$rel/$name: says which branch needs it" has branch-only
				continue
			fi
			# stable-queue's form: the first line of the body is
			# "commit <id> upstream.", the upstream author is the
			# From: and signs off, a [ ... ] note says what changed.
			# An id shorter than 40 digits must say why.
			check "$rel/$name: body starts with 'commit <id> upstream.'" \
				test "$first" = "$(fact commit)"
			[ "$(fact commit40)" = "$first" ] \
				|| check "$rel/$name: a short id says the full one was not found" has id-not-found
			check "$rel/$name: the description is marked as ours" has ours
			author=$(fact author)
			check "$rel/$name: the upstream author ($author) signs off" has author-signs
			check "$rel/$name: has a bracketed backport note" has backport-note
			# What git am reads: the author and a message that starts with the line.
			mkdir -p "$scratch/mi"
			git mailinfo "$scratch/mi/msg" "$scratch/mi/patch" <"$f" >"$scratch/mi/info"
			check "$rel/$name: git am credits the upstream author" has_line "Author: ${author% <*}" "$(<"$scratch/mi/info")"
			IFS= read -r msg1 <"$scratch/mi/msg" || msg1=
			check "$rel/$name: git am's message starts with the commit line" is_commit_line "$msg1"
			check "$rel/$name: git am finds the diff" test -s "$scratch/mi/patch"
			check "$rel/$name: no unverified id left to check" not has unverified ;;
		*)
			check "$rel/$name: says it is a test fixture" has fixture
			check "$rel/$name: names the upstream commit it inverts" has names-commit ;;
		esac
	done
done
check "series directories found" test "$ndirs" -ge 3
# Every directory a branch.mk or family.mk names exists and has a series.
for mk in "$ROOT"/branches/*/branch.mk "$ROOT"/branches/*/family.mk; do
	# shellcheck disable=SC2013 # words wanted: each line lists directories
	for d in $(sed -n 's/^PATCHES_[a-z]* *:= *//p' "$mk"); do
		check "$(basename "$(dirname "$mk")"): $d/series exists" test -f "$ROOT/branches/$d/series"
	done
done

finish series
