# Linux 3.1-3.3 (pre-3.4 layout): the 3.0 series (branches/3.0/fix, the same
# bytes) with the 3.1+ config names (configs/old.config); a tree the user
# brings.  Checked on a real 3.2.0 tree, see docs/backports.md.
FAMILY      := pre-3.4
VERSION_MIN := 3.1
VERSION_MAX := 3.3.9999

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
CONFIGS       := old
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.2.0 3.2.53 3.2.71
