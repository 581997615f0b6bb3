# Linux 3.10.x: a tree the user brings (make qemu KSRC=...).  Every 3.10
# release carries the 2012 fix in stable's own form and neither 2015
# leap-edge commit, which this branch backports (3.10/edge).  The layout:
# a static timekeeper with a shadow copy, the NTP state under
# timekeeper_lock (docs/long-term-lines.md, family B).  Checked on a real
# 3.10.108 tree; 3.11-3.14 (the same family) are not yet.
# The package, arches, compilers and variants come from
# branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.7
VERSION_MAX := 3.13.9999
# The range runs from after the last layout seen before it (3.6.5) to the
# next (3.14.40): the code picks the branch where ranges overlap; this
# layout has a shadow timekeeper, and its timekeeping_update() takes
# (tk, clearntp, mirror).
LAYOUT      := kernel/time/timekeeping.c:shadow_timekeeper kernel/time/timekeeping.c:clearntp

PATCHES_fixed := 3.10/edge

# The shared build aids (3.10's compiler-gcc.h needs none of the headers,
# and timeconst.bc replaced timeconst.pl: both aids are skipped or idle),
# and the config fragment under the names 3.10 knows, with TTY (vanilla
# 3.10.108 kept it on without asking; Red Hat's 3.10.0 did not).
# 3.10/compat: the make 4.3 number sign in tools/build and gcc 12's
# use-after-free error in tools/lib/subcmd, for a tree that builds objtool
# (Red Hat's 3.10.0 with its own configuration).
COMPAT        := old/compat 3.10/compat

CONFIGS       := old old-tty

# arm64 too (the family's arm64 compiler and machine): built and booted on
# 3.10.108, whose kernel cannot reset QEMU's machine (run-qemu.sh ends it).
# Not armhf: 3.10.108 stops in the assembler (docs/long-term-lines.md).
ARCHES        := x86_64 i386 arm64
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.10.108
