# matrix.mk - branches x arches x variants -> cells, and every user-facing target.
#
# A branch is a directory branches/<B>/ with a branch.mk (data only, read by
# scripts/plan.sh); an arch is a file arches/<A>.mk.  Adding either is adding
# that file and nothing else.

SHELL      := /bin/bash
BUILD_DIR  ?= $(CURDIR)/build
LIMIT      ?= 60
# Seconds a guest's console may stay silent before it is killed as hung.
SILENCE    ?= 20
# Guests booted at once by make matrix / qemu-BRANCH (scripts/matrix.sh).
BOOTS      ?= 2
# CC and HOSTCC reach the kernel build only when the user set them (make's
# built-in default CC=cc must not count as a choice: it would change the
# image key and rebuild everything).
KERNEL_CC     := $(if $(filter command line environment,$(origin CC)),$(CC))
KERNEL_HOSTCC := $(if $(filter command line environment,$(origin HOSTCC)),$(HOSTCC))
export BUILD_DIR LIMIT SILENCE BOOTS KSRC JOBS KERNEL_CC KERNEL_HOSTCC CROSS_COMPILE

PLAN       := scripts/plan.sh
ARCH_FILES := $(wildcard arches/*.mk)
ALL_ARCHES := $(basename $(notdir $(ARCH_FILES)))
include $(ARCH_FILES)

.PHONY: help matrix qemu list-cells cell test unit-tests initramfs deps export mutants bench repeat check-% qemu-%
help:
	@echo "make matrix                     every cell (build, boot, verdict)"
	@echo "make qemu-6.1 [ARCH=] [VARIANT=] one branch's cells"
	@echo "make cell CELL=6.1-arm64-regress one cell; make list-cells lists them"
	@echo "make qemu KSRC=/path/to/linux   a tree you bring (stock and fixed)"
	@echo "make check-6.1 [KSRC=]          dry-run a branch's patches on a tree"
	@echo "make export BRANCH=3.4 FORMAT=mbox|quilt|debian [OUT=dir]"
	@echo "make mutants                    the mutation suite (kill table)"
	@echo "make bench [COLD=1]             speed against the targets -> docs/results.md"
	@echo "make repeat [N=20] [LOADED=1]   flakiness: repeated boots"
	@echo "make test                       what CI runs"

# --- the guest: static init + leap test -> one initramfs per arch -----------
GUEST      := $(BUILD_DIR)/guest
TEST_SRCS  := $(wildcard common-tests/*.c)
TEST_GUEST := $(filter-out common-tests/test_%.c,$(TEST_SRCS))
GUEST_CFLAGS := -static -s -O2 -Wall -Wextra -Werror -pthread

# One initramfs per flavour: <arch> (static glibc) and, where the arch file
# names a musl compiler, <arch>-musl (static glibc refuses kernels older than
# 3.2; branches for such trees say GUEST_LIBC := musl).
define guest_rules
$(GUEST)/$(1)/leaptest: $(TEST_GUEST) $(wildcard common-tests/*.h) | deps-$(firstword $(subst -, ,$(1)))
	@mkdir -p $$(@D)
	$(2) $(GUEST_CFLAGS) -o $$@.tmp $(TEST_GUEST) && mv $$@.tmp $$@
$(GUEST)/$(1)/init: initramfs-builder/init.c | deps-$(firstword $(subst -, ,$(1)))
	@mkdir -p $$(@D)
	$(2) $(GUEST_CFLAGS) -o $$@.tmp $$< && mv $$@.tmp $$@
$(GUEST)/$(1)/initramfs.cpio: $(GUEST)/$(1)/init $(GUEST)/$(1)/leaptest initramfs-builder/mkcpio.sh
	initramfs-builder/mkcpio.sh $$@ $(GUEST)/$(1)/init $(GUEST)/$(1)/leaptest
endef
FLAVOURS := $(ALL_ARCHES) $(foreach a,$(ALL_ARCHES),$(if $($(a)_GUEST_CC_MUSL),$(a)-musl))
$(foreach a,$(ALL_ARCHES),$(eval $(call guest_rules,$(a),$($(a)_GUEST_CC))))
$(foreach a,$(ALL_ARCHES),$(if $($(a)_GUEST_CC_MUSL),$(eval $(call guest_rules,$(a)-musl,$($(a)_GUEST_CC_MUSL)))))
initramfs: $(foreach f,$(FLAVOURS),$(GUEST)/$(f)/initramfs.cpio)

# --- tools: checked once; installed when root, else the apt-get line --------
deps-%:
	@scripts/deps.sh $*
deps: $(foreach a,$(ALL_ARCHES),deps-$(a))

# --- cells -------------------------------------------------------------------
# FORMAT=json: {"cell": [...]} for a CI matrix (one runner per cell).
list-cells:
	@$(PLAN) $(if $(filter json,$(FORMAT)),cells-json,cells) "$(BRANCH)" "$(ARCH)" "$(VARIANT)"

matrix: initramfs
	@cells=$$($(PLAN) cells "" "$(ARCH)" "$(VARIANT)") && scripts/matrix.sh $$cells

qemu-%: initramfs
	@cells=$$($(PLAN) cells "$*" "$(ARCH)" "$(VARIANT)" $(if $(KSRC),| grep -E -- '-(stock|fixed)$$')) \
		&& scripts/matrix.sh $$cells

qemu:
	@test -n "$(KSRC)" || { echo "make qemu needs KSRC=/path/to/linux (or use make qemu-BRANCH)" >&2; exit 2; }
	@b=$$(scripts/ksrc-branch.sh "$(KSRC)") && $(MAKE) --no-print-directory qemu-$$b

cell: initramfs
	@test -n "$(CELL)" || { echo "make cell needs CELL=<branch>-<arch>-<variant> (see make list-cells)" >&2; exit 2; }
	@$(PLAN) info "$(CELL)" >/dev/null && scripts/matrix.sh "$(CELL)"

check-%:
	@scripts/check-branch.sh "$*"

# --- tests -------------------------------------------------------------------
unit-tests: deps-test
	@tests/run-unit-tests.sh

# CI: the host-side tests, then the 6.1 cells end to end on both arches.
TEST_BRANCH ?= 6.1
test: unit-tests
	@$(MAKE) --no-print-directory qemu-$(TEST_BRANCH) ARCH= VARIANT=
	@tests/e2e-reliability.sh

# --- the maintainer's workflow -------------------------------------------------
FORMAT ?= mbox
OUT    ?= $(BUILD_DIR)/export/$(BRANCH)-$(FORMAT)
export:
	@test -n "$(BRANCH)" || { echo "make export needs BRANCH=<branch> (see branches/)" >&2; exit 2; }
	@scripts/export.sh "$(BRANCH)" "$(FORMAT)" "$(OUT)" $(if $(FULL),full)

# --- test power: mutants the leap test must kill --------------------------------
MUTANTS_BRANCH ?= 6.1
mutants: initramfs
	@scripts/mutants.sh $(MUTANTS_BRANCH)

# --- speed ---------------------------------------------------------------------
bench: initramfs
	@scripts/bench.sh $(if $(COLD),-c)
repeat: initramfs
	@scripts/repeat.sh $(if $(N),-n $(N)) $(if $(LOADED),-l) $(CELLS)
