#!/bin/bash
# test-bench-kconfig.sh - make bench CONFIG=...: the figures of each cell
# reach its arch's table, each arch's table is a section of docs/results.md
# of its own, and a later run of one arch replaces that arch's section and
# leaves the other's.  On a copy of the project whose matrix runner and tree
# fetcher are fakes: no kernel is built.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

r=$w/root
mkdir -p "$r/docs"
cp -r "$ROOT"/harness.mk "$ROOT"/scripts "$ROOT"/arches "$ROOT"/branches "$ROOT"/boots "$ROOT"/configs "$ROOT"/kconfigs "$r/"
printf '# Results\n\nbefore\n' >"$r/docs/results.md"
# The tree fetcher: an empty tree at the version asked for (6.1.2 if none).
cat >"$r/scripts/fetch-tree.sh" <<'SH'
#!/bin/bash
set -eu
mkdir -p "$3/trees/$1"
echo "${4:-6.1.2}" >"$3/trees/$1.version"
echo "$3/trees/$1"
SH
# The runner: each cell's cell.json with made-up figures, build seconds
# FAKE_BUILD (the tiny cell a tenth of them), boot seconds 10 (tiny 5), and
# with FAKE_OWN a build.json whose make took all but FAKE_OWN of them.
cat >"$r/scripts/matrix.sh" <<'SH'
#!/bin/bash
set -eu
[ "$1" = -d ] && run=$2 && shift 2
for c in "$@"; do
	mkdir -p "$run/cells/$c"
	case "$c" in
	*@*) b=$FAKE_BUILD s=10 ;;
	*) b=$((FAKE_BUILD / 10)) s=5 ;;
	esac
	printf '{"build_s": %s, "boot_s": %s}\n' "$b" "$s" >"$run/cells/$c/cell.json"
	# The image's make: all but FAKE_OWN seconds of the build (none given: no figure).
	[ -z "${FAKE_OWN:-}" ] || printf '{"build_s": %s, "make_s": %s}\n' "$b" "$((b - FAKE_OWN))" >"$run/cells/$c/build.json"
done
SH
chmod +x "$r/scripts/fetch-tree.sh" "$r/scripts/matrix.sh"
bench() { FAKE_BUILD=$1 BUILD_DIR=$w/build "$r/scripts/bench-kconfig.sh" "${@:2}" >"$w/out" 2>&1; }
doc=$r/docs/results.md
section() { sed -n "/^<!-- bench-$1: /,/^<!-- \/bench-$1 -->/p" "$doc"; }
marks() { grep -c "^<!-- bench-$1: " "$doc"; }

check "a run of both arches" bench 1000 debian x86_64 arm64
check_eq "... one section per arch" "1 1" \
	"$(marks 6.1-x86_64@debian) $(marks 6.1-arm64@debian)"
check "... each under its own title" grep -qx "## Speed of 6.1-arm64@debian (make bench CONFIG=debian ARCH=arm64)" "$doc"
check "... the full build against the tiny one" grep -q '^| x86_64: debian stock, full build .* | 1000 (10.00x tiny) |' <(section 6.1-x86_64@debian)
check "... the boots side by side" grep -q '^| arm64: boot + whole leap test, debian vs tiny (s) | 10 vs 5 (2.00x) |' <(section 6.1-arm64@debian)
check "... no arm64 row in the x86_64 section" not grep -q '^| arm64' <(section 6.1-x86_64@debian)
check "... what was there before kept" grep -qx before "$doc"
check "... no make figure from a build that gave none" grep -q '^| arm64: of that build, the image.s make alone (s) | ? (? build/its make: the harness.s own work ? s) |' <(section 6.1-arm64@debian)
x86=$(section 6.1-x86_64@debian)
FAKE_OWN=40 check "a later run of arm64 alone" bench 2000 debian arm64
check "... its make apart from the harness's own work" grep -q '^| arm64: of that build, the image.s make alone (s) | 1960 (1.02 build/its make: the harness.s own work 40 s) | <= 1.05 |' <(section 6.1-arm64@debian)
check_eq "... the x86_64 section as it was" "$x86" "$(section 6.1-x86_64@debian)"
check "... the arm64 section replaced" grep -q '^| arm64: debian stock, full build .* | 2000 (10.00x tiny) |' <(section 6.1-arm64@debian)
check_eq "... not added twice" 1 "$(marks 6.1-arm64@debian)"
BENCH_BRANCH=7.3 bench 1000 debian-rt arm64 && rc=0 || rc=$?
check_eq "another branch and configuration (BENCH_BRANCH=7.3, debian-rt)" 0 "$rc"
check "... beside 6.1's, not over it" grep -q '2000 (10.00x tiny)' <(section 6.1-arm64@debian)
check_eq "... in a section of its own" 1 "$(marks 7.3-arm64@debian-rt)"
check "a run with a point release (-p)" bench 1000 -p 6.1.1 debian x86_64 arm64
check "... its rows in the first arch's section" grep -q '^| x86_64: debian 6.1.1 with ccache, the cache cold (s) | 1000 ' <(section 6.1-x86_64@debian)
check "... which names POINT" grep -q 'ARCH=x86_64 POINT=6.1.1)' <(section 6.1-x86_64@debian)
check "... and not in the other's" not grep -q 'ccache\|POINT' <(section 6.1-arm64@debian)
before=$(cat "$doc")
DEBIAN_VERSION=6.1.1-1 bench 1000 debian x86_64 && rc=0 || rc=$?
check "DEBIAN_VERSION: refused (make bench measures the newest; POINT= an older one)" test "$rc" -ne 0
check_eq "... in one line, nothing else" 10 "$(grep -c 'make bench CONFIG= measures the newest upload' "$w/out")$(grep -vc 'make bench CONFIG= measures' "$w/out")"
check_eq "... docs/results.md untouched" "$before" "$(cat "$doc")"
finish bench-kconfig
