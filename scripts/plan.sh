#!/bin/bash
# shellcheck disable=SC2086 # the data's values are word lists (ARCHES, VARIANTS, PATCHES_*), split by design
# plan.sh - the matrix's one reader of its data, and the planner of cells.
#
# Usage:
#   plan.sh cells [BRANCH [ARCH [VARIANT [BOOT [CONFIG]]]]]  one cell per line:
#                                             <branch>-<arch>-<variant>, then
#                                             @<config> unless tiny, +<boot>
#                                             for a boot mode
#   plan.sh cells-json [BRANCH [ARCH [VARIANT [BOOT [CONFIG]]]]]  the same as {"cell": [...]}
#   plan.sh mutant-cells BRANCH [ARCH [CONFIG]]  per arch: the stock cell, then one
#                                             <branch>-<arch>-<mutant> per mutants/BRANCH/*/
#                                             (CONFIG: one configuration, @CONFIG)
#   plan.sh tools CELL... | --all             the host tools the cells (or every
#                                             possible cell) need, as TOOL:PACKAGE
#   plan.sh resolve DIR CELL...               plan each cell: DIR/cells/<cell>/plan.json
#   plan.sh branches | variants | arches | boots | kconfigs  the names the data defines
#   plan.sh get BRANCH KEY                    one branch value (family.mk fills gaps)
#   plan.sh arch-get ARCH KEY                 one value of an arch stanza
#   plan.sh series DIR...                     the patches of DIR/series, absolute
#   plan.sh branch-for VERSION                the branch whose range holds VERSION
#   plan.sh debian-version BRANCH             the upload DEBIAN_VERSION asks of BRANCH
#                                             ("" if none: the newest), checked
#   plan.sh fix-state TREE                    what TREE's code carries: fixed, 2012 or
#                                             nothing, then the 2015 commits it has
#   plan.sh stack BRANCH VARIANT              the variant's patch directories, for
#                                             KSRC's code (FIX_2012 skipped where due)
#   plan.sh ksrc BRANCH                       KSRC is a tree of BRANCH (else one
#                                             line, exit 1); prints its default variants
#   plan.sh configs ARCH [FRAGMENT...]        the config fragment files, in merge order
#
# The data, all variables files (KEY := value, # comments):
#   branches/<B>/branch.mk  PACKAGE, SUITES, FAMILY, ARCHES, VARIANTS,
#       EXPECT_<variant>, PATCHES_<variant> (patch directories relative to
#       branches/, applied in order), VERSION_MIN, VERSION_MAX; for trees the
#       user brings COMPAT (build aids applied under every variant), CONFIGS
#       (fragments instead of "common"), KERNEL_CC, KERNEL_HOSTCC (the user's
#       CC/HOSTCC win), GUEST_LIBC (musl), FIX_2012 (the PATCHES_fixed
#       directories a tree whose code carries the 2012 fix skips: it has
#       stable's own form of them), EDGE_FIXES (each 2015 commit as
#       <12-hex id>:<the leap-test check that fails without it>: a stock tree
#       lacking some of them may fail those checks and no other),
#       KERNEL_ARGS (kernel parameters every cell of the branch boots
#       with, after the arch's CMDLINE) and SKIP_CHECKS (leap-test checks the
#       series does not address: reported SKIP, with why).
#   branches/<F>/family.mk  the keys its branches share; a key missing from a
#       branch.mk comes from its FAMILY's family.mk, then that family's FAMILY.
#       KEY += words in a file adds to the value of the chain above it.
#       ARCHES missing everywhere means every arch; a branch's arches come
#       in the arches' ORDER.
#   arches/<A>/  one complete stanza, everything about the arch: arch.mk
#       (KARCH, CROSS, IMAGE, QEMU, QEMU_ARGS, CONSOLE, CMDLINE, GUEST_CC,
#       PACKAGES; GUEST_CC_<libc> and PACKAGES_<libc> for another guest C
#       library; CELL_TARGET_S (make bench's target for one cell); ORDER
#       (where the arch sorts: cells, builds and tables go in that order);
#       MAKE_TEST (set: make test boots this arch's cells)),
#       arch.config (its kernel config fragment, on top of the groups'
#       configs/<G>.config) and <G>.config (its part of group G, last).
#   mutants/<B>/<M>/mutant.mk  KILLED_BY (verdicts), KILLER_TESTS (KTAP tests
#       that must be among the failed ones); its series replaces the variant's.
#   kconfigs/<C>.mk  a configuration: SOURCE (tiny: tinyconfig and the
#       fragments; debian: Debian's linux-config package of the tree's
#       version, its FILE with the arch's DEBIAN_ARCH and DEBIAN_FLAVOUR
#       put in for $(DEBIAN_ARCH) and $(DEBIAN_FLAVOUR); kconfig: the file
#       KCONFIG names), FRAGMENTS (for the last two: configs/<F>.config and
#       arches/<A>/<F>.config on top, what QEMU needs), ORDER.  A
#       branch's KCONFIGS lists the ones its tree builds (kconfig: any).
#       Arch stanzas add DEBIAN_ARCH, KCONFIG_SYMBOL (set in every
#       configuration of the arch) and CLOCK_OPTIONS (its clocksource and
#       clockevent drivers, checked with TK_OPTIONS below).
#   boots/<M>.mk  a boot mode: CMDLINE (added to the guest's), NEEDS (config
#       lines the cell's fragments must set, else it has no such cell), ORDER.
#       A cell <branch>-<arch>-<variant>+<M> boots the image of
#       <branch>-<arch>-<variant> with that command line and expects the same.
#
# `resolve` is the one place a cell is worked out: tree and version, patches,
# fragments, compilers, image key and path, initramfs, the QEMU command line,
# expected verdicts and a reproducer, written as JSON beside the cell's
# results.  scripts/build-cell.sh and boot-cell.sh read that file and nothing
# else.  Its inputs besides the data: BUILD_DIR, KSRC, KERNEL_CC,
# KERNEL_HOSTCC, CROSS_COMPILE, JOBS, LIMIT, SILENCE, LEAP_CMDLINE, KCONFIG,
# CCACHE (1: the compilers run through ccache, its cache in BUILD/ccache; it
# changes no image, so it is not in the image key), DEBIAN_VERSION (Debian
# uploads to build instead of the newest, one per branch at most: the tree
# and a debian configuration both at that version).
# LEAP_ROOT (default: this script's parent) locates the data.
set -eu -o pipefail
# LEAP_TRACE=FILE: note each run of this program there (tests count them).
[ -z "${LEAP_TRACE:-}" ] || echo "plan.sh $*" >>"$LEAP_TRACE"

here=$(cd "$(dirname "$0")" && pwd)
root=${LEAP_ROOT:-$(dirname "$here")}
die() { echo "plan: $*" >&2; exit 1; }
# The QEMU arguments every cell shares, and the guest command line's head.
# shellcheck disable=SC2054 # tcg,thread=multi is one argument
# A stanza's QEMU_ARGS come after these, so an arch can override one (-m).
QEMU_COMMON=(-smp 2 -m 128 -accel tcg,thread=multi -nodefaults -display none -monitor none -no-reboot)
CMDLINE_HEAD="leaptest.harness=1 panic=-1 softlockup_panic=0"
# The timekeeping options a configuration that is not tiny must keep from
# its source (with the arch's CLOCK_OPTIONS), recorded for every cell.
TK_OPTIONS="HZ HZ_PERIODIC NO_HZ_IDLE NO_HZ_FULL PREEMPT_NONE PREEMPT_VOLUNTARY PREEMPT PREEMPT_LAZY PREEMPT_RT PREEMPT_DYNAMIC HIGH_RES_TIMERS SMP NR_CPUS"
# Bump when the way an image is built changes: every image is rebuilt.
# 2: comment lines of the config fragments no longer count.
# 3: "# CONFIG_X is not set" counts (it turns an option off: not a comment).
IMAGE_KEY_VERSION=3

# --- the data: every variables file, read once ---------------------------------
declare -A V=()
load() {
	local file key val
	local files=()
	cd "$root"
	files=(branches/*/*.mk arches/*/arch.mk)
	for file in mutants/*/*/mutant.mk boots/*.mk kconfigs/*.mk; do [ ! -f "$file" ] || files+=("$file"); done
	cd - >/dev/null
	while IFS=$'\t' read -r file key val; do
		V["$file|$key"]=$val
	done < <(cd "$root" && awk '
		FNR == 1 { f = FILENAME }
		/^[ \t]*#/ { next }
		match($0, /^[A-Za-z0-9_]+[ \t]*[:+]?=/) {
			k = substr($0, 1, RLENGTH); if (k ~ /\+=$/) add = "+"; else add = ""
			sub(/[ \t]*[:+]?=$/, "", k); k = k add
			v = substr($0, RLENGTH + 1); gsub(/^[ \t]+|[ \t]+$/, "", v)
			printf "%s\t%s\t%s\n", f, k, v
		}' "${files[@]}")
}
load
has() { [ -n "${V["$1|$2"]+set}" ]; }
val() { REPLY=${V["$1|$2"]-}; }

# bget BRANCH KEY: REPLY = the branch's value, else its family chain's;
# KEY += WORDS in a file adds them to the value of the chain above it.
bget() {
	local file=branches/$1/branch.mk key=$2 depth=0 fam add=""
	while :; do
		if has "$file" "$key"; then val "$file" "$key"; REPLY="$REPLY${add:+ $add}"; return 0; fi
		if has "$file" "$key+"; then val "$file" "$key+"; add="$REPLY${add:+ $add}"; fi
		fam=${V["$file|FAMILY"]-}
		if [ -z "$fam" ] || [ "$depth" -ge 8 ]; then REPLY=$add; [ -n "$add" ]; return; fi
		file=branches/$fam/family.mk
		depth=$((depth + 1))
	done
}
bval() { bget "$1" "$2" || true; }
# aval ARCH KEY: REPLY = the arch stanza's value.
aval() { val "arches/$1/arch.mk" "$2"; }

BRANCHES=() ARCHES=() MODES=() KCONFIGS=()
for f in "$root"/branches/*/branch.mk; do [ -f "$f" ] && { f=${f%/branch.mk}; BRANCHES+=("${f##*/}"); }; done
# The names of DIR/*.mk (or, with a second argument, DIR/*/FILE.mk) by their
# ORDER (then name; no ORDER sorts last).
by_order() {
	local f n files
	if [ -n "${2:-}" ]; then files=("$root/$1"/*/"$2".mk); else files=("$root/$1"/*.mk); fi
	for f in "${files[@]}"; do
		[ -f "$f" ] || continue
		f=${f#"$root/"}
		if [ -n "${2:-}" ]; then n=${f%/*}; else n=${f%.mk}; fi
		printf '%s %s\n' "${V["$f|ORDER"]:-999}" "${n##*/}"
	done | sort -k1,1n -k2,2 | cut -d' ' -f2
}
mapfile -t ARCHES < <(by_order arches arch)
mapfile -t MODES < <(by_order boots)
mapfile -t KCONFIGS < <(by_order kconfigs)
branches() { printf '%s\n' ${BRANCHES[@]+"${BRANCHES[@]}"}; }
arches() { printf '%s\n' ${ARCHES[@]+"${ARCHES[@]}"}; }
boots() { printf '%s\n' ${MODES[@]+"${MODES[@]}"}; }
kconfigs() { printf '%s\n' ${KCONFIGS[@]+"${KCONFIGS[@]}"}; }
# Every variant some branch or family declares.
variants() {
	local k
	for k in $(printf '%s\n' "${!V[@]}" | grep '^branches/.*|VARIANTS$' | sort); do
		# shellcheck disable=SC2086 # a list of names
		printf '%s\n' ${V[$k]}
	done | awk '!seen[$0]++'
}
# REPLY = the arches of a branch: its ARCHES, else every arch.
branch_arches() {
	local a want
	bget "$1" ARCHES || { REPLY=${ARCHES[*]-}; return 0; }
	# In the arches' ORDER, however the data lists them.
	want=" $REPLY " REPLY=
	for a in ${ARCHES[@]+"${ARCHES[@]}"}; do case "$want" in *" $a "*) REPLY="${REPLY:+$REPLY }$a" ;; esac; done
}
one_of() { local w=$1 x; shift; for x in "$@"; do [ "$x" = "$w" ] && return 0; done; return 1; }
words() { tr '\n' ' ' | sed 's/ $//'; }

# A tree the user brings (KSRC): a tree at all, its version (make
# kernelversion) and what its code carries (fix_state), each worked out once.
need_ksrc_tree() {
	[ -f "$KSRC/Makefile" ] || die "KSRC=$KSRC is not a kernel tree (no Makefile): point KSRC at an unpacked linux-X.Y tree"
}
# need_kconfig ARCH: KCONFIG is a readable kernel configuration for ARCH
# (kconfig-prep.sh's checks, one line if not).
need_kconfig() {
	aval "$1" KCONFIG_SYMBOL
	[ -n "$REPLY" ] || die "arches/$1/arch.mk has no KCONFIG_SYMBOL: no configuration of your own on $1"
	"$here/kconfig-prep.sh" "$KCONFIG" "$REPLY" >/dev/null || exit 1
}
KV="" KFIX="-" KHAS=""
ksrc_version() {
	[ -n "$KV" ] || KV=$(make -s -C "$KSRC" kernelversion 2>/dev/null) \
		|| die "KSRC=$KSRC is not a kernel tree (make kernelversion failed)"
	[ "$KFIX" != - ] || { fix_state "$KSRC"; KFIX=${REPLY%% *} KHAS=${REPLY#"$KFIX"}; KHAS=${KHAS# }; }
	REPLY=$KV
}
# What a tree's own code says about the fix, whatever its version or vendor:
# "2012" when its timekeeping tells the hrtimers about a leap
# (clock_was_set_delayed() or TK_CLOCK_WAS_SET), then the 2015 commits it
# also carries: 833f32d76302 when the hrtimer offsets see the leap edge
# (next_leap_ktime, or ntp_get_next_leap() of the old pre-3.4 series),
# 96efdcf2d080 when adjtimex() does (its read path compares the time with
# ntp_next_leap_sec).  "fixed" with all three; "" without the 2012 fix.
fix_state() {
	local f=$1/kernel/time/timekeeping.c n=$1/kernel/time/ntp.c has=""
	REPLY=""
	[ -f "$f" ] && grep -qE 'clock_was_set_delayed|TK_CLOCK_WAS_SET' "$f" || return 0
	! grep -qE 'next_leap_ktime|ntp_get_next_leap' "$f" || has=833f32d76302
	[ ! -f "$n" ] || ! grep -qE 'tv_sec >= (ntpdata->)?ntp_next_leap_sec' "$n" || has="${has:+$has }96efdcf2d080"
	REPLY="2012${has:+ $has}"
	[ "$has" != "833f32d76302 96efdcf2d080" ] || REPLY=fixed
}
# variant_stack BRANCH VARIANT: REPLY = the variant's patch directories
# (PATCHES_<variant>); a tree you bring whose code carries stable's own form
# of the 2012 fix takes them without the branch's FIX_2012 directories.
variant_stack() {
	local x y
	bval "$1" "PATCHES_$2"; x=$REPLY
	if [ -n "${KSRC:-}" ]; then
		ksrc_version
		if [ "$KFIX" = 2012 ]; then
			bval "$1" FIX_2012
			x=" $x "
			for y in $REPLY; do x=${x/ $y / }; done
			read -ra y <<<"$x"; x="${y[*]}"
		fi
	fi
	REPLY=$x
}
# edge_missing BRANCH: REPLY = the leap-test checks that the 2015 commits
# the tree lacks explain (the branch's EDGE_FIXES), "" if none.
edge_missing() {
	local e out=""
	bval "$1" EDGE_FIXES
	for e in $REPLY; do
		case " $KHAS " in *" ${e%%:*} "*) ;; *) out="${out:+$out }${e#*:}" ;; esac
	done
	REPLY=$out
}
# ksrc_branch BRANCH: KSRC must be a tree of BRANCH's range (one line if
# not); REPLY = the variants it runs by default: on a tree that already
# carries the fix, the branch's VARIANTS but fixed (stock expected PASS, and
# a regress that re-creates the bug), else stock and fixed.
ksrc_branch() {
	local b=$1 lo hi fix
	ksrc_version
	fix=$KFIX
	bval "$b" VERSION_MIN; lo=$REPLY
	bval "$b" VERSION_MAX; hi=$REPLY
	if [ -n "$lo" ] && [ -n "$hi" ] && ! { ver_le "$lo" "$KV" && ver_le "$KV" "$hi"; }; then
		die "KSRC=$KSRC is Linux $KV${fix:+ (its code already carries the ${fix/fixed/leap-second} fix)}, not a tree of branch $b ($lo-$hi); the tree is left as it is: make qemu KSRC=$KSRC picks its branch"
	fi
	REPLY="stock fixed"
	[ "$fix" != fixed ] || { bval "$b" VARIANTS; REPLY=$(printf '%s\n' $REPLY | awk '$0 != "fixed"' | words); }
}
ksrc_note() { # BRANCH: one line on what the tree's code says (stderr)
	case "$KFIX" in
	fixed) echo "plan: KSRC=$KSRC (Linux $KV) already carries the leap-second fix in its code (the leap notifies the hrtimers; the leap edge is handled): branch $1 runs stock (expected PASS) and any regress variant" >&2 ;;
	2012) echo "plan: KSRC=$KSRC (Linux $KV) carries the 2012 fix but not the 2015 leap-edge fix${KHAS:+ in full (of 833f32d76302 and 96efdcf2d080 only $KHAS)}: stock and fixed; the fix's 2012 part and patches already in the tree are skipped" >&2 ;;
	esac
}

# boot_list BOOT: REPLY = the boot modes asked for, checked: "" is the
# plain boot (default) alone; all is it and every mode.
boot_list() {
	local x
	case "${1:-}" in
	'') REPLY=default; return 0 ;;
	all) REPLY="default${MODES[*]+ ${MODES[*]}}"; return 0 ;;
	esac
	for x in $1; do
		[ "$x" = default ] || [ -f "$root/boots/$x.mk" ] \
			|| die "unknown BOOT '$x': use one of: default $(boots | words), or all"
	done
	REPLY=$1
}
# kc_source CONFIG: REPLY = its SOURCE (tiny, debian, kconfig).
kc_source() { val "kconfigs/$1.mk" SOURCE; [ -n "$REPLY" ] || REPLY=tiny; }
# The configurations CONFIG= may name: every one but the KCONFIG file's.
packaged_kconfigs() {
	local c
	for c in ${KCONFIGS[@]+"${KCONFIGS[@]}"}; do kc_source "$c"; [ "$REPLY" = kconfig ] || echo "$c"; done
}
# cfg_suffix CONFIG: REPLY = what a cell's name says of it ("" for tiny).
cfg_suffix() { REPLY=; [ -z "$1" ] || [ "$1" = tiny ] || REPLY=@$1; }
# config_list CONFIG: REPLY = the configurations asked for, checked: "" is
# tiny (with KCONFIG: the file's, kconfig); all is every packaged one.
config_list() {
	local x
	if [ -n "${KCONFIG:-}" ]; then
		"$here/kconfig-prep.sh" "$KCONFIG" - >/dev/null || exit 1
		case "${1:-}" in '' | kconfig) REPLY=kconfig; return 0 ;; esac
		die "KCONFIG=$KCONFIG is a configuration of its own (its cells are @kconfig): leave out CONFIG=$1"
	fi
	case "${1:-}" in '') REPLY=tiny; return 0 ;; esac
	if [ "$1" = all ]; then
		REPLY=$(packaged_kconfigs | words)
		return 0
	fi
	for x in $1; do
		[ -f "$root/kconfigs/$x.mk" ] || die "unknown CONFIG '$x': use one of: $(packaged_kconfigs | words), or all (your own file: KCONFIG=/path/to/.config)"
		kc_source "$x"
		[ "$REPLY" != kconfig ] || die "CONFIG=$x is the file KCONFIG names: give KCONFIG=/path/to/.config"
	done
	REPLY=$1
}
# config_fits CONFIG BRANCH [ARCH]: the branch's tree builds that
# configuration (its KCONFIGS; Debian's only on Debian's trees; a file you
# bring, on any branch, for the arch it was made for); else 1, with REPLY
# saying why.
config_fits() {
	local c=$1 b=$2 a=${3:-} have
	kc_source "$c"
	if [ "$REPLY" = kconfig ]; then
		[ -n "$a" ] || return 0
		aval "$a" KCONFIG_SYMBOL
		[ -n "$REPLY" ] && grep -qx "$REPLY=y" "$KCONFIG" && return 0
		REPLY="KCONFIG=$KCONFIG is no configuration for $a${REPLY:+ (no $REPLY=y)}: no $a cells"
		return 1
	fi
	if [ "$REPLY" = debian ] && [ -n "${KSRC:-}" ]; then
		REPLY="a tree you bring has no Debian configuration of its version: give it yours with KCONFIG=, not CONFIG=$c"
		return 1
	fi
	bget "$b" KCONFIGS || REPLY=tiny
	have=$REPLY
	# shellcheck disable=SC2086
	! one_of "$c" $have || return 0
	val "kconfigs/$c.mk" WITHOUT
	REPLY="branch $b has no @$c cells${REPLY:+ (${REPLY})}: it builds $have"
	return 1
}
# frag_files CONFIG BRANCH ARCH: REPLY = the config fragments of a cell
# (tiny: the branch's CONFIGS and the arch's; otherwise the configuration's
# FRAGMENTS), one per line.
frag_files() {
	local c=$1 b=$2 a=$3 f x
	kc_source "$c"
	if [ "$REPLY" = tiny ]; then
		bval "$b" CONFIGS
		x=$(configs "$a" $REPLY) || exit 1
	else
		val "kconfigs/$c.mk" FRAGMENTS
		x=$(configs -n "$a" $REPLY) || exit 1
	fi
	REPLY=$x
}
# needs_met MODE FILE...: the files, merged in order, set each line the
# mode NEEDS (the last file to name an option decides); else 1, with REPLY
# naming the first one missing.
needs_met() {
	local m=$1 need last
	shift
	val "boots/$m.mk" NEEDS
	for need in $REPLY; do
		last=$(grep -hE "^(# )?${need%%=*}[= ]" "$@" | tail -n 1)
		[ "$last" = "$need" ] || { REPLY=$need; return 1; }
	done
}
# boot_fits MODE BRANCH ARCH CONFIG: the cell's configuration takes the
# mode (Debian's file is checked when the cell is resolved, once fetched);
# else 1, with REPLY saying why.
boot_fits() {
	local m=$1 b=$2 a=$3 c=${4:-tiny} files=()
	[ "$m" != default ] || return 0
	kc_source "$c"
	case "$REPLY" in
	debian) return 0 ;;
	kconfig) files=("$KCONFIG") ;;
	esac
	frag_files "$c" "$b" "$a"
	[ -z "$REPLY" ] || mapfile -t -O "${#files[@]}" files <<<"$REPLY"
	needs_met "$m" "${files[@]}" && return 0
	REPLY="boot mode $m needs $REPLY, which the $c configuration of $b on $a does not set"
	return 1
}

# cells [BRANCH [ARCHES [VARIANTS [BOOTS [CONFIGS]]]]]: filters may be
# space-separated lists.  With KSRC and no VARIANT, a branch runs stock and
# fixed (a tree you bring: as it is, and with the fix), or stock alone when
# the tree already carries the fix.  A configuration a branch's tree cannot
# build, or a boot mode the configuration cannot take, has no cell (one line
# says so); naming one that no selected cell can take is refused.
cells() {
	local want_b=${1:-} want_a=${2:-} want_v=${3:-} b a v x m c cs modes cfgs notes="" have_a=""
	local -A took=() why=()
	# shellcheck disable=SC2046
	for x in $want_b; do one_of "$x" $(branches) \
		|| die "unknown BRANCH '$x': use one of: $(branches | words)"; done
	# shellcheck disable=SC2046
	for x in $want_a; do one_of "$x" $(arches) \
		|| die "unknown ARCH '$x': use one of: $(arches | words)"; done
	# shellcheck disable=SC2046
	for x in $want_v; do one_of "$x" $(variants) \
		|| die "unknown VARIANT '$x': use one of: $(variants | words)"; done
	boot_list "${4:-}"; modes=$REPLY
	config_list "${5:-}"; cfgs=$REPLY
	local vs
	for b in $(branches); do
		# shellcheck disable=SC2086
		[ -z "$want_b" ] || one_of "$b" $want_b || continue
		vs=$want_v
		if [ -n "${KSRC:-}" ]; then
			need_ksrc_tree
			ksrc_branch "$b"
			[ -n "$vs" ] || vs=$REPLY
			ksrc_note "$b"
		fi
		# A branch without a package runs on a tree the user brings: in the
		# matrix only when asked for, and then with KSRC.
		bval "$b" PACKAGE
		if [ -z "$REPLY" ] && [ -z "${KSRC:-}" ]; then
			[ -z "$want_b" ] || die "branch $b runs on a tree you bring: make qemu-$b KSRC=/path/to/linux-$b.x"
			continue
		fi
		branch_arches "$b"
		have_a="$have_a $b: $REPLY;"
		for a in $REPLY; do
			# shellcheck disable=SC2086
			[ -z "$want_a" ] || one_of "$a" $want_a || continue
			took[%$a]=1
			for c in $cfgs; do
				if ! config_fits "$c" "$b" "$a"; then
					[ -n "${why[@$c:$REPLY]-}" ] || notes="${notes}plan: $REPLY"$'\n'
					why[@$c]=$REPLY why[@$c:$REPLY]=1
					continue
				fi
				took[@$c]=1
				cfg_suffix "$c"; cs=$REPLY
				for m in $modes; do
					if ! boot_fits "$m" "$b" "$a" "$c"; then
						notes="${notes}plan: $REPLY: no +$m cells"$'\n'
						why[$m]=$REPLY
						continue
					fi
					took[$m]=1
					[ "$m" = default ] && m="" || m=+$m
					bval "$b" VARIANTS
					for v in $REPLY; do
						# shellcheck disable=SC2086
						[ -z "$vs" ] || one_of "$v" $vs || continue
						echo "$b-$a-$v$cs$m"
					done
				done
			done
		done
	done
	# An ARCH named that no selected branch builds (its ARCHES).
	for x in $want_a; do
		[ -n "${took[%$x]-}" ] || die "no selected branch takes ARCH=$x (the arches each builds:${have_a%;})"
	done
	# A CONFIG or BOOT named, and refused by every cell selected (not one
	# that the other filters left without cells).
	case "${5:-}${KCONFIG:+kconfig}" in '' | all) ;; *)
		for c in $cfgs; do [ -n "${took[@$c]-}" ] || [ -z "${why[@$c]-}" ] || die "${why[@$c]}: no cell takes CONFIG=$c"; done ;;
	esac
	case "${4:-}" in '' | all) ;; *)
		for m in $modes; do [ -n "${took[$m]-}" ] || [ -z "${why[$m]-}" ] || die "${why[$m]}: no cell takes BOOT=$m"; done ;;
	esac
	printf '%s' "$notes" >&2
}

mutant_cells() {
	local b=$1 want_a=${2:-} c=${3:-} a m cs=""
	case "$c" in *' '* | all) die "the mutants take one configuration at a time, not CONFIG=$c" ;; esac
	config_list "$c"; cfg_suffix "$REPLY"; cs=$REPLY
	cells "$b" "$want_a" stock "" "$c" >/dev/null
	[ -d "$root/mutants/$b" ] || die "no mutants/$b/ directory: mutants exist for: $(cd "$root/mutants" && printf '%s ' */)"
	branch_arches "$b"
	for a in $REPLY; do
		# shellcheck disable=SC2086
		[ -z "$want_a" ] || one_of "$a" $want_a || continue
		echo "$b-$a-stock$cs"
		for m in "$root/mutants/$b"/*/mutant.mk; do
			[ -f "$m" ] && echo "$b-$a-$(basename "$(dirname "$m")")$cs"
		done
	done
}

# parse CELL: sets B, A, X (the variant or mutant), MUT (1 for a mutant), C
# (the configuration: tiny, or the @CONFIG after the variant) and M (the
# boot mode: default, or the +MODE at the name's end).
parse() {
	local cell=$1 b a rest
	B="" A="" X="" MUT="" M=default C=tiny
	case "$cell" in
	*+*)	M=${cell##*+} cell=${cell%+*}
		[ -f "$root/boots/$M.mk" ] || die "unknown CELL '$1': no boot mode '$M' (use one of: $(boots | words))" ;;
	esac
	case "$cell" in
	*@*)	C=${cell##*@} cell=${cell%@*}
		{ [ -f "$root/kconfigs/$C.mk" ] && [ "$C" != tiny ]; } || die "unknown CELL '$1': no configuration '$C' (use one of: $(kconfigs | grep -vx tiny | words))"
		kc_source "$C"
		if [ "$REPLY" = kconfig ]; then
			[ -n "${KCONFIG:-}" ] || die "CELL '$1' is built from your own configuration: give KCONFIG=/path/to/.config"
		elif [ -n "${KCONFIG:-}" ]; then
			die "KCONFIG=$KCONFIG builds @kconfig cells, not CELL '$1'"
		fi ;;
	*)	[ -z "${KCONFIG:-}" ] || die "KCONFIG=$KCONFIG builds @kconfig cells, not CELL '$1' (e.g. $cell@kconfig)" ;;
	esac
	for b in ${BRANCHES[@]+"${BRANCHES[@]}"}; do
		case "$cell" in "$b"-*) ;; *) continue ;; esac
		bval "$b" PACKAGE
		[ -n "$REPLY" ] || [ -n "${KSRC:-}" ] || [ -n "${ALL_TREES:-}" ] || die "branch $b runs on a tree you bring: make cell CELL=$1 KSRC=/path/to/linux-$b.x"
		[ -z "${KSRC:-}" ] || need_ksrc_tree
		for a in ${ARCHES[@]+"${ARCHES[@]}"}; do
			case "$cell" in "$b-$a"-*) ;; *) continue ;; esac
			rest=${cell#"$b-$a"-}
			branch_arches "$b"
			case " $REPLY " in *" $a "*) ;; *) die "unknown CELL '$1': branch $b has no $a cells; see 'make list-cells'" ;; esac
			bval "$b" VARIANTS
			if one_of "$rest" $REPLY; then
				B=$b A=$a X=$rest
			elif [ -f "$root/mutants/$b/$rest/mutant.mk" ]; then
				B=$b A=$a X=$rest MUT=1
			else
				die "unknown CELL '$1': branch $b has no variant or mutant '$rest'; see 'make list-cells'"
			fi
			config_fits "$C" "$b" || die "$REPLY: no cell $1"
			[ "$C" != kconfig ] || need_kconfig "$a"
			boot_fits "$M" "$b" "$a" "$C" || die "$REPLY: no cell $1"
			return 0
		done
		die "unknown CELL '$1': no arch after '$b-'; see 'make list-cells'"
	done
	case "$cell" in *-*-*) die "unknown CELL '$1' (no such branch); see 'make list-cells'" ;; esac
	die "CELL '$1' is not <branch>-<arch>-<variant>: see 'make list-cells'"
}

# series DIR...: the patches each DIR/series lists, as absolute paths, in
# order (DIR absolute, or relative to branches/; entries relative to DIR).
series() {
	local d p files=()
	for d in "$@"; do
		case "$d" in /*) ;; *) d=$root/branches/$d ;; esac
		[ -f "$d/series" ] || die "no $d/series: a branch.mk or mutant names a patch directory without one"
		while IFS= read -r p; do
			case "$p" in '' | '#'*) continue ;; esac
			[ -f "$d/$p" ] || die "$d/series lists $p, which does not exist"
			files+=("$d/$p")
		done <"$d/series"
	done
	[ ${#files[@]} -eq 0 ] || realpath "${files[@]}"
}

# configs [-n] ARCH [FRAGMENT...]: configs/<F>.config for each fragment
# (default common), the arch's own arches/<ARCH>/arch.config (not with -n:
# a configuration that is not tiny takes only the fragments' parts), then
# the arch's part of each fragment, arches/<ARCH>/<F>.config where there is one.
configs() {
	local own=1 arch c
	[ "$1" != -n ] || { own=""; shift; }
	arch=$1
	shift
	[ -f "$root/arches/$arch/arch.mk" ] || die "unknown ARCH '$arch': use one of: $(arches | words)"
	[ $# -gt 0 ] || set -- common
	for c in "$@"; do
		[ -f "$root/configs/$c.config" ] || die "no configs/$c.config: a branch.mk's CONFIGS or a configuration's FRAGMENTS names a missing fragment"
		echo "$root/configs/$c.config"
	done
	if [ -n "$own" ]; then
		[ -f "$root/arches/$arch/arch.config" ] || die "no arches/$arch/arch.config: an arch stanza has its kernel config fragment"
		echo "$root/arches/$arch/arch.config"
	fi
	for c in "$@"; do
		[ ! -f "$root/arches/$arch/$c.config" ] || echo "$root/arches/$arch/$c.config"
	done
}

ver_le() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$1" ]; }
branch_for() {
	local ver=$1 b lo hi ranges=""
	for b in $(branches); do
		bval "$b" VERSION_MIN; lo=$REPLY
		bval "$b" VERSION_MAX; hi=$REPLY
		{ [ -n "$lo" ] && [ -n "$hi" ]; } || continue
		ranges="$ranges $lo-$hi"
		if ver_le "$lo" "$ver" && ver_le "$ver" "$hi"; then echo "$b"; return 0; fi
	done
	die "no branch supports kernel $ver: supported ranges are$ranges"
}

# The guest flavour of a branch on an arch: LIBC (empty: glibc), its compiler
# and its packages.
flavour() { # BRANCH ARCH -> FL_NAME FL_CC FL_PKGS
	local b=$1 a=$2 f=arches/$2/arch.mk libc
	bval "$b" GUEST_LIBC; libc=$REPLY
	if [ -n "$libc" ]; then
		has "$f" "GUEST_CC_$libc" || die "branch $b wants a $libc guest, and arches/$a/arch.mk has no GUEST_CC_$libc"
		FL_NAME=$a-$libc; val "$f" "GUEST_CC_$libc"; FL_CC=$REPLY
		val "$f" "PACKAGES_$libc"; FL_PKGS=$REPLY
	else
		FL_NAME=$a; val "$f" GUEST_CC; FL_CC=$REPLY; FL_PKGS=
	fi
}

tools() {
	local cell b a
	check_inputs
	if [ "${1:-}" = --all ]; then
		# Every branch on each of its arches, trees you bring included.
		set --
		for b in "${BRANCHES[@]}"; do
			branch_arches "$b"
			for a in $REPLY; do bval "$b" VARIANTS; set -- "$@" "$b-$a-${REPLY%% *}"; done
		done
		ALL_TREES=1
	fi
	for cell in "$@"; do
		parse "$cell"
		need_arch_keys "$A"
		aval "$A" PACKAGES
		printf '%s\n' $REPLY
		flavour "$B" "$A"
		[ -z "$FL_PKGS" ] || printf '%s\n' $FL_PKGS
		[ "${CCACHE:-0}" = 0 ] || echo ccache:ccache
	done | awk '!seen[$0]++'
}

# --- resolve: the plan of each cell -------------------------------------------
js() { # REPLY = $1 as a JSON string
	local s=$1
	s=${s//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\t'/\\t}; s=${s//$'\n'/\\n}; s=${s//$'\r'/\\r}
	REPLY="\"$s\""
}
ja() { # REPLY = the arguments as a JSON array of strings
	local out="" x
	for x in "$@"; do js "$x"; out="$out${out:+, }$REPLY"; done
	REPLY="[$out]"
}
# rel PATH: relative to the repository when inside it.
rel() { case "$1" in "$root"/*) REPLY=${1#"$root"/} ;; *) REPLY=$1 ;; esac; }

# debian_want PACKAGE: REPLY = the version of PACKAGE that DEBIAN_VERSION
# asks for ("" if none: the newest).  Each of its versions goes to the branch
# whose range holds it.
debian_want() {
	local v vs
	read -ra vs <<<"${DEBIAN_VERSION:-}"
	for v in ${vs[@]+"${vs[@]}"}; do
		debian_branch "$v"
		bval "$REPLY" PACKAGE
		[ "$REPLY" != "$1" ] || { REPLY=$v; return 0; }
	done
	REPLY=""
}
# debian_branch VERSION: REPLY = the packaged branch a DEBIAN_VERSION value
# goes to, or one line saying why none.
debian_branch() {
	local b
	case "$1" in [0-9]*.*-*) ;; *) die "DEBIAN_VERSION=$1: give Debian's version of a linux-source package, e.g. 5.10.223-1" ;; esac
	b=$(branch_for "${1%%-*}" 2>/dev/null) || die "DEBIAN_VERSION=$1: no branch's range holds it (give Debian's version of a packaged tree, e.g. 5.10.223-1)"
	bval "$b" PACKAGE
	[ -n "$REPLY" ] || die "DEBIAN_VERSION=$1: branch $b has no Debian package (a tree you bring is KSRC=)"
	REPLY=$b
}
declare -A TREE_VERSION=()
tree_version() { # PACKAGE SUITES -> REPLY (DEBIAN_VERSION's, else the extracted tree's, else the archive's)
	local pkg=$1 suites=$2 want
	if [ -z "${TREE_VERSION[$pkg]+set}" ]; then
		debian_want "$pkg"; want=$REPLY
		if [ -z "$want" ] && [ -f "$build/trees/$pkg.version" ] && [ -f "$build/trees/$pkg/Makefile" ]; then
			TREE_VERSION[$pkg]=$(cat "$build/trees/$pkg.version")
		else
			# A wanted version is checked there: the suites carry it, and an
			# extracted tree is that version.
			TREE_VERSION[$pkg]=$("$here/fetch-tree.sh" -V "$pkg" "$suites" "$build" ${want:+"$want"}) || exit 1
		fi
	fi
	REPLY=${TREE_VERSION[$pkg]}
}

# The run's numeric inputs, checked once (tools and resolve call it: the
# runner's first planner call says a bad value in one line, before anything).
check_inputs() {
	case "${LIMIT:-60}" in [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9]) ;; *) die "LIMIT=$LIMIT: give whole seconds" ;; esac
	case "${SILENCE:-20}" in [0-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) die "SILENCE=$SILENCE: give whole seconds (0 turns the silence kill off)" ;; esac
	case "${JOBS:-1}" in [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) die "JOBS=$JOBS: give a number of build jobs, 1 or more" ;; esac
	case "${CCACHE:-0}" in 0 | 1) ;; *) die "CCACHE=$CCACHE: give 1 (compile through ccache, cached in BUILD_DIR/ccache) or 0" ;; esac
	[ -z "${DEBIAN_VERSION:-}" ] || [ -z "${KSRC:-}" ] \
		|| die "DEBIAN_VERSION=$DEBIAN_VERSION picks a Debian upload, KSRC=$KSRC is a tree you bring: give one of them"
	# Each version names a packaged branch, one version per branch.
	local v vs seen=" "
	read -ra vs <<<"${DEBIAN_VERSION:-}"
	for v in ${vs[@]+"${vs[@]}"}; do
		debian_branch "$v"
		[ "${seen/ $REPLY /}" = "$seen" ] || die "DEBIAN_VERSION=$DEBIAN_VERSION: two versions for branch $REPLY, give one"
		seen="$seen$REPLY "
	done
}

# kconfig_base BRANCH ARCH CONFIG VERSION: for a configuration that is not
# tiny, its source file (Debian's, fetched at the tree's version; or the
# KCONFIG file, copied) and the base the build starts from (that file
# through kconfig-prep.sh), both under BUILD/kconfigs: KB_ORIGIN, KB_BASE,
# KB_SHA (the source's sha256) and KB_DESC (where it came from).
kconfig_base() {
	local b=$1 a=$2 c=$3 ver=$4 sym raw pkg file debarch
	KB_BASE="" KB_ORIGIN="" KB_SHA="" KB_DESC=""
	kc_source "$c"
	case "$REPLY" in
	tiny) return 0 ;;
	debian)
		bval "$b" PACKAGE
		[ -n "$REPLY" ] || die "branch $b has no Debian package: CONFIG=$c needs one (a tree you bring takes KCONFIG=)"
		pkg=${REPLY/linux-source-/linux-config-}
		aval "$a" DEBIAN_ARCH; debarch=$REPLY
		[ -n "$debarch" ] || die "arches/$a/arch.mk has no DEBIAN_ARCH: no Debian configuration for $a"
		val "kconfigs/$c.mk" FILE; file=${REPLY//\$(DEBIAN_ARCH)/$debarch}
		aval "$a" DEBIAN_FLAVOUR; file=${file//\$(DEBIAN_FLAVOUR)/$REPLY}
		bval "$b" SUITES
		raw=$("$here/fetch-config.sh" "$pkg" "$REPLY" "$build" "$ver" "$debarch" "$file") || exit 1
		KB_DESC="$pkg $ver ($debarch) $file" ;;
	kconfig)
		KB_SHA=$(sha256sum <"$KCONFIG" | cut -d' ' -f1)
		mkdir -p "$build/kconfigs/yours"
		raw=$build/kconfigs/yours/$KB_SHA.config
		[ -f "$raw" ] || { cp "$KCONFIG" "$raw.tmp" && mv "$raw.tmp" "$raw"; }
		KB_DESC=$(realpath "$KCONFIG") ;;
	esac
	aval "$a" KCONFIG_SYMBOL; sym=$REPLY
	[ -n "$sym" ] || die "arches/$a/arch.mk has no KCONFIG_SYMBOL: no configuration $c on $a"
	[ -n "$KB_SHA" ] || KB_SHA=$(sha256sum <"$raw" | cut -d' ' -f1)
	KB_ORIGIN=$raw
	# Named by the source and the treatment: a changed kconfig-prep.sh makes a new base.
	KB_BASE=$build/kconfigs/base/$KB_SHA-$(sha256sum <"$here/kconfig-prep.sh" | cut -c1-8)-$a.config
	mkdir -p "$build/kconfigs/base"
	if [ ! -f "$KB_BASE" ]; then
		"$here/kconfig-prep.sh" "$raw" "$sym" >"$KB_BASE.tmp" || { rm -f "$KB_BASE.tmp"; exit 1; }
		mv "$KB_BASE.tmp" "$KB_BASE"
	fi
}

need_arch_keys() {
	local f=arches/$1/arch.mk k
	for k in KARCH CROSS IMAGE QEMU QEMU_ARGS CONSOLE CMDLINE GUEST_CC PACKAGES; do
		has "$f" "$k" || die "arches/$1/arch.mk has no $k: an arch stanza names every field (see scripts/plan.sh)"
	done
}

resolve() {
	local dir=$1 cell out pkg suites version tree tree_id src cross cc hostcc key imgdir image expect killers splat
	local kargs stack patches frags skip cmdline console qargs repro x imgfile bootline shows tk_opts osfx within
	shift
	mkdir -p "$dir/cells"
	dir=$(realpath "$dir")
	build=$(realpath -m "${BUILD_DIR:-$root/build}")
	check_inputs
	local jobs=${JOBS:-$(nproc)}
	for cell in "$@"; do
		parse "$cell"
		need_arch_keys "$A"
		local af=arches/$A/arch.mk
		out=$dir/cells/$cell
		mkdir -p "$out"

		# The tree.
		bval "$B" PACKAGE; pkg=$REPLY
		bval "$B" SUITES; suites=$REPLY
		# (parse checked that KSRC has a Makefile, or that the branch has a package.)
		if [ -n "${KSRC:-}" ]; then
			tree=$(realpath "$KSRC")
			ksrc_branch "$B"
			version=$KV src=ksrc
			tree_id=ksrc-$(printf '%s' "$tree" | sha256sum | cut -c1-8)
		else
			tree_version "$pkg" "$suites"; version=$REPLY
			tree=$build/trees/$pkg src=debian tree_id=$pkg
		fi

		# Patches: the branch's build aids, then the variant's or mutant's stack.
		bval "$B" COMPAT; stack=$REPLY
		if [ -n "$MUT" ]; then
			stack="$stack $root/mutants/$B/$X"
			val "mutants/$B/$X/mutant.mk" KILLED_BY; expect=$REPLY
			val "mutants/$B/$X/mutant.mk" KILLER_TESTS; killers=$REPLY
			splat=""
			if has "mutants/$B/$X/mutant.mk" KILLER_SPLAT; then
				val "mutants/$B/$X/mutant.mk" KILLER_SPLAT; splat=$REPLY
			fi
		else
			variant_stack "$B" "$X"; stack="$stack $REPLY"
			bval "$B" "EXPECT_$X"; expect=$REPLY
			killers="" splat="" within=""
			# A tree that carries stable's own form of the 2012 fix: stock
			# may fail only the checks the 2015 commits it lacks explain.
			[ -z "${KSRC:-}" ] || [ "$KFIX" != 2012 ] || [ "$X" != stock ] || { edge_missing "$B"; within=$REPLY; }
			# A tree you bring that already carries the fix must pass as it is.
			[ -z "${KSRC:-}" ] || [ "$X" != stock ] || [ "$KFIX" != fixed ] || expect=PASS
		fi
		[ -n "$expect" ] || die "cell $cell has no expected verdict (EXPECT_$X or KILLED_BY)"
		# shellcheck disable=SC2086 # lists of directories and fragments
		x=$(series $stack) || exit 1
		patches=()
		[ -z "$x" ] || mapfile -t patches <<<"$x"
		frag_files "$C" "$B" "$A"
		mapfile -t frags <<<"$REPLY"
		kconfig_base "$B" "$A" "$C" "$version"
		if [ "$M" != default ] && [ -n "$KB_BASE" ] && ! needs_met "$M" "$KB_BASE" "${frags[@]}"; then
			die "boot mode $M needs $REPLY, which $KB_DESC does not set: no cell $cell"
		fi
		val "$af" CLOCK_OPTIONS; tk_opts="$TK_OPTIONS${REPLY:+ $REPLY}"
		# A base of its own, an object directory of its own: named by the
		# base's source file, not the configuration, so that your KCONFIG
		# holding Debian's file builds (and caches) as CONFIG=debian does.
		osfx=${KB_SHA:+@${KB_SHA:0:8}}

		# Compilers: the user's, else the branch's; the arch's cross prefix.
		val "$af" CROSS; cross=${CROSS_COMPILE:-$REPLY}
		bval "$B" KERNEL_CC; cc=${KERNEL_CC:-$REPLY}
		bval "$B" KERNEL_HOSTCC; hostcc=${KERNEL_HOSTCC:-$REPLY}

		# The image key: everything that goes into the image.
		key=$( { echo "v$IMAGE_KEY_VERSION $tree_id $version $A $cross $cc $hostcc"
			grep -hE -e '^[[:space:]]*[^#[:space:]]' -e '^# CONFIG_[A-Za-z0-9_]+ is not set$' "${frags[@]}" || true
			[ -z "$KB_BASE" ] || cat "$KB_BASE"
			cat ${patches[@]+"${patches[@]}"} /dev/null; } | sha256sum | cut -c1-12)
		imgdir=$build/images/$B-$A-$X-$key
		val "$af" IMAGE; image=$REPLY imgfile=$imgdir/${REPLY##*/}
		flavour "$B" "$A"

		# The guest's command line and QEMU's.
		bval "$B" SKIP_CHECKS; skip=$REPLY
		bval "$B" KERNEL_ARGS; kargs=$REPLY
		val "$af" CONSOLE; console=$REPLY
		val "$af" CMDLINE; x=$REPLY
		bootline="" shows=""
		if [ "$M" != default ]; then
			val "boots/$M.mk" CMDLINE; bootline=$REPLY
			val "boots/$M.mk" SHOWS; shows=$REPLY
		fi
		cmdline="console=$console $CMDLINE_HEAD${x:+ $x}${kargs:+ $kargs}${bootline:+ $bootline}${LEAP_CMDLINE:+ $LEAP_CMDLINE}${skip:+ leaptest.skip=${skip// /,}}"
		val "$af" QEMU_ARGS; qargs=$REPLY
		val "$af" QEMU
		local argv=("$REPLY")
		# shellcheck disable=SC2206 # QEMU_ARGS is a list of words
		argv+=("${QEMU_COMMON[@]}" $qargs -serial "file:$out/console.log" -kernel "$imgfile"
			-initrd "$build/guest/$FL_NAME/initramfs.cpio" -append "$cmdline")

		# The reproducer: this cell alone, with the inputs that differ from
		# the defaults.
		printf -v repro 'make cell CELL=%q' "$cell"
		[ -z "${KSRC:-}" ] || printf -v repro '%s KSRC=%q' "$repro" "$tree"
		[ -z "${KERNEL_CC:-}" ] || printf -v repro '%s CC=%q' "$repro" "$KERNEL_CC"
		[ -z "${KERNEL_HOSTCC:-}" ] || printf -v repro '%s HOSTCC=%q' "$repro" "$KERNEL_HOSTCC"
		[ -z "${CROSS_COMPILE:-}" ] || printf -v repro '%s CROSS_COMPILE=%q' "$repro" "$CROSS_COMPILE"
		[ "${LIMIT:-60}" = 60 ] || printf -v repro '%s LIMIT=%q' "$repro" "$LIMIT"
		[ "${SILENCE:-20}" = 20 ] || printf -v repro '%s SILENCE=%q' "$repro" "$SILENCE"
		[ -z "${LEAP_CMDLINE:-}" ] || printf -v repro '%s LEAP_CMDLINE=%q' "$repro" "$LEAP_CMDLINE"
		[ -z "${KCONFIG:-}" ] || printf -v repro '%s KCONFIG=%q' "$repro" "$(realpath "$KCONFIG")"
		debian_want "$pkg"
		[ -z "$REPLY" ] || printf -v repro '%s DEBIAN_VERSION=%q' "$repro" "$REPLY"
		[ "$build" = "$root/build" ] || printf -v repro '%s BUILD_DIR=%q' "$repro" "$build"

		{
			printf '{\n  "plan_version": 1,\n'
			js "$root"; printf '  "root": %s,\n' "$REPLY"
			js "$cell"; printf '  "cell": %s,\n' "$REPLY"
			js "$B"; printf '  "branch": %s, ' "$REPLY"
			js "$A"; printf '"arch": %s, ' "$REPLY"
			js "$X"; printf '"variant": %s, ' "$REPLY"
			printf '"mutant": %s,\n' "$([ -n "$MUT" ] && echo true || echo false)"
			js "$C"; printf '  "kconfig": {"name": %s, ' "$REPLY"
			js "$KB_DESC"; printf '"source": %s, ' "$REPLY"
			js "$KB_ORIGIN"; printf '"origin": %s, ' "$REPLY"
			js "$KB_SHA"; printf '"origin_sha256": %s, ' "$REPLY"
			js "$KB_BASE"; printf '"base": %s,\n' "$REPLY"
			# shellcheck disable=SC2086
			ja $tk_opts; printf '    "options": %s},\n' "$REPLY"
			js "$M"; printf '  "boot": {"mode": %s, ' "$REPLY"
			js "$bootline"; printf '"cmdline": %s, ' "$REPLY"
			js "$shows"; printf '"shows": %s},\n' "$REPLY"
			js "$src"; printf '  "tree": {"source": %s, ' "$REPLY"
			js "$pkg"; printf '"package": %s, ' "$REPLY"
			# shellcheck disable=SC2086
			ja $suites; printf '"suites": %s,\n' "$REPLY"
			js "$version"; printf '    "version": %s, ' "$REPLY"
			js "$tree"; printf '"path": %s, ' "$REPLY"
			# A tree you bring: what its code carried when planned (fix-state).
			js "$([ -z "${KSRC:-}" ] || echo "$KFIX${KHAS:+ $KHAS}")"; printf '"fix_state": %s, ' "$REPLY"
			js "$tree_id"; printf '"id": %s},\n' "$REPLY"
			local rp=() p
			for p in ${patches[@]+"${patches[@]}"}; do rel "$p"; rp+=("$REPLY"); done
			ja ${rp[@]+"${rp[@]}"}; printf '  "patches": %s,\n' "$REPLY"
			rp=()
			for p in "${frags[@]}"; do rel "$p"; rp+=("$REPLY"); done
			ja "${rp[@]}"; printf '  "configs": %s,\n' "$REPLY"
			val "$af" KARCH; js "$REPLY"; printf '  "build": {"karch": %s, ' "$REPLY"
			js "$cross"; printf '"cross_compile": %s, ' "$REPLY"
			js "$cc"; printf '"cc": %s, ' "$REPLY"
			js "$hostcc"; printf '"hostcc": %s, ' "$REPLY"
			js "$([ "${CCACHE:-0}" = 0 ] || echo "$build/ccache")"; printf '"ccache": %s,\n' "$REPLY"
			js "$image"; printf '    "target": %s, ' "$REPLY"
			js "$build/obj/$tree_id-$A$osfx"; printf '"objdir": %s, ' "$REPLY"
			printf '"jobs": %s},\n' "$jobs"
			js "$key"; printf '  "image": {"key": %s, ' "$REPLY"
			js "$imgdir"; printf '"dir": %s, ' "$REPLY"
			js "$imgfile"; printf '"path": %s},\n' "$REPLY"
			js "$FL_NAME"; printf '  "initramfs": {"flavour": %s, ' "$REPLY"
			js "$FL_CC"; printf '"cc": %s, ' "$REPLY"
			js "$build/guest/$FL_NAME/initramfs.cpio"; printf '"path": %s},\n' "$REPLY"
			ja "${argv[@]}"; printf '  "qemu": {"argv": %s,\n' "$REPLY"
			js "$cmdline"; printf '    "cmdline": %s, ' "$REPLY"
			printf '"limit_s": %s, "silence_s": %s},\n' "${LIMIT:-60}" "${SILENCE:-20}"
			# shellcheck disable=SC2086
			{ ja $expect; printf '  "expect": %s, ' "$REPLY"; }
			# shellcheck disable=SC2086
			{ ja $killers; printf '"killer_tests": %s, ' "$REPLY"; }
			js "$splat"; printf '"killer_splat": %s, ' "$REPLY"
			# shellcheck disable=SC2086
			{ ja $within; printf '"fail_within": %s, ' "$REPLY"; }
			# shellcheck disable=SC2086
			{ ja $skip; printf '"skip_checks": %s,\n' "$REPLY"; }
			val "$af" PACKAGES
			# shellcheck disable=SC2086
			ja $REPLY $FL_PKGS; printf '  "packages": %s,\n' "$REPLY"
			js "$out"; printf '  "out": %s,\n' "$REPLY"
			js "$repro"; printf '  "reproducer": %s\n}\n' "$REPLY"
		} >"$out/plan.json.tmp"
		mv "$out/plan.json.tmp" "$out/plan.json"
	done
}

case "${1:-}" in
cells) shift; cells "$@" ;;
cells-json) shift; c=$(cells "$@"); { [ -z "$c" ] || printf '%s\n' "$c"; } | awk 'BEGIN { printf "{\"cell\": [" } { printf "%s\"%s\"", (NR > 1 ? ", " : ""), $0 } END { print "]}" }' ;;
mutant-cells) [ $# -ge 2 ] || die "usage: plan.sh mutant-cells BRANCH [ARCH [CONFIG]]"; shift; mutant_cells "$@" ;;
tools) shift; tools "$@" ;;
resolve) [ $# -ge 3 ] || die "usage: plan.sh resolve DIR CELL..."; shift; resolve "$@" ;;
branches) branches ;;
variants) variants ;;
arches) arches ;;
test-arches) for a in $(arches); do aval "$a" MAKE_TEST; [ -z "$REPLY" ] || echo "$a"; done ;;
boots) boots ;;
kconfigs) kconfigs ;;
series) shift; series "$@" ;;
configs) [ $# -ge 2 ] || die "usage: plan.sh configs ARCH [FRAGMENT...]"; shift; configs "$@" ;;
arch-get) [ $# -eq 3 ] || die "usage: plan.sh arch-get ARCH KEY"
	[ -f "$root/arches/$2/arch.mk" ] || die "unknown ARCH '$2': use one of: $(arches | words)"
	aval "$2" "$3"; echo "$REPLY" ;;
get) [ $# -eq 3 ] || die "usage: plan.sh get BRANCH KEY"
	[ -f "$root/branches/$2/branch.mk" ] || die "unknown branch '$2': use one of: $(branches | words)"
	bval "$2" "$3"; echo "$REPLY" ;;
branch-for) [ $# -eq 2 ] || die "usage: plan.sh branch-for VERSION"; branch_for "$2" ;;
debian-version) [ $# -eq 2 ] || die "usage: plan.sh debian-version BRANCH"
	[ -f "$root/branches/$2/branch.mk" ] || die "unknown branch '$2': use one of: $(branches | words)"
	check_inputs; bval "$2" PACKAGE; debian_want "$REPLY"; echo "$REPLY" ;;
fix-state) [ $# -eq 2 ] || die "usage: plan.sh fix-state TREE"; fix_state "$2"; echo "$REPLY" ;;
stack) [ $# -eq 3 ] || die "usage: plan.sh stack BRANCH VARIANT"; variant_stack "$2" "$3"; echo "$REPLY" ;;
ksrc) { [ $# -eq 2 ] && [ -n "${KSRC:-}" ]; } || die "usage: KSRC=TREE plan.sh ksrc BRANCH"
	[ -f "$root/branches/$2/branch.mk" ] || die "unknown branch '$2': use one of: $(branches | words)"
	need_ksrc_tree
	ksrc_branch "$2"; echo "$REPLY"; ksrc_note "$2" ;;
*) echo "usage: plan.sh cells|cells-json|mutant-cells|tools|resolve|branches|variants|arches|boots|kconfigs|get|series|branch-for|debian-version|fix-state|stack|ksrc|configs ... (see its header)" >&2; exit 2 ;;
esac
