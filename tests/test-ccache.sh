#!/bin/bash
# test-ccache.sh - build-kernel.sh with KERNEL_CCACHE (make CCACHE=1): the
# compiler runs through ccache by its own name, a second object directory
# hits what the first compiled, a changed source misses, and the counts
# reach build.json's figures; without it no ccache is involved.  On a
# made-up tree whose image is one object file.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

t=$w/build/tree
mkdir -p "$t/scripts/kconfig"
# The image records which gcc the build found, the way a kernel build runs it.
cat >"$t/Makefile" <<'MK'
olddefconfig:
	@true
Image:
	@command -v gcc >$(O)/gcc-used
	@gcc -O2 -c $(CURDIR)/leap.c -o $(O)/leap.o && cp $(O)/leap.o $(O)/Image
MK
printf 'olddefconfig:\n' >"$t/scripts/kconfig/Makefile"
# shellcheck disable=SC2016 # the script's own $1, literally
printf '#!/bin/sh\n[ "$1" = -m ] && shift\nout=$1; shift\ncat "$@" >>"$out"\n' >"$t/scripts/kconfig/merge_config.sh"
echo 'int leap(int s) { return s + 1; }' >"$t/leap.c"
echo 'CONFIG_X=y' >"$w/base.config"
: >"$w/frag.config"
build() { # OBJDIR [CCACHE-DIR [TREE]]
	KERNEL_CCACHE=${2:-} BASE_CONFIG=$w/base.config "$ROOT/scripts/build-kernel.sh" "${3:-$t}" "$1" kx Image "$w/frag.config" >/dev/null 2>&1
}
stat_of() { awk -v k="ccache $2" 'index($0, k " ") == 1 { print $3 }' "$1/.leap-ccache"; }

check "a build through the cache" build "$w/build/obj/a" "$w/build/ccache"
check_eq "... found gcc by its name, linked to ccache" "$w/build/ccache/bin/gcc" "$(cat "$w/build/obj/a/gcc-used")"
check_eq "... the first compile missed" 1 "$(stat_of "$w/build/obj/a" cache_miss)"
# The same sources at another path, as a tree at another version would be.
cp -a "$t" "$w/build/tree-next"
check "the same sources elsewhere, another object directory" build "$w/build/obj/b" "$w/build/ccache" "$w/build/tree-next"
check_eq "... hit the first one's entry (paths under the build directory hashed relative)" 1 \
	"$(( $(stat_of "$w/build/obj/b" direct_cache_hit) + $(stat_of "$w/build/obj/b" preprocessed_cache_hit) ))"
check "... the same object" cmp -s "$w/build/obj/a/Image" "$w/build/obj/b/Image"
echo 'int leap(int s) { return s - 1; }' >"$t/leap.c"
check "a changed source" build "$w/build/obj/c" "$w/build/ccache"
check_eq "... missed: nothing stale" 1 "$(stat_of "$w/build/obj/c" cache_miss)"
check "... and a different object" not cmp -s "$w/build/obj/a/Image" "$w/build/obj/c/Image"
check "without the cache" build "$w/build/obj/c"
check_eq "... the plain gcc" "$(command -v gcc)" "$(cat "$w/build/obj/c/gcc-used")"
check "... and no cache figures" test ! -e "$w/build/obj/c/.leap-ccache"
check "... the seconds of the image's make recorded" grep -qx '[0-9][0-9]*' "$w/build/obj/c/.leap-make-s"
echo 'syntax error' >"$t/leap.c"
check "a make that fails" not build "$w/build/obj/c"
check "... leaves no figure of the build before it" test ! -e "$w/build/obj/c/.leap-make-s"

# The plan carries the choice, and make refuses a value that is neither.
plan() { CCACHE=$1 BUILD_DIR=$w/build "$ROOT/scripts/plan.sh" "${@:2}"; }
check "CCACHE=1: ccache among the tools" grep -qx 'ccache:ccache' <(plan 1 tools 6.1-x86_64-stock)
check "CCACHE=0: not" not grep -q ccache <(plan 0 tools 6.1-x86_64-stock)
err=$(plan 2 tools 6.1-x86_64-stock 2>&1 >/dev/null) && rc=0 || rc=$?
check "CCACHE=2 refused" test "$rc" -ne 0
check_eq "... in one line naming the values" 1 "$(grep -c 'CCACHE=2: give 1' <<<"$err")"
finish ccache
