# Linux 2.6.38 (pre-3.4 layout: leap applied by an ntp.c hrtimer under
# xtime_lock; 3.0's ntp.c without ADJ_SETOFFSET, 2.6.36's hrtimer bases):
# a tree the user brings (make qemu KSRC=...).  Dry-run on a real 2.6.38.8
# tree, not built or booted yet; see docs/backports.md ("2.6.33-2.6.39").
FAMILY      := pre-3.4
VERSION_MIN := 2.6.38
VERSION_MAX := 2.6.38.9999

PATCHES_fixed := 2.6.38/fix 2.6.38/edge
# On a tree whose code carries stable's own 2012 fix, a patch of this
# directory (its series names the ones it shares with 2.6.32/fix,
# 2.6.36/fix and 3.0/fix too) that neither applies nor is found in the
# tree is taken as there in that form.  No 2.6.38 release was seen with it.
FIX_2012      := 2.6.38/fix

# The config fragment under the names this version knows (2.6.36's:
# EMBEDDED, which selects EXPERT here, LOCKUP_DETECTOR, PM for ACPI);
# everything else comes from branches/pre-3.4/family.mk.
CONFIGS       := old-2.6.36

# The family's build aids (2.6.38 has the vdso change upstream).
COMPAT        := old/compat pre-3.4/compat
# No run yet (RUN_ON names the real trees a branch was built and booted on).
