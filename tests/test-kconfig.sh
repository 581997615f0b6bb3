#!/bin/bash
# test-kconfig.sh - a configuration that is not tiny: kconfig-prep.sh's
# treatment of Debian's or your file (modules, debug info and keys off,
# nothing else changed; another arch's or no configuration refused), and
# build-kernel.sh's check that the timekeeping options keep their source's
# values (on a made-up tree whose kconfig only merges and copies).
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
prep=$ROOT/scripts/kconfig-prep.sh
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# A configuration: the arch's option, options built in, as modules, unset,
# debug info and Debian's key files; padded to look like a real one.
{
	echo '# Automatically generated file; DO NOT EDIT.'
	echo 'CONFIG_X86_64=y'
	echo 'CONFIG_MODULES=y'
	echo 'CONFIG_HZ_250=y'
	echo 'CONFIG_HZ=250'
	echo 'CONFIG_E1000=m'
	echo 'CONFIG_SND=m'
	echo '# CONFIG_PREEMPT_RT is not set'
	echo 'CONFIG_DEBUG_INFO=y'
	echo 'CONFIG_DEBUG_INFO_DWARF5=y'
	echo '# CONFIG_DEBUG_INFO_NONE is not set'
	echo 'CONFIG_SYSTEM_TRUSTED_KEYS="debian/certs/debian-uefi-certs.pem"'
	echo 'CONFIG_SYSTEM_REVOCATION_KEYS="debian/certs/revoked.pem"'
	echo 'CONFIG_CMDLINE="quiet=m"'
	for i in $(seq 100); do echo "CONFIG_PAD_$i=y"; done
} >"$w/src.config"
"$prep" "$w/src.config" CONFIG_X86_64 >"$w/out.config"
check_eq "every =m is not set" "# CONFIG_E1000 is not set|# CONFIG_SND is not set" \
	"$(grep -E 'E1000|SND' "$w/out.config" | paste -sd '|')"
check_eq "no =m left" 0 "$(grep -c '=m$' "$w/out.config" || true)"
check "modules off" grep -qx '# CONFIG_MODULES is not set' "$w/out.config"
check_eq "debug info off, both ways of saying it, once each" "# CONFIG_DEBUG_INFO is not set|CONFIG_DEBUG_INFO_NONE=y" \
	"$(grep DEBUG_INFO "$w/out.config" | paste -sd '|')"
check_eq "Debian's key files cleared" 'CONFIG_SYSTEM_TRUSTED_KEYS=""|CONFIG_SYSTEM_REVOCATION_KEYS=""' \
	"$(grep -E 'SYSTEM_(TRUSTED|REVOCATION)_KEYS' "$w/out.config" | paste -sd '|')"
check_eq "nothing else changed" "" \
	"$(diff <(grep -vE 'CONFIG_(MODULES|E1000|SND|DEBUG_INFO|SYSTEM_[A-Z]+_KEYS)' "$w/src.config") \
		<(grep -vE 'CONFIG_(MODULES|E1000|SND|DEBUG_INFO|SYSTEM_[A-Z]+_KEYS)' "$w/out.config") || true)"
check "a value that ends in m is no module" grep -qx 'CONFIG_CMDLINE="quiet=m"' "$w/out.config"
# KCONFIG_MODULES=on: module support kept, every =m still unset, the rest
# as with it off.
"$prep" "$w/src.config" CONFIG_X86_64 on >"$w/mod.config"
check "modules on: CONFIG_MODULES kept" grep -qx 'CONFIG_MODULES=y' "$w/mod.config"
check_eq "modules on: still no =m" 0 "$(grep -c '=m$' "$w/mod.config" || true)"
check_eq "modules on: the only difference from off" "< # CONFIG_MODULES is not set|> CONFIG_MODULES=y" \
	"$(diff "$w/out.config" "$w/mod.config" | grep '^[<>]' | paste -sd '|')"
err=$("$prep" "$w/src.config" CONFIG_X86_64 maybe 2>&1 >/dev/null) && rc=0 || rc=$?
check "modules 'maybe': refused in one line naming the choice" test "$rc" -ne 0 -a "$(grep -c . <<<"$err")" -eq 1
check "... says on or off" grep -q "give on or off" <<<"$err"
for bad in "$w/none.config:cannot read it" "$w/out.config:no CONFIG_X86_64" "/etc/hostname:not a kernel configuration"; do
	f=${bad%%:*} want=${bad#*:}
	[ "$f" != "$w/out.config" ] || sed -i 's/^CONFIG_X86_64=y$/CONFIG_ARM64=y/' "$f"
	err=$("$prep" "$f" CONFIG_X86_64 2>&1 >/dev/null) && rc=0 || rc=$?
	check "$want: refused" test "$rc" -ne 0
	check_eq "$want: one line" 1 "$(grep -c . <<<"$err")"
	check "$want: says so" grep -q "$want" <<<"$err"
done

# build-kernel.sh on a made-up tree: merge_config.sh appends, olddefconfig
# keeps the last value of each option and drops CONFIG_NOSUCH (a symbol the
# arch does not have), the image is a file.
t=$w/tree
mkdir -p "$t/scripts/kconfig"
cat >"$t/Makefile" <<'MK'
olddefconfig:
	@sed -i '/^CONFIG_NOSUCH=/d' $(O)/.config
	@awk '{ k = $$0; sub(/^# /, "", k); sub(/[= ].*/, "", k); v[k] = $$0; if (!(k in o)) { o[k] = ++n; ks[n] = k } } END { for (i = 1; i <= n; i++) print v[ks[i]] }' $(O)/.config >$(O)/.config.new && mv $(O)/.config.new $(O)/.config
Image:
	@touch $(O)/Image
MK
printf 'olddefconfig:\n' >"$t/scripts/kconfig/Makefile"
cat >"$t/scripts/kconfig/merge_config.sh" <<'SH'
#!/bin/sh
[ "$1" = -m ] && shift
out=$1; shift
cat "$@" >>"$out"
SH
printf 'CONFIG_HZ=250\nCONFIG_NO_HZ_FULL=y\n# CONFIG_PREEMPT_RT is not set\nCONFIG_X=y\n' >"$w/origin.config"
cp "$w/origin.config" "$w/base.config"
echo 'CONFIG_BLK_DEV_INITRD=y' >"$w/qemu.config"
run_build() { BASE_CONFIG=$w/base.config ORIGIN_CONFIG=$w/origin.config CHECK_OPTIONS="HZ NO_HZ_FULL PREEMPT_RT NR_CPUS" \
	"$ROOT/scripts/build-kernel.sh" "$t" "$w/obj" kx Image "$@" 2>&1; }
out=$(run_build "$w/qemu.config") && rc=0 || rc=$?
check_eq "from the base, with the fragment: built" 0 "$rc"
check "... the fragment is in" grep -qx 'CONFIG_BLK_DEV_INITRD=y' "$w/obj/.config"
check_eq "... the options recorded as built (n: not set or absent)" "CONFIG_HZ=250 CONFIG_NO_HZ_FULL=y CONFIG_PREEMPT_RT=n CONFIG_NR_CPUS=n" \
	"$(paste -sd ' ' "$w/obj/.leap-options")"
echo 'CONFIG_HZ=100' >"$w/hz.config"
echo '# CONFIG_NO_HZ_FULL is not set' >>"$w/hz.config"
out=$(run_build "$w/qemu.config" "$w/hz.config") && rc=0 || rc=$?
check "a fragment that changes a timekeeping option: refused" test "$rc" -ne 0
check_eq "... naming each, with both values" "build-kernel: the timekeeping options of $w/origin.config did not survive the configuration step: CONFIG_HZ (250 there, 100 here) CONFIG_NO_HZ_FULL (y there, n here)" "$out"
# The fragments' options must survive, the last fragment naming one winning.
plain() { "$ROOT/scripts/build-kernel.sh" "$t" "$w/obj2" kx Image "$@" 2>&1; }
echo 'CONFIG_NOSUCH=y' >"$w/common.config"
out=$(BASE_CONFIG=$w/base.config plain "$w/common.config") && rc=0 || rc=$?
check "an option the configuration step drops: refused" test "$rc" -ne 0
check_eq "... naming it" "build-kernel: not in the final .config of $w/obj2 (a dependency is missing): CONFIG_NOSUCH=y" "$out"
printf '# CONFIG_NOSUCH is not set\n# CONFIG_X is not set\n' >"$w/arch.config"
out=$(BASE_CONFIG=$w/base.config plain "$w/common.config" "$w/arch.config") && rc=0 || rc=$?
check_eq "a later fragment's \"not set\" wins, and holds where the symbol is absent" 0 "$rc"
check "... and where it is there" grep -qx '# CONFIG_X is not set' "$w/obj2/.config"
# An object directory remembers its tree: another version empties it first.
stamped() { TREE_STAMP=$1 BASE_CONFIG=$w/base.config "$ROOT/scripts/build-kernel.sh" "$t" "$w/obj3" kx Image "$w/qemu.config" 2>&1; }
check "a build from linux-source-9.9 9.9.1-1" stamped "linux-source-9.9 9.9.1-1"
touch "$w/obj3/kernel.o"
check "... again at that version" stamped "linux-source-9.9 9.9.1-1"
check "... keeps its objects" test -f "$w/obj3/kernel.o"
out=$(stamped "linux-source-9.9 9.9.2-1") && rc=0 || rc=$?
check_eq "then at 9.9.2-1: built" 0 "$rc"
check "... from an emptied object directory" test ! -e "$w/obj3/kernel.o"
check "... saying why" grep -q "was built from linux-source-9.9 9.9.1-1, the tree is now linux-source-9.9 9.9.2-1" <<<"$out"
check_eq "... and stamped with the new version" "linux-source-9.9 9.9.2-1" "$(cat "$w/obj3/.leap-tree")"
rm "$w/obj3/.leap-tree" && touch "$w/obj3/kernel.o"
out=$(stamped "linux-source-9.9 9.9.2-1") && rc=0 || rc=$?
check "an object directory with no stamp (built before stamps): emptied too" test "$rc" -eq 0 -a ! -e "$w/obj3/kernel.o"
check "... saying the tree was not recorded" grep -q "was built from a tree it did not record" <<<"$out"
finish kconfig
