#!/bin/bash
# test-bad-input.sh - every user mistake gets one clear line and exit != 0,
# and nothing already built is lost (the build directory is not touched).
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# As a user types it at a shell: not as a sub-make of `make test`, whose
# MAKELEVEL would turn make's own trailer into "make[1]: ***".
m() { env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -s -C "$ROOT" --no-print-directory "$@" 2>&1; }
one_line_fail() { # DESCRIPTION PATTERN MAKE-ARGS...
	local what=$1 pat=$2 out rc
	shift 2
	out=$(m "$@") && rc=0 || rc=$?
	out=$(grep -Ev '^make(\[[0-9]+\])?: \*\*\*' <<<"$out" || true)
	check "$what: exit != 0" test "$rc" -ne 0
	check_eq "$what: one line" 1 "$(grep -c . <<<"$out")"
	check "$what: says '$pat'" grep -q -- "$pat" <<<"$out"
}

# The helper can fail: a command that works and prints many lines is flagged.
out=$(m list-cells) && rc=0 || rc=$?
check "self-check: list-cells exits 0 with many lines (one_line_fail would flag both)" test "$rc" -eq 0 -a "$(grep -c . <<<"$out")" -gt 1
one_line_fail "unknown branch" "unknown BRANCH '9.9': use one of" qemu-9.9 BUILD_DIR="$w/b"
check "unknown branch: nothing built or installed (no build directory)" test ! -e "$w/b"
one_line_fail "unknown mutant branch" "unknown BRANCH '9.9'" mutants MUTANTS_BRANCH=9.9 BUILD_DIR="$w/b"
one_line_fail "unknown arch" "unknown ARCH 'mips'" list-cells ARCH=mips
one_line_fail "unknown variant" "unknown VARIANT 'broken'" list-cells VARIANT=broken
one_line_fail "unknown cell" "unknown CELL '6.1-x86_64-bogus'" cell CELL=6.1-x86_64-bogus BUILD_DIR="$w/b"
one_line_fail "malformed cell" "is not <branch>-<arch>-<variant>" cell CELL=nonsense BUILD_DIR="$w/b"
one_line_fail "cell missing" "make cell needs CELL=" cell BUILD_DIR="$w/b"
one_line_fail "unknown boot mode" "unknown BOOT 'sleepy': use one of: default" qemu-6.1 BOOT=sleepy BUILD_DIR="$w/b"
one_line_fail "unknown boot mode in a cell name" "no boot mode 'sleepy'" cell CELL=6.1-x86_64-stock+sleepy BUILD_DIR="$w/b"
one_line_fail "bench: both cold and fresh builds" "give it or BUILDS=1 (-b), not both" bench COLD=1 BUILDS=1 BUILD_DIR="$w/b"
check "bench: both: nothing built (no build directory)" test ! -e "$w/b"
one_line_fail "unknown configuration" "unknown CONFIG 'huge': use one of: tiny debian" qemu-6.1 CONFIG=huge BUILD_DIR="$w/b"
one_line_fail "debian-rt on a tree without RT" "branch 6.1 has no @debian-rt cells (its packaged source cannot build PREEMPT_RT" \
	qemu-6.1 CONFIG=debian-rt BUILD_DIR="$w/b"
one_line_fail "KCONFIG missing" "cannot read it" qemu-6.1 KCONFIG="$w/none.config" BUILD_DIR="$w/b"
printf 'hello\n' >"$w/not.config"
one_line_fail "KCONFIG not a configuration" "is not a kernel configuration" qemu-6.1 KCONFIG="$w/not.config" BUILD_DIR="$w/b"
{ echo 'CONFIG_ARM64=y'; for i in $(seq 100); do echo "CONFIG_PAD_$i=y"; done; } >"$w/arm.config"
one_line_fail "KCONFIG of another arch" "is no configuration for x86_64 (no CONFIG_X86_64=y)" qemu-6.1 ARCH=x86_64 KCONFIG="$w/arm.config" BUILD_DIR="$w/b"
one_line_fail "KCONFIG with CONFIG" "is a configuration of its own" qemu-6.1 KCONFIG="$w/arm.config" CONFIG=debian BUILD_DIR="$w/b"
check "bad cells: nothing built or installed (no build directory)" test ! -e "$w/b"
one_line_fail "KSRC not a tree" "is not a kernel source tree" qemu KSRC="$w"
one_line_fail "check on KSRC not a tree" "is not a kernel source tree" check-6.1 KSRC="$w"
mkdir -p "$w/old/kernel"
printf 'VERSION = 2\nPATCHLEVEL = 4\nSUBLEVEL = 37\n' >"$w/old/Makefile"
one_line_fail "unsupported version" "Linux 2.4.37, which no branch supports" qemu KSRC="$w/old"
one_line_fail "export without branch" "make export needs BRANCH=" export
one_line_fail "bad BOOTS" "BOOTS=0: give a number of boot slots" qemu-6.1 BOOTS=0 BUILD_DIR="$w/b"
one_line_fail "bad SILENCE" "SILENCE=soon: give whole seconds" qemu-6.1 SILENCE=soon BUILD_DIR="$w/b"
one_line_fail "bad LIMIT" "LIMIT=forever: give whole seconds" qemu-6.1 LIMIT=forever BUILD_DIR="$w/b"
out=$("$ROOT/scripts/deps.sh" riscv64 2>&1) && rc=0 || rc=$?
check_eq "deps.sh of an unknown set: exit 2" 2 "$rc"
check_eq "deps.sh of an unknown set: one line" 1 "$(grep -c . <<<"$out")"
for s in report html-report merge-results mutants build-cell boot-cell run-qemu; do
	out=$("$ROOT/scripts/$s.sh" 2>&1) && rc=0 || rc=$?
	check_eq "$s.sh without arguments: exit 2" 2 "$rc"
	check "$s.sh without arguments: a usage line" grep -qx "usage: $s.sh .*" <<<"$out"
done

# One arch asks for that arch's tools only: nothing of the other arch, no musl.
mapfile -t cells < <("$ROOT/scripts/plan.sh" cells 6.1 arm64)
tools=$("$ROOT/scripts/plan.sh" tools "${cells[@]}")
mapfile -t toolv <<<"$tools"
check "6.1 on arm64: arm64's tools" grep -q "qemu-system-aarch64" <<<"$tools"
check_eq "6.1 on arm64: no x86 tool, no musl" "" "$(grep -E 'x86|musl' <<<"$tools" || true)"

# Fetch: no network (a closed local port as the mirror); test-fetch.sh asks
# the real archive.
out=$(DEB_MIRROR=http://127.0.0.1:9/debian DEB_SECURITY_MIRROR=http://127.0.0.1:9/debian-security \
	"$ROOT/scripts/fetch-tree.sh" linux-source-6.1 "bookworm" "$w/net" 2>&1) && rc=0 || rc=$?
check "offline fetch fails" test "$rc" -ne 0
check "offline fetch: names the fix" grep -q "^fetch-tree: cannot read the Debian archive .*check the network" <<<"$out"

# A .deb the archive's index lists but the mirror does not serve (as this
# project's mirror did for 5.10.262-1's arm64 .debs), against a download that
# fails for want of a network: a fake apt-get and apt-cache, FAKE_APT saying
# how the download ends.
mkdir -p "$w/fakeapt"
cat >"$w/fakeapt/apt-get" <<'EOF'
#!/bin/sh
case " $* " in
*" download "*)
	if [ "$FAKE_APT" = 404 ]; then
		echo "E: Failed to fetch http://deb.debian.org/debian/pool/main/l/linux/x.deb  404  Not Found [IP: 192.0.2.1 80]"
	else
		echo "E: Failed to fetch http://deb.debian.org/debian/pool/main/l/linux/x.deb  Could not connect to deb.debian.org:80"
	fi
	exit 100 ;;
esac
EOF
cat >"$w/fakeapt/apt-cache" <<'EOF'
#!/bin/sh
case " $* " in
*" madison "*) echo " linux-config-6.1 |  6.1.0-1 | http://deb.debian.org/debian bookworm/main arm64 Packages" ;;
*" show "*) echo "Version: 6.1.0-1" ;;
esac
EOF
chmod +x "$w/fakeapt/apt-get" "$w/fakeapt/apt-cache"
fake() { env PATH="$w/fakeapt:$PATH" FAKE_APT="$1" "${@:2}" 2>&1; }
for f in fetch-config fetch-tree; do
	case "$f" in
	fetch-config) args=(linux-config-6.1 bookworm "$w/404" 6.1.0-1 arm64 config.arm64_none_arm64) fix="KCONFIG=" ;;
	fetch-tree) args=(linux-source-6.1 bookworm "$w/404") fix="KSRC=" ;;
	esac
	out=$(fake 404 "$ROOT/scripts/$f.sh" "${args[@]}") && rc=0 || rc=$?
	check "$f, 404: exit != 0" test "$rc" -ne 0
	check_eq "$f, 404: one line after the progress lines, naming $fix" 1 \
		"$(tail -n 1 <<<"$out" | grep -c "^$f: Debian's index lists .* but the mirror does not serve it (404): .*$fix")"
	check_eq "$f, 404: only progress lines before it, none of apt's" "" \
		"$(head -n -1 <<<"$out" | grep -v -E "^$f: (apt-get update for|downloading) " || true)"
	check_eq "$f, 404: no .deb left" "" "$(find "$w/404/debs" -type f)"
	out=$(fake down "$ROOT/scripts/$f.sh" "${args[@]}") && rc=0 || rc=$?
	check "$f, no network: exit != 0" test "$rc" -ne 0
	check "$f, no network: says check the network" grep -q "^$f: download of .* failed: check the network" <<<"$out"
	check "$f, no network: not a 404" test "$(grep -c 'does not serve' <<<"$out")" -eq 0
done
# A version the suites do not carry (DEBIAN_VERSION=): one line naming those they do.
out=$(fake 404 "$ROOT/scripts/fetch-tree.sh" linux-source-6.1 bookworm "$w/ver" 6.1.9-1) && rc=0 || rc=$?
check "fetch-tree, a version not served: exit != 0" test "$rc" -ne 0
check_eq "fetch-tree, a version not served: one line naming the served ones" \
	"fetch-tree: linux-source-6.1 6.1.9-1 is not in Debian's suites bookworm (they serve: 6.1.0-1)" "$(grep -v 'apt-get update for' <<<"$out")"
check "... no .deb, no tree" test ! -e "$w/ver/debs" -a ! -e "$w/ver/trees/linux-source-6.1"

# A missing tool, as a non-root user: the exact apt-get line, no install.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$w/bin"
	for t in bash sh awk sed grep cat id tr; do ln -sf "$(command -v "$t")" "$w/bin/$t"; done
	chmod -R a+rx "$w"
	out=$(env -i PATH="$w/bin" "$(command -v setpriv)" --reuid=65534 --regid=65534 --clear-groups \
		"$w/bin/bash" "$ROOT/scripts/deps.sh" "${toolv[@]}" 2>&1) && rc=0 || rc=$?
	check "missing tool: exit != 0" test "$rc" -ne 0
	check "missing tool: prints the apt-get line" grep -q "apt-get install -y .*qemu-system-arm.*gcc-aarch64-linux-gnu" <<<"$out"
	# A missing firmware file (a stanza's /path:package), as pseries' SLOF is.
	out=$(env -i PATH="$w/bin" "$(command -v setpriv)" --reuid=65534 --regid=65534 --clear-groups \
		"$w/bin/bash" "$ROOT/scripts/deps.sh" "$w/none/slof.bin:qemu-system-data" 2>&1) && rc=0 || rc=$?
	check "missing firmware: exit != 0" test "$rc" -ne 0
	check_eq "missing firmware: one line, the package that has it" 1 "$(grep -c "apt-get install -y .*qemu-system-data" <<<"$out")"
fi

# Two runs on one build directory: the second is refused, not queued.
mkdir -p "$w/lock"
exec 7>"$w/lock/.lock"
flock 7
out=$(BUILD_DIR="$w/lock" "$ROOT/scripts/matrix.sh" 6.1-x86_64-stock 2>&1) && rc=0 || rc=$?
check "concurrent run refused" test "$rc" -ne 0
check "concurrent run: says why" grep -q "another make run is using" <<<"$out"
exec 7>&-
finish bad-input
