#!/bin/bash
# run-qemu.sh - boot one kernel with the test initramfs, console to a file.
#
# Usage: run-qemu.sh QEMU "QEMU_ARGS" CONSOLE IMAGE INITRD LOG LIMIT_S
#
# Exits with QEMU's status, or 124 when the guest was still running after
# LIMIT_S seconds (it is killed: a livelock or deadlock).  The guest ends
# itself when the test is done (init reboots; -no-reboot makes QEMU exit).
set -eu

[ $# -eq 7 ] || { echo "usage: run-qemu.sh QEMU QEMU_ARGS CONSOLE IMAGE INITRD LOG LIMIT_S" >&2; exit 2; }
qemu=$1 qargs=$2 console=$3 image=$4 initrd=$5 log=$6 limit=$7
command -v "$qemu" >/dev/null || { echo "run-qemu: $qemu not found: apt-get install qemu-system-x86 qemu-system-arm" >&2; exit 2; }

# --foreground keeps QEMU in the caller's process group: killing a run (Ctrl-C,
# kill -9 of the group) takes its guest with it.
# shellcheck disable=SC2086 # QEMU_ARGS is a list of words by design
exec timeout --foreground -k 5 "$limit" "$qemu" $qargs -smp 2 -m 128 -accel tcg,thread=multi \
	-nodefaults -display none -monitor none -no-reboot \
	-serial "file:$log" -kernel "$image" -initrd "$initrd" \
	-append "console=$console leaptest.harness=1 panic=-1 softlockup_panic=0 ${LEAP_CMDLINE:-}" \
	</dev/null
