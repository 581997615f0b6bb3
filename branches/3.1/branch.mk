# Linux 3.1-3.3 (pre-3.4 layout): the 3.0 series (branches/3.0/fix, the same
# bytes) with the 3.1+ config names (configs/old.config); a tree the user
# brings.  Checked on a real 3.2.0 tree, see docs/backports.md.
FAMILY      := pre-3.4
VERSION_MIN := 3.1
VERSION_MAX := 3.3.9999

PATCHES_fixed := 3.0/fix 3.0/edge

# The config fragment under the names this version knows; everything
# else comes from branches/pre-3.4/family.mk.
CONFIGS       := old
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.2.0
