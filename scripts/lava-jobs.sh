#!/bin/bash
# lava-jobs.sh - the cells as LAVA v2 job definitions (make list-jobs
# FORMAT=lava): one job per cell, for a LAVA lab's qemu device type or for
# lava-run alone.  What a job holds: scripts/planner/lava.py; docs/ci.md.
#
# Usage: lava-jobs.sh OUT ARTIFACTS CELL...
#   OUT        a directory: OUT/<cell>.yaml each (their paths printed);
#              empty: every job on stdout, a YAML document each
#   ARTIFACTS  the URL the kernels and initramfs are served from, in the
#              plain layout ARTIFACTS/<cell>/<image> and
#              ARTIFACTS/<cell>/initramfs.cpio (empty: file://BUILD_DIR/artifacts)
# The cells are planned as a dry run plans them: pinned only where this
# build directory never pinned them (then the network is asked), then
# resolved from files alone into a directory of its own, removed after.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib.sh
. "$here/lib.sh"
[ $# -ge 2 ] || { echo "usage: lava-jobs.sh OUT ARTIFACTS CELL..." >&2; exit 2; }
out=$1 artifacts=$2
shift 2
[ $# -gt 0 ] || { echo "lava-jobs: no cells selected: nothing to write" >&2; exit 2; }
build=$(build_dir)
export BUILD_DIR=$build
[ -n "$artifacts" ] || artifacts=file://$build/artifacts
case "$artifacts" in
*://*) ;;
*) echo "lava-jobs: ARTIFACTS=$artifacts: give a URL (file:///path, https://host/path)" >&2; exit 2 ;;
esac

"$here/plan.sh" pin --missing "$@" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$here/plan.sh" resolve "$tmp" "$@"
plans=()
for c in "$@"; do plans+=("$tmp/cells/$c/plan.json"); done
py=/usr/bin/python3
[ -x "$py" ] || py=python3
PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH} "$py" -m planner.lava ${out:+--out "$out"} --artifacts "$artifacts" "${plans[@]}"
