# What the long-term lines that carry the whole fix share (4.2-5.9: the 2012
# fix and both 2015 leap-edge commits, upstream 833f32d76302 and
# 96efdcf2d080; docs/long-term-lines.md): what the old lines share (no
# Debian package, x86_64 and i386, Debian 12's gcc 12 with the old lines'
# flags, measured on these trees: "Compilers" in README.md), arm64 too, and two
# variants: the tree as it is (PASS) and with the 2012 bug re-created in its
# own layout and the leap-edge adjustment dropped (regress: FAIL).  A
# branch.mk that names FAMILY := lts overrides any key.
FAMILY         := old
VARIANTS       := stock regress
EXPECT_stock   := PASS
EXPECT_regress := FAIL

# arm64 and armhf (QEMU virt) beside x86_64 and i386: arm64 built and
# booted on 4.4.178 and 5.4.59, armhf on 4.4.178 and 4.19.108.
ARCHES         := x86_64 i386 arm64 armhf
