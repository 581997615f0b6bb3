#!/bin/bash
# tier: full (make export applies the series to the reference branch's packaged tree)
# test-export.sh - each export format applies the way its user applies it:
# mbox with git am, quilt with quilt push -a, debian in series order with
# patch -p1 (as dpkg-source does), on a scratch copy of a packaged tree's
# kernel/time/.  The full 6.1 stack (regress + fix) must give back the
# packaged file byte for byte.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
tree=$(packaged_tree)

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# The exporter's identity comes from git config: give the test its own, and
# run the exports outside any repository (whose config would win).
export GIT_CONFIG_GLOBAL="$w/gitconfig" GIT_CONFIG_NOSYSTEM=1
cd "$w"
check "no identity: export refuses" not "$ROOT/scripts/export.sh" 3.4 mbox "$w/noid"
check "no identity: the line says how to set it" bash -c "'$ROOT/scripts/export.sh' 3.4 mbox '$w/noid' 2>&1 | grep -q 'git config --global user.email'"
check "no identity: nothing written" test ! -e "$w/noid"
git config --global user.name "Ann Exporter"
git config --global user.email ann@example.org
scratch() { # DIR: a copy of the tree's kernel/time as a fresh git repository
	mkdir -p "$1/kernel"
	cp -r "$tree/kernel/time" "$1/kernel/"
	git -C "$1" init -q
	git -C "$1" add -A
	git -C "$1" -c user.name=t -c user.email=t@t commit -qm base
}

"$ROOT/scripts/export.sh" 6.1 mbox "$w/mbox" full >/dev/null
scratch "$w/am"
check "mbox: git am takes the 6.1 stack" git -C "$w/am" -c user.name=t -c user.email=t@t am -q "$w/mbox/6.1-leap.mbox"
check_eq "mbox: the base commit and four patches" 5 "$(git -C "$w/am" rev-list --count HEAD)"
check_eq "mbox: each patch signed off by the exporter, once" 4 "$(grep -c '^Signed-off-by: Ann Exporter <ann@example.org>$' "$w/mbox/6.1-leap.mbox")"
check_eq "mbox: the sign-off is the last trailer of each commit" 4 "$(git -C "$w/am" log -4 --format=%B | grep -A1 '^Signed-off-by: Ann Exporter' | grep -c '^$')"
check "mbox: regress + fix gives back the packaged file" cmp "$w/am/kernel/time/timekeeping.c" "$tree/kernel/time/timekeeping.c"

"$ROOT/scripts/export.sh" 6.1 quilt "$w/quilt" full >/dev/null
scratch "$w/q"
cp -r "$w/quilt/patches" "$w/q/"
if command -v quilt >/dev/null; then
	check "quilt: push -a" bash -c "cd '$w/q' && QUILT_PATCHES=patches quilt push -a -q --fuzz=0"
	check "quilt: same result" cmp "$w/q/kernel/time/timekeeping.c" "$tree/kernel/time/timekeeping.c"
else
	check "quilt is installed (apt-get install quilt)" false
fi

"$ROOT/scripts/export.sh" 6.1 debian "$w/deb" full >/dev/null
scratch "$w/d"
ok=true
while IFS= read -r p; do
	(cd "$w/d" && patch -p1 -F0 -s <"$w/deb/debian/patches/$p") || ok=false
done <"$w/deb/series.add"
check "debian: series.add order applies with patch -p1" $ok
check "debian: same result" cmp "$w/d/kernel/time/timekeeping.c" "$tree/kernel/time/timekeeping.c"
check "debian: lines are relative to debian/patches" grep -qx "bugfix/all/leap-second/0001-timekeeping-Fix-leapsecond-triggered-load-spike-issu.patch" "$w/deb/series.add"

# Without "full" only the fix is exported: a branch whose trees carry the
# fix already (6.1: its fix only undoes the regress patches; 4.2: no fixed
# variant) has none, and says so in one line, exit 2, writing nothing.
for b in 6.1 4.2; do
	err=$("$ROOT/scripts/export.sh" "$b" quilt "$w/fixonly-$b" 2>&1) && rc=0 || rc=$?
	check_eq "fix-only export of $b: refused in one line, exit 2" "2 1" "$rc $(grep -c . <<<"$err")"
	check "... saying its trees carry the fix" grep -q "^export: branch $b's trees carry the fix already" <<<"$err"
	check "... nothing written" test ! -e "$w/fixonly-$b"
done
"$ROOT/scripts/export.sh" 3.4 quilt "$w/fixonly" >/dev/null
check "fix-only export of an old branch: its fix series" test "$(grep -c . "$w/fixonly/patches/series")" -gt 0
for f in "$w"/fixonly/patches/*.patch; do
	check "quilt: $(basename "$f") signed off once, before its diffstat" \
		test "$(grep -c '^Signed-off-by: Ann Exporter' "$f")" = 1 -a "$(grep -m1 -B1 '^---$' "$f" | head -n1)" = "Signed-off-by: Ann Exporter <ann@example.org>"
done
check "unknown format fails" not "$ROOT/scripts/export.sh" 6.1 tarball "$w/x"
check "unknown branch fails" not "$ROOT/scripts/export.sh" 9.9 mbox "$w/x"
finish export
