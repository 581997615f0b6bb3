"""A cell's plan: pinned inputs first (pin), then the plan itself (resolve).

`pin` is the one step that may go to the network: it records, under the
build directory, the Debian version each tree is planned at
(BUILD/pins/<package>.version, or <package>=<version>.version for a
DEBIAN_VERSION upload, checked) and fetches each configuration base.
`resolve` reads files only, so a dry run works offline once pinned, and
gives the same plan each time.
"""

import os
import re
import sys

from .cells import Planner
from .data import DataError
from .proc import run
from .quote import q

PLAN_VERSION = 1
# Bump when the way an image is built changes: every image is rebuilt.
# 2: comment lines of the config fragments no longer count.
# 3: "# CONFIG_X is not set" counts (it turns an option off: not a comment).
IMAGE_KEY_VERSION = 3
# The timekeeping options a configuration that is not tiny must keep from
# its source (with the arch's CLOCK_OPTIONS), recorded for every cell.
TK_OPTIONS = ("HZ HZ_PERIODIC NO_HZ_IDLE NO_HZ_FULL PREEMPT_NONE PREEMPT_VOLUNTARY PREEMPT "
              "PREEMPT_LAZY PREEMPT_RT PREEMPT_DYNAMIC HIGH_RES_TIMERS SMP NR_CPUS").split()
CMDLINE_HEAD = "leaptest.harness=1 panic=-1 softlockup_panic=0"
ARCH_FIELDS = "KARCH CROSS IMAGE QEMU QEMU_ARGS CONSOLE CMDLINE GUEST_CC PACKAGES".split()


def sha256(data=b""):
    """A sha256 of data (hashlib is imported by the calls that plan, not by
    every call: a planner call's start is most of its time)."""
    import hashlib
    return hashlib.sha256(data)


def sha256_file(path):
    with open(path, "rb") as f:
        return sha256(f.read()).hexdigest()


class Resolver(Planner):

    def __init__(self, data, here, env):
        super().__init__(data, here, env)
        self.build = os.path.realpath(self.e("BUILD_DIR") or f"{self.root}/build")

    def limit(self):
        return self.e("LIMIT", self.data.role("LIMIT"))

    def silence(self):
        return self.e("SILENCE", self.data.role("SILENCE"))

    # --- the run's inputs, checked once ------------------------------------
    def check_inputs(self):
        if not re.fullmatch(r"[1-9][0-9]{0,3}", self.limit()):
            raise DataError(f"LIMIT={self.limit()}: give whole seconds")
        if not re.fullmatch(r"[0-9]|[1-9][0-9]{1,2}", self.silence()):
            raise DataError(f"SILENCE={self.silence()}: give whole seconds (0 turns the silence kill off)")
        if not re.fullmatch(r"[1-9][0-9]{0,2}", self.e("JOBS", "1")):
            raise DataError(f"JOBS={self.e('JOBS')}: give a number of build jobs, 1 or more")
        if self.e("CCACHE", "0") not in ("0", "1"):
            raise DataError(f"CCACHE={self.e('CCACHE')}: give 1 (compile through ccache, cached in BUILD_DIR/ccache) or 0")
        if self.e("DEBIAN_VERSION") and self.e("KSRC"):
            raise DataError(f"DEBIAN_VERSION={self.env['DEBIAN_VERSION']} picks a Debian upload, KSRC={self.env['KSRC']} "
                            "is a tree you bring: give one of them")
        seen = set()
        for v in self.e("DEBIAN_VERSION").split():
            b = self.debian_branch(v)
            if b in seen:
                raise DataError(f"DEBIAN_VERSION={self.env['DEBIAN_VERSION']}: two versions for branch {b}, give one")
            seen.add(b)

    def debian_branch(self, v):
        if not re.fullmatch(r"[0-9].*\..*-.*", v):
            raise DataError(f"DEBIAN_VERSION={v}: give Debian's version of a linux-source package, e.g. 5.10.223-1")
        try:
            b = self.branch_for(v.split("-", 1)[0])
        except DataError:
            raise DataError(f"DEBIAN_VERSION={v}: no branch's range holds it (give Debian's version of a packaged tree, e.g. 5.10.223-1)")
        if not self.data.bval(b, "PACKAGE"):
            raise DataError(f"DEBIAN_VERSION={v}: branch {b} has no Debian package (a tree you bring is KSRC=)")
        return b

    def debian_want(self, pkg):
        for v in self.e("DEBIAN_VERSION").split():
            if self.data.bval(self.debian_branch(v), "PACKAGE") == pkg:
                return v
        return ""

    def need_arch_keys(self, a):
        f = self.data.arch_files[a]
        for k in ARCH_FIELDS:
            if not f.has(k):
                raise DataError(f"arches/{a}/arch.mk has no {k}: an arch stanza names every field (see docs/plan.md)")

    def flavour(self, b, a):
        """The guest flavour: (name, its compiler, its packages)."""
        f = self.data.arch_files[a]
        libc = self.data.bval(b, "GUEST_LIBC")
        if libc:
            if not f.has(f"GUEST_CC_{libc}"):
                raise DataError(f"branch {b} wants a {libc} guest, and arches/{a}/arch.mk has no GUEST_CC_{libc}")
            return f"{a}-{libc}", f.get(f"GUEST_CC_{libc}"), f.get(f"PACKAGES_{libc}").split()
        return a, f.get("GUEST_CC"), []

    def tools(self, cells, every=False):
        self.check_inputs()
        if every:
            # Every branch on each of its arches, trees you bring included.
            cells = [f"{b}-{a}-{self.data.bval(b, 'VARIANTS').split()[0]}"
                     for b in self.data.branches for a in self.data.branch_arches(b)]
            self.any_tree = True
        out = []
        for name in cells:
            c = self.parse(name)
            self.need_arch_keys(c.arch)
            out += self.data.aval(c.arch, "PACKAGES").split()
            out += self.flavour(c.branch, c.arch)[2]
            if self.e("CCACHE", "0") != "0":
                out.append("ccache:ccache")
        seen, res = set(), []
        for t in out:
            if t not in seen:
                seen.add(t)
                res.append(t)
        return res

    # --- pinned inputs -------------------------------------------------------
    def pin_path(self, pkg, want):
        return f"{self.build}/pins/{pkg}{'=' + want if want else ''}.version"

    def extracted(self, pkg):
        t = f"{self.build}/trees/{pkg}"
        if os.path.isfile(f"{t}.version") and os.path.isfile(f"{t}/Makefile"):
            with open(f"{t}.version") as f:
                return f.read().strip("\n")
        return ""

    def pinned_version(self, pkg):
        want = self.debian_want(pkg)
        have = self.extracted(pkg)
        if want and have and have != want:
            raise DataError(f"{self.build}/trees/{pkg} holds {pkg} {have}, the plan wants {want}: use another BUILD_DIR, "
                            f"or remove {self.build}/trees/{pkg} and {self.build}/trees/{pkg}.version to fetch it again")
        if have and (not want or have == want):
            return have
        p = self.pin_path(pkg, want)
        if not os.path.isfile(p):
            raise DataError(f"{pkg}{' ' + want if want else ''} is not pinned in {self.build}: "
                            "run scripts/plan.sh pin with the cells first (make and matrix.sh do)")
        with open(p) as f:
            return f.read().strip("\n")

    def write(self, path, data):
        """path holds data (text or bytes) whole, or is as it was."""
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path + ".tmp", "wb" if isinstance(data, bytes) else "w") as f:
            f.write(data)
        os.replace(path + ".tmp", path)

    def each(self, names, keep_going, work):
        """work(name) for each cell; keep_going: a cell that fails is named
        in one line and left out (the others go on); returns those done."""
        done = []
        for name in names:
            try:
                work(name)
                done.append(name)
            except (DataError, SystemExit) as e:
                if not keep_going:
                    raise
                if isinstance(e, DataError):
                    print(f"plan: {e}", file=sys.stderr)
                print(f"plan: left out: {name}", file=sys.stderr)
        return done

    def pin(self, names, missing_only=False, keep_going=False):
        """Pin each Debian tree's version and fetch each configuration base."""
        self.check_inputs()
        done = set()

        def one(name):
            c = self.parse(name)
            if c.image is not None:
                return  # an image you bring: nothing to fetch
            b, a = c.branch, c.arch
            pkg = self.data.bval(b, "PACKAGE")
            if self.ksrc is None and pkg not in done:
                done.add(pkg)
                want = self.debian_want(pkg)
                p = self.pin_path(pkg, want)
                have = self.extracted(pkg)
                if not (missing_only and (os.path.isfile(p) or (have and (not want or have == want)))):
                    r = run([f"{self.here}/fetch-tree.sh", "-V", pkg, self.data.bval(b, "SUITES"), self.build]
                            + ([want] if want else []), capture=True)
                    if r.returncode != 0:
                        raise SystemExit(1)
                    self.write(p, r.stdout.strip("\n") + "\n")
            self.kconfig_base(b, a, c.config, None if self.ksrc is not None else self.pinned_version(pkg), fetch=True)
        return self.each(names, keep_going, one)

    def kconfig_base(self, b, a, c, ver, fetch=False):
        """(base, origin, sha, desc) of a configuration that is not tiny:
        its source file (Debian's at the tree's version, or KCONFIG's copy)
        and the base the build starts from (through kconfig-prep.sh)."""
        src = self.kc_source(c)
        if src == "tiny":
            return "", "", "", ""
        sha = ""
        if src == "debian":
            pkg = self.data.bval(b, "PACKAGE")
            if not pkg:
                raise DataError(f"branch {b} has no Debian package: CONFIG={c} needs one (a tree you bring takes KCONFIG=)")
            pkg = pkg.replace("linux-source-", "linux-config-")
            debarch = self.data.aval(a, "DEBIAN_ARCH")
            if not debarch:
                raise DataError(f"arches/{a}/arch.mk has no DEBIAN_ARCH: no Debian configuration for {a}")
            file = self.data.kconfig_files[c].get("FILE").replace("$(DEBIAN_ARCH)", debarch)
            file = file.replace("$(DEBIAN_FLAVOUR)", self.data.aval(a, "DEBIAN_FLAVOUR"))
            raw = f"{self.build}/kconfigs/{pkg}_{ver}_{debarch}/{file}"
            if fetch and not os.path.isfile(raw):
                r = run([f"{self.here}/fetch-config.sh", pkg, self.data.bval(b, "SUITES"), self.build,
                         ver, debarch, file], quiet=True)
                if r.returncode != 0:
                    raise SystemExit(1)
            desc = f"{pkg} {ver} ({debarch}) {file}"
        else:
            sha = sha256_file(self.env["KCONFIG"])
            raw = f"{self.build}/kconfigs/yours/{sha}.config"
            if fetch and not os.path.isfile(raw):
                with open(self.env["KCONFIG"], "rb") as f:
                    self.write(raw, f.read())
            desc = os.path.realpath(self.env["KCONFIG"])
        sym = self.data.aval(a, "KCONFIG_SYMBOL")
        if not sym:
            raise DataError(f"arches/{a}/arch.mk has no KCONFIG_SYMBOL: no configuration {c} on {a}")
        if not os.path.isfile(raw):
            raise DataError(f"{desc} is not pinned in {self.build}: run scripts/plan.sh pin with the cells first (make and matrix.sh do)")
        sha = sha or sha256_file(raw)
        prep = sha256_file(f"{self.here}/kconfig-prep.sh")[:8]
        mods = self.kconfig_modules()
        base = f"{self.build}/kconfigs/base/{sha}-{prep}-{a}{'-modules' if mods == 'on' else ''}.config"
        if not os.path.isfile(base):
            if not fetch:
                raise DataError(f"the base of {desc} is not pinned in {self.build}: run scripts/plan.sh pin with the cells first (make and matrix.sh do)")
            os.makedirs(os.path.dirname(base), exist_ok=True)
            with open(base + ".tmp", "wb") as out:
                r = run([f"{self.here}/kconfig-prep.sh", raw, sym, mods], stdout=out)
            if r.returncode != 0:
                os.unlink(base + ".tmp")
                raise SystemExit(1)
            os.replace(base + ".tmp", base)
        return base, raw, sha, desc

    def kconfig_modules(self):
        """KCONFIG_MODULES: off (module support off, the default) or on (kept,
        every =m unset: for vendor code that assumes modules)."""
        v = self.e("KCONFIG_MODULES", "off")
        if v not in ("on", "off"):
            raise DataError(f"KCONFIG_MODULES={v}: give on (keep module support, every =m unset) or off")
        return v

    # --- the plan ------------------------------------------------------------------
    def rel(self, p):
        return p[len(self.root) + 1:] if p.startswith(self.root + "/") else p

    def image_key(self, tree_id, version, a, cross, cc, hostcc, frags, base, patches):
        h = sha256()
        h.update(f"v{IMAGE_KEY_VERSION} {tree_id} {version} {a} {cross} {cc} {hostcc}\n".encode())
        # Lines that set something: not comments, but "# CONFIG_X is not set".
        keep = re.compile(rb"^[ \t\n\v\f\r]*[^# \t\n\v\f\r]|^# CONFIG_[A-Za-z0-9_]+ is not set$")
        for fr in frags:
            with open(fr, "rb") as f:
                lines = f.read().split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()
            for line in lines:
                if keep.search(line):
                    h.update(line + b"\n")
        for p in ([base] if base else []) + patches:
            with open(p, "rb") as f:
                h.update(f.read())
        return h.hexdigest()[:12]

    def resolve(self, out_dir, names, keep_going=False):
        import json
        os.makedirs(f"{out_dir}/cells", exist_ok=True)
        out_dir = os.path.realpath(out_dir)
        self.check_inputs()
        jobs = int(self.e("JOBS") or len(os.sched_getaffinity(0)))

        def one(name):
            plan = self.plan(out_dir, name, jobs)
            out = f"{out_dir}/cells/{name}"
            os.makedirs(out, exist_ok=True)
            self.write(f"{out}/plan.json", json.dumps(plan, indent=2) + "\n")
        return self.each(names, keep_going, one)

    def plan(self, out_dir, name, jobs):
        d, build = self.data, self.build
        c = self.parse(name)
        if c.image is not None:
            return self.image_plan(out_dir, c)
        b, a, x, m = c.branch, c.arch, c.variant, c.boot
        self.need_arch_keys(a)
        af = d.arch_files[a]
        out = f"{out_dir}/cells/{name}"

        # The tree.
        pkg, suites = d.bval(b, "PACKAGE"), d.bval(b, "SUITES")
        fix_state, vendor, rt = "", "", ""
        if self.ksrc is not None:
            tree = os.path.realpath(self.ksrc.path)
            self.ksrc_branch(b)
            version, src = self.ksrc.version, "ksrc"
            tree_id = "ksrc-" + sha256(tree.encode()).hexdigest()[:8]
            fix_state, vendor = self.ksrc.line, self.ksrc.vendor
            # A tree with the RT patch: built with it (the tiny configuration
            # and its full preemption; your own KCONFIG= as it says), or
            # said that it was not.
            rt = ""
            if self.ksrc.rt and self.e("KCONFIG"):
                rt = f"{self.ksrc.rt}, as KCONFIG= sets it"
            elif self.ksrc.rt:
                rt = f"{self.ksrc.rt}, built with CONFIG_{self.ksrc.rt_option}=y" if self.ksrc.rt_option else f"{self.ksrc.rt}, not built"
        else:
            version = self.pinned_version(pkg)
            tree, src, tree_id = f"{build}/trees/{pkg}", "debian", pkg

        # Patches: the branch's build aids, then the variant's or mutant's stack.
        stack = d.bval(b, "COMPAT").split()
        within = []
        splat = ""
        if c.mutant:
            mf = d.mutant_files[(b, x)]
            stack.append(f"{self.root}/mutants/{b}/{x}")
            expect, killers = mf.get("KILLED_BY").split(), mf.get("KILLER_TESTS").split()
            splat = mf.get("KILLER_SPLAT")
        else:
            stack += self.variant_stack(b, x)
            expect, killers = d.bval(b, f"EXPECT_{x}").split(), []
            if self.ksrc is not None and x == self.shipped():
                # A tree that carries stable's own form of the 2012 fix:
                # the shipped variant may fail only the checks the 2015
                # commits it lacks explain; a tree with the whole fix passes.
                if self.ksrc.fix == "2012":
                    within = self.edge_missing(b)
                elif self.ksrc.fix == "fixed":
                    expect = ["PASS"]
        if not expect:
            raise DataError(f"cell {name} has no expected verdict (EXPECT_{x} or KILLED_BY)")
        patches = self.series(stack)
        frags = self.frag_files(c.config, b, a)
        base, origin, ksha, desc = self.kconfig_base(b, a, c.config, version)
        if m != "default" and base:
            miss = self.needs_met(m, [base] + frags)
            if miss:
                raise DataError(f"boot mode {m} needs {miss}, which {desc} does not set: no cell {name}")
        tk_opts = TK_OPTIONS + af.get("CLOCK_OPTIONS").split()
        osfx = "@" + ksha[:8] if ksha else ""

        # Compilers: the user's, else the branch's; the arch's cross prefix.
        cross = self.e("CROSS_COMPILE") or af.get("CROSS")
        cc = self.e("KERNEL_CC") or d.bval(b, f"KERNEL_CC_{a}") or d.bval(b, "KERNEL_CC")
        hostcc = self.e("KERNEL_HOSTCC") or d.bval(b, "KERNEL_HOSTCC")

        key = self.image_key(tree_id, version, a, cross, cc, hostcc, frags, base, patches)
        imgdir = f"{build}/images/{b}-{a}-{x}-{key}"
        image = af.get("IMAGE")
        imgfile = f"{imgdir}/{image.rsplit('/', 1)[-1]}"
        fl_name, fl_cc, fl_pkgs = self.flavour(b, a)

        # The guest's command line and QEMU's.
        cmdline, bootline, shows, skip, unproven = self.guest_cmdline(b, a, m)
        initrd = f"{build}/guest/{fl_name}/initramfs.cpio"
        argv = self.qemu_argv(b, a, out, imgfile, initrd, cmdline)

        # The reproducer: this cell alone, with the inputs that differ from the defaults.
        repro = f"make cell CELL={q(name)}"
        if self.ksrc is not None:
            repro += f" KSRC={q(tree)}"
        for var, word in (("KERNEL_CC", "CC"), ("KERNEL_HOSTCC", "HOSTCC"), ("CROSS_COMPILE", "CROSS_COMPILE")):
            if self.e(var):
                repro += f" {word}={q(self.env[var])}"
        repro += self.repro_guest()
        if self.e("KCONFIG"):
            repro += f" KCONFIG={q(os.path.realpath(self.env['KCONFIG']))}"
        mods = self.kconfig_modules() if base else ""
        if mods == "on":
            repro += " KCONFIG_MODULES=on"
        want = self.debian_want(pkg)
        if want:
            repro += f" DEBIAN_VERSION={q(want)}"
        repro += self.repro_build_dir()

        return {
            "plan_version": PLAN_VERSION,
            "root": self.root,
            "cell": name,
            "branch": b, "arch": a, "variant": x, "mutant": c.mutant,
            "kconfig": {"name": c.config, "source": desc, "origin": origin, "origin_sha256": ksha,
                        "base": base, "options": tk_opts,
                        "modules": mods},
            "boot": {"mode": m, "cmdline": bootline, "shows": shows},
            "tree": {"source": src, "package": pkg, "suites": suites.split(), "version": version,
                     "vendor": vendor, "rt": rt, "path": tree, "fix_state": fix_state, "id": tree_id},
            "patches": [self.rel(p) for p in patches],
            "configs": [self.rel(p) for p in frags],
            "build": {"karch": af.get("KARCH"), "cross_compile": cross, "cc": cc, "hostcc": hostcc,
                      "ccache": f"{build}/ccache" if self.e("CCACHE", "0") != "0" else "",
                      "target": image, "objdir": f"{build}/obj/{tree_id}-{a}{osfx}", "jobs": jobs},
            "image": {"key": key, "dir": imgdir, "path": imgfile},
            "initramfs": {"flavour": fl_name, "cc": fl_cc, "path": initrd},
            "qemu": {"argv": argv, "cmdline": cmdline, "limit_s": int(self.limit()),
                     "silence_s": int(self.silence())},
            "expect": expect, "killer_tests": killers, "killer_splat": splat,
            "fail_within": within, "skip_checks": skip,
            "stable_form": [] if c.mutant else [self.rel(p) for p in self.series(self.stable_form(b, x))],
            "may_be_unproven": sorted(set(unproven + skip)),
            "packages": af.get("PACKAGES").split() + fl_pkgs,
            "out": out,
            "reproducer": repro,
        }

    def repro_guest(self):
        """The reproducer's words for the guest's inputs that differ from
        the defaults (LIMIT, SILENCE, LEAP_CMDLINE)."""
        out = ""
        if self.limit() != self.data.role("LIMIT"):
            out += f" LIMIT={q(self.limit())}"
        if self.silence() != self.data.role("SILENCE"):
            out += f" SILENCE={q(self.silence())}"
        if self.e("LEAP_CMDLINE"):
            out += f" LEAP_CMDLINE={q(self.env['LEAP_CMDLINE'])}"
        return out

    def repro_build_dir(self):
        return f" BUILD_DIR={q(self.build)}" if self.build != f"{self.root}/build" else ""

    def guest_cmdline(self, b, a, m):
        """The guest's command line on branch b, arch a, boot mode m: (the
        line, the mode's part of it, what the console shows when the mode
        took, the checks skipped, the checks a PASS may leave unproven:
        where this arch's timers, or this boot mode's, cannot show what
        they test; the leap test says why)."""
        d, af = self.data, self.data.arch_files[a]
        skip = d.bval(b, "SKIP_CHECKS").split()
        unproven = d.bval(b, f"UNPROVEN_{a}").split()
        bootline = shows = ""
        if m != "default":
            bootline = d.boot_files[m].get("CMDLINE")
            shows = d.boot_files[m].get("SHOWS")
            unproven += d.boot_files[m].get("UNPROVEN").split()
        parts = [f"console={af.get('CONSOLE')}", CMDLINE_HEAD, af.get("CMDLINE"), d.bval(b, "KERNEL_ARGS"),
                 bootline, self.e("LEAP_CMDLINE"), "leaptest.skip=" + ",".join(skip) if skip else ""]
        return " ".join(p for p in parts if p), bootline, shows, skip, unproven

    def qemu_argv(self, b, a, out, imgfile, initrd, cmdline):
        af = self.data.arch_files[a]
        return ([af.get("QEMU"), "-smp", self.data.role("CPUS"), "-m", "128", "-accel", "tcg,thread=multi",
                 "-nodefaults", "-display", "none", "-monitor", "none", "-no-reboot"]
                + (self.data.bval(b, f"QEMU_ARGS_{a}") or af.get("QEMU_ARGS")).split()
                + ["-serial", f"file:{out}/console.log", "-kernel", imgfile, "-initrd", initrd, "-append", cmdline])

    def image_plan(self, out_dir, c):
        """The plan of a kernel image you bring: nothing to build; the image
        (unpacked where QEMU wants it raw) is booted as a shipped kernel is,
        expected to PASS (a kernel that is ready)."""
        d, build, im = self.data, self.build, c.image
        b, a, m, name = c.branch, c.arch, c.boot, c.name
        self.need_arch_keys(a)
        af = d.arch_files[a]
        out = f"{out_dir}/cells/{name}"
        with open(im.path, "rb") as f:
            key = sha256(f.read()).hexdigest()[:12]
        imgdir = f"{build}/images/image-{a}-{key}"
        imgfile = f"{imgdir}/{af.get('IMAGE').rsplit('/', 1)[-1]}"
        fl_name, fl_cc, fl_pkgs = self.flavour(b, a)
        cmdline, bootline, shows, skip, unproven = self.guest_cmdline(b, a, m)
        initrd = f"{build}/guest/{fl_name}/initramfs.cpio"
        tk_opts = TK_OPTIONS + af.get("CLOCK_OPTIONS").split()
        path = os.path.realpath(im.path)
        repro = f"make qemu IMAGE={q(path)} ARCH={q(a)}"
        if self.e("KCONFIG"):
            repro += f" KCONFIG={q(im.config)}"
        if m != "default":
            repro += f" BOOT={q(m)}"
        repro += self.repro_guest() + self.repro_build_dir()
        return {
            "plan_version": PLAN_VERSION,
            "root": self.root,
            "cell": name,
            "branch": b, "arch": a, "variant": c.variant, "mutant": False,
            "kconfig": {"name": "image", "source": im.config, "origin": im.config, "origin_sha256": "",
                        "base": "", "options": tk_opts, "modules": ""},
            "boot": {"mode": m, "cmdline": bootline, "shows": shows},
            "tree": {"source": "image", "package": im.package, "suites": [], "version": im.version,
                     "vendor": im.vendor, "rt": im.rt, "path": path, "fix_state": "", "id": f"image-{key}",
                     "image": {"release": im.release, "banner": im.banner, "format": im.fmt,
                               "compression": im.compression, "config": im.config}},
            "patches": [], "configs": [],
            "build": {"karch": af.get("KARCH"), "cross_compile": "", "cc": "", "hostcc": "", "ccache": "",
                      "target": af.get("IMAGE"), "objdir": "", "jobs": 0},
            "image": {"key": key, "dir": imgdir, "path": imgfile},
            "initramfs": {"flavour": fl_name, "cc": fl_cc, "path": initrd},
            "qemu": {"argv": self.qemu_argv(b, a, out, imgfile, initrd, cmdline), "cmdline": cmdline,
                     "limit_s": int(self.limit()), "silence_s": int(self.silence())},
            "expect": ["PASS"], "killer_tests": [], "killer_splat": "",
            "fail_within": [], "skip_checks": skip, "stable_form": [],
            "may_be_unproven": sorted(set(unproven + skip)),
            "packages": af.get("PACKAGES").split() + fl_pkgs,
            "out": out,
            "reproducer": repro,
        }


def main_error(e):
    print(f"plan: {e}", file=sys.stderr)
    return 1
