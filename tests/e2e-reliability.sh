#!/bin/bash
# e2e-reliability.sh - the harness under hangs and interruptions, on real
# guests (run by `make test` after the 6.1 cells, whose images it reuses):
#  - a guest that hangs is killed at the time limit, or sooner when its
#    console stays silent (SILENCE), and gets TIMEOUT, and no QEMU is left
#    behind;
#  - a cell killed with SIGKILL while the tree is patched and the kernel is
#    building leaves a backup; the rerun restores the tree first and gives
#    the same verdict, and the tree ends pristine;
#  - a cell killed during its boot reruns to the same verdict.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
build=$(realpath -m "${BUILD_DIR:-$ROOT/build}")
tree=$build/trees/linux-source-6.1
backup=$build/locks/linux-source-6.1.backup
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$ROOT"

# 1. Hang -> TIMEOUT at the limit.
imgs=("$build"/images/6.1-x86_64-stock-*/bzImage)
img=${imgs[0]}
start=$(date +%s)
rc=0
LEAP_CMDLINE=leapinit.hang=1 scripts/run-qemu.sh qemu-system-x86_64 "-M pc -cpu max" ttyS0 \
	"$img" "$build/guest/x86_64/initramfs.cpio" "$w/hang.log" 15 || rc=$?
took=$(($(date +%s) - start))
check_eq "hung guest: killed by the limit (exit 124)" 124 "$rc"
check "hung guest: within limit + kill grace" test "$took" -le 25
check_eq "hung guest: verdict TIMEOUT" "verdict=TIMEOUT" "$(scripts/verdict.sh "$w/hang.log" "$rc" | head -n 1)"
check "hung guest: no QEMU left" not pgrep -f "$w/hang.log"

# 1b. Hang -> killed when silent for SILENCE seconds, long before the limit.
start=$(date +%s)
rc=0
SILENCE=4 LEAP_CMDLINE=leapinit.hang=1 scripts/run-qemu.sh qemu-system-x86_64 "-M pc -cpu max" ttyS0 \
	"$img" "$build/guest/x86_64/initramfs.cpio" "$w/silent.log" 60 || rc=$?
took=$(($(date +%s) - start))
check_eq "silent guest: killed as hung (exit 124)" 124 "$rc"
check "silent guest: killed after the silence, not at the limit" test "$took" -le 20
check "silent guest: it had started" grep -q "leapinit: hanging on purpose" "$w/silent.log"
check "silent guest: the log says why it was killed" grep -q "^run-qemu: no console output for 4 s" "$w/silent.log"
check "silent guest: verdict TIMEOUT, reason silent" grep -q "silent for 4 s" <<<"$(scripts/verdict.sh "$w/silent.log" "$rc")"
check "silent guest: no QEMU left" not pgrep -f "$w/silent.log"

# 2. SIGKILL while patched and building, then rerun.
sum_before=$(md5sum "$tree/kernel/time/timekeeping.c")
rm -rf "$build"/images/6.1-x86_64-regress-*
setsid make -s cell CELL=6.1-x86_64-regress >"$w/killed.log" 2>&1 &
pid=$!
for _ in $(seq 600); do [ -d "$backup" ] && break; sleep 0.1; done
sleep 3
kill -9 -- -"$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
check "killed mid-build: the backup is left for the next run" test -d "$backup"
make -s cell CELL=6.1-x86_64-regress >"$w/rerun.log" 2>&1 && rc=0 || rc=$?
check_eq "rerun after kill: exit 0 (verdict as expected)" 0 "$rc"
check "rerun after kill: FAIL as before" grep -q "boot  6.1 x86_64 regress ... FAIL" "$w/rerun.log"
check "rerun after kill: no backup left" test ! -e "$backup"
check_eq "rerun after kill: tree pristine" "$sum_before" "$(md5sum "$tree/kernel/time/timekeeping.c")"

# 3. SIGKILL during the boot, then rerun.
setsid make -s cell CELL=6.1-x86_64-stock >"$w/killed2.log" 2>&1 &
pid=$!
for _ in $(seq 600); do pgrep -f "qemu-system-x86_64.*6.1-x86_64-stock" >/dev/null && break; sleep 0.1; done
sleep 2
kill -9 -- -"$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
sleep 1
check "killed mid-boot: QEMU gone with its make" not pgrep -f "qemu-system-x86_64.*6.1-x86_64-stock"
make -s cell CELL=6.1-x86_64-stock >"$w/rerun2.log" 2>&1 && rc=0 || rc=$?
check_eq "rerun after mid-boot kill: exit 0" 0 "$rc"
check "rerun after mid-boot kill: PASS" grep -q "boot  6.1 x86_64 stock ... PASS" "$w/rerun2.log"
finish e2e-reliability
