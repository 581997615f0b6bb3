#!/bin/bash
# run-qemu.sh - boot one cell's guest as its plan says, console to a file.
#
# Usage: run-qemu.sh PLAN
#
# Runs the plan's QEMU command line (.qemu.argv; its -serial names the
# console log) and exits with QEMU's status, or 124 when the guest was killed
# as hung: still running after .qemu.limit_s seconds, or silent (the console
# log did not grow) for .qemu.silence_s seconds (0: never).  The leap test
# prints a line at least every few seconds, and a correct kernel ends it in
# under 10 s, so a guest silent for 20 s has hung (5.10's naive variant
# deadlocks after its splats: without this it holds two host threads until
# the limit).  The silence kill is noted as the log's last line.  The guest
# ends itself when the test is done (init reboots; -no-reboot makes QEMU exit).
# A kernel that cannot reset the machine says so and spins (3.10.108 on
# QEMU's 64-bit virt machine: its PSCI code brings up the second CPU but
# has no reset): when the log's last line is that message and the guest
# has been quiet for 2 s, the watch stops QEMU as if the guest had ended
# (status 0) and notes it; the verdict still comes from what the guest
# printed before.  Needs the silence watch (.qemu.silence_s above 0).
set -eu

[ $# -eq 1 ] || { echo "usage: run-qemu.sh PLAN" >&2; exit 2; }
plan=$1
mapfile -t argv < <(jq -r '.qemu.argv[]' "$plan")
{ read -r limit; read -r silence; read -r log; read -r packages; } \
	< <(jq -r '.qemu.limit_s, .qemu.silence_s, .out + "/console.log", (.packages | join(" "))' "$plan")
[ ${#argv[@]} -gt 0 ] || { echo "run-qemu: $plan has no .qemu.argv" >&2; exit 2; }
command -v "${argv[0]}" >/dev/null || { echo "run-qemu: ${argv[0]} not found: run make deps (packages: $packages)" >&2; exit 2; }

# --foreground and no job control keep QEMU in the caller's process group:
# killing a run (Ctrl-C, kill -9 of the group) takes its guest with it.
: >"$log"
timeout --foreground -k 5 "$limit" "${argv[@]}" </dev/null &
guest=$!

# The silence watch runs beside QEMU, so a guest that ends is seen at once.
# What it did (hung, halted) goes to a file before it stops the guest: its
# exit status could be lost to the kill that ends a watcher still watching.
note="run-qemu: no console output for $silence s: guest killed as hung"
halted="Reboot failed -- System halted"
ended=$(mktemp)
watch() {
	local silent=0 size=0 now s
	# Stopped, it takes its sleep with it: the sleep holds the build lock it
	# inherited, and a run started right after this one would find it taken.
	trap 'kill "$s" 2>/dev/null; exit 1' TERM
	while sleep 1 & s=$!; wait "$s"; do
		now=$(stat -c %s "$log" 2>/dev/null || echo 0)
		if [ "$now" != "$size" ]; then size=$now silent=0; else silent=$((silent + 1)); fi
		# (awk: a console holds stray binary bytes, which grep would not print)
		if [ "$silent" -eq 2 ] && [ "$(tr -d '\r' <"$log" | awk 'NF { last = $0 } END { sub(/^\[ *[0-9.]*\] /, "", last); print last }')" = "$halted" ]; then
			printf '\nrun-qemu: the guest said "%s" (its kernel cannot reset this machine): QEMU stopped\n' "$halted" >>"$log"
			echo halted >"$ended"
			kill "$guest" 2>/dev/null || true
			return
		fi
		if [ "$silent" -ge "$silence" ]; then
			printf '\n%s\n' "$note" >>"$log"
			echo hung >"$ended"
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
trap 'kill "$guest" ${watcher:+"$watcher"} 2>/dev/null || true; rm -f "$ended"' EXIT
rc=0
wait "$guest" || rc=$?
if [ -n "$watcher" ]; then
	kill "$watcher" 2>/dev/null || true
	wait "$watcher" 2>/dev/null || true
fi
case $(cat "$ended") in
hung) rc=124 ;;
halted) rc=0 ;;
esac
exit "$rc"
