# What the long-term lines that carry the whole fix share (4.2-5.9: the 2012
# fix and both 2015 leap-edge commits, upstream 833f32d76302 and
# 96efdcf2d080; docs/long-term-lines.md): no Debian package (a tree the user
# brings, make qemu KSRC=...), x86_64 and i386, and two variants: the tree
# as it is (PASS) and with the 2012 bug re-created in its own layout and the
# leap-edge adjustment dropped (regress: FAIL).  A branch.mk that names
# FAMILY := lts overrides any key.
PACKAGE       :=
SUITES        :=
ARCHES        := x86_64 i386
# The compilers, as for the old lines (branches/old/family.mk) and measured
# on these trees with Debian 12's gcc 12 ("Compilers" in README.md).
KERNEL_CC     := gcc -fno-pie -no-pie -std=gnu89 -fcommon -Wa,-mrelax-relocations=no -fno-stack-protector -fcf-protection=none -mno-sse -mno-mmx -mno-sse2 -mno-3dnow -mno-avx
KERNEL_HOSTCC := gcc -std=gnu89 -fcommon
VARIANTS      := stock regress
EXPECT_stock  := PASS
EXPECT_regress := FAIL
PATCHES_stock :=
# The configurations its trees build (kconfigs/; KCONFIG= is any branch's).
KCONFIGS := tiny
