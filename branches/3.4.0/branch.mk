# Linux 3.4.0-3.4.2: a tree the user brings (make qemu KSRC=...).  These
# releases predate upstream fad0c66c4bb8 and dd48d708ff3e (in 3.4.3): the
# leap moves xtime but not wall_to_monotonic, so stock shows a
# CLOCK_MONOTONIC step at the leap rather than early timers.  The fix is
# those two commits (branches/3.4.0/fix), then the 3.4.3-3.4.5 series.  Measured on a real 3.4.2 tree: see
# docs/backports.md ("3.4 family") and docs/results.md.
# The package, arch, compilers and variants come from branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.4
VERSION_MAX := 3.4.2

# The fix's patch directories, relative to branches/, applied in order
# (variants and expected verdicts: branches/old/family.mk).
PATCHES_fixed := 3.4.0/fix 3.4/fix

# The 3.4 build aids, and the config fragment used instead of
# configs/common.config.
COMPAT        := 3.4/compat
CONFIGS       := old
