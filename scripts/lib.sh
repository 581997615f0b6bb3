# shellcheck shell=bash
# lib.sh - what the run scripts share (source it): the build directory, its
# lock, a run directory, and min/median/max.

# The build directory (BUILD_DIR, default ./build), absolute.
build_dir() { realpath -m "${BUILD_DIR:-$(dirname "${BASH_SOURCE[0]}")/../build}"; }

# lock_build NAME BUILD: hold BUILD/.lock until this process and its children
# end, or say who holds it and exit 1.  A child of the holder (LEAP_LOCKED
# names the same directory) goes on under its parent's lock.
lock_build() {
	local name=$1 build=$2
	local fd
	[ "${LEAP_LOCKED:-}" != "$build" ] || return 0
	mkdir -p "$build"
	# A new descriptor each time: a second lock (bench's cold build directory)
	# keeps the first.
	exec {fd}>"$build/.lock"
	flock -n "$fd" || { echo "$name: another make run is using $build (lock $build/.lock): wait for it, or set BUILD_DIR to another directory" >&2; exit 1; }
	export LEAP_LOCKED=$build
}

# new_run PREFIX BUILD: RUN = BUILD/results/<PREFIX><UTC time>, made, and the
# "latest" link pointed at it.
new_run() {
	local base id n=1
	base=$1$(date -u +%Y%m%d-%H%M%S) id=
	mkdir -p "$2/results"
	# Two runs in one second get two directories.
	id=$base
	while ! mkdir "$2/results/$id" 2>/dev/null; do n=$((n + 1)); id=$base.$n; done
	# shellcheck disable=SC2034 # RUN is the caller's
	RUN=$2/results/$id
	ln -sfn "$id" "$2/results/latest"
}

# stats: "min median max" of the numbers on stdin, one decimal each.
stats() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f %.1f %.1f\n", v[1], v[int((NR + 1) / 2)], v[NR] }'
}

# apt_local NAME "SUITE..." BUILD [ARCH]: a project-local apt for Debian's
# archive (its own sources list, state and cache under BUILD/apt/NAME: no
# root, nothing on the system changed; signatures checked against the Debian
# archive keyring), its lists updated.  Sets APT_DIR and APTOPTS (apt-get's
# and apt-cache's options).  ARCH: that arch's lists too (a foreign .deb).
# On failure: one line on stderr, return 1.
apt_local() {
	local name=$1 suites=$2 build=$3 arch=${4:-} s me
	local mirror=${DEB_MIRROR:-http://deb.debian.org/debian}
	local security=${DEB_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
	local keyring=${DEB_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}
	me=$(basename "$0" .sh)
	[ -r "$keyring" ] || { echo "$me: no Debian archive keyring at $keyring: apt-get install debian-archive-keyring" >&2; return 1; }
	command -v apt-get >/dev/null || { echo "$me: apt-get not found: this needs a Debian-based host" >&2; return 1; }
	APT_DIR=$build/apt/$name
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/archives/partial" "$APT_DIR/etc/preferences.d"
	: >"$APT_DIR/status"
	for s in $suites; do
		case "$s" in
		*-security) echo "deb [signed-by=$keyring] $security $s main" ;;
		*) echo "deb [signed-by=$keyring] $mirror $s main" ;;
		esac
	done >"$APT_DIR/etc/sources.list"
	APTOPTS=(-q -o "Dir::Etc::SourceList=$APT_DIR/etc/sources.list" -o "Dir::Etc::SourceParts=-"
		-o "Dir::Etc::PreferencesParts=$APT_DIR/etc/preferences.d" -o "Dir::State::Lists=$APT_DIR/lists"
		-o "Dir::State::status=$APT_DIR/status" -o "Dir::Cache=$APT_DIR" -o "Dir::Cache::archives=$APT_DIR/archives"
		-o "Debug::NoLocking=1" -o "Acquire::Languages=none" -o "APT::Get::List-Cleanup=0")
	[ -z "$arch" ] || APTOPTS+=(-o "APT::Architecture=$arch" -o "APT::Architectures=$arch")
	echo "$me: apt-get update for $name ($suites${arch:+, $arch})" >&2
	if ! apt-get "${APTOPTS[@]}" update >"$APT_DIR/update.log" 2>&1 \
		|| grep -q -E '^(W|E): (Failed to fetch|Some index files failed)' "$APT_DIR/update.log"; then
		tail -n 3 "$APT_DIR/update.log" >&2
		echo "$me: cannot read the Debian archive ($mirror, suites: $suites): check the network, or set DEB_MIRROR" >&2
		return 1
	fi
}

# apt_download SPEC DEB WHAT ELSE: apt-get download SPEC
# (PACKAGE[:ARCH]=VERSION) with apt_local's options, the .deb renamed to DEB
# once complete.  WHAT names the .deb in messages, ELSE is the way round
# when the mirror does not serve it.  On failure, return 1 after one line on
# stderr: a 404 (the archive's index lists the .deb, the mirror does not
# serve it) names another mirror or ELSE; any other failure, after apt's
# last lines, the network.
apt_download() {
	local spec=$1 deb=$2 what=$3 else=$4 tmp=$2.tmp me
	me=$(basename "$0" .sh)
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if ! (cd "$tmp" && apt-get "${APTOPTS[@]}" download "$spec" >"$APT_DIR/download.log" 2>&1); then
		rm -rf "$tmp"
		if grep -q -E '^E: Failed to fetch .* 404 ' "$APT_DIR/download.log"; then
			echo "$me: Debian's index lists $what but the mirror does not serve it (404): set DEB_MIRROR and DEB_SECURITY_MIRROR to a mirror that does, or $else" >&2
		else
			tail -n 3 "$APT_DIR/download.log" >&2
			echo "$me: download of $what failed: check the network" >&2
		fi
		return 1
	fi
	mv "$tmp"/*.deb "$deb"
	rmdir "$tmp"
}

# apt_served PACKAGE: the versions of PACKAGE that apt_local's suites list,
# one a line (for the one-line refusal of a version they do not carry).
apt_served() {
	apt-cache "${APTOPTS[@]}" madison "$1" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }'
}

# run_cells NAME RUN_DIR...: each cell directory of the runs that has a
# cell.json, a line each as "RUN_ID<TAB>DIR"; a run directory without
# cells/ is one line naming NAME, exit 1.
run_cells() {
	local name=$1 run c
	shift
	for run in "$@"; do
		[ -d "$run/cells" ] || { echo "$name: $run has no cells/ (not a results directory)" >&2; exit 1; }
		for c in "$run"/cells/*/cell.json; do
			[ ! -f "$c" ] || printf '%s\t%s\n' "$(basename "$run")" "$(dirname "$c")"
		done
	done
}

# cells_with_run NAME RUN_DIR...: each cell.json of the runs (run_cells),
# one JSON line each, with its run id as .run; on stdout.
cells_with_run() {
	local name=$1 dirs run d
	shift
	dirs=$(run_cells "$name" "$@") || exit 1
	while IFS=$'\t' read -r run d; do
		[ -z "$d" ] || jq -c --arg run "$run" '. + {run: $run}' "$d/cell.json"
	done <<<"$dirs"
}

# table_cells NAME MARK TITLE RUN_DIR...: what a results table script
# (NAME.sh) takes: sets mark and title, w (a temporary directory, removed
# on exit) and writes the runs' cells (cells_with_run) to $w/cells; a
# usage line, or no cells at all, stops it.
table_cells() {
	local name=$1
	shift
	[ $# -ge 3 ] || { echo "usage: $name.sh MARK TITLE RUN_DIR..." >&2; exit 2; }
	# shellcheck disable=SC2034 # the table script's own
	mark=$1 title=$2
	shift 2
	w=$(mktemp -d)
	trap 'rm -rf "$w"' EXIT
	cells_with_run "$name" "$@" >"$w/cells"
	[ -s "$w/cells" ] || { echo "$name: no cells in $*" >&2; exit 1; }
}

# doc_section MARK TABLE DOC TITLE: put TABLE (which starts with a
# "<!-- MARK:" line and ends with "<!-- /MARK -->") in DOC in place of the
# one there, or at its end under "## TITLE".
doc_section() {
	local mark=$1 table=$2 doc=$3 title=$4
	if [ -f "$doc" ] && grep -q "<!-- $mark:" "$doc"; then
		awk -v f="$table" -v m="$mark" '
			index($0, "<!-- " m ":") == 1 { while ((getline l < f) > 0) print l; skip = 1; next }
			index($0, "<!-- /" m " -->") == 1 { skip = 0; next }
			!skip' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc"
	else
		{ echo; echo "## $title"; cat "$table"; } >>"$doc"
	fi
	echo "$title: written to $doc"
}

# build_stopped LOG COPY TREE: where a kernel build stopped, from its log:
# "kconfig: <its message>" when the tree's own kconfig gave up; "missing:
# <file>" when make found no file of the tree it needed (an import that
# left a directory out); else the first compiler error; files named in TREE
# (the tree you brought) rather than COPY (the copy it was built in);
# nothing if none of these is there.
build_stopped() {
	local log=$1 copy=$2 tree=$3 e
	if e=$(grep -m1 -o 'Error during [a-z]* of the configuration' "$log"); then
		echo "kconfig: $e"
	elif e=$(grep -m1 -o "No rule to make target '$copy/[^']*'" "$log"); then
		e=${e#*\'} e=${e%\'}
		echo "missing: ${e/#"$copy/"/"$tree/"}"
	elif e=$(grep -m1 -E '^[^ :]+:[0-9]+(:[0-9]+)?: (fatal )?error: ' "$log"); then
		echo "${e//"$copy/"/"$tree/"}"
	fi
	return 0
}
