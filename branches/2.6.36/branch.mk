# Linux 2.6.36-2.6.37 (pre-3.4 layout: leap applied by an ntp.c hrtimer
# under xtime_lock; 2.6.32's ntp.c, 3.0's second_overflow() callers and
# four-argument update_vsyscall()): a tree the user brings (make qemu
# KSRC=...).  Dry-run on real 2.6.36.4 and 2.6.37.6 trees, built and
# booted on 2.6.36.2 (RUN_ON); see docs/backports.md ("2.6.33-2.6.39").
FAMILY      := pre-3.4
VERSION_MIN := 2.6.36
VERSION_MAX := 2.6.37.9999

PATCHES_fixed := 2.6.36/fix 2.6.33/edge
# On a tree whose code carries stable's own 2012 fix, a patch of this
# directory (its series names the ones it shares with 2.6.32/fix,
# 2.6.33/fix and 3.0/fix too) that neither applies nor is found in the
# tree is taken as there in that form.  No 2.6.36 or 2.6.37 release was
# seen with it.
FIX_2012      := 2.6.36/fix

# The config fragment under the names these versions know (EMBEDDED,
# LOCKUP_DETECTOR, PM for ACPI); everything else comes from
# branches/pre-3.4/family.mk.
CONFIGS       := old-2.6.36

# The family's build aids, then 2.6.32's vdso aid (upstream in 2.6.37,
# which a 2.6.37 tree or a late 2.6.36.y one has: skipped there).
COMPAT        := old/compat pre-3.4/compat 2.6.32/compat
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 2.6.36.2
