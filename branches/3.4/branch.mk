# Linux 3.4.3-3.4.5 (struct timekeeper before 3.4.6): a tree the user brings
# (make qemu KSRC=...).  3.4.0-3.4.2 also lack upstream fad0c66c4bb8 and
# dd48d708ff3e: branch 3.4.0.  See docs/backports.md ("3.4 family").
# The package, arch, compilers and variants come from branches/old/family.mk.
FAMILY      := old
VERSION_MIN := 3.4.3
VERSION_MAX := 3.4.5

# The fix's patch directories, relative to branches/, applied in order
# (variants and expected verdicts: branches/old/family.mk).
PATCHES_fixed := 3.4/fix

# Build aids applied under every variant, and the config fragment used
# instead of configs/common.config.
COMPAT        := 3.4/compat
CONFIGS       := old

