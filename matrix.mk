# matrix.mk - every user-facing target.  The data (branches/, arches/,
# mutants/) is read by scripts/plan.sh alone; the runner is scripts/matrix.sh.
# Adding a branch, an arch or a variant is adding data, never a rule here.

SHELL      := /bin/bash
BUILD_DIR  ?= $(CURDIR)/build
# LIMIT= (a guest's seconds) and SILENCE= (seconds its console may stay
# silent before it is killed as hung) override harness.mk's defaults.
# Guests booted at once by the runner (default: the host's cores over a
# guest's CPUs, at least 1; scripts/matrix.sh).
BOOTS      ?=
# CC and HOSTCC reach the kernel build only when the user set them (make's
# built-in default CC=cc must not count as a choice: it would change the
# image key and rebuild everything).
KERNEL_CC     := $(if $(filter command line environment,$(origin CC)),$(CC))
KERNEL_HOSTCC := $(if $(filter command line environment,$(origin HOSTCC)),$(HOSTCC))
# CCACHE=1: the kernel's compilers run through ccache (BUILD_DIR/ccache).
CCACHE     ?= 0
# DEBIAN_VERSION=X.Y.Z-N: that Debian upload of its branch's tree (and a debian
# configuration at the same version) instead of the newest; a list, one per branch.
export BUILD_DIR LIMIT SILENCE BOOTS KSRC IMAGE KCONFIG KCONFIG_MODULES JOBS KERNEL_CC KERNEL_HOSTCC CROSS_COMPILE LEAP_CMDLINE CCACHE DEBIAN_VERSION

PLAN   := scripts/plan.sh
# DRY_RUN=1: print each cell's resolved plan, build nothing.
RUNNER := scripts/matrix.sh $(if $(DRY_RUN),-n)

.PHONY: help matrix shipped readiness qemu list-cells list-branches list-jobs cell test test-lava check test-ci-root unit-tests deps export mutants bench repeat check-% qemu-%
help:
	@echo "make matrix                     every cell (build, boot, verdict)"
	@echo "make qemu-6.1 [ARCH=] [VARIANT=] [BOOT=] [CONFIG=]  one branch's cells"
	@echo "                                (BOOT: boots/ modes; CONFIG: kconfigs/; lists, or all)"
	@echo "make qemu-6.1 KCONFIG=/path/.config  the branch built from your configuration"
	@echo "make qemu-6.1 CONFIG=shipped    Debian's own kernel images of that tree, booted as they are"
	@echo "make shipped [BRANCH=] [ARCH=]  every image Debian's suites serve of every packaged tree"
	@echo "make readiness [RUN=|IMAGE=|KSRC=|CELL=]  one page per kernel: is it ready for a leap second?"
	@echo "make qemu-5.10 DEBIAN_VERSION=5.10.223-1  a Debian upload other than the newest"
	@echo "make cell CELL=6.1-arm64-regress one cell; make list-cells lists them"
	@echo "make list-jobs [PER=cell] [FORMAT=json|gitlab]  the cells as CI jobs (docs/ci.md)"
	@echo "make list-jobs FORMAT=lava [OUT=dir] [ARTIFACTS=url]  a LAVA job per cell (docs/ci.md)"
	@echo "make cell CELL=... PUBLISH=dir  ...its kernel and initramfs in dir/<cell>/ (LAVA's ARTIFACTS)"
	@echo "make list-branches [FORMAT=md]  each branch: what it takes, arches, series, trees run on"
	@echo "make cell CELL=... DRY_RUN=1    print the cell's plan, build nothing"
	@echo "make qemu KSRC=/path/to/linux   a tree you bring (stock and fixed)"
	@echo "make qemu IMAGE=/boot/vmlinuz-X a kernel image you bring, booted as it is [KCONFIG=] [ARCH=] [BOOT=]"
	@echo "make check-6.1 [KSRC=]          dry-run a branch's patches on a tree"
	@echo "make export BRANCH=3.4 FORMAT=mbox|quilt|debian [OUT=dir]"
	@echo "make mutants [RUNS=3] [CONFIG=] the mutation suite (kill table)"
	@echo "make bench [COLD=1|BUILDS=1]    speed against the targets -> docs/results.md"
	@echo "make bench CONFIG=debian [ARCH=] [POINT=6.1.176-1]  a Debian configuration's speed (hours)"
	@echo "make repeat [N=20] [LOADED=1] [SOAK=1]  flakiness: repeated boots (SOAK: 100 leaps each)"
	@echo "make deps                       install every host tool (as root)"
	@echo "make check                      the host-side tests (no network, no kernel tree)"
	@echo "make test                       what CI runs"
	@echo "make test-ci-root [PARTS=...]   the CI files' jobs for real, each in a clean Debian 12 root (docs/ci.md)"
	@echo "make test-lava [VARIANT=]       the make test cells' stock and regress jobs run by LAVA's lava-run here (root)"

# --- cells: the planner selects, the runner runs -------------------------------
# FORMAT=json: {"cell": [...]} for a CI matrix (one runner per cell).
list-cells:
	@$(PLAN) $(if $(filter json,$(FORMAT)),cells-json,cells) "$(BRANCH)" "$(ARCH)" "$(VARIANT)" "$(BOOT)" "$(CONFIG)"

# Each branch: the versions and layout it takes, its arches, its variants'
# series, the real trees it was run on (FORMAT=md: the table in README.md).
list-branches:
	@$(PLAN) list-branches $(if $(filter md,$(FORMAT)),--markdown)

# The cells as CI jobs: PER=tree-arch (default) or cell; FORMAT=list
# (default), json (GitHub Actions) or gitlab (a child pipeline).  The CI
# files (.github/workflows/, .gitlab-ci.yml) call this; see docs/ci.md.
# FORMAT=lava: a LAVA v2 job per cell (scripts/lava-jobs.sh), OUT=dir/<cell>.yaml
# (else stdout), the kernels and initramfs from ARTIFACTS=<URL>.
list-jobs:
	@cells=$$($(PLAN) cells "$(BRANCH)" "$(ARCH)" "$(VARIANT)" "$(BOOT)" "$(CONFIG)") && \
		$(if $(filter lava,$(FORMAT)),scripts/lava-jobs.sh "$(if $(filter command line environment,$(origin OUT)),$(OUT))" "$(ARTIFACTS)" $$cells,\
		scripts/ci-jobs.sh "$(or $(PER),tree-arch)" "$(if $(filter command line environment,$(origin FORMAT)),$(FORMAT),list)" $$cells)

matrix:
	@cells=$$($(PLAN) cells "" "$(ARCH)" "$(VARIANT)" "$(BOOT)" "$(CONFIG)") && $(RUNNER) $$cells

# CONFIG=shipped: Debian's own binaries of the branch's tree at its planned
# version, booted as they are (scripts/shipped.sh), not a build.
qemu-%:
	@$(if $(filter shipped,$(CONFIG)),scripts/shipped.sh "$*" "$(ARCH)" "$(BOOT)",\
		cells=$$($(PLAN) cells "$*" "$(ARCH)" "$(VARIANT)" "$(BOOT)" "$(CONFIG)") && $(RUNNER) $$cells)

# One page per kernel (Markdown and HTML): is it ready for a leap second?
# From RUN= (default: the latest run), or after running IMAGE=, KSRC= or
# CELL= first; CELL= picks that cell's kernel.  A kernel that is not ready
# still gets its page (the exit status is the run's).
readiness:
	@rc=0; $(if $(RUN),,$(if $(IMAGE)$(KSRC),$(MAKE) --no-print-directory qemu || rc=$$?;,$(if $(CELL),$(MAKE) --no-print-directory cell || rc=$$?;))) \
		scripts/readiness.sh "$(or $(RUN),$(BUILD_DIR)/results/latest)" "$(if $(IMAGE)$(KSRC),,$(CELL))" && exit $$rc

# Every kernel image Debian's suites serve for every packaged tree (every
# ABI, every flavour), booted as it is: the state of Debian's shipped kernels.
shipped:
	@scripts/shipped.sh -a "$(BRANCH)" "$(ARCH)" "$(BOOT)"

# KSRC=: a tree you bring, built; IMAGE=: kernel images you bring, booted as
# they are (nothing built; KCONFIG= or config-<release> beside the image
# records its options).
qemu:
	@test -n "$(KSRC)$(IMAGE)" || { echo "make qemu needs KSRC=/path/to/linux or IMAGE=/path/to/vmlinuz (or use make qemu-BRANCH)" >&2; exit 2; }
	@$(if $(IMAGE),$(PLAN) image && cells=$$($(PLAN) cells "" "$(ARCH)" "$(VARIANT)" "$(BOOT)" "$(CONFIG)") && $(RUNNER) $$cells,\
		b=$$(scripts/ksrc-branch.sh "$(KSRC)") && $(MAKE) --no-print-directory qemu-$$b)

cell:
	@test -n "$(CELL)" || { echo "make cell needs CELL=<branch>-<arch>-<variant> (see make list-cells)" >&2; exit 2; }
	@$(RUNNER) $(CELL)

check-%:
	@scripts/check-branch.sh "$*"

# Every host tool of every cell (as root: installed; else the apt-get line).
deps:
	@tools=$$($(PLAN) tools --all) && scripts/deps.sh base test $$tools

# --- tests -------------------------------------------------------------------
# CI: everything the tests need is installed first; then the host-side tests,
# then the TEST_BRANCH cells end to end on the TEST_ARCH arches, then the harness under
# hangs and interruptions.
TEST_BRANCH ?= $(shell $(PLAN) role reference)
# The arches whose stanza says MAKE_TEST (CI's scope: the others are make matrix's).
TEST_ARCH   ?= $(shell $(PLAN) test-arches)
test:
	@cells=$$($(PLAN) cells $(TEST_BRANCH) "$(TEST_ARCH)") && tools=$$($(PLAN) tools $$cells) && scripts/deps.sh base test $$tools
	@tests/run-unit-tests.sh
	@cells=$$($(PLAN) cells $(TEST_BRANCH) "$(TEST_ARCH)") && scripts/matrix.sh $$cells
	@tests/e2e-reliability.sh

# The make test cells (VARIANT: stock and regress unless given) run by the
# harness and from their LAVA jobs by LAVA's own dispatcher (lava-run, in a
# Debian 12 root under BUILD_DIR; as root): LAVA's verdict against the cell's
# (scripts/lava-local.sh; docs/ci.md).
test-lava:
	@cells=$$($(PLAN) cells $(TEST_BRANCH) "$(TEST_ARCH)" "$(or $(VARIANT),stock regress)" "$(BOOT)" "$(CONFIG)") && scripts/lava-local.sh $$cells

unit-tests:
	@scripts/deps.sh base test
	@tests/run-unit-tests.sh

# The host-side tests that need no network and no kernel tree (under 60 s).
check:
	@tests/run-unit-tests.sh --host

# The CI files' jobs run for real, each in a fresh clean Debian 12 root
# (scripts/clean-root.sh, as root: mmdebstrap): GitHub's and GitLab's plan,
# one cell job (BRANCH, ARCH, VARIANT: by default the cheapest cell) and
# report, each file less its install lines (every job fails), and make
# check with README's packages.  PARTS= some of github gitlab broken check.
# A cell build and boot per file: too heavy for make test.
test-ci-root:
	@scripts/deps.sh mmdebstrap:mmdebstrap node:nodejs curl:curl openssl:openssl
	@tests/ci-root.sh $(PARTS)

# --- the maintainer's workflow -------------------------------------------------
FORMAT ?= mbox
OUT    ?= $(BUILD_DIR)/export/$(BRANCH)-$(FORMAT)
export:
	@test -n "$(BRANCH)" || { echo "make export needs BRANCH=<branch> (see branches/)" >&2; exit 2; }
	@scripts/export.sh "$(BRANCH)" "$(FORMAT)" "$(OUT)" $(if $(FULL),full)

# --- test power: mutants the leap test must kill --------------------------------
MUTANTS_BRANCH ?= $(shell $(PLAN) role reference)
mutants:
	@scripts/mutants.sh $(if $(RUNS),-r $(RUNS)) $(if $(CONFIG),-c "$(CONFIG)") $(MUTANTS_BRANCH) $(ARCH)

# --- speed ---------------------------------------------------------------------
# CONFIG=debian: that configuration's figures next to tiny's (hours);
# POINT=<older version>: and the rerun after a point release, with ccache.
bench:
	@$(if $(CONFIG),scripts/bench-kconfig.sh $(if $(POINT),-p "$(POINT)") "$(CONFIG)" $(ARCH),scripts/bench.sh $(if $(COLD),-c) $(if $(BUILDS),-b))
repeat:
	@scripts/repeat.sh $(if $(N),-n $(N)) $(if $(LOADED),-l) $(if $(SOAK),-s) $(CELLS)
