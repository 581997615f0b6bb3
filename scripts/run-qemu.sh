#!/bin/bash
# run-qemu.sh - boot one kernel with the test initramfs, console to a file.
#
# Usage: run-qemu.sh QEMU "QEMU_ARGS" CONSOLE IMAGE INITRD LOG LIMIT_S
#
# Exits with QEMU's status, or 124 when the guest was killed as hung: still
# running after LIMIT_S seconds, or silent (the console log did not grow) for
# SILENCE seconds (default 20; 0 turns it off).  The leap test prints
# a line at least every few seconds, and a correct kernel ends it in under
# 10 s, so a guest silent for 20 s has hung (5.10's naive variant deadlocks
# after its splats: without this it holds two host threads until the limit).
# The silence kill is noted as the log's last line.  The guest ends itself
# when the test is done (init reboots; -no-reboot makes QEMU exit).
set -eu

[ $# -eq 7 ] || { echo "usage: run-qemu.sh QEMU QEMU_ARGS CONSOLE IMAGE INITRD LOG LIMIT_S" >&2; exit 2; }
qemu=$1 qargs=$2 console=$3 image=$4 initrd=$5 log=$6 limit=$7
silence=${SILENCE:-20}
case "$silence" in [0-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) echo "run-qemu: SILENCE=$silence: give whole seconds (0 turns the silence kill off)" >&2; exit 2 ;; esac
command -v "$qemu" >/dev/null || { echo "run-qemu: $qemu not found: apt-get install qemu-system-x86 qemu-system-arm" >&2; exit 2; }

# --foreground and no job control keep QEMU in the caller's process group:
# killing a run (Ctrl-C, kill -9 of the group) takes its guest with it.
: >"$log"
# shellcheck disable=SC2086 # QEMU_ARGS is a list of words by design
timeout --foreground -k 5 "$limit" "$qemu" $qargs -smp 2 -m 128 -accel tcg,thread=multi \
	-nodefaults -display none -monitor none -no-reboot \
	-serial "file:$log" -kernel "$image" -initrd "$initrd" \
	-append "console=$console leaptest.harness=1 panic=-1 softlockup_panic=0 ${LEAP_CMDLINE:-}" \
	</dev/null &
guest=$!

# The silence watch runs beside QEMU, so a guest that ends is seen at once.
note="run-qemu: no console output for $silence s: guest killed as hung"
watch() {
	local silent=0 size=0 now
	while sleep 1; do
		now=$(stat -c %s "$log" 2>/dev/null || echo 0)
		if [ "$now" != "$size" ]; then size=$now silent=0; else silent=$((silent + 1)); fi
		if [ "$silent" -ge "$silence" ]; then
			printf '\n%s\n' "$note" >>"$log"
			kill "$guest" 2>/dev/null || true
			return
		fi
	done
}
watcher=""
if [ "$silence" -gt 0 ]; then
	watch &
	watcher=$!
fi
trap 'kill "$guest" ${watcher:+"$watcher"} 2>/dev/null || true' EXIT
rc=0
wait "$guest" || rc=$?
# The watcher ends with status 0 only when it killed a silent guest; a
# watcher still watching ends with this kill instead.
if [ -n "$watcher" ]; then
	kill "$watcher" 2>/dev/null || true
	if wait "$watcher"; then rc=124; fi
fi
exit "$rc"
