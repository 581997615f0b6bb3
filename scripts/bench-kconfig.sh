#!/bin/bash
# bench-kconfig.sh - the speed of a configuration that is not tiny (make
# bench CONFIG=debian), against the targets of docs/results.md, recorded there
# between the "bench-kconfig" markers.
#
# Usage: bench-kconfig.sh [-p OLD-VERSION] CONFIG [ARCH...]
#   CONFIG   a packaged configuration of kconfigs/ (debian, debian-rt)
#   ARCH     the arches to measure (default: every arch of the branch)
#   -p OLD   also the rerun after a point release, on the first arch: the
#            tree at OLD built with CCACHE=1 (the cache cold), then the
#            current tree with the cache warm, next to the same build
#            without it
# Branch 6.1 (BENCH_BRANCH).  For each arch, in one run, each build from
# scratch (an object directory of its own): the tiny stock cell, the CONFIG
# stock cell (with the time of its image's make alone, from build.json), a
# plain `make -j$(nproc)` of that cell's final .config with no harness around
# it, the regress variant's switch (patch, incremental rebuild, link), and
# each stock cell's boot + leap test.  Hours on 2 cores.
# The builds go to a build directory of this run's own (its trees are the
# main build directory's, linked, under the main directory's lock).  Each
# arch's figures are a section of docs/results.md of their own (marked
# bench-BRANCH-ARCH@CONFIG), so that a run of one arch leaves the other's
# alone: the arches can be measured in separate runs.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
die() { echo "bench-kconfig: $*" >&2; exit 2; }
old=""
while getopts p: o; do
	case "$o" in
	p) old=$OPTARG ;;
	*) echo "usage: bench-kconfig.sh [-p OLD-VERSION] CONFIG [ARCH...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: bench-kconfig.sh [-p OLD-VERSION] CONFIG [ARCH...]" >&2; exit 2; }
config=$1
shift
b=${BENCH_BRANCH:-$("$here/plan.sh" role reference)} || exit 2
shipped=$("$here/plan.sh" role shipped) regress=$("$here/plan.sh" role regress)
[ -z "${DEBIAN_VERSION:-}" ] || die "DEBIAN_VERSION=$DEBIAN_VERSION: make bench CONFIG= measures the newest upload (POINT= adds the rerun after an older one)"
[ "$config" != tiny ] || die "CONFIG=tiny is what make bench measures; give a configuration to compare with it (debian, debian-rt)"
# Every cell named up front: a wrong CONFIG or ARCH is one line, nothing built.
stocks=$("$here/plan.sh" cells "$b" "$*" "$shipped" "" "$config") || exit 2
# shellcheck disable=SC2086 # a list of cells
arches=$("$here/plan.sh" fields $stocks | cut -f3)
first=${arches%%$'\n'*}
build=$(build_dir)
lock_build bench "$build"
new_run bench-"$config"- "$build"
out=$RUN
pkg=$("$here/plan.sh" get "$b" PACKAGE)
suites=$("$here/plan.sh" get "$b" SUITES)
tree=$("$here/fetch-tree.sh" "$pkg" "$suites" "$build")
version=$(cat "$build/trees/$pkg.version")

# private BUILD_DIR: a build directory of the run's own, the main
# directory's tree and .debs linked.
private() {
	mkdir -p "$1/trees"
	ln -sfn "$tree" "$1/trees/$pkg"
	echo "$version" >"$1/trees/$pkg.version"
	ln -sfn "$build/debs" "$1/debs"
}
# cells BUILD_DIR RUN CELL...: the runner on those cells (CCACHE from the caller).
cells() {
	local bd=$1 run=$2
	shift 2
	BUILD_DIR=$bd LEAP_LOCKED="" "$here/matrix.sh" -d "$run" "$@" >>"$out/runs.log" 2>&1 || true
}
field() { jq -r ".$3 // empty" "$1/cells/$2/cell.json" 2>/dev/null; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else printf "?" }'; }

# row ARCH LINE...: lines of ARCH's table.
row() { local a=$1; shift; printf '%s\n' "$@" >>"$out/rows-$a"; }
for a in $arches; do
	bd=$out/build-$a
	private "$bd"
	tiny=$b-$a-$shipped cfg=$b-$a-$shipped@$config switch=$b-$a-$regress@$config
	cells "$bd" "$out/tiny-$a" "$tiny"
	cells "$bd" "$out/full-$a" "$cfg"
	# The same .config, plain make, nothing around it.
	plan=$out/full-$a/cells/$cfg/plan.json
	plain_s="?"
	if [ -f "$plan" ] && [ -f "$(jq -r .build.objdir "$plan")/.config" ]; then
		{ read -r karch; read -r cross; read -r target; read -r objdir; } < <(jq -r '.build.karch, .build.cross_compile, .build.target, .build.objdir' "$plan")
		p=$bd/plain
		rm -rf "$p" && mkdir -p "$p" && cp "$objdir/.config" "$p/.config"
		mk=(-C "$tree" "O=$p" "ARCH=$karch" "CROSS_COMPILE=$cross" -s)
		make "${mk[@]}" olddefconfig >/dev/null
		start=$(date +%s)
		make "${mk[@]}" -j"$(nproc)" "$(basename "$target")" >"$out/plain-$a.log" 2>&1 && plain_s=$(($(date +%s) - start))
		rm -rf "$p"
	fi
	cells "$bd" "$out/switch-$a" "$switch"
	t_build=$(field "$out/tiny-$a" "$tiny" build_s) c_build=$(field "$out/full-$a" "$cfg" build_s)
	t_boot=$(field "$out/tiny-$a" "$tiny" boot_s) c_boot=$(field "$out/full-$a" "$cfg" boot_s)
	s_build=$(field "$out/switch-$a" "$switch" build_s)
	# Within the harness's build, the image's make alone: the rest is the
	# harness's own work (configuration step, patches, copies), measured in
	# the same build, free of the spread between two builds.
	c_make=$(jq -r '.make_s // empty' "$out/full-$a/cells/$cfg/build.json" 2>/dev/null || true)
	own="?"
	[ -z "$c_build" ] || [ -z "$c_make" ] || own=$((c_build - c_make))
	opts=$(grep -c '=y$' "$(jq -r .image.dir "$plan" 2>/dev/null)/.config" 2>/dev/null || echo "?")
	row "$a" "| $a: tiny stock, full build (s) | ${t_build:-?} | (the reference) |" \
		"| $a: $config stock, full build through the harness (s), $opts \`=y\` | ${c_build:-?} ($(ratio "${c_build:-0}" "${t_build:-0}")x tiny) | <= 1.05 x plain make |" \
		"| $a: of that build, the image's make alone (s) | ${c_make:-?} ($(ratio "${c_build:-0}" "${c_make:-0}") build/its make: the harness's own work $own s) | <= 1.05 |" \
		"| $a: plain \`make -j$(nproc)\` of the same .config, a build of its own (s) | $plain_s ($(ratio "${c_build:-0}" "$plain_s") harness/plain; the same make $(ratio "${c_make:-0}" "$plain_s") in the harness/plain) | (the reference) |" \
		"| $a: $config variant switch, patch + incremental rebuild (s) | ${s_build:-?} | <= 60 |" \
		"| $a: boot + whole leap test, $config vs tiny (s) | ${c_boot:-?} vs ${t_boot:-?} ($(ratio "${c_boot:-0}" "${t_boot:-0}")x) | <= 2x |"
	rm -rf "$bd"
done

# The rerun after a point release, on the first arch, in a build directory
# of its own where each version's tree is extracted at the same path (as a
# user's would be, one after the other): OLD with the cache cold, then the
# current version with it warm, each object directory from scratch.  The
# same build without the cache is the full build above.
if [ -n "$old" ]; then
	a=$first
	cfg=$b-$a-$shipped@$config cb=$out/build-point
	mkdir -p "$cb"
	ln -sfn "$build/debs" "$cb/debs"
	"$here/fetch-tree.sh" "$pkg" "$suites" "$cb" "$old" >/dev/null || die "no $pkg $old in Debian's suites $suites"
	CCACHE=1 cells "$cb" "$out/ccache-old" "$cfg"
	rm -rf "$cb/obj" "$cb/trees/$pkg" "$cb/trees/$pkg.version"
	"$here/fetch-tree.sh" "$pkg" "$suites" "$cb" "$version" >/dev/null
	CCACHE=1 cells "$cb" "$out/ccache-new" "$cfg"
	hm() { jq -r '"\(.ccache.hits // "?") hits, \(.ccache.misses // "?") misses"' "$1/cells/$cfg/build.json" 2>/dev/null || echo "?"; }
	o_s=$(field "$out/ccache-old" "$cfg" build_s) n_s=$(field "$out/ccache-new" "$cfg" build_s)
	plain=$(field "$out/full-$a" "$cfg" build_s)
	row "$a" "| $a: $config $old with ccache, the cache cold (s) | ${o_s:-?} ($(hm "$out/ccache-old")) | |" \
		"| $a: then $version with ccache, the cache warm (s) | ${n_s:-?} ($(hm "$out/ccache-new")) | less than without: the cache on by default |" \
		"| $a: $version without ccache (the full build above, s) | ${plain:-?} | |"
	rm -rf "$cb"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
for a in $arches; do
	mark=bench-$b-$a@$config point=""
	[ "$a" != "$first" ] || point=${old:+ POINT=$old}
	{
		echo "<!-- $mark: generated by scripts/bench-kconfig.sh (make bench CONFIG=$config ARCH=$a$point); rerun it to refresh -->"
		echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') (run $(basename "$out")), branch $b ($pkg $version), $a, on $(nproc) cores${cpu:+ ($cpu)}; one run each, every build from scratch."
		echo
		echo "| measure | value | target |"
		echo "|---|---|---|"
		cat "$out/rows-$a"
		echo "<!-- /$mark -->"
	} >"$out/table-$a.md"
	cat "$out/table-$a.md"
	doc_section "$mark" "$out/table-$a.md" "$root/docs/results.md" "Speed of $b-$a@$config (make bench CONFIG=$config ARCH=$a)"
done
