# Linux 4.1.x: a tree the user brings (make qemu KSRC=...).  Every 4.1
# release carries the 2012 fix and neither 2015 leap-edge commit, which this
# branch backports (4.1/edge).  The layout: tk_core, timespec64,
# ktime_get_update_offsets_now() (docs/long-term-lines.md, family C).
# Checked on a real 4.1.5 tree; 3.18-4.0 (the same family) need their own
# timekeeping.c context and are not yet covered.
# The package, arches, compilers and variants come from
# branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.19
VERSION_MAX := 4.1.9999
# The range starts after 3.18.140's layout: the code picks the branch
# where ranges overlap (the read base is tk->tkr_mono).
LAYOUT      := kernel/time/timekeeping.c:tk->tkr_mono.base

PATCHES_fixed := 4.1/edge

# The shared build aids (4.1 needs neither: both are skipped or idle) and
# the config fragment under the names 4.1 knows, with TTY.
COMPAT        := old/compat
CONFIGS       := old old-tty

# arm64 too (the family's arm64 compiler and machine): built and booted on
# 4.1.5 (and 3.18.140 on branch 3.17).  Not armhf: 4.1.5 stops in the
# assembler (docs/long-term-lines.md).
ARCHES        := x86_64 i386 arm64
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 4.1.5 4.1.52
