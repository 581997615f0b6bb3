# Linux 3.4.x, every release: a tree the user brings (make qemu KSRC=...).
# The fix is the 2012 set (3.4/fix: the two leap commits of 3.4.3-3.4.4, then
# 3.4.6's and 3.4.7's) and the 2015 leap-edge pair stable never gave 3.4 in
# full (3.4/edge).  Each tree gets what its code lacks: a patch already in
# the tree is skipped, and a tree that carries stable's own form of the
# 2012 fix (3.4.6 and later) skips 3.4/fix.  See docs/backports.md
# ("3.4 family").  The package, arch, compilers and variants come from
# branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.4
VERSION_MAX := 3.4.9999

# The fix's patch directories, relative to branches/, applied in order
# (variants and expected verdicts: branches/old/family.mk).
PATCHES_fixed := 3.4/fix 3.4/edge
# John Stultz's RFC of 1 July 2012, never merged, as posted (its base,
# 3.5-rc, is this layout; docs/backports.md, "The RFC of 1 July 2012"):
# asked for with VARIANT=rfc on a tree without the 2012 fix.  Expected to
# fail the 2015 leap edge (leap_edge, adjtimex_at_leap), which it cannot mend.
VARIANTS      := stock rfc fixed
EXPECT_rfc    := FAIL
PATCHES_rfc   := 3.4/rfc
# On a tree whose code carries stable's own 2012 fix, a patch of this
# directory that neither applies nor is found in the tree (as it is, or
# every line it adds) is taken as there in that form: that fix is the
# stable line's own text, rarely byte for byte ours.  One that applies is
# applied (3.0.38 and late 3.2.y lack 6b1859dba01c).
FIX_2012      := 3.4/fix

# Build aids applied under every variant, and the config fragment used
# instead of configs/common.config.
COMPAT        := old/compat 3.4/compat
CONFIGS       := old

# Late 3.4 trees (3.4.112) warn from lockdep when the guest reboots at the
# end of the test: native_nmi_stop_other_cpus() registers its NMI handler,
# which allocates, with interrupts off.  nonmi_ipi (arch/x86/kernel/smp.c)
# stops the other CPUs with the reboot IPI instead; it changes nothing
# before the reboot.
KERNEL_ARGS   := nonmi_ipi
# The real trees this branch was built and booted on (docs/results.md).
RUN_ON := 3.4.2 3.4.4 3.4.112 3.4.113
