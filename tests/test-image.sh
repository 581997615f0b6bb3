#!/bin/bash
# test-image.sh - a kernel image you bring (IMAGE=): its arch, version and
# configuration read from made-up files of each format, and each bad input
# one line, exit 2, before anything runs (no build directory made).
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# Made-up images: the header fields the reader looks at, a banner, padding.
python3 - "$w" <<'EOF'
import gzip, lzma, struct, sys
w = sys.argv[1]
deb = b"Linux version 6.1.0-28-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.119-1 (2024-11-22)\n"

def bz(path, proto, flags, banner):
    d = bytearray(16384)
    d[0x1f1] = 4
    d[0x202:0x206] = b"HdrS"
    struct.pack_into("<H", d, 0x206, proto)
    struct.pack_into("<H", d, 0x236, flags)
    s = banner[len(b"Linux version "):].split(b"\n")[0] + b"\0"
    struct.pack_into("<H", d, 0x20e, 0x1000 - 0x200)
    d[0x1000:0x1000 + len(s)] = s
    open(path, "wb").write(d)

def raw(magic_at, magic, banner, n=16384):
    d = bytearray(n)
    d[magic_at:magic_at + len(magic)] = magic
    d[0x2000:0x2000 + len(banner)] = banner
    return bytes(d)

def elf(path, mach, little, banner):
    d = bytearray(16384)
    d[0:4] = b"\x7fELF"
    d[4], d[5] = 2, 1 if little else 2
    struct.pack_into("<H" if little else ">H", d, 18, mach)
    d[0x2000:0x2000 + len(banner)] = banner
    open(path, "wb").write(d)

bz(f"{w}/vmlinuz-6.1.0-28-amd64", 0x20f, 1, deb)
open(f"{w}/config-6.1.0-28-amd64", "w").write("CONFIG_X86_64=y\nCONFIG_HZ=250\nCONFIG_NO_HZ_IDLE=y\n# CONFIG_HZ_PERIODIC is not set\n")
bz(f"{w}/bz32", 0x20f, 0, b"Linux version 4.19.0-27-686-pae (debian-kernel@lists.debian.org) #1 SMP Debian 4.19.316-1 (2024-06-25)\n")
bz(f"{w}/bzold", 0x20a, 0, b"Linux version 3.2.0-4-486 (debian-kernel@lists.debian.org) #1 Debian 3.2.102-1\n")
arm = raw(0x38, b"ARM\x64", b"Linux version 5.14.0-570.32.1.el9_6.aarch64 (mockbuild@x) #1 SMP PREEMPT_DYNAMIC\n")
open(f"{w}/arm64.gz", "wb").write(gzip.compress(arm))
open(f"{w}/riscv.xz", "wb").write(lzma.compress(raw(0x30, b"RISCV\0\0\0", b"Linux version 6.12.9-riscv64 (debian-kernel@lists.debian.org) #1 SMP Debian 6.12.9-1\n"), format=lzma.FORMAT_XZ))
elf(f"{w}/vmlinux-ppc", 21, True, b"Linux version 6.8.0-90-generic (buildd@x) #91-Ubuntu SMP (Ubuntu 6.8.0-90.91-generic 6.8.12)\n")
# EFI zboot: PE "MZ", "zimg", payload offset and size, compression name.
payload = gzip.compress(arm)
z = bytearray(0x200)
z[0:2], z[4:8] = b"MZ", b"zimg"
struct.pack_into("<II", z, 8, 0x200, len(payload))
z[0x18:0x1c] = b"gzip"
open(f"{w}/zboot", "wb").write(bytes(z) + payload + bytes(4096))
# s390: its IPL record at 8.
s = bytearray(raw(8, b"\x02\x00\x00\x18\x60\x00\x00\x50\x02\x00\x00\x68\x60\x00\x00\x50", b"Linux version 6.1.0-50-s390x (debian-kernel@lists.debian.org) #1 SMP Debian 6.1.176-1\n"))
open(f"{w}/s390", "wb").write(bytes(s))
# Bad ones.
open(f"{w}/small", "wb").write(b"\x7fELF" + bytes(100))
open(f"{w}/noise", "wb").write(bytes(range(256)) * 64)
open(f"{w}/badgz", "wb").write(b"\x1f\x8b\x08" + bytes(8000))
open(f"{w}/zst", "wb").write(b"\x28\xb5\x2f\xfd" + bytes(8000))
elf(f"{w}/mips", 8, False, b"Linux version 5.10.0-mips (x@y) #1\n")
open(f"{w}/nobanner", "wb").write(raw(0x38, b"ARM\x64", b"no banner here"))
bz(f"{w}/ancient", 0x20f, 1, b"Linux version 2.4.37 (x@y) #1\n")
zz = bytearray(z)
zz[0x18:0x1c] = b"lzo\0"
open(f"{w}/zboot-lzo", "wb").write(bytes(zz) + payload + bytes(4096))
open(f"{w}/not-a-config", "w").write("hello\n")
EOF

plan() { "$ROOT/scripts/plan.sh" "$@" 2>&1; }
# image FILE [ARCH]: "ARCH VERSION BRANCH" of the image's cell, from the planner.
info() {
	local c
	c=$(IMAGE=$1 "$ROOT/scripts/plan.sh" cells "" "${2:-}") || return 1
	IMAGE=$1 "$ROOT/scripts/plan.sh" fields "$c" | awk -F'\t' '{ print $3, $2 }'
}
check_eq "bzImage, 64-bit: x86_64, branch by Debian's version (6.1.119)" "x86_64 6.1" "$(info "$w/vmlinuz-6.1.0-28-amd64")"
check_eq "bzImage, 32-bit: i386" "i386 4.10" "$(info "$w/bz32")"
check_eq "gzip arm64 Image: arm64 (RHEL's 5.14.0 release)" "arm64 6.1" "$(info "$w/arm64.gz")"
check_eq "xz RISC-V Image: riscv64" "riscv64 6.12" "$(info "$w/riscv.xz")"
check_eq "ELF ppc64 little-endian: ppc64el (Ubuntu's banner: 6.8.12)" "ppc64el 6.1" "$(info "$w/vmlinux-ppc")"
check_eq "EFI zboot with a gzip Image inside: arm64" "arm64 6.1" "$(info "$w/zboot")"
check_eq "an s390 image (its IPL record): s390x" "s390x 6.1" "$(info "$w/s390")"
check_eq "an old bzImage with ARCH=i386 confirming it" "i386 3.1" "$(info "$w/bzold" i386)"
out=$(IMAGE="$w/vmlinuz-6.1.0-28-amd64" plan image)
check "the image's line names its release, Debian's version and the config found beside it" \
	grep -q "Linux 6.1.119 (6.1.0-28-amd64, Debian 6.1.119-1), bzImage-64 for x86_64, judged on branch 6.1; configuration: .*config-6.1.0-28-amd64" <<<"$out"
out=$(IMAGE="$w/arm64.gz" plan image)
check "RHEL's release named as RHEL 9.6" grep -q "RHEL 9.6 5.14.0-570.32.1.el9_6.aarch64" <<<"$out"
check "its compression named" grep -q "arm64-Image (gzip) for arm64" <<<"$out"

# The plan: nothing to build, the image's options recorded, expected PASS.
c=$(IMAGE="$w/vmlinuz-6.1.0-28-amd64" "$ROOT/scripts/plan.sh" cells)
IMAGE="$w/vmlinuz-6.1.0-28-amd64" BUILD_DIR="$w/b" "$ROOT/scripts/plan.sh" resolve "$w/run" "$c" >/dev/null 2>&1
p=$w/run/cells/$c/plan.json
check_eq "plan: the cell's name" "6.1-x86_64-stock@image.6.1.0-28-amd64" "$c"
check_eq "plan: the tree is the image, no patches, expected PASS" "image 0 PASS" "$(jq -r '"\(.tree.source) \(.patches | length) \(.expect | join(" "))"' "$p")"
check_eq "plan: QEMU boots the image's copy" "$w/b/images/image-x86_64-$(jq -r .image.key "$p")/bzImage" "$(jq -r '.qemu.argv[.qemu.argv | index("-kernel") + 1]' "$p")"
check "plan: the reproducer names the image" grep -q "make qemu IMAGE=$w/vmlinuz-6.1.0-28-amd64 ARCH=x86_64" <(jq -r .reproducer "$p")
IMAGE="$w/vmlinuz-6.1.0-28-amd64" "$ROOT/scripts/plan.sh" image-unpack "$p"
d=$(jq -r .image.dir "$p")
check "unpack: the bzImage as it is" cmp "$w/vmlinuz-6.1.0-28-amd64" "$d/bzImage"
check "unpack: the options as a build records them" grep -qx "CONFIG_HZ=250" "$d/leap-options"
check "unpack: an option set off is n" grep -qx "CONFIG_HZ_PERIODIC=n" "$d/leap-options"
c=$(IMAGE="$w/arm64.gz" "$ROOT/scripts/plan.sh" cells)
IMAGE="$w/arm64.gz" BUILD_DIR="$w/b" "$ROOT/scripts/plan.sh" resolve "$w/run" "$c" >/dev/null 2>&1
IMAGE="$w/arm64.gz" "$ROOT/scripts/plan.sh" image-unpack "$w/run/cells/$c/plan.json"
check_eq "unpack: a compressed Image is given to QEMU raw (its header magic at 0x38)" "ARMd" "$(tail -c +57 "$(jq -r .image.path "$w/run/cells/$c/plan.json")" | head -c 4 | tr -cd "A-Za-z")"

# An image whose console stays silent (its serial driver a module): BOOTFAIL,
# and the reason names the console to build in.  QEMU is a stand-in that
# prints nothing and ends, as such a guest does for the harness.
c=6.1-x86_64-stock@image.6.1.0-28-amd64
p=$w/run/cells/$c/plan.json
jq '.qemu.argv = ["bash", "-c", "exit 0"] | .qemu.silence_s = 2 | .packages = []' "$p" >"$p.new" && mv "$p.new" "$p"
mkdir -p "$(dirname "$(jq -r .initramfs.path "$p")")" && touch "$(jq -r .initramfs.path "$p")"
echo '{"status": "unpacked", "build_s": 0, "reason": "the image as it is: nothing built"}' >"$w/run/cells/$c/build.json"
"$ROOT/scripts/boot-cell.sh" "$p" >/dev/null 2>&1 || true
check_eq "a silent console: BOOTFAIL" BOOTFAIL "$(jq -r .verdict "$w/run/cells/$c/cell.json")"
check "... whose reason names the console to build in" grep -q "the console stayed silent: the image must have the serial console QEMU's x86_64 machine gives (ttyS0) built in" <(jq -r .reason "$w/run/cells/$c/cell.json")
check_eq "... and records the image it booted" "6.1.0-28-amd64 bzImage-64" "$(jq -r '"\(.tree_image.release) \(.tree_image.format)"' "$w/run/cells/$c/cell.json")"

# Bad input: one line, exit 2, nothing started.
bad() { # DESCRIPTION PATTERN ENV... -- PLAN-ARGS...
	local what=$1 pat=$2 out rc envs=()
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	out=$(env "${envs[@]}" BUILD_DIR="$w/never" "$ROOT/scripts/plan.sh" "$@" 2>&1) && rc=0 || rc=$?
	check_eq "$what: exit 2" 2 "$rc"
	check_eq "$what: one line" 1 "$(grep -c . <<<"$out")"
	check "$what: says '$pat'" grep -q -- "$pat" <<<"$out"
}
bad "no such file" "is not readable (No such file or directory)" IMAGE="$w/nothing" -- image
bad "a directory" "is not readable" IMAGE="$w" -- image
bad "too small" "bytes: not a kernel image" IMAGE="$w/small" -- image
bad "not a kernel image" "is not a kernel image: no x86 bzImage header" IMAGE="$w/noise" -- image
bad "gzip that does not open" "looks gzip-compressed but does not decompress" IMAGE="$w/badgz" -- image
mkdir -p "$w/bin"
for t in dirname bash; do ln -sf "$(command -v "$t")" "$w/bin/$t"; done
bad "zstd without the zstd tool" "there is no zstd here to open it: apt-get install zstd" PATH="$w/bin" IMAGE="$w/zst" -- image
bad "an arch with no stanza" "is a elf-mips-be kernel (5.10.0-mips): no arch stanza boots that format" IMAGE="$w/mips" -- image
bad "no banner" "has no 'Linux version' banner" IMAGE="$w/nobanner" -- image
bad "zboot of a compression this cannot open" "EFI zboot image compressed with 'lzo'" IMAGE="$w/zboot-lzo" -- image
bad "older than every branch" "is Linux 2.4.37 (2.4.37), older than every branch" IMAGE="$w/ancient" -- image
bad "ARCH= that is not the image's" "is a bzImage-64 kernel for x86_64, not ARCH=arm64" IMAGE="$w/vmlinuz-6.1.0-28-amd64" -- cells "" arm64
bad "an old bzImage without ARCH=" "header does not say 32 or 64 bits: give ARCH= (x86_64 or i386)" IMAGE="$w/bzold" -- cells
bad "a variant other than stock" "IMAGE= boots the image as it is: VARIANT=stock only" IMAGE="$w/vmlinuz-6.1.0-28-amd64" -- cells "" "" fixed
bad "CONFIG= with an image" "leave out CONFIG=debian" IMAGE="$w/vmlinuz-6.1.0-28-amd64" -- cells "" "" "" "" debian
bad "KSRC= and IMAGE= both" "give one of them" IMAGE="$w/vmlinuz-6.1.0-28-amd64" KSRC="$w" -- cells
bad "KCONFIG= that is no configuration" "is not a kernel configuration" IMAGE="$w/vmlinuz-6.1.0-28-amd64" KCONFIG="$w/not-a-config" -- cells
bad "KCONFIG= with two images" "goes with one IMAGE=, not 2" IMAGE="$w/bz32 $w/zboot" KCONFIG="$w/config-6.1.0-28-amd64" -- cells
check "bad input made no build directory" test ! -e "$w/never"
# Through make, as a user types it: the same one line before anything runs.
out=$(env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -s -C "$ROOT" --no-print-directory qemu IMAGE="$w/noise" BUILD_DIR="$w/never" 2>&1 | grep -Ev '^make(\[[0-9]+\])?: \*\*\*' || true)
check_eq "make qemu IMAGE=<not an image>: one line" 1 "$(grep -c . <<<"$out")"
check "make qemu IMAGE=<not an image>: nothing ran (no build directory)" test ! -e "$w/never"

finish test-image
