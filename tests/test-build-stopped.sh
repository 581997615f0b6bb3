#!/bin/bash
# test-build-stopped.sh - where a kernel build stopped, read from its log
# (scripts/lib.sh's build_stopped): the tree's own kconfig, or the first
# compiler error with the file named in the tree you brought, not its copy.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/lib.sh
. "$ROOT/scripts/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
copy=/b/ksrc/ksrc-8acb6540 tree=/home/me/linux-3.2.53

printf '%s\n' '  CC      kernel/bounds.s' \
	"In file included from $copy/arch/x86/kernel/asm-offsets.c:8:" \
	"$copy/arch/x86/include/asm/cpufeature.h: In function '__static_cpu_has':" \
	"$copy/arch/x86/include/asm/cpufeature.h:337:17: error: implicit declaration of function 'asm_volatile_goto'" \
	"$copy/arch/x86/include/asm/cpufeature.h:345:39: error: expected ')' before ':' token" >"$w/cc.log"
check_eq "a compiler error: the first, in the tree you brought" \
	"$tree/arch/x86/include/asm/cpufeature.h:337:17: error: implicit declaration of function 'asm_volatile_goto'" \
	"$(build_stopped "$w/cc.log" "$copy" "$tree")"
printf '%s\n' "$copy/include/linux/foo.h:3:10: fatal error: mach/cputype.h: No such file or directory" >"$w/fatal.log"
check_eq "a fatal error (a missing header)" "$tree/include/linux/foo.h:3:10: fatal error: mach/cputype.h: No such file or directory" \
	"$(build_stopped "$w/fatal.log" "$copy" "$tree")"
printf '%s\n' '  GEN     ./Makefile' 'scripts/kconfig/conf  --silentoldconfig Kconfig' '' \
	'*** Error during update of the configuration.' '' \
	"make[5]: *** [$copy/scripts/kconfig/Makefile:38: silentoldconfig] Error 1" >"$w/kconfig.log"
check_eq "the tree's own kconfig gave up" "kconfig: Error during update of the configuration" \
	"$(build_stopped "$w/kconfig.log" "$copy" "$tree")"
printf '%s\n' "Makefile:62: $copy/tools/build/Makefile.include: No such file or directory" \
	"make[5]: *** No rule to make target '$copy/tools/build/Makefile.include'.  Stop." \
	"make[4]: *** [Makefile:73: objtool] Error 2" >"$w/missing.log"
check_eq "a file of the tree make needs and does not find (an import without tools/)" "missing: $tree/tools/build/Makefile.include" \
	"$(build_stopped "$w/missing.log" "$copy" "$tree")"
printf '%s\n' '  LD      vmlinux' 'make[2]: *** [Makefile:152: sub-make] Error 2' >"$w/other.log"
check_eq "neither: nothing" "" "$(build_stopped "$w/other.log" "$copy" "$tree")"
finish build-stopped
