#!/bin/bash
# tree-patch.sh - apply a patch stack to a shared kernel tree, and put it back.
#
# Usage:
#   tree-patch.sh check   TREE PATCH...         dry-run the stack, one line per patch
#   tree-patch.sh apply   TREE BACKUP PATCH...  check, save the touched files, apply
#   tree-patch.sh restore TREE BACKUP           put the saved files back (idempotent)
#   tree-patch.sh mirror  TREE COPY             COPY made or brought up to date as
#                                               TREE's hard-link copy, cleaned of a
#                                               build made in TREE itself
#
# A tree the user brings (KSRC=) is never written: it is patched and built
# in its mirror, whose unchanged files are hard links to the user's.  Every
# write here replaces a file (patch writes a new file and renames it;
# restore removes before it copies), so a link is broken, never written
# through, whenever a run is killed.
# A variant patches the tree that every arch and variant shares, so that the
# object directories only rebuild the files a variant touches.  Before the
# first change, the originals of every touched file are copied to BACKUP
# (written as BACKUP.tmp, then renamed); `restore` copies them back and only
# then removes BACKUP.  A run interrupted at any point leaves either an intact
# tree or a BACKUP from which the next run's `restore` recovers it.
# Patches must apply exactly: no fuzz (offsets are reported, and allowed).
# A patch whose change the tree already has (it reverses cleanly where it
# does not apply: a vendor tree or a later stable release that carries it;
# or every line it adds is there, in another context: a stable release's own
# backport of it) is reported "already in the tree" and skipped by apply; so
# is a patch LEAP_STABLE_FORM names (absolute paths, blank-separated: the
# planner's list, for a tree whose code carries stable's own 2012 fix) that
# neither applies nor is found; and so is a build aid
# (a patch that says "Test-build aid, not part of the fix") that does not
# apply at all: the tree may carry its own version, and the build tells.
set -eu

die() { echo "tree-patch: $*" >&2; exit 1; }

# Files a patch touches, without the a/ b/ prefix; "/dev/null" sides skipped.
touched() {
	sed -n -e 's/^--- a\/\([^\t]*\).*/\1/p' -e 's/^+++ b\/\([^\t]*\).*/\1/p' "$@" | sort -u
}

# in_another_form TREE PATCH: true when every line the patch adds that says
# something (8 characters or more once blanks are dropped: not a lone brace
# or "return 0;"), and at least one, stands as a whole line in the file it
# adds it to, and, where it removes such lines, one of them is gone: the
# change is in the tree in another form (a stable release's own backport,
# with other context), not code it merely moves.  Prints the count of the
# lines it adds.
in_another_form() {
	local tree=$1 p=$2
	awk -v tree="$tree" '
		function norm(s) { gsub(/[ \t]+/, "", s); return s }
		/^--- / { next }
		/^\+\+\+ b\// { f = substr($2, 3); next }
		/^\+\+\+ / { f = ""; next }
		/^\+/ && f != "" { l = norm(substr($0, 2)); if (length(l) >= 8) { want[f, l] = 1; files[f] = 1; n++ } }
		/^-/ && f != "" { l = norm(substr($0, 2)); if (length(l) >= 8) { gone[f, l] = 1; files[f] = 1; r++ } }
		END {
			if (!n) exit 1
			for (f in files) {
				path = tree "/" f
				while ((getline line < path) > 0) have[f, norm(line)] = 1
				close(path)
			}
			for (k in want) if (!(k in have)) exit 1
			if (r) { left = 0; for (k in gone) if (k in have) left++; if (left == r) exit 1 }
			print n
		}' "$p"
}

# check TREE PATCH...: apply the stack to a scratch copy of the touched files.
check() {
	local tree=$1 scratch f p out rc=0 name
	shift
	scratch=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$scratch'" RETURN
	for f in $(touched "$@"); do
		if [ -f "$tree/$f" ]; then
			mkdir -p "$scratch/$(dirname "$f")"
			cp "$tree/$f" "$scratch/$f"
		fi
	done
	for p in "$@"; do
		name=$(basename "$p")
		if out=$(cd "$scratch" && patch -p1 -F0 -N --no-backup-if-mismatch -r - <"$p" 2>&1); then
			if grep -q 'offset' <<<"$out"; then
				echo "$name: applies with offset ($(grep -o 'offset -\?[0-9]* lines\?' <<<"$out" | head -n 1))"
			else
				echo "$name: applies"
			fi
		elif (cd "$scratch" && patch -p1 -F0 -R --dry-run -s -f <"$p") >/dev/null 2>&1; then
			echo "$name: already in the tree"
		elif n=$(in_another_form "$scratch" "$p"); then
			echo "$name: already in the tree in another form (the $n lines it adds are there)"
		elif [[ " ${LEAP_STABLE_FORM:-} " == *" $p "* ]]; then
			# The tree's code carries stable's own 2012 fix (the planner
			# read it), of which this patch is a part in our form.
			echo "$name: already in the tree in stable's own form (its code carries the 2012 fix)"
		elif grep -q '^Test-build aid, not part of the fix' "$p"; then
			# A build aid the tree does not take: it may have its own
			# version of the change; the build will tell.
			echo "$name: already in the tree in another form, or not needed: a build aid, skipped"
		else
			echo "$name: FAILS at $(awk '/^patching file /{f=$3} /FAILED|malformed|can.t find file|Reversed/{print f ": " $0; exit}' <<<"$out")"
			rc=1
		fi
	done
	return $rc
}

restore() {
	local tree=$1 backup=$2 f
	rm -rf "$backup.tmp"
	[ -d "$backup" ] || return 0
	while IFS= read -r f; do
		# Removed first: a hard link to a tree you bring is replaced, not
		# written through (and the new file's time tells make to rebuild).
		rm -f "$tree/$f"
		[ ! -f "$backup/orig/$f" ] || cp "$backup/orig/$f" "$tree/$f"
	done <"$backup/files"
	rm -rf "$backup"
}

apply() {
	local tree=$1 backup=$2 f p skip
	shift 2
	[ ! -d "$backup" ] || die "$tree still carries patches ($backup exists): run restore first"
	check "$tree" "$@" >"$backup.check" 2>&1 || {
		die "$(grep -m1 FAILS "$backup.check"; rm -f "$backup.check") in $tree; the tree is unchanged"; }
	skip=$(sed -n 's/: already in the tree.*//p' "$backup.check")
	rm -f "$backup.check"
	rm -rf "$backup.tmp"
	mkdir -p "$backup.tmp/orig"
	touched "$@" >"$backup.tmp/files"
	while IFS= read -r f; do
		if [ -f "$tree/$f" ]; then
			mkdir -p "$backup.tmp/orig/$(dirname "$f")"
			cp -p "$tree/$f" "$backup.tmp/orig/$f"
		fi
	done <"$backup.tmp/files"
	mv "$backup.tmp" "$backup"
	[ -z "$skip" ] || echo "tree-patch: not applied to $tree (its change is there already, or a build aid the tree does not take): $(paste -sd' ' <<<"$skip")"
	for p in "$@"; do
		grep -qxF "$(basename "$p")" <<<"$skip" && continue
		(cd "$tree" && patch -p1 -F0 -N -s --no-backup-if-mismatch -r - <"$p") >/dev/null \
			|| die "$(basename "$p") failed on $tree after a clean dry run"
	done
}

# mirror TREE COPY: COPY as TREE's hard-link copy; files TREE has changed
# since (newer than COPY's) linked again, COPY's own newer files (restored
# originals) kept.  On another filesystem, a plain copy.  A tree built in
# place (its .config, include/config) would stop an O= build: the copy
# drops those, and says so.
mirror() {
	local tree=$1 copy=$2 d
	mkdir -p "$copy"
	cp -alu --remove-destination "$tree/." "$copy/" 2>/dev/null || cp -au --remove-destination "$tree/." "$copy/" \
		|| die "cannot copy $tree to $copy (the tree is left as it is)"
	if [ -e "$copy/.config" ] || [ -d "$copy/include/config" ] || [ -e "$copy/scripts/basic/fixdep" ] || [ -e "$copy/vmlinux" ]; then
		# The tree's own mrproper, in the copy: it only removes files, so
		# the links to the user's are dropped, never written through.
		env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS -u ARCH -u CROSS_COMPILE -u O -u KBUILD_OUTPUT \
			make -s -C "$copy" mrproper >/dev/null 2>&1 || true
		rm -rf "$copy/.config" "$copy/include/config" "$copy/include/generated" "$copy/scripts/basic/fixdep"
		for d in "$copy"/arch/*/include/generated; do rm -rf "$d"; done
		echo "tree-patch: $tree was built in place (.config, include/config, scripts/basic/fixdep or vmlinux): its copy is cleaned (make mrproper) for the build; the tree is left as it is"
	fi
}

# Patch paths are used from other directories: make them absolute.
abs_args() {
	local a
	for a in "$@"; do realpath -e -- "$a" || die "no such patch: $a"; done
}

case "${1:-}" in
check)
	[ $# -ge 3 ] || die "usage: tree-patch.sh check TREE PATCH..."
	mapfile -t files < <(abs_args "${@:3}")
	[ ${#files[@]} -eq $(($# - 2)) ] || exit 1
	check "$2" "${files[@]}" ;;
apply)
	[ $# -ge 4 ] || die "usage: tree-patch.sh apply TREE BACKUP PATCH..."
	mapfile -t files < <(abs_args "${@:4}")
	[ ${#files[@]} -eq $(($# - 3)) ] || exit 1
	apply "$2" "$3" "${files[@]}" ;;
restore) [ $# -eq 3 ] || die "usage: tree-patch.sh restore TREE BACKUP"; shift; restore "$@" ;;
mirror) [ $# -eq 3 ] || die "usage: tree-patch.sh mirror TREE COPY"; shift; mirror "$@" ;;
*) echo "usage: tree-patch.sh check|apply|restore|mirror ..." >&2; exit 2 ;;
esac
