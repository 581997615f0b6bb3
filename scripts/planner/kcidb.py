"""A run's results as KCIDB I/O data, schema v4 (kernelci/kcidb-io): the
run's kcidb.json, for KernelCI's common database (kci-submit, or the kcidb
client's `kcidb-submit`).

Usage: python3 -m planner.kcidb RUN_DIR   (scripts/kcidb.sh; report.sh calls it)

Read: RUN_DIR/cells/<cell>/cell.json (boot-cell.sh), the plan.json beside it
where the run kept it, the console.log it names.  Written: RUN_DIR/kcidb.json.

  checkouts  one per tree and version (a Debian package's version, a tree
             you bring, the package an image came from)
  builds     one per image (its image key: everything that went into it),
             with the architecture (the kernel's ARCH), the compiler (the
             kernel's own banner, else the plan's), the configuration's name
             (tiny, debian, ...) and `valid` (v4's build status: an image
             was there to boot)
  tests      per cell: `leaptest`, the cell's verdict (PASS; FAIL and SPLAT:
             FAIL; SKIP; TIMEOUT, BOOTFAIL and ERROR: ERROR), and one
             `leaptest.<check>` per top-level KTAP result the leap test
             printed (ok: PASS, not ok: FAIL, ok # SKIP: SKIP); the console
             as log_url and output file, the check's own KTAP lines as its
             log_excerpt.  A cell whose harness expects no PASS (a regress,
             naive or mutant variant, a tree known to lack the fix) is
             `waived`: its FAIL is the test's power, not news.

ORIGIN (environment): the submitter, KCIDB's origin ([a-z0-9_]+; default
leaptest_local, clearly not a lab).  RESULTS_URL: the URL the run directory
is published at (default: file:// of RUN_DIR), for the consoles' URLs.
IDs are ORIGIN:<...> and stable: a build's is its image key, a test's the
cell's name, a hash of its record and console, and the check, so a merged
run (merge-results.sh copies the cells as they are) gives the same IDs as
the runs it merges.  Standard library only.
"""

import hashlib
import json
import os
import re
import sys
import urllib.parse

SCHEMA_VERSION = {"major": 4, "minor": 4}  # 4.4: the first v4 with a test's "number"
ORIGIN_RE = re.compile(r"[a-z0-9_]+")
EXCERPT_MAX = 16384
STATUS = {"PASS": "PASS", "FAIL": "FAIL", "SPLAT": "FAIL", "SKIP": "SKIP",
          "TIMEOUT": "ERROR", "BOOTFAIL": "ERROR", "ERROR": "ERROR"}
TOP = re.compile(r"^(not ok|ok) [0-9]+ ([a-z0-9_]+)(?: # (SKIP)?.*)?$")
BANNER = re.compile(r"Linux version \S+ \([^)]*\) \((.+?)(?:, (?:GNU ld|LLD) .*)?\) #")


class KcidbError(Exception):
    """One line for the user."""


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def _cells(run):
    """The cells' directories in run order (cells.list), then any others."""
    names = []
    lst = os.path.join(run, "cells.list")
    if os.path.isfile(lst):
        with open(lst, encoding="utf-8") as f:
            names += [x.strip() for x in f if x.strip()]
    names += sorted(os.listdir(os.path.join(run, "cells")))
    seen, out = set(), []
    for n in names:
        if n not in seen and os.path.isfile(os.path.join(run, "cells", n, "cell.json")):
            seen.add(n)
            out.append(n)
    return out


def _excerpt(text):
    """At most EXCERPT_MAX characters: the end of text, where results are."""
    return text if len(text) <= EXCERPT_MAX else text[-EXCERPT_MAX:]


def parse_console(text):
    """The top-level KTAP results of a console, in order: (check, status,
    the check's own lines), and the compiler of the kernel's banner."""
    checks, block, compiler = [], [], ""
    started = False
    for line in text.replace("\r", "").split("\n"):
        if not compiler:
            m = BANNER.search(line)
            if m:
                compiler = " ".join(m.group(1).split())
        if line == "KTAP version 1" and not started:
            started = True
            continue
        if not started:
            continue
        m = TOP.match(line)
        block.append(line)
        if m:
            status = "SKIP" if m.group(3) == "SKIP" else ("PASS" if m.group(1) == "ok" else "FAIL")
            checks.append((m.group(2), status, "\n".join(block) + "\n"))
            block = []
        elif line.startswith("LEAPTEST RESULT:"):
            break
    return checks, compiler


def _karch(root, arch):
    """The kernel's ARCH of a Debian arch name (arches/<arch>/arch.mk), or arch."""
    try:
        from .data import Data
        data = Data(root)
        if arch in data.arch_files:
            return data.aval(arch, "KARCH") or arch
    except Exception:  # a checkout without the data, or data this one cannot read
        pass
    return arch


def _qemu_comment(plan, arch):
    """The guest: QEMU's binary, machine, CPU and CPUs, from the plan."""
    argv = (plan or {}).get("qemu", {}).get("argv") or []
    if not argv:
        return f"QEMU, {arch} guest"
    opt = {a: argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-M", "-machine", "-cpu", "-smp", "-m")}
    return (f"QEMU {os.path.basename(argv[0])}, machine {opt.get('-M') or opt.get('-machine', '?')}, "
            f"cpu {opt.get('-cpu', '?')}, {opt.get('-smp', '1')} CPUs, {opt.get('-m', '?')} MB")


def _image_key(cell, plan):
    if plan and plan.get("image", {}).get("key"):
        return plan["image"]["key"]
    m = re.search(r"-([0-9a-f]{12})/[^/]+$", cell.get("image") or "")
    return m.group(1) if m else ""


def generate(run, origin, base_url, root):
    if not ORIGIN_RE.fullmatch(origin):
        raise KcidbError(f"ORIGIN={origin}: KCIDB takes an origin of [a-z0-9_]+ (e.g. leaptest_local)")
    if not os.path.isdir(os.path.join(run, "cells")):
        raise KcidbError(f"no cells in {run} (not a results directory)")
    names = _cells(run)
    if not names:
        raise KcidbError(f"no cell.json under {run}/cells")
    checkouts, builds, tests = {}, {}, []
    karchs = {}

    def url(rel):
        return base_url.rstrip("/") + "/" + urllib.parse.quote(rel)

    for name in names:
        d = os.path.join(run, "cells", name)
        cell = _read_json(os.path.join(d, "cell.json"))
        plan = _read_json(os.path.join(run, cell.get("plan") or f"cells/{name}/plan.json"))
        console_rel = cell.get("console") or f"cells/{name}/console.log"
        console_path = os.path.join(run, console_rel)
        console = b""
        if os.path.isfile(console_path):
            with open(console_path, "rb") as f:
                console = f.read()
        text = console.decode("utf-8", "replace")
        checks, compiler = parse_console(text)

        # The checkout: the tree and its version.
        version = cell.get("tree_version") or "unknown"
        tree = cell.get("tree") or "unknown"
        package = ((cell.get("tree_image") or {}).get("package") or "").split()
        if len(package) == 2:  # an image Debian ships: its package and the package's version
            tree, version = package
        tree_name = os.path.basename(tree.rstrip("/")) or tree
        checkout_id = f"{origin}:{tree_name}@{version}"
        co = checkouts.setdefault(checkout_id, {
            "id": checkout_id, "origin": origin, "tree_name": tree_name,
            # The tree as its package or its directory holds it: the variants'
            # patches are the builds' (misc.patches), not the checkout's.
            "patchset_hash": "",
            "comment": " ".join(x for x in (
                {"debian": "Debian's", "ksrc": "a tree brought with KSRC=",
                 "image": "Debian's image package"}.get(cell.get("tree_source", "debian"), ""),
                tree_name, version) if x),
            "valid": False,
            "misc": {"source": cell.get("tree_source", "debian"), "version": version,
                     "vendor": cell.get("tree_vendor", ""), "rt": cell.get("tree_rt", "")},
        })

        # The build: the image.
        key = _image_key(cell, plan)
        build_id = f"{origin}:{key}" if key else f"{origin}:{name}@{version}"
        arch = cell.get("arch", "")
        if plan and plan.get("build", {}).get("karch"):
            karch = plan["build"]["karch"]
        else:
            if arch not in karchs:
                karchs[arch] = _karch(root, arch)
            karch = karchs[arch]
        valid = bool(cell.get("image"))
        build_json = _read_json(os.path.join(d, "build.json"))
        if build_json and build_json.get("status") == "failed":
            valid = False
        co["valid"] = co["valid"] or valid
        if not compiler and plan:
            b = plan.get("build", {})
            compiler = b.get("cc") or ((b.get("cross_compile") or "") + "gcc")
        kconfig = cell.get("kconfig", {}).get("name") or "tiny"
        variant = cell.get("variant", "")
        build = builds.get(build_id)
        if build is None:
            build = builds[build_id] = {
                "id": build_id, "checkout_id": checkout_id, "origin": origin,
                "architecture": re.sub(r"[^a-z0-9_]", "_", karch.lower()),
                "config_name": kconfig,
                "comment": f"{kconfig} build of {tree_name} {version} for {arch}, variant {variant}",
                "valid": valid,
                "misc": {"image_key": key, "variant": variant, "arch": arch,
                         "kconfig_source": cell.get("kconfig", {}).get("source", ""),
                         "kconfig_sha256": cell.get("kconfig", {}).get("origin_sha256", "")},
            }
            if compiler:
                build["compiler"] = compiler
            if cell.get("build_s"):
                build["duration"] = cell["build_s"]
            if plan and plan.get("patches") is not None:
                build["misc"]["patches"] = plan["patches"]
        else:
            build["valid"] = build["valid"] or valid

        # The tests: the cell's verdict, then each check.
        run_hash = hashlib.sha256(json.dumps(cell, sort_keys=True).encode() + b"\0" + console).hexdigest()[:16]
        test_base = f"{origin}:{name}.{run_hash}"
        verdict = cell.get("verdict", "ERROR")
        expected = cell.get("expected", [])
        waived = "PASS" not in expected
        files = [{"name": "console.log", "url": url(console_rel)}] if console else []
        env = {"comment": _qemu_comment(plan, arch), "misc": {"boot_mode": cell.get("boot_mode", "default")}}
        def test(path, status, comment):
            t = {"id": f"{test_base}.{path}", "build_id": build_id, "origin": origin, "path": path,
                 "status": status, "waived": waived, "comment": comment, "environment": env}
            if files:
                t["log_url"] = files[0]["url"]
                t["output_files"] = files
            return t

        node = test("leaptest", STATUS.get(verdict, "ERROR"), f"{name}: {verdict} ({cell.get('reason', '')})")
        node["misc"] = {"cell": name, "verdict": verdict, "expected": expected, "ok": cell.get("ok", False),
                        "reason": cell.get("reason", ""), "variant": variant,
                        "unproven": cell.get("unproven", []), "reproducer": cell.get("reproducer", "")}
        if cell.get("boot_s"):
            node["duration"] = cell["boot_s"]
        tail = "\n".join(text.replace("\r", "").rstrip("\n").split("\n")[-60:]) + "\n" if text else ""
        if tail:
            node["log_excerpt"] = _excerpt(tail)
        tests.append(node)
        wps = (cell.get("metrics") or {}).get("wakeups_per_s")
        for check, status, lines in checks:
            t = test(f"leaptest.{check}", status, f"{name}: {check}")
            t["log_excerpt"] = _excerpt(lines)
            if check == "load_after_insert" and isinstance(wps, (int, float)):
                t["number"] = {"value": wps, "unit": "wakeups/s"}
            tests.append(t)

    return {"version": SCHEMA_VERSION, "checkouts": list(checkouts.values()),
            "builds": list(builds.values()), "tests": tests}


def main(argv):
    if len(argv) != 1:
        print("usage: kcidb.sh RUN_DIR", file=sys.stderr)
        return 2
    run = argv[0]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    origin = os.environ.get("ORIGIN") or "leaptest_local"
    base = os.environ.get("RESULTS_URL") or "file://" + urllib.parse.quote(os.path.abspath(run))
    try:
        data = generate(run, origin, base, root)
    except KcidbError as e:
        print(f"kcidb: {e}", file=sys.stderr)
        return 2
    out = os.path.join(run, "kcidb.json")
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(out + ".tmp", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
