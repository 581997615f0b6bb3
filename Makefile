# Leap-second hrtimer fix: backports and QEMU test matrix.  See README.md.
include matrix.mk
