"""The matrix's data: every variables file, read once and strictly.

The grammar (docs/plan.md says it for people) is make-like text, but it is
this loader's, not make's:

  - a blank line, or a line whose first non-blank character is '#': nothing;
  - KEY := VALUE sets KEY in this file (a later := in the same file wins);
  - KEY += WORDS adds WORDS: to this file's value when the file set KEY
    above, else to the value the file's family chain gives;
  - VALUE runs to the end of the line, blanks trimmed at both ends.

Anything else is one error naming the file and the line: a line that is no
assignment, ?= or = (make's other flavours), a key the file's kind does not
declare, a value of the wrong shape, and a '#' after a blank inside a value
(a trailing comment: make would drop it, this grammar would keep it, so it
is refused).  A family chain that comes back on itself is an error too.
"""

import os
import re


class DataError(Exception):
    """One line for the user: what is wrong, and where."""


# The verdicts a cell can get (scripts/verdict.sh).
VERDICTS = {"PASS", "FAIL", "SKIP", "TIMEOUT", "SPLAT", "BOOTFAIL", "ERROR"}


def _words(pattern, what):
    rx = re.compile(pattern)

    def check(value):
        for w in value.split():
            if not rx.fullmatch(w):
                return f"'{w}' is not {what}"
        return None
    return check


def _one(pattern, what):
    rx = re.compile(pattern)

    def check(value):
        if not rx.fullmatch(value):
            return f"give {what}"
        return None
    return check


def _verdicts(value):
    for w in value.split():
        if w not in VERDICTS:
            return f"'{w}' is no verdict (one of: {' '.join(sorted(VERDICTS))})"
    if not value.split():
        return "give one verdict or more"
    return None


_ANY = None
_INT = _one(r"[0-9]+", "a whole number")
_VERSION = _one(r"[0-9]+(\.[0-9]+)*", "a kernel version (e.g. 3.10.9999)")
_NAME = _one(r"[A-Za-z0-9][A-Za-z0-9._-]*", "one name")
_NAMES = _words(r"[A-Za-z0-9][A-Za-z0-9._-]*", "a name")
_VARIANTS = _words(r"[a-z0-9_]+", "a variant name (lower case, digits, _)")
_TOOLS = _words(r"[^:\s]+:[^:\s]+", "TOOL:PACKAGE")
_DIRS = _words(r"[A-Za-z0-9._/-]+", "a patch directory")
_FLAG = _one(r"(yes)?", "yes, or nothing")

# The keys of each kind of file; a key ending in '_' takes any suffix
# (EXPECT_<variant>, GUEST_CC_<libc>).
BRANCH_KEYS = {
    "PACKAGE": _one(r"(linux-source-[0-9][0-9.]*)?", "a linux-source-X.Y package, or nothing"),
    "SUITES": _NAMES, "FAMILY": _NAME, "ARCHES": _NAMES, "VARIANTS": _VARIANTS,
    "EXPECT_": _verdicts, "PATCHES_": _DIRS,
    "VERSION_MIN": _VERSION, "VERSION_MAX": _VERSION,
    "COMPAT": _DIRS, "CONFIGS": _NAMES, "KERNEL_CC": _ANY, "KERNEL_HOSTCC": _ANY,
    "KERNEL_CC_": _ANY, "QEMU_ARGS_": _ANY,
    "GUEST_LIBC": _one(r"([a-z]+)?", "a C library's name (musl), or nothing"),
    "FIX_2012": _DIRS,
    "EDGE_FIXES": _words(r"[0-9a-f]{12}:[a-z0-9_]+", "<12-hex commit>:<leap-test check>"),
    "KERNEL_ARGS": _ANY, "SKIP_CHECKS": _words(r"[a-z0-9_]+", "a leap-test check"),
    "KCONFIGS": _NAMES,
    "UNPROVEN_": _words(r"[a-z0-9_]+", "a leap-test check"),
    "RUN_ON": _words(r"[0-9]+\.[0-9]+(\.[0-9]+)*", "a kernel release (e.g. 3.14.40)"),
    "LAYOUT": _words(r"!?[A-Za-z0-9._/-]+:\S+", "[!]<file of the tree>:<text without blanks>"),
}
ARCH_KEYS = {
    "KARCH": _NAME, "CROSS": _ANY, "IMAGE": _ANY, "QEMU": _NAME, "QEMU_ARGS": _ANY,
    "CONSOLE": _NAME, "CMDLINE": _ANY, "GUEST_CC": _ANY, "PACKAGES": _TOOLS,
    "GUEST_CC_": _ANY, "PACKAGES_": _TOOLS, "CELL_TARGET_S": _INT, "ORDER": _INT,
    "MAKE_TEST": _FLAG, "DEBIAN_ARCH": _NAME, "DEBIAN_FLAVOUR": _NAME,
    "KCONFIG_SYMBOL": _one(r"CONFIG_[A-Za-z0-9_]+", "a CONFIG_ symbol"),
    "CLOCK_OPTIONS": _words(r"[A-Za-z0-9_]+", "an option without CONFIG_"),
    # The kernel image formats this arch boots when a user brings one
    # (scripts/planner/image.py names them).
    "IMAGE_FORMATS": _words(r"bzImage-(32|64)|arm64-Image|riscv-Image|arm-zImage|s390-image|elf-[a-z0-9_]+-(le|be)",
                            "an image format (bzImage-64, arm64-Image, elf-<machine>-le, ...)"),
}
MUTANT_KEYS = {
    "KILLED_BY": _verdicts, "KILLER_TESTS": _words(r"[a-z0-9_]+", "a KTAP test name"),
    "KILLER_SPLAT": _ANY,
}
BOOT_KEYS = {
    "CMDLINE": _ANY,
    "NEEDS": _words(r"CONFIG_[A-Za-z0-9_]+=\S+", "CONFIG_X=value"),
    "SHOWS": _ANY, "ORDER": _INT,
    "UNPROVEN": _words(r"[a-z0-9_]+", "a leap-test check"),
}
KCONFIG_KEYS = {
    "SOURCE": _one(r"tiny|debian|kconfig", "tiny, debian or kconfig"),
    "FILE": _ANY, "FRAGMENTS": _NAMES, "WITHOUT": _ANY, "ORDER": _INT,
}
HARNESS_KEYS = {
    "REFERENCE_BRANCH": _NAME, "SHIPPED_VARIANT": _one(r"[a-z0-9_]+", "a variant"),
    "FIX_VARIANT": _one(r"[a-z0-9_]+", "a variant"),
    "REGRESS_VARIANT": _one(r"[a-z0-9_]+", "a variant"),
    "LIMIT": _one(r"[1-9][0-9]{0,3}", "whole seconds"),
    "SILENCE": _one(r"[0-9]{1,3}", "whole seconds"),
    "CPUS": _one(r"[1-9][0-9]?", "a number of guest CPUs"),
    "CONFIGS": _NAMES,
}
KINDS = {
    "branch.mk": ("a branch.mk", BRANCH_KEYS),
    "family.mk": ("a family.mk", BRANCH_KEYS),
    "arch.mk": ("an arch stanza", ARCH_KEYS),
    "mutant.mk": ("a mutant.mk", MUTANT_KEYS),
    "boot": ("a boot mode", BOOT_KEYS),
    "kconfig": ("a configuration", KCONFIG_KEYS),
    "harness.mk": ("harness.mk", HARNESS_KEYS),
}

_LINE = re.compile(r"([A-Za-z0-9_]+)[ \t]*(:=|\+=)(.*)")
_OTHER = re.compile(r"([A-Za-z0-9_]+)[ \t]*(\?=|::=|:::=|!=|=)")


class Entry:
    """A key in one file: its value, whether it was only added to (+=), its line."""

    def __init__(self, value, added, line):
        self.value, self.added, self.line = value, added, line


class VarFile:
    """One variables file: its path relative to the root, and its keys."""

    def __init__(self, path):
        self.path = path
        self.entries = {}

    def has(self, key):
        e = self.entries.get(key)
        return e is not None and not e.added

    def get(self, key, default=""):
        e = self.entries.get(key)
        return e.value if e is not None and not e.added else default


def parse_file(root, rel, kind):
    what, keys = KINDS[kind]
    vf = VarFile(rel)
    with open(os.path.join(root, rel), encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    for n, line in enumerate(text.split("\n"), 1):
        s = line.strip(" \t")
        if not s or s.startswith("#"):
            continue
        where = f"{rel}:{n}"
        m = _LINE.match(s)
        if not m:
            o = _OTHER.match(s)
            if o:
                raise DataError(f"{where}: {o.group(1)} {o.group(2)}: the data takes := and += only")
            raise DataError(f"{where}: not KEY := VALUE: {s}")
        key, op, val = m.group(1), m.group(2), m.group(3).strip(" \t")
        if re.search(r"[ \t]#", val):
            raise DataError(f"{where}: a comment after {key}'s value: put it on a line of its own")
        check = keys.get(key, False)
        if check is False:
            stem = re.match(r"[A-Z0-9]+(?:_[A-Z0-9]+)*_", key)
            while stem and stem.group(0) not in keys:
                stem = re.match(r"[A-Z0-9]+(?:_[A-Z0-9]+)*_", stem.group(0)[:-1])
            if stem is None or not key[len(stem.group(0)):]:
                raise DataError(f"{where}: unknown key {key} ({what} takes: {' '.join(sorted(keys))})")
            check = keys[stem.group(0)]
        if check is not None:
            # A += adds words; what it adds must have the shape too.
            bad = check(val) if (val or op == ":=") else None
            if bad:
                raise DataError(f"{where}: {key} {op} {val}: {bad}")
        old = vf.entries.get(key)
        if op == ":=":
            vf.entries[key] = Entry(val, False, n)
        elif old is None:
            vf.entries[key] = Entry(val, True, n)
        else:
            vf.entries[key] = Entry(" ".join(x for x in (old.value, val) if x), old.added, n)
    return vf


def _glob_dirs(root, sub, name):
    """The directories under root/sub holding a file called name, sorted."""
    base = os.path.join(root, sub)
    try:
        names = sorted(os.listdir(base))
    except FileNotFoundError:
        return []
    return [d for d in names if os.path.isfile(os.path.join(base, d, name))]


def _by_order(files):
    """Names by their file's ORDER (no ORDER: last), then by name."""
    return [n for _, n in sorted((int(f.get("ORDER") or 999), n) for n, f in files.items())]


class Data:
    """Every variables file under root, and the lookups over them."""

    def __init__(self, root):
        self.root = root
        self.files = {}
        for d in _glob_dirs(root, "branches", "branch.mk"):
            self._load(f"branches/{d}/branch.mk", "branch.mk")
        for d in _glob_dirs(root, "branches", "family.mk"):
            self._load(f"branches/{d}/family.mk", "family.mk")
        self.arch_files = {}
        for d in _glob_dirs(root, "arches", "arch.mk"):
            self.arch_files[d] = self._load(f"arches/{d}/arch.mk", "arch.mk")
        self.mutant_files = {}
        for b in sorted(os.listdir(os.path.join(root, "mutants"))) if os.path.isdir(os.path.join(root, "mutants")) else []:
            for m in _glob_dirs(root, f"mutants/{b}", "mutant.mk"):
                self.mutant_files[(b, m)] = self._load(f"mutants/{b}/{m}/mutant.mk", "mutant.mk")
        self.boot_files = self._flat("boots", "boot")
        self.kconfig_files = self._flat("kconfigs", "kconfig")
        self.harness = (self._load("harness.mk", "harness.mk")
                        if os.path.isfile(os.path.join(root, "harness.mk")) else VarFile("harness.mk"))
        for key, e in self.harness.entries.items():
            if e.added:
                raise DataError(f"harness.mk:{e.line}: {key} +=: harness.mk sets its keys with :=")
        self.branches = _glob_dirs(root, "branches", "branch.mk")
        self.arches = _by_order(self.arch_files)
        self.boots = _by_order(self.boot_files)
        self.kconfigs = _by_order(self.kconfig_files)
        for b in self.branches:
            self.chain(b)
        self._check_variant_keys()
        self._check_names()
        for b in self.branches:
            for v in self.bval(b, "VARIANTS").split():
                if not self.bval(b, f"EXPECT_{v}"):
                    vf = next(f for f in self.chain(b) if "VARIANTS" in f.entries)
                    raise DataError(f"{vf.path}:{vf.entries['VARIANTS'].line}: variant {v} has no EXPECT_{v} "
                                    f"in branch {b}'s files")

    def _load(self, rel, kind):
        vf = parse_file(self.root, rel, kind)
        self.files[rel] = vf
        return vf

    def _flat(self, sub, kind):
        out = {}
        base = os.path.join(self.root, sub)
        if os.path.isdir(base):
            for n in sorted(os.listdir(base)):
                if n.endswith(".mk") and os.path.isfile(os.path.join(base, n)):
                    out[n[:-3]] = self._load(f"{sub}/{n}", kind)
        return out

    # --- branches: a key missing from a branch.mk comes from its family chain
    def chain(self, branch):
        """The files a branch's keys come from: its branch.mk, then each FAMILY's family.mk."""
        files, seen = [], []
        vf = self.files[f"branches/{branch}/branch.mk"]
        while True:
            files.append(vf)
            fam_e = vf.entries.get("FAMILY")
            fam = vf.get("FAMILY")
            if not fam:
                return files
            rel = f"branches/{fam}/family.mk"
            where = f"{vf.path}:{fam_e.line}"
            if rel not in self.files:
                raise DataError(f"{where}: FAMILY := {fam}, and there is no {rel}")
            seen.append(vf.path)
            if rel in seen:
                raise DataError(f"{where}: FAMILY := {fam} goes round: {' -> '.join(seen + [rel])}")
            vf = self.files[rel]

    def lookup(self, branch, key):
        """(found, value): the branch's value, else its chain's; += adds."""
        add = ""
        for vf in self.chain(branch):
            e = vf.entries.get(key)
            if e is None:
                continue
            if not e.added:
                return True, e.value + (" " + add if add else "")
            add = e.value + (" " + add if add else "")
        return bool(add), add

    def bval(self, branch, key):
        return self.lookup(branch, key)[1]

    def aval(self, arch, key):
        return self.arch_files[arch].get(key)

    def variants(self):
        """Every variant some branch or family declares (by file name)."""
        out = []
        for rel in sorted(r for r in self.files if r.startswith("branches/")):
            for v in self.files[rel].get("VARIANTS").split():
                if v not in out:
                    out.append(v)
        return out

    def _check_variant_keys(self):
        known = set(self.variants())
        for rel, vf in self.files.items():
            if not rel.startswith("branches/"):
                continue
            for key, e in vf.entries.items():
                for stem in ("EXPECT_", "PATCHES_"):
                    if key.startswith(stem) and key[len(stem):] not in known:
                        raise DataError(f"{rel}:{e.line}: {key}: no branch has a variant '{key[len(stem):]}' "
                                        f"(the variants: {' '.join(self.variants())})")

    def checks(self):
        """The leap test's top-level checks: the names of report.c's table
        (their one home), or None where this checkout has no leap test."""
        try:
            with open(os.path.join(self.root, "common-tests", "report.c"), encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            return None
        return re.findall(r'\{ \.name = "([a-z0-9_]+)"', text)

    def _check_names(self):
        """Every name a data file uses is one the data defines: an arch
        (arches/<a>/arch.mk), a configuration (kconfigs/<k>.mk), a config
        fragment (configs/<f>.config), a variant, a leap-test check."""
        # A checkout without a kind of file (a test's made-up data) checks no name of it.
        configs = sorted(n[:-7] for n in os.listdir(os.path.join(self.root, "configs"))
                         if n.endswith(".config")) if os.path.isdir(os.path.join(self.root, "configs")) else None
        checks = self.checks()
        kinds = {
            "an arch": (self.arches, "arches/<arch>/arch.mk"),
            "a configuration": (self.kconfigs if self.kconfig_files else None, "kconfigs/<name>.mk"),
            "a config fragment": (configs, "configs/<name>.config"),
            "a variant": (self.variants(), "a VARIANTS list"),
            "a leap-test check": (checks, "common-tests/report.c"),
        }
        # key (or stem, ending in _) -> (what its words name, what its suffix names)
        words = {"ARCHES": "an arch", "KCONFIGS": "a configuration", "CONFIGS": "a config fragment",
                 "SKIP_CHECKS": "a leap-test check", "UNPROVEN": "a leap-test check",
                 "UNPROVEN_": "a leap-test check", "KILLER_TESTS": "a leap-test check",
                 "FRAGMENTS": "a config fragment"}
        suffix = {"KERNEL_CC_": "an arch", "QEMU_ARGS_": "an arch", "UNPROVEN_": "an arch"}
        for rel, vf in sorted(self.files.items()):
            for key, e in vf.entries.items():
                stem = next((x for x in suffix if key.startswith(x)), None)
                if stem and not rel.startswith("arches/"):
                    self._known(rel, e, key, key[len(stem):], suffix[stem], kinds)
                what = words.get(key) or words.get(stem or "")
                if what:
                    for w in e.value.split():
                        self._known(rel, e, key, w, what, kinds)
                if key == "EDGE_FIXES":
                    for w in e.value.split():
                        self._known(rel, e, key, w.split(":", 1)[1], "a leap-test check", kinds)
            if rel == "harness.mk":
                for key in ("SHIPPED_VARIANT", "FIX_VARIANT", "REGRESS_VARIANT"):
                    if key in vf.entries:
                        self._known(rel, vf.entries[key], key, vf.entries[key].value, "a variant", kinds)

    @staticmethod
    def _known(rel, e, key, name, what, kinds):
        names, home = kinds[what]
        if names is not None and name not in names:
            raise DataError(f"{rel}:{e.line}: {key}: '{name}' is not {what} ({home}; known: {' '.join(names)})")

    def branch_arches(self, branch):
        found, val = self.lookup(branch, "ARCHES")
        if not found:
            return list(self.arches)
        want = val.split()
        return [a for a in self.arches if a in want]

    def role(self, key):
        """A key of harness.mk, the roles and defaults (one line if unset)."""
        v = self.harness.get(key)
        if not v:
            raise DataError(f"harness.mk sets no {key} (docs/plan.md says what it holds)")
        return v
