#!/bin/bash
# test-tree-patch.sh - patch stacks on a shared tree: apply, restore, recovery
# after an interrupted run, and the one-line report of a patch that fails.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
tp=$ROOT/scripts/tree-patch.sh

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
tree=$w/tree backup=$w/backup
mkdir -p "$tree/kernel/time"
seq 1 40 >"$tree/kernel/time/a.c"
seq 100 140 >"$tree/kernel/time/b.c"
cp -r "$tree" "$w/pristine"

mkpatch() { # NAME FILE SED-EXPR: a git-style patch of one edit, made with diff
	local name=$1 f=$2 expr=$3
	mkdir -p "$w/edit"
	rm -rf "$w/edit/a" "$w/edit/b"
	cp -r "$tree" "$w/edit/a"
	cp -r "$tree" "$w/edit/b"
	sed -i "$expr" "$w/edit/b/$f"
	(cd "$w/edit" && diff -u "a/$f" "b/$f" >"$w/$name") || true
}
mkpatch 1.patch kernel/time/a.c 's/^10$/ten/'
mkpatch 2.patch kernel/time/b.c 's/^120$/hundred-twenty/'
mkpatch bad.patch kernel/time/a.c 's/^30$/thirty/'
sed -i 's/^ 29$/ 29 changed context/' "$w/bad.patch"

out=$("$tp" check "$tree" "$w/1.patch" "$w/2.patch")
check_eq "check: one line per patch" "1.patch: applies
2.patch: applies" "$out"
check "check leaves the tree alone" diff -r "$tree" "$w/pristine"

out=$("$tp" check "$tree" "$w/1.patch" "$w/bad.patch" 2>&1) && rc=0 || rc=$?
check_eq "check: failing patch exits 1" 1 "$rc"
check "check names the failing patch and file" grep -q "^bad.patch: FAILS at kernel/time/a.c: Hunk #1 FAILED" <<<"$out"

"$tp" apply "$tree" "$backup" "$w/1.patch" "$w/2.patch"
check "apply changed a.c" grep -qx ten "$tree/kernel/time/a.c"
check "apply changed b.c" grep -qx hundred-twenty "$tree/kernel/time/b.c"
check "apply keeps a backup" test -f "$backup/files"
check "apply refuses a second stack" bash -c "! '$tp' apply '$tree' '$backup' '$w/1.patch'"
"$tp" restore "$tree" "$backup"
check "restore gives back the pristine tree" diff -r "$tree" "$w/pristine"
check "restore removes the backup" test ! -e "$backup"
check "restore without a backup is a no-op" "$tp" restore "$tree" "$backup"

# A stack that fails its dry run changes nothing.
out=$("$tp" apply "$tree" "$backup" "$w/1.patch" "$w/bad.patch" 2>&1) && rc=0 || rc=$?
check "apply of a failing stack fails" test "$rc" -ne 0
check "failing apply names the patch" grep -q "bad.patch: FAILS" <<<"$out"
check "failing apply leaves the tree pristine" diff -r "$tree" "$w/pristine"

# A tree that already has a patch's change (a vendor tree, a later stable
# release): that patch is reported and skipped, the others apply.
cp "$w/pristine/kernel/time/a.c" "$w/a.orig"
sed -i 's/^10$/ten/' "$tree/kernel/time/a.c"
cp -r "$tree" "$w/vendor"
out=$("$tp" check "$tree" "$w/1.patch" "$w/2.patch")
check_eq "check: a change the tree has is named, not failed" "1.patch: already in the tree
2.patch: applies" "$out"
"$tp" apply "$tree" "$backup" "$w/1.patch" "$w/2.patch"
check "apply skipped it and applied the rest" grep -qx hundred-twenty "$tree/kernel/time/b.c"
check_eq "apply did not apply it twice" 1 "$(grep -c '^ten$' "$tree/kernel/time/a.c")"
"$tp" restore "$tree" "$backup"
check "restore gives back the vendor tree" diff -r "$tree" "$w/vendor"
cp "$w/a.orig" "$tree/kernel/time/a.c"
check "back to the pristine tree" diff -r "$tree" "$w/pristine"

# A build aid that does not apply (the tree has its own version of the
# change) is skipped, named; a fix patch that does not apply still fails.
{ echo "Test-build aid, not part of the fix: a test."; cat "$w/bad.patch"; } >"$w/aid.patch"
out=$("$tp" check "$tree" "$w/aid.patch" "$w/2.patch") && rc=0 || rc=$?
check_eq "check: a build aid that does not apply is no failure" 0 "$rc"
check "check: ... and is named as skipped" grep -q "^aid.patch: .*a build aid, skipped" <<<"$out"
"$tp" apply "$tree" "$backup" "$w/aid.patch" "$w/2.patch"
check "apply: the build aid skipped, the rest applied" grep -qx hundred-twenty "$tree/kernel/time/b.c"
check "apply: the file of the skipped aid untouched" cmp "$tree/kernel/time/a.c" "$w/pristine/kernel/time/a.c"
"$tp" restore "$tree" "$backup"
check "restore after a skipped build aid" diff -r "$tree" "$w/pristine"

# Interrupted: killed after the backup, half way through patching.
"$tp" apply "$tree" "$backup" "$w/1.patch" "$w/2.patch"
cp "$w/pristine/kernel/time/b.c" "$tree/kernel/time/b.c"	# as if 2.patch never ran
"$tp" restore "$tree" "$backup"
check "restore after an interrupted apply" diff -r "$tree" "$w/pristine"
# Interrupted while the backup was being written: BACKUP.tmp only.
mkdir -p "$backup.tmp/orig"
"$tp" restore "$tree" "$backup"
check "a half-written backup is discarded" test ! -e "$backup.tmp"
check "and the tree is untouched" diff -r "$tree" "$w/pristine"

# Really killed: SIGKILL while patches are applied, then the next run's restore.
{ ( "$tp" apply "$tree" "$backup" "$w/1.patch" "$w/2.patch" && kill -9 $BASHPID ) || true; } 2>/dev/null
"$tp" restore "$tree" "$backup"
check "restore after kill -9" diff -r "$tree" "$w/pristine"
# --- a line's trees at every sublevel: each gets exactly what it lacks ---------
# 3.4.3 carries upstream fad0c66c4bb8 but not dd48d708ff3e (stable-queue's
# 3.4.4 series brings that), so the first two patches of branches/3.4/fix
# must be told apart by the tree's code.  Made-up trees hold just the lines
# those patches touch: the pre-image of a hunk is the code before the commit,
# its post-image the code after.
image() { # PATCH pre|post: the hunks' lines before or after the patch
	awk -v want="$2" '/^@@/ { on = 1; next } /^diff |^--- |^\+\+\+ / { on = 0 }
		on && /^ / { print substr($0, 2) } on && /^-/ && want == "pre" { print substr($0, 2) }
		on && /^\+/ && want == "post" { print substr($0, 2) }' "$1"
}
fad=$(ls "$ROOT"/branches/3.4/fix/0001-*.patch) dd=$(ls "$ROOT"/branches/3.4/fix/0002-*.patch)
for t in 3.4.2:pre:pre 3.4.3:post:pre 3.4.4:post:post; do
	IFS=: read -r v a b <<<"$t"
	mkdir -p "$w/s$v/kernel/time"
	image "$fad" "$a" >"$w/s$v/kernel/time/timekeeping.c"
	image "$dd" "$b" >"$w/s$v/kernel/time/ntp.c"
done
check_eq "a 3.4.2-like tree takes both leap commits" "applies applies" \
	"$("$tp" check "$w/s3.4.2" "$fad" "$dd" | sed -e 's/.*: //' -e 's/ with offset.*//' | paste -sd ' ')"
check_eq "a 3.4.3-like tree (fad0c66c, no dd48d708): only dd48d708" "already in the tree applies" \
	"$("$tp" check "$w/s3.4.3" "$fad" "$dd" | sed -e 's/.*: //' -e 's/ with offset.*//' | paste -sd ' ')"
check_eq "a 3.4.4-like tree: neither" "already in the tree already in the tree" \
	"$("$tp" check "$w/s3.4.4" "$fad" "$dd" | sed -e 's/.*: //' -e 's/ with offset.*//' | paste -sd ' ')"

# Each patch decided from the tree's code: a stable release's own form of a
# change (the same added lines, other context) is "in another form"; a patch
# whose lines are not there applies or fails; code a patch only moves (its
# removed lines still there) is no sign of it.
mix=$w/mix
mkdir -p "$mix/kernel/time"
printf 'int a;\nstatic void leap(void)\n{\n\tif (!(time_status & STA_INS))\n\t\ttime_state = TIME_OK;\n\telse if (secs %% 86400 == 0) {\n\t\tinsert();\n\t}\n}\n' >"$mix/kernel/time/ntp.c"
mkdir -p "$w/m/a/kernel/time" "$w/m/b/kernel/time"
printf 'int a;\nstatic void leap(void)\n{\n\tif (secs %% 86400 == 0) {\n\t\tinsert();\n\t}\n}\n' >"$w/m/a/kernel/time/ntp.c"
printf 'int a;\nstatic void leap(void)\n{\n\tif (!(time_status & STA_INS))\n\t\ttime_state = TIME_OK;\n\telse if (secs %% 86400 == 0) {\n\t\tinsert();\n\t}\n}\n' >"$w/m/b/kernel/time/ntp.c"
(cd "$w/m" || exit; diff -u a/kernel/time/ntp.c b/kernel/time/ntp.c >"$w/sta.patch" || true)
sed -i 's/^ int a;$/ int other_context;/' "$w/sta.patch"
out=$("$tp" check "$mix" "$w/sta.patch")
check_eq "stable's own form of a change: in another form, skipped" \
	"sta.patch: already in the tree in another form (the 3 lines it adds are there)" "$out"
printf 'int a;\nstatic void leap(void)\n{\n\tif (secs %% 86400 == 0) {\n\t\tinsert();\n\t}\n}\n' >"$mix/kernel/time/ntp.c"
out=$("$tp" check "$mix" "$w/sta.patch" 2>&1) && rc=0 || rc=$?
check_eq "the change not there, the context another: fails, named" "1 1" "$rc $(grep -c '^sta.patch: FAILS at kernel/time/ntp.c' <<<"$out")"
sed -i 's/^ int other_context;$/ int a;/' "$w/sta.patch"
check_eq "the change not there, the context right: applies" "sta.patch: applies" "$("$tp" check "$mix" "$w/sta.patch")"
# Named in LEAP_STABLE_FORM (the planner's list of the 2012 fix's patches,
# for a tree whose code carries stable's own form of it): taken as there.
printf 'int a;\nstatic void leap(void)\n{\n\tif (secs %% 86400 == 0) {\n\t\tinsert();\n\t}\n}\n' >"$mix/kernel/time/ntp.c"
sed -i 's/^ int a;$/ int other_context;/' "$w/sta.patch"
check_eq "not there, no context: in stable's own form where the planner says the tree carries the 2012 fix" \
	"sta.patch: already in the tree in stable's own form (its code carries the 2012 fix)" \
	"$(LEAP_STABLE_FORM="/x/y.patch $w/sta.patch" "$tp" check "$mix" "$w/sta.patch")"
sed -i 's/^ int other_context;$/ int a;/' "$w/sta.patch"
check_eq "... but applied where it applies (the tree lacks it)" "sta.patch: applies" \
	"$(LEAP_STABLE_FORM="$w/sta.patch" "$tp" check "$mix" "$w/sta.patch")"
# A patch that moves a line: its added line is there, its removed one too.
printf 'void f(void)\n{\n\tupdate_vsyscall(tk);\n}\nvoid g(void)\n{\n}\n' >"$mix/kernel/time/ntp.c"
printf -- '--- a/kernel/time/ntp.c\n+++ b/kernel/time/ntp.c\n@@ -1,7 +1,7 @@\n void f(void)\n {\n-\tupdate_vsyscall(tk);\n }\n void g(void)\n {\n+\tupdate_vsyscall(tk);\n }\n' >"$w/move.patch"
sed -i 's/^ void g(void)$/ void h(void)/' "$w/move.patch"
out=$("$tp" check "$mix" "$w/move.patch" 2>&1) && rc=0 || rc=$?
check_eq "a line moved elsewhere is no sign of the change: fails" "1 1" "$rc $(grep -c '^move.patch: FAILS' <<<"$out")"

# A tree you bring is never written: mirrored, patched and restored in its
# hard-link copy, even when a run is killed at any moment.
user=$w/user copy=$w/copy mb=$w/mbackup
mkdir -p "$user"
cp -r "$w/pristine/." "$user/"
for i in $(seq 1 30); do seq "$i" 200 >"$user/kernel/time/f$i.c"; done
snap() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha1sum); }
before=$(snap "$user")
"$tp" mirror "$user" "$copy"
check_eq "mirror: the copy's files are the user's (hard links)" "$(stat -c %i "$user/kernel/time/a.c")" "$(stat -c %i "$copy/kernel/time/a.c")"
"$tp" apply "$copy" "$mb" "$w/1.patch" "$w/2.patch"
check "apply in the copy: patched there" grep -qx ten "$copy/kernel/time/a.c"
check "... not in the user's tree" not grep -qx ten "$user/kernel/time/a.c"
"$tp" restore "$copy" "$mb"
check_eq "restore: the copy as the tree" "$(snap "$user")" "$(snap "$copy")"
check_eq "... the user's tree byte for byte" "$before" "$(snap "$user")"
# Killed at every moment of an apply or a restore: the user's tree stays.
stack=()
for i in $(seq 1 30); do
	(cd "$w" && mkdir -p "k/a/kernel/time" "k/b/kernel/time" && cp "$user/kernel/time/f$i.c" "k/a/kernel/time/" &&
		sed 's/^50$/fifty/' "$user/kernel/time/f$i.c" >"k/b/kernel/time/f$i.c" &&
		(cd k || exit; diff -u "a/kernel/time/f$i.c" "b/kernel/time/f$i.c" >"$w/s$i.patch" || true))
	stack+=("$w/s$i.patch")
done
for d in 0.02 0.05 0.1 0.15 0.2 0.3 0.4 0.6; do
	"$tp" apply "$copy" "$mb" "${stack[@]}" >/dev/null 2>&1 &
	sleep "$d"
	kill -9 $! 2>/dev/null || true
	wait $! 2>/dev/null || true
	"$tp" restore "$copy" "$mb" >/dev/null 2>&1 &
	sleep "$(awk -v d="$d" 'BEGIN { print d / 3 }')"
	kill -9 $! 2>/dev/null || true
	wait $! 2>/dev/null || true
done
check_eq "killed eight times in apply and restore: the user's tree byte for byte" "$before" "$(snap "$user")"
"$tp" restore "$copy" "$mb"
"$tp" mirror "$user" "$copy"
check_eq "... and the copy recovers to it" "$(snap "$user")" "$(snap "$copy")"
# The user changes a file (a new file in its place, as git does): the
# mirror follows.
sleep 1
sed 's/^3$/three/' "$user/kernel/time/a.c" >"$user/kernel/time/a.c.new" && mv "$user/kernel/time/a.c.new" "$user/kernel/time/a.c"
"$tp" mirror "$user" "$copy"
check "mirror: follows a file the user replaced" grep -qx three "$copy/kernel/time/a.c"
# A tree built in place: its copy drops the build's state, says so.
touch "$user/.config"
out=$("$tp" mirror "$user" "$copy")
check "a tree built in place: said in one line" grep -q "was built in place (.config, include/config, scripts/basic/fixdep or vmlinux): its copy is cleaned (make mrproper) for the build; the tree is left as it is" <<<"$out"
check "... the copy has no .config, the tree keeps its own" test ! -e "$copy/.config" -a -e "$user/.config"
rm "$user/.config"
mkdir -p "$user/scripts/basic" && echo 'built here' >"$user/scripts/basic/fixdep"
before=$(snap "$user")
out=$("$tp" mirror "$user" "$copy")
check "a tree with a host program built in it (fixdep): cleaned in the copy, said" test ! -e "$copy/scripts/basic/fixdep" -a -n "$out"
check_eq "... the tree byte for byte" "$before" "$(snap "$user")"
finish tree-patch
