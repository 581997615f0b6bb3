#!/bin/bash
# test-layout.sh - a tree the user brings is given its branch by its version
# and its code (LAYOUT in branch.mk): made-up trees, one per layout of the
# long-term lines, each with the few words that tell its layout; and the bad
# inputs: a known line in no known layout, a branch forced on a tree of
# another layout, a version no branch takes.  Each bad input is one line,
# nothing built, the tree left as it was.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
plan=$ROOT/scripts/plan.sh
m() { env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -s -C "$ROOT" --no-print-directory "$@" 2>&1; }

# tree NAME VERSION TIMEKEEPING-TEXT [NTP-TEXT]: a made-up tree whose
# kernel/time files hold only the given words (the code the planner reads).
tree() {
	local d=$w/$1 v=$2
	version[$1]=$2
	mkdir -p "$d/kernel/time"
	IFS=. read -r a b c <<<"$v"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION =\nkernelversion:\n\t@echo %s\n' \
		"$a" "$b" "${c:-0}" "$v" >"$d/Makefile"
	printf '%s\n' "$3" >"$d/kernel/time/timekeeping.c"
	printf '%s\n' "${4:-}" >"$d/kernel/time/ntp.c"
}
declare -A version
# branch_of NAME: the planner's choice (what ksrc-branch.sh asks it, after
# reading the version from the Makefile: the few checks of that script's
# own lines call it instead).
branch_of() { "$plan" branch-for "${version[$1]}" "$w/$1" 2>&1; }
ksrc_branch() { "$ROOT/scripts/ksrc-branch.sh" "$w/$1" 2>&1; }

# The 2012 fix in stable's form (a work item), and each layout's words.
fix12='clock_was_set_delayed();'
tree l35 3.6.0 "$fix12 static struct timekeeper timekeeper; timekeeping_update(struct timekeeper *tk, bool clearntp) *offs_real = tk->offs_real;"
tree l37 3.8.3 "$fix12 #include <linux/timekeeper_internal.h> timekeeping_update(struct timekeeper *tk, bool clearntp) *offs_real = tk->offs_real;"
tree l310 3.10.108 "$fix12 static struct timekeeper shadow_timekeeper; timekeeping_update(struct timekeeper *tk, bool clearntp, bool mirror) tk->offs_real"
tree l311 3.14.40 "$fix12 timekeeping_update(tk, TK_MIRROR | TK_CLOCK_WAS_SET); static struct timekeeper timekeeper;"
tree l317 3.18.140 "$fix12 static struct { seqcount_t seq; } tk_core; base = tk->tkr.base_mono;"
tree l41 4.1.52 "$fix12 tk_core; base = tk->tkr_mono.base;"
edge='if (unlikely(base.tv64 >= tk->next_leap_ktime.tv64))'
tree l42 4.9.124 "TK_CLOCK_WAS_SET tk_core $edge" 'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
tree l410 5.4.59 "TK_CLOCK_WAS_SET tk_core if (unlikely(base >= tk->next_leap_ktime))" 'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
for t in l35:3.5 l37:3.7 l310:3.10 l311:3.11 l317:3.17 l41:4.1 l42:4.2 l410:4.10; do
	check_eq "layout of ${t%%:*}: branch ${t#*:}" "${t#*:}" "$(branch_of "${t%%:*}")"
done

# Where ranges overlap, the code decides: a 3.8 and a 3.15 tree in either
# layout.
tree a38 3.8.13 "$fix12 timekeeper_internal.h tk->offs_real"
tree b38 3.8.13 "$fix12 shadow_timekeeper; bool clearntp, bool mirror"
check_eq "3.8 without a shadow timekeeper: branch 3.7" 3.7 "$(branch_of a38)"
check_eq "3.8 with a shadow timekeeper: branch 3.10" 3.10 "$(branch_of b38)"
tree b315 3.15.1 "$fix12 timekeeping_update(tk, TK_MIRROR);"
tree c315 3.15.1 "$fix12 tk_core; base = tk->tkr.base_mono;"
check_eq "3.15 with TK_* flags and no tk_core: branch 3.11" 3.11 "$(branch_of b315)"
check_eq "3.15 with tk_core and tk->tkr: branch 3.17" 3.17 "$(branch_of c315)"
tree u410 4.10.1 "TK_CLOCK_WAS_SET $edge" 'ts->tv_sec >= ntp_next_leap_sec'
check_eq "4.10 that still has the union: branch 4.2" 4.2 "$(branch_of u410)"

# Bad input: a known line whose code is in no known layout.
tree odd 3.14.2 "$fix12 /* a vendor's own rewrite */"
sum() { find "$w/$1" -type f -exec sha256sum {} + | sort; }
before=$(sum odd)
out=$(m qemu KSRC="$w/odd" BUILD_DIR="$w/b") && rc=0 || rc=$?
out=$(grep -Ev '^make(\[[0-9]+\])?: \*\*\*' <<<"$out" || true)
check "no known layout: exit != 0" test "$rc" -ne 0
check_eq "no known layout: one line" 1 "$(grep -c . <<<"$out")"
check "no known layout: names the line and what the code lacks" \
	grep -q "is Linux 3.14.2, but its code is in no layout .*not 3.11's: kernel/time/timekeeping.c has no 'TK_MIRROR'" <<<"$out"
check "no known layout: says nothing is built" grep -q "nothing built, the tree is left as it is" <<<"$out"
check "no known layout: nothing built (no build directory)" test ! -e "$w/b"
check_eq "no known layout: the tree is as it was" "$before" "$(sum odd)"

# A 3.5 tree that names the timekeeper as 3.4 does (timekeeper.offs_real,
# no tk->): no branch of 3.5 knows it; refused, said.
tree a35 3.5.7 "$fix12 static struct timekeeper timekeeper; *offs_real = timekeeper.offs_real;"
out=$(branch_of a35) && rc=0 || rc=$?
check "3.5 in 3.4's layout: refused" test "$rc" -ne 0
check "... not 3.5's: no tk->offs_real" grep -q "not 3.5's: kernel/time/timekeeping.c has no 'tk->offs_real'" <<<"$out"
# A 3.7 tree: its timekeeper in timekeeping.c (branch 3.5) or in
# timekeeper_internal.h (branch 3.7).
tree a37 3.7.2 "$fix12 static struct timekeeper timekeeper; tk->offs_real"
tree b37 3.7.2 "$fix12 #include <linux/timekeeper_internal.h> tk->offs_real"
check_eq "3.7 with struct timekeeper in timekeeping.c: branch 3.5" 3.5 "$(branch_of a37)"
check_eq "3.7 with it in timekeeper_internal.h: branch 3.7" 3.7 "$(branch_of b37)"

# A 3.12 tree in 3.17's layout: no branch of 3.12 has it.
tree c312 3.12.5 "$fix12 tk_core; base = tk->tkr.base_mono; TK_MIRROR"
out=$(branch_of c312) && rc=0 || rc=$?
check "3.12 in 3.17's layout: refused" test "$rc" -ne 0
check "... says why, for each branch of that line" grep -q "not 3.11's: kernel/time/timekeeping.c has 'tk_core'" <<<"$out"

# A vendor tree that carries the whole fix in a layout of its own: where
# its branch would not patch it (old lines: stock alone), it runs as it
# is; where the branch's regress would patch it, the layout must hold.
fixed_tk="TK_CLOCK_WAS_SET vendor_timekeeper tk->next_leap_ktime"
fixed_ntp='if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
tree v312 3.12.0 "$fixed_tk" "$fixed_ntp"
check_eq "a 3.12 vendor tree with the whole fix, no known layout: the first branch of its range" 3.10 "$(branch_of v312)"
out=$(KSRC="$w/v312" "$plan" ksrc 3.10 2>&1) && rc=0 || rc=$?
check_eq "... runs stock alone" "0 stock" "$rc $(head -n 1 <<<"$out")"
check "... and says so in one line" grep -q "already carries the leap-second fix in its code.*runs stock (expected PASS) only" <<<"$out"
tree v45 4.5.0 "$fixed_tk" "$fixed_ntp"
out=$(branch_of v45) && rc=0 || rc=$?
check "a 4.5 vendor tree in no known layout: refused (regress would patch it)" test "$rc" -ne 0
check "... naming what 4.2's layout wants" grep -q "not 4.2's: kernel/time/timekeeping.c has no 'next_leap_ktime.tv64'" <<<"$out"

# A vendor's version string (EXTRAVERSION -1160.el7) plans as its line.
tree el7 3.10.0 "$fixed_tk" "$fixed_ntp"
sed -i -e 's/^EXTRAVERSION =$/EXTRAVERSION = -1160.el7/' -e 's/@echo 3.10.0$/@echo 3.10.0-1160.el7/' "$w/el7/Makefile"
check_eq "3.10.0-1160.el7 with the whole fix: branch 3.10 (ksrc-branch.sh reads the Makefile)" 3.10 "$(ksrc_branch el7)"
out=$(KSRC="$w/el7" "$plan" ksrc 3.10 2>&1) && rc=0 || rc=$?
check_eq "... stock alone" "0 stock" "$rc $(head -n 1 <<<"$out")"
check "... its note names the vendor's version" grep -q "(Linux 3.10.0-1160.el7) already carries the leap-second fix" <<<"$out"

# A distribution's release, as its sources say it, is named beside the
# version (Red Hat's RHEL_* lines in the top Makefile; Ubuntu's
# debian.master/changelog); it decides nothing: the same branch and state.
tree rh 3.10.0 "$fixed_tk" "$fixed_ntp"
printf 'RHEL_MAJOR = 7\nRHEL_MINOR = 8\nRHEL_RELEASE = 1127\n' >>"$w/rh/Makefile"
out=$(KSRC="$w/rh" "$plan" ksrc 3.10 2>&1) && rc=0 || rc=$?
check_eq "a RHEL tree: stock alone, as the same code without the lines" "0 stock" "$rc $(head -n 1 <<<"$out")"
check "... its note names RHEL's release" grep -q "(Linux 3.10.0, RHEL 7.8 release 1127) already carries" <<<"$out"
# RHEL 9 keeps the lines in Makefile.rhelver (read in AlmaLinux 9.6's tree).
tree rh9 5.14.0 "TK_CLOCK_WAS_SET tk_core if (unlikely(base >= tk->next_leap_ktime)) clock_was_set(CLOCK_SET_WALL);" \
	'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
printf 'RHEL_MAJOR = 9\nRHEL_MINOR = 6\n# a comment\nRHEL_RELEASE = 570.32.1\n' >"$w/rh9/Makefile.rhelver"
out=$(KSRC="$w/rh9" "$plan" ksrc 6.1 2>&1) && rc=0 || rc=$?
check "a RHEL 9 tree: its Makefile.rhelver names the release" grep -q "(Linux 5.14.0, RHEL 9.6 release 570.32.1) already carries" <<<"$out"
tree gki 5.15.167 "TK_CLOCK_WAS_SET tk_core if (unlikely(base >= tk->next_leap_ktime)) clock_was_set(CLOCK_SET_WALL);" \
	'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
printf 'BRANCH=android13-5.15\nKMI_GENERATION=8\n' >"$w/gki/build.config.constants"
out=$(KSRC="$w/gki" "$plan" ksrc 6.1 2>&1) && rc=0 || rc=$?
check "an Android common kernel: its branch named" grep -q "(Linux 5.15.167, Android common kernel android13-5.15) already carries" <<<"$out"
tree ub 5.4.59 "TK_CLOCK_WAS_SET tk_core if (unlikely(base >= tk->next_leap_ktime))" 'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
mkdir -p "$w/ub/debian.master"
printf 'linux (5.4.0-216.236) focal; urgency=medium\n\n  * a change\n' >"$w/ub/debian.master/changelog"
check_eq "an Ubuntu tree: the branch of its code" 4.10 "$(branch_of ub)"
out=$(KSRC="$w/ub" "$plan" ksrc 4.10 2>&1) && rc=0 || rc=$?
check "... its note names Ubuntu's package" grep -q "(Linux 5.4.59, Ubuntu focal linux 5.4.0-216.236) already carries" <<<"$out"
out=$(KSRC="$w/ub" "$plan" ksrc 4.2 2>&1) && rc=0 || rc=$?
check "... and so does a refusal" grep -q "is Linux 5.4.59, Ubuntu focal linux 5.4.0-216.236 (its code already carries the leap-second fix), not a tree of branch 4.2" <<<"$out"
printf 'not a changelog\n' >"$w/ub/debian.master/changelog"
out=$(KSRC="$w/ub" "$plan" ksrc 4.10 2>&1) && rc=0 || rc=$?
check "a changelog in no known form: the version alone" grep -q "(Linux 5.4.59) already carries" <<<"$out"

# The make variables of the user's command line (make qemu ARCH=armhf hands
# ARCH=armhf down to every make below it) are not the tree's: its version is
# read without them.  This tree's Makefile, like the kernel's, knows no arch
# named armhf.
tree arch 4.19.108 "TK_CLOCK_WAS_SET tk_core if (unlikely(base >= tk->next_leap_ktime))" 'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
# shellcheck disable=SC2016 # make's $(...), not the shell's
sed -i '1i ifeq ($(ARCH),armhf)\n$(error arch/armhf/Makefile: No such file)\nendif' "$w/arch/Makefile"
out=$(ARCH=armhf MAKEFLAGS=" ARCH=armhf" KSRC="$w/arch" "$plan" ksrc 4.10 2>&1) && rc=0 || rc=$?
check_eq "ARCH=armhf on the command line: the tree's version still read" "0 stock regress" "$rc $(head -n 1 <<<"$out")"

# A branch forced on a tree of another layout: one line, naming it.
out=$(KSRC="$w/c315" "$plan" ksrc 3.11 2>&1) && rc=0 || rc=$?
check "branch 3.11 forced on a 3.17-layout tree: refused" test "$rc" -ne 0
check "... names the branch and what the code shows" \
	grep -q "is not in branch 3.11's layout (.*kernel/time/timekeeping.c has 'tk_core')" <<<"$out"
out=$(KSRC="$w/l311" "$plan" ksrc 3.11 2>&1) && rc=0 || rc=$?
check_eq "branch 3.11 on its own layout: stock and fixed" "0 stock fixed" "$rc $(head -n 1 <<<"$out")"

# A file the layout names is missing: said, not a crash.
mkdir -p "$w/nofile/kernel" && cp "$w/l311/Makefile" "$w/nofile/"
out=$(ksrc_branch nofile) && rc=0 || rc=$?
check "no kernel/time/timekeeping.c: refused, naming the file" grep -q "no kernel/time/timekeeping.c" <<<"$out"

# A version no branch takes (too old for any compiler aid): one line.
tree old 2.4.37 ""
out=$(ksrc_branch old) && rc=0 || rc=$?
check "2.4.37: refused" test "$rc" -ne 0
check "... which no branch supports" grep -q "Linux 2.4.37, which no branch supports" <<<"$out"

# Every line from 2.6.32 to the newest packaged tree has a branch (by
# version: the planner's first candidate; the code decides among them).
for v in $(seq -f '2.6.%g' 32 39) $(seq -f '3.%g' 0 19) $(seq -f '4.%g' 0 20) $(seq -f '5.%g' 0 19) $(seq -f '6.%g' 0 19) 7.0 7.1 7.2 7.3; do
	b=$("$plan" branch-for "$v" 2>&1) && rc=0 || rc=$?
	check "Linux $v: a branch ($b)" test "$rc" = 0
done
# 2.6.33-2.6.39: the branch of each layout, by version alone (no LAYOUT;
# docs/backports.md, "2.6.33-2.6.39"), early and late point releases.
for t in 2.6.33:2.6.33 2.6.33.3:2.6.33 2.6.34:2.6.33 2.6.34.14:2.6.33 2.6.35:2.6.35 2.6.35.12:2.6.35 \
	2.6.36:2.6.36 2.6.36.4:2.6.36 2.6.37.6:2.6.36 2.6.38:2.6.38 2.6.38.8:2.6.38 2.6.39:2.6.39 2.6.39.4:2.6.39; do
	check_eq "Linux ${t%%:*}: branch ${t#*:}" "${t#*:}" "$("$plan" branch-for "${t%%:*}" 2>&1)"
done
tree o236 2.6.36 ""
check_eq "a 2.6.36 tree (ksrc-branch.sh reads its Makefile): branch 2.6.36" 2.6.36 "$(ksrc_branch o236)"
# A version below every branch is refused in one line.
err=$("$plan" branch-for 2.6.31 2>&1) && rc=0 || rc=$?
check_eq "2.6.31: no branch, one line" "1 1" "$([ "$rc" -ne 0 ] && echo 1) $(grep -c 'no branch supports kernel 2.6.31' <<<"$err")"
# The later layout's boundaries, by code: clock_was_set(bases) (upstream
# 5.15; RHEL 9's 5.14 has it too) and a tree newer than every branch.
later="TK_CLOCK_WAS_SET tk_core if (unlikely(base >= tk->next_leap_ktime))"
adj='if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
tree u514 5.14.2 "$later clock_was_set();" "$adj"
tree r514 5.14.0 "$later clock_was_set(CLOCK_SET_WALL);" "$adj"
tree u515 5.15.215 "$later clock_was_set(CLOCK_SET_WALL);" "$adj"
tree u66 6.6.150 "$later clock_was_set(CLOCK_SET_WALL);" "$adj"
tree u71 7.1.5 "$later clock_was_set(CLOCK_SET_WALL);" "$adj"
tree n74 7.4.2 "$later clock_was_set(CLOCK_SET_WALL);" "$adj"
tree x74 7.4.2 "$later clock_was_set(CLOCK_SET_SOMETHING);" "$adj"
check_eq "5.14 with clock_was_set(void): branch 5.10 (its own naive patch)" 5.10 "$(branch_of u514)"
check_eq "5.14 with clock_was_set(bases), as RHEL 9's: branch 6.1" 6.1 "$(branch_of r514)"
check_eq "5.15: branch 6.1" 6.1 "$(branch_of u515)"
check_eq "6.6: branch 6.1" 6.1 "$(branch_of u66)"
check_eq "7.1: branch 6.12" 6.12 "$(branch_of u71)"
out=$(ksrc_branch n74)
check_eq "a tree newer than every branch, in the newest layout: that branch, and a warning line" \
	"7.3|1" "$(tail -n 1 <<<"$out")|$(grep -c "^plan: warning: KSRC=$w/n74 is Linux 7.4.2, newer than every branch (the newest takes up to 7.3): planned as branch 7.3" <<<"$out")"
check_eq "... whose cells then plan" "7.3-x86_64-stock" "$(KSRC=$w/n74 "$plan" cells 7.3 x86_64 stock 2>/dev/null)"
out=$(ksrc_branch x74) && rc=0 || rc=$?
check_eq "a newer tree in no known layout: refused in one line naming what it lacks" "1 1" \
	"$([ "$rc" -ne 0 ] && echo 1) $(grep -c "newer than every branch, and its code is not in the newest layout (not 7.3's: kernel/time/timekeeping.c has no 'CLOCK_SET_WALL')" <<<"$out")"
# A tree with the PREEMPT_RT patch (its localversion-rt): built with its
# full-preemption option on top of the tiny configuration (the RT patch's
# PREEMPT_RT_FULL before 5.3, PREEMPT_RT after), said in its line and its
# record; a tree whose Kconfig names neither: built without, and said so.
tree rt44 4.4.70 "TK_CLOCK_WAS_SET tk_core if (unlikely(base.tv64 >= tk->next_leap_ktime.tv64))" 'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
printf -- '-rt83\n' >"$w/rt44/localversion-rt"
out=$(KSRC="$w/rt44" "$plan" ksrc 4.2 2>&1)
check "an RT tree without a known option: its line says the RT kernel is not what runs" grep -q "KSRC=$w/rt44 carries the PREEMPT_RT patch (-rt83), but its Kconfig names no full-preemption option this knows (PREEMPT_RT_FULL, PREEMPT_RT): built without it, the RT kernel is not what runs" <<<"$out"
KSRC="$w/rt44" "$plan" resolve "$w/rrt" 4.2-x86_64-stock 2>/dev/null
check_eq "... and its plan records it" "-rt83, not built" "$(jq -r .tree.rt "$w/rrt/cells/4.2-x86_64-stock/plan.json")"
printf 'config PREEMPT_RT_BASE\n\tbool\nconfig PREEMPT_RT_FULL\n\tbool "Fully Preemptible Kernel (RT)"\n' >"$w/rt44/kernel/Kconfig.preempt"
out=$(KSRC="$w/rt44" "$plan" ksrc 4.2 2>&1)
check "an RT tree: built with it, its line says so" grep -q "KSRC=$w/rt44 carries the PREEMPT_RT patch (-rt83): built with it, the tiny configuration and CONFIG_PREEMPT_RT_FULL=y" <<<"$out"
KSRC="$w/rt44" "$plan" resolve "$w/rrt" 4.2-x86_64-stock 2>/dev/null
check_eq "... its plan records it" "-rt83, built with CONFIG_PREEMPT_RT_FULL=y" "$(jq -r .tree.rt "$w/rrt/cells/4.2-x86_64-stock/plan.json")"
check_eq "... and builds with the full-preemption fragment" "configs/rt-full.config" "$(jq -r '.configs[] | select(test("rt"))' "$w/rrt/cells/4.2-x86_64-stock/plan.json")"
printf 'config PREEMPT_RT\n\tbool "Fully Preemptible Kernel (Real-Time)"\n' >"$w/rt44/kernel/Kconfig.preempt"
KSRC="$w/rt44" "$plan" resolve "$w/rrt" 4.2-x86_64-stock 2>/dev/null
check_eq "a later RT tree: PREEMPT_RT's fragment" "configs/rt.config" "$(jq -r '.configs[] | select(test("rt"))' "$w/rrt/cells/4.2-x86_64-stock/plan.json")"
# On a branch with no CONFIGS of its own (the packaged ones) the RT
# fragment comes on top of the harness's default fragments, not instead.
tree rt66 6.6.87 "TK_CLOCK_WAS_SET tk_core if (unlikely(base >= tk->next_leap_ktime)) clock_was_set(CLOCK_SET_WALL);" 'if (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {'
printf -- '-rt50\n' >"$w/rt66/localversion-rt"
printf 'config PREEMPT_RT\n\tbool "Fully Preemptible Kernel (Real-Time)"\n' >"$w/rt66/kernel/Kconfig.preempt"
KSRC="$w/rt66" "$plan" resolve "$w/rrt" 6.1-x86_64-stock 2>/dev/null
check_eq "an RT tree on branch 6.1: the harness's fragments, then PREEMPT_RT's, then the arch's" \
	"configs/common.config configs/time32.config configs/rt.config arches/x86_64/arch.config arches/x86_64/common.config" \
	"$(jq -r '.configs | join(" ")' "$w/rrt/cells/6.1-x86_64-stock/plan.json")"
# Planning reads a tree you bring and writes nothing in it: no file, no
# time of a file or directory changes (its version comes from the Makefile's
# lines, not from running make there).
stamp() { find "$w/u66" -printf '%p %T@ %s\n' | sort; }
was=$(stamp)
sleep 1
ksrc_branch u66 >/dev/null
KSRC=$w/u66 "$plan" cells "" x86_64 >/dev/null 2>&1 || true
check_eq "planning leaves the tree you bring as it was, times too" "$was" "$(stamp)"
finish layout
