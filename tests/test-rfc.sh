#!/bin/bash
# tier: full (dry runs on kernel trees: the reference branch's packaged tree, fetched once, and the trees found here)
# test-rfc.sh - the rfc variant, John Stultz's RFC of 1 July 2012
# (docs/backports.md, "The RFC of 1 July 2012"):
#  - each branch that has it stacks series that exist and expects a verdict;
#  - each patch of a branches/*/rfc directory, as git mailinfo reads it (what
#    git am records): the RFC's two patches by John Stultz with the mails'
#    dates as posted, the project's own by the project, without a sign-off;
#  - on every tree found here that the variant names, the stack the planner
#    gives (the branch's build aids, then PATCHES_rfc) applies, dry run
#    (scripts/tree-patch.sh check works on copies: the tree's files are
#    compared before and after), and each patch of an rfc directory
#    "applies" (none skipped as already there).  The trees: the packaged
#    trees extracted under BUILD_DIR/trees (the reference branch's is
#    fetched if missing), and trees you bring, RFC_TREES (blank-separated
#    directories) and every directory under LEAP_TREES (a directory of
#    trees, where a machine keeps them).  A tree is the variant's
#    when its branch has rfc and its code is the variant's base: a
#    later-layout tree (the stack re-creates the bug first), or an older
#    one without the 2012 fix;
#  - on such a tree you bring of an old line, KSRC= plans the rfc cell,
#    expected FAIL, with the rfc patches;
#  - git am of each rfc stack, onto a scratch repository of the files it
#    touches in the first tree of its kind, gives the same authors and
#    dates as above.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
plan=$ROOT/scripts/plan.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
build=$(realpath -m "${BUILD_DIR:-$ROOT/build}")

rfc_author='John Stultz <johnstul@us.ibm.com>'
declare -A posted=(
	["Fix clock_was_set so it is safe to call from atomic"]="Sun, 1 Jul 2012 14:30:00 -0400"
	["Fix leapsecond triggered hrtimer/futex load spike issue"]="Sun, 1 Jul 2012 14:30:01 -0400"
)
# The project's identity, as its own fixtures carry it.
project=$(sed -n 's/^From: //p' "$ROOT"/branches/later/naive/0001-*.patch | head -n 1)

# is_rfc_dir PATCH: a patch that lives in an rfc directory.
is_rfc_dir() { [[ $1 == */rfc/* ]]; }

# expect_author WHAT AUTHOR DATE SUBJECT FILE: the checks of one patch as git
# am records it (AUTHOR "Name <mail>", DATE as git's rfc date).
expect_author() {
	local what=$1 author=$2 date=$3 subject=$4 f=$5
	if grep -q '^Subject: \[PATCH [0-9]/2\] \[RFC\]' "$f"; then
		check_eq "$what: John Stultz is the author" "$rfc_author" "$author"
		check "$what: a subject of the RFC as posted ($subject)" test -n "${posted[$subject]:-}"
		check_eq "$what: the date of its mail as posted" "${posted[$subject]:-?}" "$date"
		check "$what: his sign-off, as posted" grep -qxF "Signed-off-by: $rfc_author" "$f"
	else
		check_eq "$what: the project's own patch, by the project" "$project" "$author"
		check "$what: the project's own patch carries no sign-off" not grep -q '^Signed-off-by:' "$f"
		check "$what: says it is the project's own" grep -q '^Not an upstream commit' "$f"
	fi
}

# --- the data ----------------------------------------------------------------
rfc_branches=()
for b in $("$plan" branches); do
	[[ " $("$plan" get "$b" VARIANTS) " == *" rfc "* ]] || continue
	rfc_branches+=("$b")
	stack=$("$plan" stack "$b" rfc)
	check "$b: PATCHES_rfc names directories" test -n "$stack"
	# shellcheck disable=SC2086 # a list of directories
	check "$b: each rfc directory has a series whose patches exist" "$plan" series $stack
	check "$b: EXPECT_rfc" test -n "$("$plan" get "$b" EXPECT_rfc)"
done
check "branches with the rfc variant" test "${#rfc_branches[@]}" -ge 5

# --- each patch as git am reads it ---------------------------------------------
n=0
for f in "$ROOT"/branches/*/rfc/*.patch; do
	n=$((n + 1))
	rel=${f#"$ROOT"/}
	git mailinfo "$w/msg" "$w/body" <"$f" >"$w/info"
	a=$(sed -n 's/^Author: //p' "$w/info") e=$(sed -n 's/^Email: //p' "$w/info")
	expect_author "$rel (mailinfo)" "$a <$e>" "$(sed -n 's/^Date: //p' "$w/info")" \
		"$(sed -n 's/^Subject: //p' "$w/info")" "$f"
	check "$rel: says it is a test fixture, not a fix" grep -q '^Test fixture, not a fix' "$f"
	check "$rel: a [ ... ] note" grep -q '^\[ ' "$f"
done
check "rfc patches found" test "$n" -ge 7

# --- the trees ------------------------------------------------------------------
trees=()
pk=$(packaged_tree 2>/dev/null) && trees+=("$pk")
for d in "$build"/trees/linux-source-*/ ${RFC_TREES:-}; do
	[ -d "$d" ] && trees+=("${d%/}")
done
leap_trees=${LEAP_TREES:-}
if [ -n "$leap_trees" ] && [ -d "$leap_trees" ]; then
	for d in "$leap_trees"/*/; do trees+=("${d%/}"); done
fi
declare -A seen amed
ran=0
touched() { sed -n -e 's/^--- a\/\([^\t]*\).*/\1/p' -e 's/^+++ b\/\([^\t]*\).*/\1/p' "$@" | sort -u; }
sums() { # TREE FILE...: the files' checksums (missing ones named)
	local t=$1 f
	shift
	for f in "$@"; do
		if [ -f "$t/$f" ]; then sha256sum "$t/$f"; else echo "missing $f"; fi
	done
}
for t in "${trees[@]}"; do
	r=$(realpath "$t")
	[ -z "${seen[$r]:-}" ] || continue
	seen[$r]=1
	{ [ -f "$t/Makefile" ] && [ -d "$t/kernel" ]; } || continue
	b=$("$ROOT/scripts/ksrc-branch.sh" "$t" 2>/dev/null) || continue
	[[ " ${rfc_branches[*]} " == *" $b "* ]] || continue
	stack=$("$plan" stack "$b" rfc)
	state=$("$plan" fix-state "$t" 2>/dev/null || echo "?")
	regress=$("$plan" stack "$b" regress)
	if [ -z "$regress" ] && [ -n "$state" ]; then
		echo "== $t ($b): its code carries the 2012 fix ($state): no base for rfc, not checked"
		continue
	fi
	name="$(basename "$t") ($b)"
	compat=$("$plan" get "$b" COMPAT)
	# shellcheck disable=SC2086 # lists of directories
	mapfile -t files < <("$plan" series $compat $stack)
	mapfile -t tf < <(touched "${files[@]}")
	before=$(sums "$t" "${tf[@]}")
	out=$("$ROOT/scripts/tree-patch.sh" check "$t" "${files[@]}" 2>&1) && rc=0 || rc=$?
	ran=$((ran + 1))
	check "$name: the rfc stack applies, dry run" test "$rc" -eq 0
	[ "$rc" -eq 0 ] || printf '%s\n' "$out"
	for p in "${files[@]}"; do
		is_rfc_dir "$p" || continue
		check "$name: $(basename "$p") applies" grep -q "^$(basename "$p"): applies" <<<"$out"
	done
	check_eq "$name: the tree is as it was" "$before" "$(sums "$t" "${tf[@]}")"
	# A tree you bring of an old line: the rfc cell, planned.
	if [ -z "$("$plan" get "$b" PACKAGE)" ]; then
		check_eq "$name: KSRC= plans the rfc cell" "$b-x86_64-rfc" \
			"$(KSRC=$t "$plan" cells "$b" x86_64 rfc 2>/dev/null)"
		pd=$w/plan-$ran
		if KSRC=$t BUILD_DIR=$w/build "$plan" resolve "$pd" "$b-x86_64-rfc" >/dev/null 2>&1; then
			pj=$pd/cells/$b-x86_64-rfc/plan.json
			check_eq "$name: the rfc cell is expected to FAIL" FAIL "$(jq -r '.expect | join(" ")' "$pj")"
			check_eq "$name: the rfc cell's patches are the stack's" \
				"$(for p in "${files[@]}"; do echo "${p#"$ROOT"/}"; done)" "$(jq -r '.patches[]' "$pj")"
		else
			check "$name: KSRC= resolves the rfc cell" false
		fi
	fi
	# git am of the stack, once per stack, onto the files it touches here.
	{ [ "$rc" -eq 0 ] && [ -z "${amed[$stack]:-}" ]; } || continue
	amed[$stack]=$name
	repo=$w/am-$ran
	mkdir -p "$repo"
	# shellcheck disable=SC2086 # lists of directories
	mapfile -t sp < <("$plan" series $stack)
	for f in $(touched "${sp[@]}"); do
		[ -f "$t/$f" ] || continue
		mkdir -p "$repo/$(dirname "$f")"
		cp "$t/$f" "$repo/$f"
	done
	g() { git -C "$repo" -c user.name=test -c user.email=test@invalid -c commit.gpgsign=false "$@"; }
	g init -q
	g add -A
	g commit -q -m base
	for p in "${sp[@]}"; do
		# A patch the tree already has (3.4.3 on: fad0c66c) is not applied.
		grep -q "^$(basename "$p"): already in the tree" <<<"$out" && continue
		if ! g am -q "$p" >/dev/null 2>&1; then
			check "$name: git am $(basename "$p")" false
			g am --abort >/dev/null 2>&1 || true
			break
		fi
		is_rfc_dir "$p" || continue
		IFS='|' read -r a d s < <(g log -1 --date=rfc --format='%an <%ae>|%ad|%s')
		expect_author "$name: git am ${p#"$ROOT"/branches/}" "$a" "$d" "$s" "$p"
	done
done
check "a tree for the rfc variant was found and checked" test "$ran" -ge 1
for b in "${rfc_branches[@]}"; do
	stack=$("$plan" stack "$b" rfc)
	echo "== $b: rfc stack ($stack): git am on ${amed[$stack]:-no tree here (mailinfo only)}"
done
finish rfc
