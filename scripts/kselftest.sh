#!/bin/bash
# kselftest.sh - an independent check of a run's kernels: boot each cell's
# image again with one of upstream's timer kselftests in place of the leap
# test, and judge it by what the guest printed.
#
# Usage: kselftest.sh RUN [TEST [ARG...]]
#   RUN   a finished run (BUILD_DIR/results/<id>), whose cells' images are
#         booted again as they were built (nothing is rebuilt)
#   TEST  a program of tools/testing/selftests/timers, compiled from the
#         reference branch's packaged tree (harness.mk) with the cell's own
#         guest compiler; default leap-a-day, whose ARGs default to "-i 2"
#         (two leaps: one inserted, one deleted)
#
# The guest boots with nohz=off: the tick applies the leap, and NO_HZ idle
# lets the timer interrupt land on the tick that applies it, which hides the
# leap-edge bug.  The test's options reach it after "--" on the kernel
# command line (init hands them on).  Writes RUN/kselftest/<TEST>/<cell>/
# (console.log, verdict, plan.json) and prints one line a cell:
#   PASS   the test exited 0 (KSFT_PASS)
#   FAIL   it exited 1 (KSFT_FAIL); its error lines are counted by kind
#   SKIP   it exited 4 (KSFT_SKIP)
#   ERROR  no exit seen (a hung or crashed guest; run-qemu's status given)
#
#   kselftest.sh --table TEST RUN...            the table of TEST's verdicts
#       beside the leap test's, for docs/results.md (DOC= another file)
#   kselftest.sh --verdict LOG [STATUS]         the verdict of a console log
#   kselftest.sh --plan PLAN OUT INITRD EXTRA   a cell's plan, made to boot
#       the test's initramfs with EXTRA on the command line, its console in OUT
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

verdict() { # LOG STATUS: the line the cell gets
	local ex errs
	ex=$(sed -n 's/.*leapinit: leaptest exit=\([0-9]*\).*/\1/p' "$1" | tail -n 1)
	errs=$(grep -aoE '(Error|ERROR): [^!.(]*' "$1" | sed 's/ *$//' | sort | uniq -c |
		awk '{ c = $1; $1 = ""; printf "%s%s x%s", s, substr($0, 2), c; s = "; " }')
	case $ex in
	0) echo "PASS" ;;
	1) echo "FAIL ${errs:-no error line}" ;;
	4) echo "SKIP" ;;
	*) echo "ERROR no exit status in the console (run-qemu status $2)" ;;
	esac
}

replan() { # PLAN OUT INITRD EXTRA
	jq --arg out "$2" --arg initrd "$3" --arg extra "$4" '
		.out = $out | .initramfs.path = $initrd | .qemu.cmdline += " " + $extra
		| .qemu.argv |= (. as $a | [range(length)] | map(
			if . > 0 and $a[. - 1] == "-initrd" then $initrd
			elif . > 0 and $a[. - 1] == "-append" then $a[.] + " " + $extra
			elif . > 0 and $a[. - 1] == "-serial" and ($a[.] | startswith("file:")) then "file:" + $out + "/console.log"
			else $a[.] end))' "$1"
}

table() { # TEST RUN...: the rows, then the section in docs/results.md
	local test=$1 run cell d tab
	shift
	tab=$(mktemp)
	{
		echo "<!-- kselftest: written by scripts/kselftest.sh --table; do not edit by hand -->"
		echo "| tree | cell | $test | the leap test (same image, same run) | leap test's failed checks | run |"
		echo "|---|---|---|---|---|---|"
		for run in "$@"; do
			for d in "$run/kselftest/$test"/*/; do
				[ -f "$d/verdict" ] || continue
				cell=$(basename "$d")
				printf '| %s | %s | %s | %s | %s | %s |\n' \
					"$(jq -r '.tree.version' "$run/cells/$cell/plan.json")" "$cell" "$(cat "$d/verdict")" \
					"$(jq -r '.verdict' "$run/cells/$cell/cell.json")" \
					"$(jq -r '(.failed_tests // []) | if length == 0 then "-" else join(", ") end' "$run/cells/$cell/cell.json")" \
					"$(basename "$run")"
			done
		done
		echo "<!-- /kselftest -->"
	} >"$tab"
	# shellcheck source=scripts/lib.sh
	. "$here/lib.sh"
	doc_section kselftest "$tab" "${DOC:-$root/docs/results.md}" "Upstream's $test kselftest beside the leap test"
	rm -f "$tab"
}

case ${1:-} in
--table) [ $# -ge 3 ] || exit 2; shift; table "$@"; exit 0 ;;
--verdict) [ $# -ge 2 ] || exit 2; verdict "$2" "${3:-?}"; exit 0 ;;
--plan) [ $# -eq 5 ] || exit 2; replan "$2" "$3" "$4" "$5"; exit 0 ;;
esac

[ $# -ge 1 ] || { echo "usage: kselftest.sh RUN [TEST [ARG...]]" >&2; exit 2; }
run=$(realpath "$1")
test=${2:-leap-a-day}
shift $(($# > 1 ? 2 : 1))
args=("$@")
[ ${#args[@]} -gt 0 ] || [ "$test" != leap-a-day ] || args=(-i 2)
[ -d "$run/cells" ] || { echo "kselftest: $run is not a run (no cells/): give BUILD_DIR/results/<id>" >&2; exit 2; }
case $test in */* | .*) echo "kselftest: '$test' is not a program name" >&2; exit 2 ;; esac
build=$(dirname "$(dirname "$run")")

# The reference branch's packaged tree holds the selftests.
ref=$("$here/plan.sh" role reference)
tree=$("$here/fetch-tree.sh" "$("$here/plan.sh" get "$ref" PACKAGE)" "$("$here/plan.sh" get "$ref" SUITES)" "$build")
sel=$tree/tools/testing/selftests
src=$sel/timers/$test.c
[ -f "$src" ] || { echo "kselftest: $tree has no tools/testing/selftests/timers/$test.c" >&2; exit 2; }

out=$run/kselftest/$test
mkdir -p "$out"
n=0
for plan in "$run"/cells/*/plan.json; do
	[ -f "$plan" ] || continue
	cell=$(basename "$(dirname "$plan")")
	{ read -r cc; read -r image; } < <(jq -r '.initramfs.cc, .image.path' "$plan")
	d=$out/$cell
	mkdir -p "$d"
	if [ ! -f "$image" ]; then
		echo "ERROR no image at $image (built in another build directory?)" >"$d/verdict"
		printf '%s %s\n' "$cell" "$(cat "$d/verdict")"
		continue
	fi
	# The test and the guest's init (which hands the test its options),
	# with the cell's guest compiler.
	g=$out/guest-$( { printf '%s\n' "$cc"; cat "$root/initramfs-builder/init.c" "$src"; } | sha256sum | cut -c1-12)
	if [ ! -f "$g/initramfs.cpio" ]; then
		mkdir -p "$g"
		read -ra ccw <<<"$cc"
		"${ccw[@]}" -static -s -O2 -I"$sel" -o "$g/$test" "$src" -lrt
		"${ccw[@]}" -static -s -O2 -Wall -Wextra -Werror -o "$g/init" "$root/initramfs-builder/init.c"
		"$root/initramfs-builder/mkcpio.sh" "$g/initramfs.cpio" "$g/init" "$g/$test"
	fi
	# The cell's plan, with the test's initramfs, nohz=off and its options.
	replan "$plan" "$d" "$g/initramfs.cpio" "nohz=off -- ${args[*]}" >"$d/plan.json"
	rc=0
	"$here/run-qemu.sh" "$d/plan.json" || rc=$?
	v=$(verdict "$d/console.log" "$rc")
	echo "$v" >"$d/verdict"
	printf '%s %s\n' "$cell" "$v"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "kselftest: no cell of $run could be booted" >&2; exit 1; }
