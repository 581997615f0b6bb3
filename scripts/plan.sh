#!/bin/bash
# plan.sh - the matrix plan, read from branches/*/branch.mk and arches/*.mk.
#
# Usage:
#   plan.sh cells [BRANCH [ARCH [VARIANT]]]   one <branch>-<arch>-<variant> per line
#   plan.sh cells-json [BRANCH [ARCH [VARIANT]]]  the same as {"cell": [...]}
#   plan.sh info CELL                          the cell's settings, as shell assignments
#   plan.sh branches                           the branch names
#   plan.sh get BRANCH KEY                     one branch.mk value
#   plan.sh series DIR...                      the patches of DIR/series, absolute
#   plan.sh value FILE KEY                     one value of a make-style variables file
#   plan.sh branch-for VERSION                 the branch whose range holds VERSION (x.y.z)
#   plan.sh packages CELL...                   "PACKAGE SUITES..." per Debian tree the cells
#                                              need, once each, in cell order
#   plan.sh configs ARCH [FRAGMENT...]         the config fragment files, in merge order:
#                                              each FRAGMENT's (default common), the
#                                              arch's, then each <FRAGMENT>-<ARCH> present
#
# A branch.mk holds variables only (KEY := value): PACKAGE, SUITES, FAMILY,
# ARCHES, VARIANTS, EXPECT_<variant>, PATCHES_<variant> (patch directories
# relative to branches/, applied in order), VERSION_MIN, VERSION_MAX, and for
# old trees COMPAT (a patch directory applied under every variant, for the
# build only), CONFIGS (config fragments instead of "common"), KERNEL_CC and
# KERNEL_HOSTCC (compilers the tree needs; the user's CC/HOSTCC win) and
# GUEST_LIBC (musl for kernels older than static glibc accepts), and
# SKIP_CHECKS (leap-test checks the branch's series does not address, e.g.
# leap_edge where the 2015 fix is not carried: reported SKIP, with why).
# A key absent from a branch.mk comes from branches/<FAMILY>/family.mk, the
# values the branches of one layout share.  An empty filter means "all".
# LEAP_ROOT (default: this script's parent) locates branches/ and arches/.
set -eu

root=${LEAP_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
die() { echo "plan: $*" >&2; exit 1; }

# get FILE KEY: the value of KEY in a make-style variables file.
get() {
	awk -v key="$2" '
		/^[ \t]*#/ { next }
		{
			line = $0
			if (match(line, /^[A-Za-z0-9_]+[ \t]*:?=/)) {
				k = substr(line, 1, RLENGTH); sub(/[ \t]*:?=$/, "", k)
				if (k == key) {
					v = substr(line, RLENGTH + 1); gsub(/^[ \t]+|[ \t]+$/, "", v); val = v
				}
			}
		}
		END { print val }' "$1"
}

# bget BRANCH_MK KEY: KEY from a branch.mk, else from the family.mk of its
# FAMILY (branches/<family>/family.mk: the values its branches share).
bget() {
	local mk=$1 key=$2 fam
	if grep -qE "^${key}[[:space:]]*:?=" "$mk"; then
		get "$mk" "$key"
		return 0
	fi
	fam=$(get "$mk" FAMILY)
	if [ -n "$fam" ] && [ -f "$root/branches/$fam/family.mk" ]; then
		get "$root/branches/$fam/family.mk" "$key"
	fi
	return 0
}

branches() {
	for f in "$root"/branches/*/branch.mk; do
		[ -f "$f" ] && basename "$(dirname "$f")"
	done
}

known_arches() {
	for f in "$root"/arches/*.mk; do basename "$f" .mk; done
}

one_of() { # WORD LIST...
	local w=$1 x
	shift
	for x in "$@"; do [ "$x" = "$w" ] && return 0; done
	return 1
}

# cells [BRANCH [ARCHES [VARIANTS]]]: filters may be space-separated lists.
cells() {
	local want_b=${1:-} want_a=${2:-} want_v=${3:-} b a v mk x
	# shellcheck disable=SC2046
	for x in $want_b; do one_of "$x" $(branches) \
		|| die "unknown BRANCH '$x': use one of: $(branches | tr '\n' ' ')"; done
	# shellcheck disable=SC2046
	for x in $want_a; do one_of "$x" $(known_arches) \
		|| die "unknown ARCH '$x': use one of: $(known_arches | tr '\n' ' ')"; done
	for x in $want_v; do one_of "$x" stock regress naive fixed \
		|| die "unknown VARIANT '$x': use one of: stock regress naive fixed"; done
	for b in $(branches); do
		# shellcheck disable=SC2086
		[ -z "$want_b" ] || one_of "$b" $want_b || continue
		mk=$root/branches/$b/branch.mk
		# A branch without a package runs on a tree the user brings: it is
		# in the matrix only when asked for, and then needs KSRC.
		if [ -z "$(bget "$mk" PACKAGE)" ] && [ -z "${KSRC:-}" ]; then
			[ -z "$want_b" ] || die "branch $b runs on a tree you bring: make qemu-$b KSRC=/path/to/linux-$b.x"
			continue
		fi
		for a in $(bget "$mk" ARCHES); do
			# shellcheck disable=SC2086
			[ -z "$want_a" ] || one_of "$a" $want_a || continue
			for v in $(bget "$mk" VARIANTS); do
				# shellcheck disable=SC2086
				[ -z "$want_v" ] || one_of "$v" $want_v || continue
				echo "$b-$a-$v"
			done
		done
	done
}

info() {
	local cell=$1 v a b mk
	v=${cell##*-}
	a=${cell%-*}
	a=${a##*-}
	b=${cell%-*-*}
	[ "$b" != "$cell" ] || die "CELL '$cell' is not <branch>-<arch>-<variant>: see 'make list-cells'"
	mk=$root/branches/$b/branch.mk
	[ -f "$mk" ] || die "unknown CELL '$cell' (no branch '$b'): see 'make list-cells'"
	cells "$b" | grep -qx -- "$cell" \
		|| die "unknown CELL '$cell': branch $b has no $a $v cell; see 'make list-cells'"
	printf 'BRANCH=%q ARCH=%q VARIANT=%q\n' "$b" "$a" "$v"
	printf 'PACKAGE=%q SUITES=%q FAMILY=%q\n' "$(bget "$mk" PACKAGE)" "$(bget "$mk" SUITES)" "$(bget "$mk" FAMILY)"
	printf 'EXPECT=%q PATCHES=%q\n' "$(bget "$mk" "EXPECT_$v")" "$(bget "$mk" "PATCHES_$v")"
	printf 'COMPAT=%q CONFIGS=%q GUEST_LIBC=%q SKIP_CHECKS=%q\n' "$(bget "$mk" COMPAT)" "$(bget "$mk" CONFIGS)" \
		"$(bget "$mk" GUEST_LIBC)" "$(bget "$mk" SKIP_CHECKS)"
	printf 'B_KERNEL_CC=%q B_KERNEL_HOSTCC=%q\n' "$(bget "$mk" KERNEL_CC)" "$(bget "$mk" KERNEL_HOSTCC)"
	for k in KARCH CROSS IMAGE QEMU CONSOLE QEMU_ARGS GUEST_CC CMDLINE; do
		printf 'A_%s=%q\n' "$k" "$(get "$root/arches/$a.mk" "${a}_$k")"
	done
}

# series DIR...: the patches each DIR/series lists, as absolute paths, in
# order (DIR absolute, or relative to branches/; entries relative to DIR).
series() {
	local d p
	for d in "$@"; do
		case "$d" in /*) ;; *) d=$root/branches/$d ;; esac
		[ -f "$d/series" ] || die "no $d/series: a branch.mk or mutant names a patch directory without one"
		while IFS= read -r p; do
			case "$p" in '' | '#'*) continue ;; esac
			[ -f "$d/$p" ] || die "$d/series lists $p, which does not exist"
			realpath "$d/$p"
		done <"$d/series"
	done
}

# Version compare: is $1 <= $2 (dotted numbers)?
ver_le() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$1" ]; }

branch_for() {
	local ver=$1 b mk lo hi
	for b in $(branches); do
		mk=$root/branches/$b/branch.mk
		lo=$(bget "$mk" VERSION_MIN) hi=$(bget "$mk" VERSION_MAX)
		{ [ -n "$lo" ] && [ -n "$hi" ]; } || continue
		if ver_le "$lo" "$ver" && ver_le "$ver" "$hi"; then
			echo "$b"
			return 0
		fi
	done
	die "no branch supports kernel $ver: supported ranges are$(for b in $(branches); do
		mk=$root/branches/$b/branch.mk; printf ' %s-%s' "$(bget "$mk" VERSION_MIN)" "$(bget "$mk" VERSION_MAX)"; done)"
}

# packages CELL...: the Debian trees behind the cells, first use first.
packages() {
	local cell b mk pkg
	for cell in "$@"; do
		b=${cell%-*-*}
		mk=$root/branches/$b/branch.mk
		[ -f "$mk" ] || continue
		pkg=$(bget "$mk" PACKAGE)
		[ -n "$pkg" ] && echo "$pkg $(bget "$mk" SUITES)"
	done | awk '!seen[$1]++'
}

# configs ARCH [FRAGMENT...]: configs/<F>.config for each fragment (default
# common), configs/<ARCH>.config, then configs/<F>-<ARCH>.config where one
# exists (what only that arch changes for those trees).
configs() {
	local arch=$1 c
	shift
	[ $# -gt 0 ] || set -- common
	for c in "$@" "$arch"; do
		[ -f "$root/configs/$c.config" ] || die "no configs/$c.config: a branch.mk's CONFIGS or an arch names a missing fragment"
		echo "$root/configs/$c.config"
	done
	for c in "$@"; do
		[ ! -f "$root/configs/$c-$arch.config" ] || echo "$root/configs/$c-$arch.config"
	done
}

case "${1:-}" in
configs) [ $# -ge 2 ] || die "usage: plan.sh configs ARCH [FRAGMENT...]"; shift; configs "$@" ;;
packages) shift; packages "$@" ;;
cells) shift; cells "$@" ;;
cells-json) shift; cells "$@" | awk 'BEGIN { printf "{\"cell\": [" } { printf "%s\"%s\"", (NR > 1 ? ", " : ""), $0 } END { print "]}" }' ;;
info) [ $# -eq 2 ] || die "usage: plan.sh info CELL"; info "$2" ;;
branches) branches ;;
series) shift; series "$@" ;;
value) [ $# -eq 3 ] || die "usage: plan.sh value FILE KEY"; get "$2" "$3" ;;
get) [ $# -eq 3 ] || die "usage: plan.sh get BRANCH KEY"; [ -f "$root/branches/$2/branch.mk" ] \
	|| die "unknown branch '$2': use one of: $(branches | tr '\n' ' ')"; bget "$root/branches/$2/branch.mk" "$3" ;;
branch-for) [ $# -eq 2 ] || die "usage: plan.sh branch-for VERSION"; branch_for "$2" ;;
*) echo "usage: plan.sh cells [BRANCH [ARCH [VARIANT]]] | info CELL | branches | get BRANCH KEY | branch-for VERSION" >&2; exit 2 ;;
esac
