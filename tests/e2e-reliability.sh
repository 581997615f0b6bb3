#!/bin/bash
# e2e-reliability.sh - the harness under hangs and interruptions, on real
# guests, through `make cell` as a user runs it (run by `make test` after the
# TEST_BRANCH cells, whose images it reuses):
#  - a guest that hangs is killed at the time limit, or sooner when its
#    console stays silent (SILENCE), and gets TIMEOUT, and no QEMU is left;
#  - a cell killed with SIGKILL while the tree is patched and the kernel is
#    building leaves a backup; the rerun restores the tree first and gives
#    the same verdict, and the tree ends pristine;
#  - a cell killed during its boot reruns to the same verdict, planned once,
#    built (from the cache) once and booted once;
#  - a boot mode's cell boots the plain cell's image (no build) and shows the
#    mode took; a command line that undoes the mode makes it ERROR.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(realpath -m "${BUILD_DIR:-$ROOT/build}")
branch=${TEST_BRANCH:-$(scripts/plan.sh role reference)}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$ROOT"
stock=$(scripts/plan.sh cells "$branch" "" "$(scripts/plan.sh role shipped)" | head -n 1)
regress=$(scripts/plan.sh cells "$branch" "" "$(scripts/plan.sh role regress)" | head -n 1)
# The cell's plan, from a dry run: where its tree, backup and images are.
make -s cell CELL="$regress" DRY_RUN=1 >"$w/plan.json"
tree=$(jq -r .tree.path "$w/plan.json")
backup=$build/locks/$(jq -r .tree.id "$w/plan.json").backup
latest() { jq -r "$2" "$build/results/latest/cells/$1/cell.json"; }

# 1. Hang -> TIMEOUT at the limit (no silence watch).
start=$(date +%s)
rc=0
make -s cell CELL="$stock" LIMIT=15 SILENCE=0 LEAP_CMDLINE=leapinit.hang=1 >"$w/hang.log" 2>&1 || rc=$?
took=$(($(date +%s) - start))
check "hung guest: make says the cell was unexpected" test "$rc" -ne 0
check_eq "hung guest: verdict TIMEOUT" TIMEOUT "$(latest "$stock" .verdict)"
check "hung guest: killed at the limit" grep -q "killed at the time limit" <<<"$(latest "$stock" .reason)"
check "hung guest: within limit + kill grace (+ planning)" test "$took" -le 40
check "hung guest: it had started" grep -q "leapinit: hanging on purpose" "$build/results/latest/cells/$stock/console.log"
check "hung guest: no QEMU left" not pgrep -f "results/.*/cells/$stock/console.log"

# 1b. Hang -> killed when silent for SILENCE seconds, long before the limit.
start=$(date +%s)
make -s cell CELL="$stock" SILENCE=4 LEAP_CMDLINE=leapinit.hang=1 >"$w/silent.log" 2>&1 || true
took=$(($(date +%s) - start))
check_eq "silent guest: verdict TIMEOUT" TIMEOUT "$(latest "$stock" .verdict)"
check "silent guest: killed after the silence, not at the limit" test "$took" -le 30
check "silent guest: the log says why it was killed" grep -q "^run-qemu: no console output for 4 s" "$build/results/latest/cells/$stock/console.log"
check "silent guest: the reason says silent" grep -q "silent for 4 s" <<<"$(latest "$stock" .reason)"
check "silent guest: the reproducer carries the inputs" grep -q "SILENCE=4 LEAP_CMDLINE=leapinit.hang=1" <<<"$(latest "$stock" .reproducer)"

# 2. SIGKILL while patched and building, then rerun.
sum_before=$(md5sum "$tree/kernel/time/timekeeping.c")
rm -rf "$(jq -r .image.dir "$w/plan.json")"
setsid make -s cell CELL="$regress" >"$w/killed.log" 2>&1 &
pid=$!
for _ in $(seq 600); do [ -d "$backup" ] && break; sleep 0.1; done
sleep 3
kill -9 -- -"$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
check "killed mid-build: the backup is left for the next run" test -d "$backup"
make -s cell CELL="$regress" >"$w/rerun.log" 2>&1 && rc=0 || rc=$?
check_eq "rerun after kill: exit 0 (verdict as expected)" 0 "$rc"
check_eq "rerun after kill: FAIL as before" FAIL "$(latest "$regress" .verdict)"
check "rerun after kill: no backup left" test ! -e "$backup"
check_eq "rerun after kill: tree pristine" "$sum_before" "$(md5sum "$tree/kernel/time/timekeeping.c")"

# 3. SIGKILL during the boot, then rerun: planned, built and booted once.
setsid make -s cell CELL="$stock" >"$w/killed2.log" 2>&1 &
pid=$!
for _ in $(seq 600); do pgrep -f "cells/$stock/console.log" >/dev/null && break; sleep 0.1; done
sleep 2
kill -9 -- -"$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
sleep 1
check "killed mid-boot: QEMU gone with its make" not pgrep -f "cells/$stock/console.log"
make -s cell CELL="$stock" LEAP_TRACE="$w/trace" >"$w/rerun2.log" 2>&1 && rc=0 || rc=$?
check_eq "rerun after mid-boot kill: exit 0" 0 "$rc"
check_eq "rerun after mid-boot kill: PASS" PASS "$(latest "$stock" .verdict)"
check_eq "one cell: planned once" 1 "$(grep -c '^plan.sh resolve ' "$w/trace")"
check_eq "one cell: one build step, one boot step" "1 1" "$(grep -c '^build-cell.sh ' "$w/trace") $(grep -c '^boot-cell.sh ' "$w/trace")"
check_eq "one cell: the planner's runs in all (tools, pin, resolve, each step's check of the plan)" "5 1 2" \
	"$(grep -c '^plan.sh ' "$w/trace") $(grep -c '^plan.sh pin ' "$w/trace") $(grep -c '^plan.sh check-plan ' "$w/trace")"

# 4. A boot mode: the plain cell's image, the mode's command line.
make -s cell CELL="$stock+lowres" LEAP_TRACE="$w/trace4" >"$w/lowres.log" 2>&1 && rc=0 || rc=$?
check_eq "boot mode: exit 0" 0 "$rc"
check_eq "boot mode: PASS in low resolution, timers measured tick-bound, leap_edge unproven as the mode allows, from the plain cell's cached image" \
	"PASS tick-bound leap_edge true cached" \
	"$(latest "$stock+lowres" .verdict) $(latest "$stock+lowres" .leaptest_modes | grep -o tick-bound) $(latest "$stock+lowres" '.unproven | join(",")') $(latest "$stock+lowres" .ok) $(jq -r .status "$build/results/latest/cells/$stock+lowres/build.json")"
check_eq "boot mode: the image is the plain cell's" "$(make -s cell CELL="$stock" DRY_RUN=1 | jq -r .image.path)" \
	"$(jq -r .image.path "$build/results/latest/cells/$stock+lowres/plan.json")"
make -s cell CELL="$stock+lowres" LEAP_CMDLINE=highres=on >"$w/undone.log" 2>&1 && rc=0 || rc=$?
check "a mode the command line undoes: make says unexpected" test "$rc" -ne 0
check_eq "... ERROR, naming the mode" "ERROR boot mode lowres did not take" \
	"$(latest "$stock+lowres" .verdict) $(latest "$stock+lowres" .reason | cut -d: -f1)"
finish e2e-reliability
