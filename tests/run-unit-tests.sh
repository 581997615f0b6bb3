#!/bin/bash
# run-unit-tests.sh - every host-side test: the leap test's logic, the verdict
# parser, matrix planning, patch stacks, series checks, host refusal, shellcheck.
#
# Usage: run-unit-tests.sh [--host]
#   --host  (make check) only the tests that need no network and no kernel
#           tree: a test whose second line says "# tier: full" is left out
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
host=""
case "${1:-}" in '') ;; --host) host=1 ;; *) echo "usage: run-unit-tests.sh [--host]" >&2; exit 2 ;; esac
total_pass=0 total_fail=0
# The tools the suites need (a command, or a file: the C library's
# headers), named in one line when missing (README's list; chromium is
# optional: the report's rendering check runs where it is).
missing="" pkgs=""
for tp in make:make python3:python3 cc:gcc /usr/include/stdio.h:libc6-dev jq:jq shellcheck:shellcheck git:git ccache:ccache patch:patch script:util-linux; do
	case "${tp%%:*}" in
	/*) [ -e "${tp%%:*}" ] ;;
	*) command -v "${tp%%:*}" >/dev/null ;;
	esac || { t=${tp%%:*}; missing="$missing ${t##*/}"; pkgs="$pkgs ${tp#*:}"; }
done
[ -z "$missing" ] || { echo "run-unit-tests: the tests need${missing}: apt-get install${pkgs} (or make deps, as root)" >&2; exit 2; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

tally() { # output of one suite: its "NAME: N passed, M failed" line counts
	local line
	line=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		echo "  (no result line: counted as one failure)"
		total_fail=$((total_fail + 1))
		return
	fi
	read -r _ p _ f _ <<<"$line"
	total_pass=$((total_pass + p)) total_fail=$((total_fail + f))
}

# The shellcheck run goes beside the suites (below); its result is read at the end.
(
	cd "$root" || exit 1
	files=(scripts/*.sh initramfs-builder/*.sh tests/*.sh tests/ci-validators/*.sh .ci/run)
	if shellcheck -x "${files[@]}"; then
		echo "shellcheck: ${#files[@]} passed, 0 failed"
	else
		echo "shellcheck: 0 passed, 1 failed"
	fi
) >"$w/shellcheck.out" 2>&1 &
shellcheck_pid=$!

echo "== planner (python3 -m py_compile scripts/planner)"
if python3 -m py_compile "$root"/scripts/planner/*.py 2>&1; then
	echo "planner: 1 passed, 0 failed" | tee "$w/out"
else
	echo "planner: 0 passed, 1 failed" | tee "$w/out"
fi
tally "$w/out"

echo "== logic (common-tests/test_logic.c)"
if cc -Wall -Wextra -Werror -O2 -o "$w/test_logic" "$root/common-tests/test_logic.c" "$root/common-tests/logic.c"; then
	"$w/test_logic" | tee "$w/out"
else
	echo "logic: 0 passed, 1 failed" | tee "$w/out"
fi
tally "$w/out"

echo "== report (common-tests/test_report.c)"
if cc -Wall -Wextra -Werror -O2 -pthread -o "$w/test_report" "$root/common-tests/test_report.c" \
	"$root/common-tests/report.c" "$root/common-tests/logic.c" "$root/common-tests/timers.c" "$root/common-tests/sampler.c"; then
	"$w/test_report" | tee "$w/out"
else
	echo "report: 0 passed, 1 failed" | tee "$w/out"
fi
tally "$w/out"

# The shell suites, as many at once as there are CPUs (each works in a
# directory of its own), the largest (the longest, as a rule) first; their
# output in name order once all are done.
par=$(nproc)
ran=()
mapfile -t suites < <(ls -S "$root"/tests/test-*.sh)
for t in "${suites[@]}"; do
	name=$(basename "$t")
	if [ -n "$host" ] && sed -n 2p "$t" | grep -q '^# tier: full'; then
		echo "== $name: needs the network or a kernel tree, not in make check"
		continue
	fi
	bash "$t" >"$w/$name.out" 2>&1 &
	ran+=("$name")
	while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n || true; done
done
wait
wait "$shellcheck_pid" 2>/dev/null || true
mapfile -t ran < <(printf '%s\n' ${ran[@]+"${ran[@]}"} | sort)
for name in ${ran[@]+"${ran[@]}"}; do
	echo "== $name"
	cat "$w/$name.out"
	tally "$w/$name.out"
done

echo "== shellcheck"
cat "$w/shellcheck.out"
tally "$w/shellcheck.out"

echo "unit tests: $total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
