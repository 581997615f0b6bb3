#!/bin/bash
# tier: full (checkpatch.pl comes from the reference branch's packaged tree)
# test-checkpatch.sh - the kernel's own scripts/checkpatch.pl on every patch
# of branches/ and mutants/: it must have run on each (its "total:" line)
# and report no ERROR.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# checkpatch.pl from a packaged tree.
cp=$(packaged_tree)/scripts/checkpatch.pl
# Run it outside this git repository: inside one it takes the patch for a file.
# Build aids and test fixtures are never exported, and carry no sign-off of
# ours (make export adds the exporter's to the fix series only): for them
# checkpatch's missing-sign-off error is expected, nothing else.
for f in "$ROOT"/branches/*/*/*.patch "$ROOT"/mutants/*/*/*.patch; do
	ignore=""
	case "$f" in */fix/* | */edge/*) grep -q '^Not an upstream commit' "$f" && ignore="--ignore MISSING_SIGN_OFF" ;; *) ignore="--ignore MISSING_SIGN_OFF" ;; esac
	# shellcheck disable=SC2086 # an option and its value, or nothing
	out=$( (cd "$scratch" && perl "$cp" --no-tree --show-types $ignore "$f") 2>&1) || true
	check "checkpatch: ran on ${f#"$ROOT"/} (its total: line)" grep -q '^total: [0-9]* errors, [0-9]* warnings' <<<"$out"
	check "checkpatch: no ERROR in ${f#"$ROOT"/}" not grep -q '^ERROR' <<<"$out"
	grep '^ERROR' <<<"$out" || true
done
finish checkpatch
