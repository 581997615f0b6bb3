# Linux 2.6.32.y (pre-3.4 layout: leap applied by an ntp.c hrtimer under
# xtime_lock; one second_overflow() caller): a tree the user brings (make
# qemu KSRC=...).  Checked on a real 2.6.32.2 tree; see docs/backports.md
# ("pre-3.4 families").
FAMILY      := pre-3.4
VERSION_MIN := 2.6.32
VERSION_MAX := 2.6.32.9999

PATCHES_fixed := 2.6.32/fix 2.6.32/edge
# On a tree whose code carries stable's own 2012 fix, a patch of this
# directory that neither applies nor is found in the tree (as it is, or
# every line it adds) is taken as there in that form: that fix is the
# stable line's own text, rarely byte for byte ours.  One that applies is
# applied (3.0.38 and late 3.2.y lack 6b1859dba01c).
FIX_2012      := 2.6.32/fix

# The config fragment under the names this version knows; everything
# else comes from branches/pre-3.4/family.mk.
CONFIGS       := old-2.6.32

# The family's build aids, then the one only 2.6.32 needs (its vdso).
COMPAT        := old/compat pre-3.4/compat 2.6.32/compat
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 2.6.32.2 2.6.32.71
