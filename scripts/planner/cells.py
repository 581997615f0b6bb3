"""Which cells exist: the selection (plan.sh cells) and a cell's name read back."""

import os
import re
import sys

from .data import DataError
from .proc import run
from .tree import Ksrc, ver_le


class Cell:
    """A cell's name read back: its branch, arch, variant (or mutant: the
    mutant's name), configuration (tiny, or the @CONFIG after the variant)
    and boot mode (default, or the +MODE at the name's end)."""

    def __init__(self, name, branch, arch, variant, mutant, config, boot, image=None):
        self.name, self.branch, self.arch, self.variant = name, branch, arch, variant
        self.mutant, self.config, self.boot = mutant, config, boot
        # A kernel image a user brings (IMAGE=): its cells are @image.<id>.
        self.image = image


class Planner:
    """The data and the run's inputs (the environment), and what they select."""

    def __init__(self, data, here, env):
        self.data = data
        self.root = data.root
        self.here = here
        self.env = env
        self.ksrc = Ksrc(env["KSRC"]) if env.get("KSRC") else None
        self._images = None
        # Cell names of branches that run on a tree you bring are read
        # without KSRC (tools --all, fields).
        self.any_tree = False

    # --- helpers -----------------------------------------------------------
    def e(self, name, default=""):
        return self.env.get(name) or default

    def words(self, names):
        return " ".join(names)

    def shipped(self):
        return self.data.role("SHIPPED_VARIANT")

    def fix_variant(self):
        return self.data.role("FIX_VARIANT")

    def kc_source(self, c):
        f = self.data.kconfig_files.get(c)
        return (f.get("SOURCE") if f else "") or "tiny"

    def packaged_kconfigs(self):
        return [c for c in self.data.kconfigs if self.kc_source(c) != "kconfig"]

    def kconfig_prep_check(self, sym):
        """kconfig-prep.sh's checks of KCONFIG (one line from it if not)."""
        r = run([os.path.join(self.here, "kconfig-prep.sh"), self.env["KCONFIG"], sym], quiet=True)
        if r.returncode != 0:
            raise SystemExit(1)

    def need_kconfig(self, arch):
        sym = self.data.aval(arch, "KCONFIG_SYMBOL")
        if not sym:
            raise DataError(f"arches/{arch}/arch.mk has no KCONFIG_SYMBOL: no configuration of your own on {arch}")
        self.kconfig_prep_check(sym)

    # --- kernel images you bring (IMAGE=) -----------------------------------
    def images(self):
        """IMAGE's files (a list: make shipped gives several), each read
        once: {id: BroughtImage}; bad input is one line (exit 2)."""
        if self._images is None:
            from .image import ImageError
            if self.ksrc is not None:
                raise ImageError(f"KSRC={self.env['KSRC']} is a tree to build, IMAGE={self.env['IMAGE']} an image to boot: give one of them")
            paths = self.env["IMAGE"].split()
            if self.e("KCONFIG") and len(paths) > 1:
                raise ImageError(f"KCONFIG={self.env['KCONFIG']} goes with one IMAGE=, not {len(paths)}: "
                                 "put each image's configuration beside it as config-<release>")
            self._images = {}
            for path in paths:
                im = self.bring_image(path)
                n, i = im.id, 2
                while im.id in self._images:
                    im.id, i = f"{n}.{i}", i + 1
                self._images[im.id] = im
        return self._images

    def bring_image(self, path):
        """One image read: its arch (the stanza whose IMAGE_FORMATS names
        its format), its branch (by its version: the expectations, the
        guest's C library), its configuration (KCONFIG=, or beside it)."""
        from .image import Image, ImageError, config_beside, is_config
        im = Image(path)
        d = self.data
        arches = [a for a in d.arches if im.fmt in d.aval(a, "IMAGE_FORMATS").split()]
        if im.fmt == "bzImage":
            arches = [a for a in d.arches if any(f.startswith("bzImage") for f in d.aval(a, "IMAGE_FORMATS").split())]
        if not arches:
            raise ImageError(f"IMAGE={path} is a {im.fmt} kernel ({im.release}): no arch stanza boots that format "
                             f"(arches/*/arch.mk IMAGE_FORMATS; the arches: {self.words(d.arches)})")
        im.arches = arches
        im.id = re.sub(r"[^A-Za-z0-9._-]", "_", im.release)
        # Where ranges overlap (only a tree's code tells those layouts
        # apart), the later layout: an image's code cannot be read.
        try:
            im.branch = self.branch_for(im.version, latest=True)
        except DataError:
            tops = sorted(((d.bval(b, "VERSION_MAX"), b) for b in d.branches if d.bval(b, "VERSION_MAX")),
                          key=lambda t: [int(n) for n in t[0].split(".")])
            lows = [d.bval(b, "VERSION_MIN") for b in d.branches if d.bval(b, "VERSION_MIN")]
            if tops and ver_le(tops[-1][0], im.version):
                im.branch = tops[-1][1]
                self.note(f"warning: IMAGE={path} is Linux {im.version}, newer than every branch: "
                          f"judged as branch {im.branch}'s stock kernel is")
            else:
                oldest = min(lows, key=lambda v: [int(n) for n in v.split(".")]) if lows else "?"
                raise ImageError(f"IMAGE={path} is Linux {im.version} ({im.release}), older than every branch "
                                 f"(the oldest takes {oldest}): the leap test's guest does not run there")
        cfg = self.e("KCONFIG") or config_beside(path, im.release)
        if cfg and not is_config(cfg):
            raise ImageError(f"KCONFIG={cfg} is not a kernel configuration (no CONFIG_ lines): give the image's .config, "
                             "or leave KCONFIG out")
        im.config = os.path.realpath(cfg) if cfg else ""
        # The package it came from, where scripts/fetch-shipped.sh put it.
        im.package = ""
        pf = os.path.join(os.path.dirname(os.path.abspath(path)), "debian-package")
        if os.path.isfile(pf):
            with open(pf) as f:
                im.package = f.read().strip()
        return im

    def image_cells(self, wb, wa, wv, modes):
        """The cells of IMAGE's files: each on its arch, the shipped variant."""
        from .image import ImageError
        if wv and wv != [self.shipped()]:
            raise ImageError(f"IMAGE= boots the image as it is: VARIANT={self.shipped()} only, not VARIANT={' '.join(wv)}")
        out = []
        for iid, im in self.images().items():
            a = im.arches[0]
            if wa:
                both = [x for x in im.arches if x in wa]
                if not both:
                    raise ImageError(f"IMAGE={im.path} is a {im.fmt} kernel for {' or '.join(im.arches)}, not ARCH={' '.join(wa)}")
                a = both[0]
            elif len(im.arches) > 1:
                raise ImageError(f"IMAGE={im.path} is a {im.fmt} whose header does not say 32 or 64 bits: "
                                 f"give ARCH= ({' or '.join(im.arches)})")
            if wb and im.branch not in wb:
                continue
            for m in modes:
                out.append(f"{im.branch}-{a}-{self.shipped()}@image.{iid}{'' if m == 'default' else '+' + m}")
        return out

    # --- a tree you bring ----------------------------------------------------
    def ksrc_branch(self, b):
        """KSRC must be a tree of b's range; the variants it runs by default:
        on a tree that already carries the fix, every variant but the fix
        (the shipped one expected to PASS), else the shipped one and the fix."""
        k = self.ksrc
        v, fix = k.version, k.fix
        lo, hi = self.data.bval(b, "VERSION_MIN"), self.data.bval(b, "VERSION_MAX")
        if lo and hi and not (ver_le(lo, v) and ver_le(v, hi)) and self.newer_than_all(v, k, quiet=True) != b:
            carries = ""
            if fix:
                carries = f" (its code already carries the {'leap-second' if fix == 'fixed' else fix} fix)"
            raise DataError(f"KSRC={k.path} is {k.named(v)}{carries}, not a tree of branch {b} ({lo}-{hi}); "
                            f"the tree is left as it is: make qemu KSRC={k.path} picks its branch")
        run = self.ksrc_variants(b, fix)
        miss = k.misses(self.data.bval(b, "LAYOUT")) if self.patches_any(b, run) else []
        if miss:
            raise DataError(f"KSRC={k.path} ({k.named(v)}) is not in branch {b}'s layout ({'; '.join(miss)}); "
                            f"nothing built, the tree is left as it is: make qemu KSRC={k.path} picks its branch by its code")
        return run

    def ksrc_variants(self, b, fix):
        """The variants a tree you bring runs on branch b: where its code
        carries the whole fix, every variant but the fix; else the shipped
        one and the fix."""
        if fix == "fixed":
            return [x for x in self.data.bval(b, "VARIANTS").split() if x != self.fix_variant()]
        return [self.shipped(), self.fix_variant()]

    def patches_any(self, b, variants):
        """Whether any of the variants patches the tree (beyond build aids):
        only then must the tree's code be in the branch's layout."""
        return any(self.data.bval(b, f"PATCHES_{x}").split() for x in variants)

    def ksrc_note(self, b):
        k = self.ksrc
        if k.rt and k.rt_option and not self.e("KCONFIG"):
            self.note(f"KSRC={k.path} carries the PREEMPT_RT patch ({k.rt}): built with it, the tiny "
                      f"configuration and CONFIG_{k.rt_option}=y (the plan and each cell's record say so: tree.rt)")
        elif k.rt and not self.e("KCONFIG"):
            self.note(f"KSRC={k.path} carries the PREEMPT_RT patch ({k.rt}), but its Kconfig names no full-preemption "
                      f"option this knows (PREEMPT_RT_FULL, PREEMPT_RT): built without it, the RT kernel is not what runs "
                      f"(the plan and each cell's record say so: tree.rt)")
        if k.fix == "fixed":
            more = [x for x in self.data.bval(b, "VARIANTS").split() if x not in (self.shipped(), self.fix_variant())]
            self.note(f"KSRC={k.path} ({k.named()}) already carries the leap-second fix in its code "
                      f"(the leap notifies the hrtimers; the leap edge is handled): branch {b} runs "
                      f"{self.shipped()} (expected PASS)"
                      f"{' and ' + ' '.join(more) + ' (as the branch expects of them)' if more else ' only'}")
        elif k.fix == "2012":
            has = " ".join(k.has)
            self.note(f"KSRC={k.path} ({k.named()}) carries the 2012 fix but not the 2015 leap-edge fix"
                      f"{' in full (of 833f32d76302 and 96efdcf2d080 only ' + has + ')' if has else ''}: "
                      f"{self.shipped()} and {self.fix_variant()}, each patch of the fix decided from the tree's code")
            self.note(self.patch_decisions(b))

    def patch_decisions(self, b):
        """What the fix variant does to the tree you bring, patch by patch
        (tree-patch.sh check, a dry run on copies of the files): the ones it
        applies and the ones it skips, each named by its upstream commit."""
        patches = self.series(self.variant_stack(b, self.fix_variant()))
        if not patches:
            return f"{self.fix_variant()}: no patch"
        env = dict(os.environ, LEAP_STABLE_FORM=" ".join(self.series(self.stable_form(b, self.fix_variant()))))
        r = run([os.path.join(self.here, "tree-patch.sh"), "check", self.ksrc.path] + patches, capture=True,
                quiet_errors=True, env=env)
        names = {os.path.basename(p): p for p in patches}
        apply, skip, fail = [], [], []
        for line in r.stdout.splitlines():
            name, _, what = line.partition(": ")
            p = names.get(name)
            if p is None:
                continue
            d = os.path.basename(os.path.dirname(p))
            tag = f"{os.path.basename(os.path.dirname(os.path.dirname(p)))}/{d}/{name[:4]}"
            with open(p, errors="replace") as f:
                m = re.search(r"^commit ([0-9a-f]{12})[0-9a-f]* upstream\.", f.read(), re.M)
            tag += f" ({m.group(1)})" if m else " (the project's)"
            if what.startswith("applies"):
                apply.append(tag)
            elif what.startswith("already in the tree"):
                skip.append(f"{tag}: {what.replace('already in the tree', 'in the tree', 1)}")
            else:
                fail.append(f"{tag}: {what}")
        out = f"{self.fix_variant()} applies {', '.join(apply) or 'nothing'}"
        if skip:
            out += f"; skips {'; '.join(skip)}"
        if fail:
            out += f"; does not apply: {'; '.join(fail)}"
        return out

    def note(self, line):
        # What was printed before it comes first, with Python's stdout
        # buffered or not (PYTHONUNBUFFERED).
        sys.stdout.flush()
        print(f"plan: {line}", file=sys.stderr)

    def stable_form(self, b, x):
        """The patch directories of variant x that a tree you bring whose code
        carries stable's own 2012 fix may have in a form of its own (FIX_2012):
        a patch of them that neither applies nor is found is taken as there."""
        if self.ksrc is None or self.ksrc.fix != "2012":
            return []
        fix = self.data.bval(b, "FIX_2012").split()
        return [d for d in self.variant_stack(b, x) if d in fix]

    def variant_stack(self, b, x):
        """The variant's patch directories.  On a tree you bring, each patch
        is then decided from the tree's code when it is applied (tree-patch.sh:
        applied, or skipped where its change is there, as it is or in another
        form): a tree with stable's own form of the 2012 fix still takes what
        that form lacked (3.0.38's tree lacks 6b1859dba01c, 3.0.39's fix)."""
        return self.data.bval(b, f"PATCHES_{x}").split()

    def edge_missing(self, b):
        out = []
        for e in self.data.bval(b, "EDGE_FIXES").split():
            commit, check = e.split(":", 1)
            if commit not in self.ksrc.has:
                out.append(check)
        return out

    # --- lists asked for -------------------------------------------------------
    def boot_list(self, boot):
        if not boot:
            return ["default"]
        if boot == "all":
            return ["default"] + self.data.boots
        for x in boot.split():
            if x != "default" and x not in self.data.boot_files:
                raise DataError(f"unknown BOOT '{x}': use one of: default {self.words(self.data.boots)}, or all")
        return boot.split()

    def config_list(self, config):
        if self.e("KCONFIG"):
            self.kconfig_prep_check("-")
            if config in ("", "kconfig"):
                return ["kconfig"]
            raise DataError(f"KCONFIG={self.env['KCONFIG']} is a configuration of its own (its cells are @kconfig): leave out CONFIG={config}")
        if not config:
            return ["tiny"]
        if config == "all":
            return self.packaged_kconfigs()
        for x in config.split():
            if x not in self.data.kconfig_files:
                raise DataError(f"unknown CONFIG '{x}': use one of: {self.words(self.packaged_kconfigs())}, or all "
                                f"(your own file: KCONFIG=/path/to/.config)")
            if self.kc_source(x) == "kconfig":
                raise DataError(f"CONFIG={x} is the file KCONFIG names: give KCONFIG=/path/to/.config")
        return config.split()

    def config_fits(self, c, b, a=""):
        """None if b's tree builds c (on a), else why not."""
        src = self.kc_source(c)
        if src == "kconfig":
            if not a:
                return None
            sym = self.data.aval(a, "KCONFIG_SYMBOL")
            if sym:
                with open(self.env["KCONFIG"], errors="surrogateescape") as f:
                    if f"{sym}=y" in f.read().split("\n"):
                        return None
            return f"KCONFIG={self.env['KCONFIG']} is no configuration for {a}{' (no ' + sym + '=y)' if sym else ''}: no {a} cells"
        if src == "debian" and self.ksrc is not None:
            return f"a tree you bring has no Debian configuration of its version: give it yours with KCONFIG=, not CONFIG={c}"
        found, have = self.data.lookup(b, "KCONFIGS")
        if not found:
            have = "tiny"
        if c in have.split():
            return None
        why = self.data.kconfig_files[c].get("WITHOUT") if c in self.data.kconfig_files else ""
        return f"branch {b} has no @{c} cells{' (' + why + ')' if why else ''}: it builds {have}"

    def configs(self, arch, frags, own=True, extra=()):
        """The config fragment files, in merge order (absolute): FRAGS (the
        harness's CONFIGS when empty), then EXTRA, then the arch's own."""
        r = self.root
        if arch not in self.data.arch_files:
            raise DataError(f"unknown ARCH '{arch}': use one of: {self.words(self.data.arches)}")
        frags = (frags or (self.data.harness.get("CONFIGS") or "common").split()) + list(extra)
        out = []
        for c in frags:
            if not os.path.isfile(f"{r}/configs/{c}.config"):
                raise DataError(f"no configs/{c}.config: a branch.mk's CONFIGS or a configuration's FRAGMENTS names a missing fragment")
            out.append(f"{r}/configs/{c}.config")
        if own:
            if not os.path.isfile(f"{r}/arches/{arch}/arch.config"):
                raise DataError(f"no arches/{arch}/arch.config: an arch stanza has its kernel config fragment")
            out.append(f"{r}/arches/{arch}/arch.config")
        out += [f"{r}/arches/{arch}/{c}.config" for c in frags if os.path.isfile(f"{r}/arches/{arch}/{c}.config")]
        return out

    def frag_files(self, c, b, a):
        if self.kc_source(c) == "tiny":
            # A tree with the RT patch is built with it: the tiny
            # configuration (the branch's fragments, or the harness's
            # default ones) and the tree's full preemption on top.
            rt = []
            if self.ksrc is not None and self.ksrc.rt_option:
                rt = [{"PREEMPT_RT_FULL": "rt-full", "PREEMPT_RT": "rt"}[self.ksrc.rt_option]]
            return self.configs(a, self.data.bval(b, "CONFIGS").split(), extra=rt)
        return self.configs(a, self.data.kconfig_files[c].get("FRAGMENTS").split(), own=False)

    def needs_met(self, mode, files):
        """None if the files, merged in order, set each line the mode NEEDS
        (the last file to name an option decides); else the first missing."""
        for need in self.data.boot_files[mode].get("NEEDS").split():
            name = need.split("=", 1)[0]
            rx = re.compile("^(# )?" + re.escape(name) + "[= ]")
            last = None
            for path in files:
                with open(path, errors="surrogateescape") as f:
                    for line in f.read().split("\n"):
                        if rx.match(line):
                            last = line
            if last != need:
                return need
        return None

    def boot_fits(self, m, b, a, c="tiny"):
        if m == "default":
            return None
        src = self.kc_source(c)
        if src == "debian":
            return None
        files = [self.env["KCONFIG"]] if src == "kconfig" else []
        files += self.frag_files(c, b, a)
        miss = self.needs_met(m, files)
        if miss is None:
            return None
        return f"boot mode {m} needs {miss}, which the {c} configuration of {b} on {a} does not set"

    # --- cells ------------------------------------------------------------------
    def check_names(self, want, have, what):
        for x in want:
            if x not in have:
                raise DataError(f"unknown {what} '{x}': use one of: {self.words(have)}")

    def cells(self, want_b="", want_a="", want_v="", boot="", config=""):
        """Cell names; notes on what has no cell go to stderr at the end."""
        d = self.data
        wb, wa, wv = want_b.split(), want_a.split(), want_v.split()
        self.check_names(wb, d.branches, "BRANCH")
        self.check_names(wa, d.arches, "ARCH")
        self.check_names(wv, d.variants(), "VARIANT")
        modes = self.boot_list(boot)
        if self.e("IMAGE"):
            if config:
                from .image import ImageError
                raise ImageError(f"IMAGE= boots the image with its own configuration: leave out CONFIG={config}")
            return self.image_cells(wb, wa, wv, modes)
        cfgs = self.config_list(config)
        took, why, notes, have_a, out = set(), {}, [], [], []
        seen_why = set()
        for b in d.branches:
            if wb and b not in wb:
                continue
            vs = wv
            if self.ksrc is not None:
                self.ksrc.need_tree()
                default = self.ksrc_branch(b)
                vs = vs or default
                self.ksrc_note(b)
            if not d.bval(b, "PACKAGE") and self.ksrc is None:
                if wb:
                    raise DataError(f"branch {b} runs on a tree you bring: make qemu-{b} KSRC=/path/to/linux-{b}.x")
                continue
            arches = d.branch_arches(b)
            have_a.append(f" {b}: {' '.join(arches)}")
            for a in arches:
                if wa and a not in wa:
                    continue
                took.add("%" + a)
                for c in cfgs:
                    r = self.config_fits(c, b, a)
                    if r is not None:
                        if (c, r) not in seen_why:
                            notes.append(f"plan: {r}")
                        why["@" + c] = r
                        seen_why.add((c, r))
                        continue
                    took.add("@" + c)
                    cs = "" if c == "tiny" else "@" + c
                    for m in modes:
                        r = self.boot_fits(m, b, a, c)
                        if r is not None:
                            notes.append(f"plan: {r}: no +{m} cells")
                            why[m] = r
                            continue
                        took.add(m)
                        ms = "" if m == "default" else "+" + m
                        for v in d.bval(b, "VARIANTS").split():
                            if vs and v not in vs:
                                continue
                            out.append(f"{b}-{a}-{v}{cs}{ms}")
        for x in wa:
            if "%" + x not in took:
                raise DataError(f"no selected branch takes ARCH={x} (the arches each builds:{';'.join(have_a)})")
        if (config or ("kconfig" if self.e("KCONFIG") else "")) not in ("", "all"):
            for c in cfgs:
                if "@" + c not in took and ("@" + c) in why:
                    raise DataError(f"{why['@' + c]}: no cell takes CONFIG={c}")
        if boot not in ("", "all"):
            for m in modes:
                if m not in took and m in why:
                    raise DataError(f"{why[m]}: no cell takes BOOT={m}")
        for n in notes:
            print(n, file=sys.stderr)
        return out

    def mutant_cells(self, b, want_a="", c=""):
        if " " in c or c == "all":
            raise DataError(f"the mutants take one configuration at a time, not CONFIG={c}")
        cfg = self.config_list(c)[0]
        cs = "" if cfg == "tiny" else "@" + cfg
        self.cells(b, want_a, self.shipped(), "", c)
        if not os.path.isdir(f"{self.root}/mutants/{b}"):
            have = " ".join(x + "/" for x in sorted(os.listdir(f"{self.root}/mutants")))
            raise DataError(f"no mutants/{b}/ directory: mutants exist for: {have} ")
        wa = want_a.split()
        out = []
        for a in self.data.branch_arches(b):
            if wa and a not in wa:
                continue
            out.append(f"{b}-{a}-{self.shipped()}{cs}")
            out += [f"{b}-{a}-{m}{cs}" for (mb, m) in sorted(self.data.mutant_files) if mb == b]
        return out

    def parse(self, name):
        """A cell's name read back, checked (one line if it names no cell)."""
        d, cell, m, c = self.data, name, "default", "tiny"
        if "+" in cell:
            cell, m = cell.rsplit("+", 1)
            if m not in d.boot_files:
                raise DataError(f"unknown CELL '{name}': no boot mode '{m}' (use one of: {self.words(d.boots)})")
        image = None
        if "@image." in cell:
            cell, iid = cell.rsplit("@image.", 1)
            if not self.e("IMAGE"):
                raise DataError(f"CELL '{name}' boots a kernel image you bring: give IMAGE=/path/to/vmlinuz")
            image = self.images().get(iid)
            if image is None:
                raise DataError(f"unknown CELL '{name}': IMAGE= has no image '{iid}' (it has: {self.words(self.images())})")
            c = "image"
            if not cell.startswith(image.branch + "-"):
                raise DataError(f"unknown CELL '{name}': the image {iid} is judged on branch {image.branch}")
            rest = cell[len(image.branch) + 1:]
            a, _, v = rest.partition("-")
            if a not in image.arches or v != self.shipped():
                raise DataError(f"unknown CELL '{name}': the image {iid} boots as {image.branch}-{image.arches[0]}-{self.shipped()}@image.{iid}")
            return Cell(name, image.branch, a, v, False, c, m, image)
        elif self.e("IMAGE"):
            raise DataError(f"IMAGE={self.env['IMAGE']} boots @image cells, not CELL '{name}' (see make list-cells IMAGE=...)")
        if "@" in cell:
            cell, c = cell.rsplit("@", 1)
            if c not in d.kconfig_files or c == "tiny":
                raise DataError(f"unknown CELL '{name}': no configuration '{c}' (use one of: "
                                f"{self.words([k for k in d.kconfigs if k != 'tiny'])})")
            if self.kc_source(c) == "kconfig":
                if not self.e("KCONFIG"):
                    raise DataError(f"CELL '{name}' is built from your own configuration: give KCONFIG=/path/to/.config")
            elif self.e("KCONFIG"):
                raise DataError(f"KCONFIG={self.env['KCONFIG']} builds @kconfig cells, not CELL '{name}'")
        elif self.e("KCONFIG"):
            raise DataError(f"KCONFIG={self.env['KCONFIG']} builds @kconfig cells, not CELL '{name}' (e.g. {cell}@kconfig)")
        for b in d.branches:
            if not cell.startswith(b + "-"):
                continue
            if not d.bval(b, "PACKAGE") and self.ksrc is None and not self.any_tree:
                raise DataError(f"branch {b} runs on a tree you bring: make cell CELL={name} KSRC=/path/to/linux-{b}.x")
            if self.ksrc is not None:
                self.ksrc.need_tree()
            for a in d.arches:
                if not cell.startswith(f"{b}-{a}-"):
                    continue
                rest = cell[len(f"{b}-{a}-"):]
                if a not in d.branch_arches(b):
                    raise DataError(f"unknown CELL '{name}': branch {b} has no {a} cells; see 'make list-cells'")
                if rest in d.bval(b, "VARIANTS").split():
                    mut = False
                elif (b, rest) in d.mutant_files:
                    mut = True
                else:
                    raise DataError(f"unknown CELL '{name}': branch {b} has no variant or mutant '{rest}'; see 'make list-cells'")
                r = self.config_fits(c, b)
                if r is not None:
                    raise DataError(f"{r}: no cell {name}")
                if c == "kconfig":
                    self.need_kconfig(a)
                r = self.boot_fits(m, b, a, c)
                if r is not None:
                    raise DataError(f"{r}: no cell {name}")
                return Cell(name, b, a, rest, mut, c, m)
            raise DataError(f"unknown CELL '{name}': no arch after '{b}-'; see 'make list-cells'")
        if cell.count("-") >= 2:
            raise DataError(f"unknown CELL '{name}' (no such branch); see 'make list-cells'")
        raise DataError(f"CELL '{name}' is not <branch>-<arch>-<variant>: see 'make list-cells'")

    def branch_for(self, ver, tree=None, latest=False):
        """The branch whose range holds ver; with a tree, among those, the
        first whose LAYOUT its code shows (ranges may overlap where only the
        code tells the layouts apart); without one, the first, or with
        latest the one whose range starts last (a kernel whose code cannot
        be read: an image)."""
        ranges, cands = "", []
        for b in self.data.branches:
            lo, hi = self.data.bval(b, "VERSION_MIN"), self.data.bval(b, "VERSION_MAX")
            if not (lo and hi):
                continue
            if f" {lo}-{hi}" not in ranges:
                ranges += f" {lo}-{hi}"
            if ver_le(lo, ver) and ver_le(ver, hi):
                cands.append(b)
        k = None if tree is None else tree if isinstance(tree, Ksrc) else Ksrc(tree)
        if not cands and k is not None:
            newer = self.newer_than_all(ver, k)
            if newer:
                return newer
            carries = {"fixed": " and its code already carries the leap-second fix",
                       "2012": " and its code carries the 2012 fix but not both 2015 leap-edge fixes "
                               "(upstream 833f32d76302, 96efdcf2d080)"}.get(k.fix, "")
            raise DataError(f"KSRC={k.path} is {k.named(ver)}, which no branch supports "
                            f"(see branches/*/branch.mk VERSION_MIN/MAX){carries}")
        if not cands:
            raise DataError(f"no branch supports kernel {ver}: supported ranges are{ranges}")
        if k is None:
            return max(cands, key=lambda b: [int(n) for n in self.data.bval(b, "VERSION_MIN").split(".")]) \
                if latest else cands[0]
        seen = []
        for b in cands:
            miss = k.misses(self.data.bval(b, "LAYOUT"))
            if not miss:
                return b
            seen.append(f"not {b}'s: {', '.join(miss)}")
        # A tree that carries the whole fix in a layout of its own (a
        # vendor's backport) runs as it is where its branch would not patch it.
        if k.fix == "fixed":
            for b in cands:
                if not self.patches_any(b, self.ksrc_variants(b, "fixed")):
                    return b
        raise DataError(f"KSRC={k.path} is {k.named(ver)}, but its code is in no layout a branch of that line knows "
                        f"({'; '.join(seen)}); nothing built, the tree is left as it is")

    def newer_than_all(self, ver, k, quiet=False):
        """A tree newer than every branch's range: the newest branch whose
        LAYOUT its code shows, said in a warning line; None when it is not
        newer.  A tree in no layout is refused, naming what it lacks."""
        tops = [(self.data.bval(b, "VERSION_MAX"), b) for b in self.data.branches
                if self.data.bval(b, "VERSION_MAX") and self.data.bval(b, "LAYOUT")]
        if not tops or not all(ver_le(hi, ver) and hi != ver for hi, _ in tops):
            return None
        seen = []
        for hi, b in sorted(tops, key=lambda t: [int(n) for n in t[0].split(".")], reverse=True):
            miss = k.misses(self.data.bval(b, "LAYOUT"))
            if not miss:
                if quiet:
                    return b
                self.note(f"warning: KSRC={k.path} is {k.named(ver)}, newer than every branch (the newest takes "
                          f"up to {hi.replace('.9999', '')}): planned as branch {b}, whose layout its code shows")
                return b
            seen.append(f"not {b}'s: {', '.join(miss)}")
            break  # the newest layout only: an older one would not fit a newer tree better
        if quiet:
            return None
        raise DataError(f"KSRC={k.path} is {k.named(ver)}, newer than every branch, and its code is not in the newest "
                        f"layout ({'; '.join(seen)}); nothing built, the tree is left as it is")

    def series(self, dirs):
        files = []
        for dd in dirs:
            d = dd if dd.startswith("/") else f"{self.root}/branches/{dd}"
            if not os.path.isfile(f"{d}/series"):
                raise DataError(f"no {d}/series: a branch.mk or mutant names a patch directory without one")
            with open(f"{d}/series") as f:
                for p in f.read().split("\n"):
                    if p == "" or p.startswith("#"):
                        continue
                    if not os.path.isfile(f"{d}/{p}"):
                        raise DataError(f"{d}/series lists {p}, which does not exist")
                    files.append(os.path.realpath(f"{d}/{p}"))
        return files
