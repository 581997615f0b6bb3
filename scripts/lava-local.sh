#!/bin/bash
# lava-local.sh - cells run twice: by the harness (scripts/matrix.sh, the
# cell's verdict) and from their LAVA jobs by LAVA's own dispatcher
# (lava-run, no server), on this machine; LAVA's verdict against the cell's
# (make test-lava; docs/ci.md).
#
# Usage: lava-local.sh CELL...   (as root: a chroot in a namespace)
#        lava-local.sh --compare RUN CELL...   step 4 alone, on a run's files
#
# lava-run is Debian 12's lava-dispatcher (LAVA 2023.01), in a Debian 12
# root of its own (LAVA_ROOT, default BUILD_DIR/lava-root: scripts/
# clean-root.sh's root, kept, with the packages installed; made again when
# the cells need a package it lacks), not on the host: the package brings
# 148 packages, systemd and udev among them.  The root also holds lava-server's device-type templates
# (qemu.jinja2 and its bases, taken out of the package, the server not
# installed).  Then:
#   1. the cells run as make cell runs them, into a run of their own
#      (BUILD_DIR/results/lava-<time>), their kernels and initramfs
#      published into the root (scripts/publish-cell.sh);
#   2. their LAVA jobs (scripts/lava-jobs.sh, ARTIFACTS=file:///srv/leaptest/
#      artifacts, the root's view) and each job's device configuration
#      (planner.lava device: LAVA's qemu.jinja2 rendered with the job's
#      context, as the server renders it);
#   3. each job run by lava-run in the root (clean-root.sh exec: its own
#      mount and PID namespace), one at a time, holding the CPU
#      lock alone (LEAP_CPU_LOCK, else the run's: a TCG guest needs the CPU);
#   4. per job: LAVA's verdict (its case leaptest.leaptest, from the leap
#      test's result line), LAVA's own job result, its checks, and the cell's
#      verdict; that LAVA booted the published kernel and initramfs (the
#      sha256 of its downloads against the cell's SHA256SUMS).
# Results: RUN/lava/<cell>/ (job.yaml, device.yaml, lava.log: lava-run's
# output, result.yaml, results.json, SHA256SUMS: the published files') and
# RUN/lava/summary.tsv.  Exit 0 only
# if every job finished (LAVA's job result pass), booted the cell's files,
# and LAVA's verdict is the cell's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
# compare RUN CELL...: per job, LAVA's verdict against the cell's (step 4).
compare() {
	local run=$1 bad=0 c out res cell lava job err secs checks files sums sum name label why agree
	shift
	printf 'cell\tlava_verdict\tcell_verdict\tlava_job\tlava_s\tchecks\tbooted_cell_files\tagree\n' >"$run/lava/summary.tsv"
	for c in "$@"; do
		out=$run/lava/$c
		res=$(cat "$out/results.json" 2>/dev/null) ||
			res='{"job": "none", "error": "lava-run left no results", "elapsed_s": 0, "verdict": "NONE", "downloads": {}, "cases": []}'
		cell=$(jq -r '.verdict // "NONE"' "$run/cells/$c/cell.json" 2>/dev/null || echo NONE)
		{ read -r lava; read -r job; read -r secs; read -r err; } < <(jq -r '.verdict, .job, .elapsed_s, .error' <<<"$res")
		checks=$(jq -r '[.cases[] | select(.definition == "leaptest" and .case != "leaptest") | .result] as $r
			| "\($r | length) checks: \([$r[] | select(. == "pass")] | length) pass \([$r[] | select(. == "fail")] | length) fail \([$r[] | select(. == "skip")] | length) skip"' <<<"$res")
		# The files LAVA booted: the ones the cell published (their sha256).
		files=yes
		sums=$out/SHA256SUMS
		if [ -f "$sums" ]; then
			while read -r sum name; do
				case "$name" in initramfs.cpio) label=ramdisk ;; *) label=kernel ;; esac
				[ "$(jq -r --arg l "$label" '.downloads[$l] // ""' <<<"$res")" = "$sum" ] || files=no
			done <"$sums"
		else
			files=no
		fi
		why=""
		[ "$lava" = "$cell" ] || why+=" (verdicts differ)"
		[ "$job" = pass ] || why+=" (LAVA's job did not finish)"
		[ "$files" = yes ] || why+=" (LAVA did not boot the cell's published files)"
		agree=yes
		[ -z "$why" ] || { agree=no; bad=$((bad + 1)); }
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$lava" "$cell" "$job" "$secs" "$checks" "$files" "$agree" >>"$run/lava/summary.tsv"
		printf '%-22s LAVA %-5s (job %s%s, %s s; %s)  cell %-5s  %s\n' "$c" "$lava" "$job" "${err:+: $err}" "$secs" "$checks" "$cell" \
			"$([ "$agree" = yes ] && echo agree || echo "DISAGREE$why")"
	done
	echo "lava-local: $# jobs, $(($# - bad)) agree, $bad not; results: $run/lava/summary.tsv"
	[ "$bad" -eq 0 ]
}

if [ "${1:-}" = --compare ] && [ $# -ge 3 ]; then
	shift
	compare "$@"
	exit
fi
[ $# -gt 0 ] || { echo "usage: lava-local.sh CELL..." >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "lava-local: run as root (lava-run runs in a chroot, in a namespace of its own)" >&2; exit 2; }
tools=$("$here/plan.sh" tools "$@") || exit 2
build=$(build_dir)
export BUILD_DIR=$build
root=$(realpath -m "${LAVA_ROOT:-$build/lava-root}")
# lava-dispatcher, and the packages of the cells' QEMU binaries (each arch
# stanza's QEMU, its package from the stanza's PACKAGES as plan.sh tools
# lists them).
qemus=$(for a in $("$here/plan.sh" arches); do "$here/plan.sh" arch-get "$a" QEMU; done)
packages="lava-dispatcher $(awk -F: 'NR == FNR { q[$1]; next } $1 in q { print $2 }' <(printf '%s\n' "$qemus") <(printf '%s\n' "$tools") |
	sort -u | paste -sd ' ')"
"$here/deps.sh" mmdebstrap:mmdebstrap unshare:util-linux
lock_build lava-local "$build"

in_root() { # COMMAND...: run in the root (clean-root.sh exec)
	"$here/clean-root.sh" exec "$root" -e LANG=C.UTF-8 -- "$@"
}

# The root: made again only when it lacks a package (then with those it had).
had=$(cat "$root/.leaptest-root" 2>/dev/null || true)
missing=""
for p in $packages; do
	case " $had " in *" $p "*) ;; *) missing+=" $p" ;; esac
done
if [ -n "$missing" ]; then
	packages=$(tr ' ' '\n' <<<"$had $packages" | sed '/^$/d' | sort -u | paste -sd ' ')
	"$here/clean-root.sh" remove "$root.new"
	"$here/clean-root.sh" new "$root.new"
	echo "lava-local: a Debian 12 root for lava-run in $root ($packages)" >&2
	# shellcheck disable=SC2016 # the root's shell expands them
	if ! "$here/clean-root.sh" exec "$root.new" -e DEBIAN_FRONTEND=noninteractive -e "PKGS=$packages" -- sh -euc '
		apt-get update -q && apt-get install -y -q --no-install-recommends $PKGS
		cd /tmp && apt-get download -q lava-server
		dpkg-deb --fsys-tarfile lava-server_*.deb | tar -x -C / ./usr/share/lava-server/device-types
		rm lava-server_*.deb && apt-get clean' >"$build/lava-root.log" 2>&1; then
		tail -n 5 "$build/lava-root.log" >&2
		echo "lava-local: making the root failed (above; all of it in $build/lava-root.log)" >&2
		exit 1
	fi
	"$here/clean-root.sh" remove "$root"
	mv "$root.new" "$root"
	echo "$packages" >"$root/.leaptest-root"
fi
srv=$root/srv/leaptest
rm -rf --one-file-system "$srv"
mkdir -p "$srv/artifacts" "$srv/jobs" "$srv/devices" "$srv/out" "$root/var/lib/lava/dispatcher/tmp"
cp -r "$here/planner" "$srv/planner"
in_root /usr/bin/lava-run --help >/dev/null || { echo "lava-local: $root: lava-run does not start there" >&2; exit 1; }

# 1. The cells as make cell runs them; their files published into the root.
new_run lava- "$build"
echo "lava-local: run $(basename "$RUN"): the cells (harness), then their LAVA jobs (lava-run)" >&2
PUBLISH=$srv/artifacts "$here/matrix.sh" -d "$RUN" "$@" || true

# 2. The jobs, and the device configuration each is run on.
"$here/lava-jobs.sh" "$srv/jobs" file:///srv/leaptest/artifacts "$@" >/dev/null
for c in "$@"; do
	in_root env PYTHONPATH=/srv/leaptest python3 -m planner.lava device "/srv/leaptest/jobs/$c.yaml" >"$srv/devices/$c.yaml"
done

# 3. lava-run, a job at a time, the CPU to itself.
cpu=${LEAP_CPU_LOCK:-$RUN/.cpu}
[ -n "${LEAP_CPU_LOCK:-}" ] || trap 'rm -f "$RUN/.cpu"' EXIT
i=0
for c in "$@"; do
	i=$((i + 1))
	out=$RUN/lava/$c
	mkdir -p "$out"
	cp "$srv/jobs/$c.yaml" "$out/job.yaml"
	cp "$srv/devices/$c.yaml" "$out/device.yaml"
	limit=$(sed -n '/^  job:$/{n;s/^ *seconds: *//p;}' "$out/job.yaml")
	echo "lava-local: [$i/$#] lava-run $c" >&2
	rc=0
	flock -x "$cpu" timeout "$((${limit:-600} + 120))" "$here/clean-root.sh" exec "$root" -e LANG=C.UTF-8 -- \
		lava-run --job-id "$i" --output-dir "/srv/leaptest/out/$c" \
		--device "/srv/leaptest/devices/$c.yaml" "/srv/leaptest/jobs/$c.yaml" >"$out/lava.log" 2>&1 || rc=$?
	echo "$rc" >"$out/lava-run.rc"
	cp "$srv/out/$c/result.yaml" "$out/" 2>/dev/null || true
	cp "$srv/artifacts/$c/SHA256SUMS" "$out/" 2>/dev/null || true
	cp "$out/lava.log" "$srv/out/$c.log"
	in_root env PYTHONPATH=/srv/leaptest python3 -m planner.lava results "/srv/leaptest/out/$c.log" >"$out/results.json"
done

# 4. LAVA's verdict against the cell's.
compare "$RUN" "$@"
