# Linux 2.6.39 (pre-3.4 layout: leap applied by an ntp.c hrtimer under
# xtime_lock; 3.0's layout without active_bases,
# timekeeping_inject_sleeptime() and ktime_get_monotonic_offset()): a tree
# the user brings (make qemu KSRC=...).  Dry-run on a real 2.6.39.4 tree,
# not built or booted yet; see docs/backports.md ("2.6.33-2.6.39").
FAMILY      := pre-3.4
VERSION_MIN := 2.6.39
VERSION_MAX := 2.6.39.9999

PATCHES_fixed := 2.6.39/fix 2.6.39/edge
# On a tree whose code carries stable's own 2012 fix, a patch of this
# directory (its series names the ones it shares with 2.6.38/fix and
# 3.0/fix too) that neither applies nor is found in the tree is taken as
# there in that form.  No 2.6.39 release was seen with it.
FIX_2012      := 2.6.39/fix

# The config fragment under the names this version knows (3.0's: EXPERT,
# LOCKUP_DETECTOR, DEBUG_SPINLOCK_SLEEP; its ACPI no longer depends on PM);
# everything else comes from branches/pre-3.4/family.mk.
CONFIGS       := old-3.0

# The family's build aids (2.6.39 has the vdso change upstream).
COMPAT        := old/compat pre-3.4/compat
# No run yet (RUN_ON names the real trees a branch was built and booted on).
