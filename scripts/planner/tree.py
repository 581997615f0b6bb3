"""A tree the user brings (KSRC): its version and what its code carries."""

import os
import re

from .data import DataError

# The 2012 fix: the timekeeping tells the hrtimers about a leap.
_FIX_2012 = re.compile(rb"clock_was_set_delayed|TK_CLOCK_WAS_SET")
# 833f32d76302: the hrtimer offsets see the leap edge (next_leap_ktime, or
# ntp_get_next_leap() of the old pre-3.4 series).
_EDGE = re.compile(rb"next_leap_ktime|ntp_get_next_leap")
# 96efdcf2d080: adjtimex()'s read path compares the time with the leap.
_ADJTIMEX = re.compile(rb"tv_sec >= (ntpdata->)?ntp_next_leap_sec")
EDGE_COMMITS = ("833f32d76302", "96efdcf2d080")


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def fix_state(tree):
    """(state, has): state "fixed" (all three), "2012" or "" (no 2012 fix);
    has: the 2015 commits the code carries besides the 2012 fix."""
    tk = _read(os.path.join(tree, "kernel/time/timekeeping.c"))
    if tk is None or not _FIX_2012.search(tk):
        return "", []
    has = []
    if _EDGE.search(tk):
        has.append(EDGE_COMMITS[0])
    ntp = _read(os.path.join(tree, "kernel/time/ntp.c"))
    if ntp is not None and _ADJTIMEX.search(ntp):
        has.append(EDGE_COMMITS[1])
    if has == list(EDGE_COMMITS):
        return "fixed", has
    return "2012", has


def layout_misses(tree, marks, cache=None):
    """What of a branch's LAYOUT the tree's code does not show: for each
    mark "FILE:TEXT" (the file must contain TEXT) or "!FILE:TEXT" (must not),
    a phrase saying what was found instead; [] when the code is the layout."""
    cache = {} if cache is None else cache
    out = []
    for m in marks.split():
        neg = m.startswith("!")
        path, text = m.lstrip("!").split(":", 1)
        if path not in cache:
            cache[path] = _read(os.path.join(tree, path))
        body = cache[path]
        if body is None:
            out.append(f"no {path}")
        elif (text.encode() in body) == neg:
            out.append(f"{path} {'has' if neg else 'has no'} '{text}'")
    return out


_CHANGELOG = re.compile(rb"^(linux\S*) \(([^)\s]+)\) ([^;\s]+);")


def vendor_release(tree):
    """A distribution's own release of the tree, as its sources say: Red Hat's
    RHEL_MAJOR, RHEL_MINOR and RHEL_RELEASE in the top Makefile (or its
    Makefile.rhelver, RHEL 8 on), Android's branch (build.config.constants),
    or the first
    entry of Ubuntu's debian.master/changelog; "" for any other tree.  Only
    a name for the record: the branch and the fix state come from the code."""
    mk = _read(os.path.join(tree, "Makefile")) or b""
    # RHEL 8 and 9 keep them in Makefile.rhelver.
    mk = mk[:4096] + b"\n" + (_read(os.path.join(tree, "Makefile.rhelver")) or b"")[:4096]
    rh = dict(re.findall(rb"^(RHEL_MAJOR|RHEL_MINOR|RHEL_RELEASE) = *([\w.]+) *$", mk, re.M))
    if len(rh) == 3:
        return f"RHEL {rh[b'RHEL_MAJOR'].decode()}.{rh[b'RHEL_MINOR'].decode()} release {rh[b'RHEL_RELEASE'].decode()}"
    log = _read(os.path.join(tree, "debian.master/changelog"))
    m = _CHANGELOG.match(log or b"")
    if m:
        pkg, ver, suite = (g.decode(errors="replace") for g in m.groups())
        return f"Ubuntu {suite} {pkg} {ver}"
    # Android's common kernel names its branch in build.config.constants.
    m = re.search(rb"^BRANCH=(android[\w.-]+)", _read(os.path.join(tree, "build.config.constants")) or b"", re.M)
    if m:
        return f"Android common kernel {m.group(1).decode()}"
    return ""


def state_line(state, has):
    """What fix-state prints: "fixed", "2012" and the 2015 commits it has, or ""."""
    return "fixed" if state == "fixed" else " ".join([state] + has) if state else ""


def fix_state_line(tree):
    return state_line(*fix_state(tree))


def ver_le(a, b):
    """a <= b as sort -V orders kernel versions."""
    def key(v):
        return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", v)]
    return key(a) <= key(b)


class Ksrc:
    """The tree KSRC names, worked out once."""

    def __init__(self, path):
        self.path = path
        self._version = None
        self._vendor = None
        self._state = None
        self.files = {}

    def need_tree(self):
        if not os.path.isfile(os.path.join(self.path, "Makefile")):
            raise DataError(f"KSRC={self.path} is not a kernel tree (no Makefile): point KSRC at an unpacked linux-X.Y tree")

    @property
    def version(self):
        """The tree's version as its top Makefile says it (what make
        kernelversion prints), read without running make in the tree: a
        tree you bring is only ever read."""
        if self._version is None:
            mk = _read(os.path.join(self.path, "Makefile"))
            if mk is None:
                raise DataError(f"KSRC={self.path} is not a kernel tree (no Makefile): point KSRC at an unpacked linux-X.Y tree")
            f = {k.decode(): v.decode(errors="replace").strip()
                 for k, v in re.findall(rb"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)[ \t]*=[ \t]*([^\n#]*)", mk, re.M)}
            if not re.fullmatch(r"[0-9]+", f.get("VERSION", "")) or not re.fullmatch(r"[0-9]+", f.get("PATCHLEVEL", "")):
                raise DataError(f"KSRC={self.path} is not a kernel tree (its Makefile has no VERSION and PATCHLEVEL)")
            sub = f.get("SUBLEVEL", "")
            extra = f.get("EXTRAVERSION", "")
            if "$" in extra or " " in extra:
                extra = ""
            self._version = f"{f['VERSION']}.{f['PATCHLEVEL']}" + (f".{sub}" if re.fullmatch(r"[0-9]+", sub) else "") + extra
        return self._version

    @property
    def vendor(self):
        if self._vendor is None:
            self._vendor = vendor_release(self.path)
        return self._vendor

    def named(self, version=None):
        """How the planner's lines name the tree: "Linux 5.4.291" (or the
        version given), and a distribution's release where its sources say one."""
        return f"Linux {version or self.version}" + (f", {self.vendor}" if self.vendor else "")

    @property
    def rt(self):
        """The PREEMPT_RT patch's own version where the tree carries it (its
        localversion-rt file, which every -rt patch set adds: "-rt83"); ""."""
        lv = _read(os.path.join(self.path, "localversion-rt"))
        return lv.decode(errors="replace").strip() if lv else ""

    @property
    def rt_option(self):
        """The tree's full-preemption option where it carries the RT patch:
        PREEMPT_RT_FULL (the patch sets before 5.3), PREEMPT_RT (after; the
        name mainline kept); "" when its Kconfig names neither."""
        if not self.rt:
            return ""
        kc = _read(os.path.join(self.path, "kernel/Kconfig.preempt")) or b""
        for opt in ("PREEMPT_RT_FULL", "PREEMPT_RT"):
            if re.search(rb"^config " + opt.encode() + rb"\s*$", kc, re.M):
                return opt
        return ""

    @property
    def state(self):
        if self._state is None:
            self._state = fix_state(self.path)
        return self._state

    @property
    def fix(self):
        return self.state[0]

    @property
    def has(self):
        return self.state[1]

    def misses(self, marks):
        return layout_misses(self.path, marks, self.files)

    @property
    def line(self):
        return state_line(*self.state)
