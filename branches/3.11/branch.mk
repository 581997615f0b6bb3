# Linux 3.11-3.16: a tree the user brings (make qemu KSRC=...) in the layout
# of family B with TK_* flags (docs/long-term-lines.md): a static timekeeper
# with a shadow copy, timekeeping_update(tk, TK_...), no tk_core.  Every
# release carries the 2012 fix in stable's own form and neither 2015
# leap-edge commit, which this branch backports (3.11/edge).  Read, built
# and booted on a real 3.14.40 tree; no other release of the range was
# read, so a tree of it whose text differs is refused by the patches' dry
# run, not fuzzed.  The package, arches, compilers and variants come from
# branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.11
VERSION_MAX := 3.17.9999
# The range runs from after 3.10.108's layout to before 3.18.140's: the
# code picks the branch where ranges overlap (TK_* flags, no tk_core).
LAYOUT      := kernel/time/timekeeping.c:TK_MIRROR !kernel/time/timekeeping.c:tk_core

PATCHES_fixed := 3.11/edge

# The shared build aids (3.14 includes compiler-gcc<major>.h: old/compat
# gives it one) and the config fragment, with TTY (3.14 has the symbol).
COMPAT        := old/compat 3.11/compat
CONFIGS       := old old-tty

# The family's x86_64 and i386, and arm64 (3.14.40 on QEMU virt, a
# Cortex-A57).  arm64's hrtimers never leave the tick there (the leap test
# measures it: "timers tick-bound"), so no timer can fire inside the leap's
# window and leap_edge proves nothing on it (docs/long-term-lines.md).
# armhf stops in kernel/fork.c (the assembler's ".err encountered").
ARCHES += arm64
UNPROVEN_arm64 := leap_edge
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.14.40 3.14.70 3.16.0
