#!/bin/bash
# progress.sh - how far a kernel build is, while it runs: objects compiled
# (kbuild's "  CC"/"  AS" lines in its log) of the number the previous build
# of the same tree and configuration needed, the time spent and an estimate.
#
# Usage: progress.sh watch LOG PID LABEL [EXPECT]
#          until PID ends: on a terminal one line rewritten in place every
#          second (erased at the end); elsewhere (a CI log) a line every
#          PROGRESS_EVERY seconds (default 45); a build shorter than that
#          prints nothing
#        progress.sh replay LOG SECONDS [EVERY]
#          the lines a CI log would get from a build that wrote LOG evenly
#          over SECONDS (what tests/test-progress.sh checks)
#        progress.sh count LOG
#          the objects LOG shows compiled (recorded as the next EXPECT)
set -eu

objects() { grep -cE '^  (CC|AS)( \[M\])? ' "$1" 2>/dev/null || true; }

# status N EXPECT SECONDS: "N/EXPECT objects (P%), 3m12s, about 4m left".
status() {
	awk -v n="$1" -v m="$2" -v t="$3" 'function dur(s) { s = int(s + 0.5); return (s >= 60 ? int(s / 60) "m" : "") (s % 60) "s" }
	BEGIN {
		line = n (m > 0 ? "/" m : "") " objects"
		if (m > 0) line = line " (" int(100 * (n > m ? m : n) / m) "%)"
		line = line ", " dur(t)
		if (m > 0 && n > 0 && n < m) line = line ", about " dur(t * (m - n) / n) " left"
		print line
	}'
}

case "${1:-}" in
watch)
	[ $# -ge 4 ] || { echo "usage: progress.sh watch LOG PID LABEL [EXPECT]" >&2; exit 2; }
	log=$2 pid=$3 label=$4 expect=${5:-0}
	every=${PROGRESS_EVERY:-45}
	start=$(date +%s) last=$start tty=""
	[ ! -t 1 ] || tty=1
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		now=$(date +%s)
		if [ -n "$tty" ]; then
			printf '\r\033[K%s: %s' "$label" "$(status "$(objects "$log")" "$expect" $((now - start)))"
		elif [ $((now - last)) -ge "$every" ]; then
			echo "$label: $(status "$(objects "$log")" "$expect" $((now - start)))"
			last=$now
		fi
	done
	[ -z "$tty" ] || printf '\r\033[K'
	;;
replay)
	[ $# -ge 3 ] || { echo "usage: progress.sh replay LOG SECONDS [EVERY]" >&2; exit 2; }
	log=$2 secs=$3 every=${4:-45}
	total=$(wc -l <"$log") expect=$(objects "$log")
	part=$(mktemp)
	trap 'rm -f "$part"' EXIT
	for ((t = every; t < secs; t += every)); do
		head -n $((total * t / secs)) "$log" >"$part"
		echo "replay: $(status "$(objects "$part")" "$expect" "$t")"
	done
	;;
count)
	[ $# -eq 2 ] || { echo "usage: progress.sh count LOG" >&2; exit 2; }
	objects "$2"
	;;
*)
	echo "usage: progress.sh watch|replay|count ..." >&2
	exit 2
	;;
esac
