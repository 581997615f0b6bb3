# Linux 3.17-4.0: a tree the user brings (make qemu KSRC=...) in the layout
# of family C before 4.1 (docs/long-term-lines.md): tk_core, timespec64,
# ktime_get_update_offsets_now(), the read base in tk->tkr.  Every release
# carries the 2012 fix and neither 2015 leap-edge commit, which this branch
# backports (3.17/edge).  Read, built and booted on a real 3.18.140 tree; no
# other release of the range was read, so a tree of it whose text differs
# is refused by the patches' dry run, not fuzzed.  The package, arches,
# compilers and variants come from branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.15
VERSION_MAX := 4.0.9999
# The range runs from after 3.14.40's layout to before 4.1's: the code
# picks the branch where ranges overlap (the read base is tk->tkr).
LAYOUT      := kernel/time/timekeeping.c:tk->tkr.base_mono

PATCHES_fixed := 3.17/edge

# The shared build aids and the config fragment, with TTY.
COMPAT        := old/compat
CONFIGS       := old old-tty

# arm64 and armhf too (the family's compilers, QEMU virt): built and booted
# on 3.18.140.
ARCHES        := x86_64 i386 arm64 armhf
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.18.140
