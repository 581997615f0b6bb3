# Linux 2.6.33-2.6.34 (pre-3.4 layout: leap applied by an ntp.c hrtimer
# under xtime_lock; one second_overflow() caller, in
# logarithmic_accumulation()): a tree the user brings (make qemu KSRC=...).
# Dry-run on real 2.6.33.3, 2.6.34 and 2.6.34.14 trees, built and booted on
# 2.6.34 (RUN_ON); see docs/backports.md ("2.6.33-2.6.39").
FAMILY      := pre-3.4
VERSION_MIN := 2.6.33
VERSION_MAX := 2.6.34.9999

PATCHES_fixed := 2.6.33/fix 2.6.33/edge
# On a tree whose code carries stable's own 2012 fix (2.6.34.14), a patch
# of this directory that neither applies nor is found in the tree (as it
# is, or every line it adds) is taken as there in that form: that fix is
# the stable line's own text, rarely byte for byte ours.  The directory's
# series names the patches it shares with 2.6.32/fix and 3.0/fix too.
FIX_2012      := 2.6.33/fix

# The config fragment under the names this version knows (2.6.32's);
# everything else comes from branches/pre-3.4/family.mk.
CONFIGS       := old-2.6.32

# The family's build aids, then 2.6.32's vdso aid (upstream in 2.6.37).
COMPAT        := old/compat pre-3.4/compat 2.6.32/compat
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 2.6.34
