# Linux 3.0.x (pre-3.4 layout: leap applied by an ntp.c hrtimer under
# xtime_lock): a tree the user brings (make qemu KSRC=...).  3.1-3.3 use the
# same patches from branches/3.1 (only the config names differ); checked on
# real 3.0.1 and 3.2.0 trees, see docs/backports.md ("pre-3.4 families").
FAMILY      := pre-3.4
VERSION_MIN := 3.0
VERSION_MAX := 3.0.9999

PATCHES_fixed := 3.0/fix 3.0/edge
# The RFC of 1 July 2012: its patch 1 as posted, patch 2 in this layout.
PATCHES_rfc   := 3.0/rfc
# On a tree whose code carries stable's own 2012 fix, a patch of this
# directory that neither applies nor is found in the tree (as it is, or
# every line it adds) is taken as there in that form: that fix is the
# stable line's own text, rarely byte for byte ours.  One that applies is
# applied (3.0.38 and late 3.2.y lack 6b1859dba01c).
FIX_2012      := 3.0/fix

# The config fragment under the names this version knows; everything
# else comes from branches/pre-3.4/family.mk.
CONFIGS       := old-3.0
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.0.1 3.0.101
