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

ndirs=0
for series in "$ROOT"/branches/*/*/series "$ROOT"/mutants/*/*/series; do
	dir=$(dirname "$series")
	rel=${dir#"$ROOT"/}
	ndirs=$((ndirs + 1))
	for p in $(entries "$series"); do
		check "$rel/series: $p exists" test -f "$dir/$p"
	done
	check "$rel: mutant.mk or a branch's patches" test -f "$dir/mutant.mk" -o "${rel#branches/}" != "$rel"
	for f in "$dir"/*.patch; do
		[ -f "$f" ] || continue	# a series of patches kept elsewhere
		name=$(basename "$f")
		check "$rel/$name is listed in its series" grep -qxF "$name" "$series"
		check "$rel/$name: mbox From line" grep -q '^From [0-9a-f]\{40\} ' "$f"
		check "$rel/$name: From:" grep -q '^From: .* <.*@.*>$' "$f"
		check "$rel/$name: Date:" grep -q '^Date: ' "$f"
		check "$rel/$name: Subject:" grep -q '^Subject: \[PATCH' "$f"
		check "$rel/$name: has a diff" grep -q '^diff --git ' "$f"
		# No made-up sign-off: make export adds the exporter's own.
		check "$rel/$name: no placeholder sign-off" not grep -qE '^Signed-off-by: .*(\.example>|[Ss]eed [0-9a-f]{8})' "$f"
		case "$rel" in
		*/compat)
			check "$rel/$name: says it is a build aid, not the fix" grep -q '^Test-build aid, not part of the fix' "$f" ;;
		mutants/*)
			check "$rel/$name: says it is a test fixture" grep -q '^Test fixture, not a fix' "$f"
			check "$rel/$name: names the check that must kill it" grep -q '^Expected killer: ' "$f" ;;
		*/fix | */edge)
			first=$(sed -n '/^$/{n;p;q}' "$f")
			if [ "${first#Not an upstream commit}" != "$first" ]; then
				# Code no upstream commit has: the project's own patch,
				# authored by it, saying why the branch needs it; no
				# sign-off (make export adds the exporter's).
				check "$rel/$name: the project's own patch has no upstream author" not grep -q '^From: .*\(linutronix\|linaro\|ibm\.com\|gmail\)' "$f"
				check "$rel/$name: the project's own patch carries no sign-off" not grep -q '^Signed-off-by:' "$f"
				check "$rel/$name: says which branch needs it" grep -q '^\[ [0-9.-]* only' "$f"
				continue
			fi
			# stable-queue's form: the first line of the body is
			# "commit <id> upstream.", the upstream author is the
			# From: and signs off, a [ ... ] note says what changed.
			# An id shorter than 40 digits must say why.
			check "$rel/$name: body starts with 'commit <id> upstream.'" \
				test "$first" = "$(grep -m1 -oE '^commit [0-9a-f]{12,40} upstream\.$' "$f")"
			[ "$(grep -m1 -oE '^commit [0-9a-f]{40} upstream\.$' "$f")" = "$first" ] \
				|| check "$rel/$name: a short id says the full one was not found" grep -q '^The full 40-digit id was not found' "$f"
			check "$rel/$name: the description is marked as ours" grep -q "^Our description (upstream's changelog is in the commit):$" "$f"
			author=$(sed -n 's/^From: //p' "$f" | head -n 1)
			check "$rel/$name: the upstream author ($author) signs off" grep -qxF "Signed-off-by: $author" "$f"
			check "$rel/$name: has a bracketed backport note" grep -q '^\[ Backport' "$f"
			# What git am reads: the author and a message that starts with the line.
			mkdir -p "$scratch/mi"
			git mailinfo "$scratch/mi/msg" "$scratch/mi/patch" <"$f" >"$scratch/mi/info"
			check "$rel/$name: git am credits the upstream author" grep -qxF "Author: ${author% <*}" "$scratch/mi/info"
			check "$rel/$name: git am's message starts with the commit line" grep -qE '^commit [0-9a-f]{12,40} upstream\.$' <(head -n 1 "$scratch/mi/msg")
			check "$rel/$name: git am finds the diff" test -s "$scratch/mi/patch"
			check "$rel/$name: no unverified id left to check" not grep -qi 'from memory\|check it against linux.git\|not checked here' "$f" ;;
		*)
			check "$rel/$name: says it is a test fixture" grep -q '^Test fixture, not a fix' "$f"
			check "$rel/$name: names the upstream commit it inverts" grep -qE 'commit [0-9a-f]{12}' "$f" ;;
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
