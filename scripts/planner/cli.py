"""plan.sh's command line (scripts/plan.sh runs this; its header says the verbs)."""

import os
import re
import sys

from .data import Data, DataError
from .resolve import PLAN_VERSION, Resolver
from .tree import fix_state_line

USAGE = ("usage: plan.sh cells|cells-json|mutant-cells|tools|pin|resolve|branches|variants|arches|boots|kconfigs|"
         "get|arch-get|role|fields|series|list-branches|branch-for|stable-form|debian-version|fix-state|stack|ksrc|configs|test-arches ... "
         "(see docs/plan.md)")


def lines(xs):
    for x in xs:
        print(x)


def need(cond, usage):
    if not cond:
        raise DataError(f"usage: {usage}")


def options(args, known):
    """The leading options of args that are in known, and the rest."""
    opts = []
    while args and args[0] in known:
        opts.append(args[0])
        args = args[1:]
    return opts, args


def layout_words(words):
    """LAYOUT's words as a sentence: FILE has X, lacks Y."""
    out = {}
    for w in words.split():
        neg = w.startswith("!")
        f, text = w.lstrip("!").split(":", 1)
        out.setdefault(f, []).append(("lacks " if neg else "has ") + text)
    return "; ".join(f"{f} {', '.join(t)}" for f, t in out.items())


def list_branches(data, p, markdown):
    """Each branch: the versions and layout it takes, its arches, each
    variant's series, the real trees it was run on (RUN_ON), from the data."""
    rows = []
    for b in sorted(data.branches, key=lambda x: [int(n) for n in x.split(".")]):
        lo, hi = data.bval(b, "VERSION_MIN"), data.bval(b, "VERSION_MAX")
        hi = re.sub(r"\.9999$", "", hi)
        pkg = data.bval(b, "PACKAGE")
        takes = (f"{lo}" if lo == hi else f"{lo}-{hi}") + (f" (Debian's {pkg}; a tree you bring too)" if pkg
                                                            else " (a tree you bring)")
        variants = "; ".join(f"{v}: {' + '.join(data.bval(b, 'PATCHES_' + v).split()) or 'the tree as it is'}"
                             for v in data.bval(b, "VARIANTS").split())
        rows.append((b, takes, layout_words(data.bval(b, "LAYOUT")) or "by version alone",
                     " ".join(data.branch_arches(b)), variants,
                     "; ".join(x for x in ("Debian's tree at the version a run pins" if pkg else "",
                                           " ".join(data.bval(b, "RUN_ON").split())) if x) or "-"))
    if markdown:
        out = ["| branch | takes | layout (the tree's code) | arches | variants: patch directories | run on |",
               "|---|---|---|---|---|---|"]
        return out + ["| " + " | ".join(r) + " |" for r in rows]
    out = []
    for b, takes, layout, arches, variants, run_on in rows:
        out += [f"{b}: Linux {takes}", f"  layout: {layout}", f"  arches: {arches}",
                f"  variants: {variants}", f"  run on: {run_on}"]
    return out


def run(argv, here, root):
    data = Data(root)
    p = Resolver(data, here, dict(os.environ))
    verb, args = (argv[0], argv[1:]) if argv else ("", [])

    def branch(b):
        if b not in data.branches:
            raise DataError(f"unknown branch '{b}': use one of: {' '.join(data.branches)}")
        return b

    def filters():
        return (args + [""] * 5)[:5]

    if verb == "cells":
        lines(p.cells(*filters()))
    elif verb == "cells-json":
        import json
        print(json.dumps({"cell": p.cells(*filters())}))
    elif verb == "mutant-cells":
        need(args, "plan.sh mutant-cells BRANCH [ARCH [CONFIG]]")
        lines(p.mutant_cells(*(args + ["", ""])[:3]))
    elif verb == "tools":
        lines(p.tools(args, every=args[:1] == ["--all"]))
    elif verb == "fields":
        # A cell's name read back: CELL, BRANCH, ARCH, VARIANT, CONFIG, BOOT (tabs).
        p.any_tree = True
        for name in args:
            c = p.parse(name)
            print("\t".join([c.name, c.branch, c.arch, c.variant, c.config, c.boot]))
    elif verb == "check-plan":
        # Each file is a plan of the schema this checkout reads (docs/plan.md).
        need(args, "plan.sh check-plan PLAN...")
        import json
        for f in args:
            try:
                with open(f) as fh:
                    v = json.load(fh).get("plan_version", "none")
            except (OSError, ValueError, AttributeError):
                v = "unreadable"
            if v != PLAN_VERSION:
                raise DataError(f"{f} is a plan of version {v}, this checkout reads version {PLAN_VERSION}: "
                                "plan it again (make cell, make matrix)")
    elif verb == "pin":
        opts, cells = options(args, ("--missing", "-k"))
        need(cells, "plan.sh pin [-k] [--missing] CELL...")
        p.pin(cells, missing_only="--missing" in opts, keep_going="-k" in opts)
    elif verb == "resolve":
        opts, rest = options(args, ("-k",))
        need(len(rest) >= 2, "plan.sh resolve [-k] DIR CELL...")
        p.resolve(rest[0], rest[1:], keep_going="-k" in opts)
    elif verb == "branches":
        lines(data.branches)
    elif verb == "variants":
        lines(data.variants())
    elif verb == "arches":
        lines(data.arches)
    elif verb == "test-arches":
        lines(a for a in data.arches if data.aval(a, "MAKE_TEST"))
    elif verb == "boots":
        lines(data.boots)
    elif verb == "kconfigs":
        lines(data.kconfigs)
    elif verb == "series":
        lines(p.series(args))
    elif verb == "configs":
        need(args, "plan.sh configs ARCH [FRAGMENT...]")
        lines(p.configs(args[0], args[1:]))
    elif verb == "arch-get":
        need(len(args) == 2, "plan.sh arch-get ARCH KEY")
        if args[0] not in data.arch_files:
            raise DataError(f"unknown ARCH '{args[0]}': use one of: {' '.join(data.arches)}")
        print(data.aval(*args))
    elif verb == "get":
        need(len(args) == 2, "plan.sh get BRANCH KEY")
        print(data.bval(branch(args[0]), args[1]))
    elif verb == "role":
        roles = {"reference": "REFERENCE_BRANCH", "shipped": "SHIPPED_VARIANT", "fix": "FIX_VARIANT",
                 "regress": "REGRESS_VARIANT", "limit": "LIMIT", "silence": "SILENCE", "cpus": "CPUS"}
        need(len(args) == 1, f"plan.sh role {'|'.join(roles)}")
        if args[0] not in roles:
            raise DataError(f"unknown role '{args[0]}': use one of: {' '.join(roles)}")
        v = data.role(roles[args[0]])
        print(branch(v) if args[0] == "reference" else v)
    elif verb == "list-branches":
        opts, rest = options(args, ("--markdown",))
        need(not rest, "plan.sh list-branches [--markdown]")
        lines(list_branches(data, p, "--markdown" in opts))
    elif verb == "branch-for":
        need(len(args) in (1, 2), "plan.sh branch-for VERSION [TREE]")
        print(p.branch_for(*args))
    elif verb == "debian-version":
        need(len(args) == 1, "plan.sh debian-version BRANCH")
        branch(args[0])
        p.check_inputs()
        print(p.debian_want(data.bval(args[0], "PACKAGE")))
    elif verb == "fix-state":
        need(len(args) == 1, "plan.sh fix-state TREE")
        print(fix_state_line(args[0]))
    elif verb == "stack":
        need(len(args) == 2, "plan.sh stack BRANCH VARIANT")
        print(" ".join(p.variant_stack(*args)))
    elif verb == "stable-form":
        need(len(args) == 2, "plan.sh stable-form BRANCH VARIANT")
        print(" ".join(p.stable_form(*args)))
    elif verb == "shipped-sources":
        # Each packaged branch (of BRANCHES, else all) on each of its arches
        # (of ARCHES, else all) that Debian builds: branch, arch, Debian's
        # arch, source package, suites (tabs), for scripts/shipped.sh.
        need(len(args) == 2, "plan.sh shipped-sources \"BRANCH...\" \"ARCH...\"")
        wb, wa = args[0].split(), args[1].split()
        p.check_names(wb, data.branches, "BRANCH")
        p.check_names(wa, data.arches, "ARCH")
        for b in data.branches:
            pkg = data.bval(b, "PACKAGE")
            if (wb and b not in wb) or not pkg:
                continue
            for a in data.branch_arches(b):
                if (wa and a not in wa) or not data.aval(a, "DEBIAN_ARCH"):
                    continue
                print("\t".join([b, a, data.aval(a, "DEBIAN_ARCH"), pkg, data.bval(b, "SUITES")]))
    elif verb == "pinned":
        # The Debian version a packaged branch's tree is planned at (pinned
        # by plan.sh pin, or DEBIAN_VERSION's).
        need(len(args) == 1, "plan.sh pinned BRANCH")
        pkg = data.bval(branch(args[0]), "PACKAGE")
        if not pkg:
            raise DataError(f"branch {args[0]} has no Debian package")
        p.check_inputs()
        print(p.pinned_version(pkg))
    elif verb == "image":
        # IMAGE's files: each one's cell, and a line saying what it is.
        for im in p.images().values():
            p.note(f"IMAGE={im.path}: Linux {im.version} ({im.release}{', ' + im.vendor if im.vendor else ''}), "
                   f"{im.fmt}{' (' + im.compression + ')' if im.compression else ''} for {' or '.join(im.arches)}, "
                   f"judged on branch {im.branch}; configuration: {im.config or 'none given or beside it'}; nothing is built")
    elif verb == "image-unpack":
        need(len(args) == 1, "plan.sh image-unpack PLAN")
        from .image import unpack
        unpack(args[0])
    elif verb == "ksrc":
        need(len(args) == 1 and p.ksrc is not None, "KSRC=TREE plan.sh ksrc BRANCH")
        branch(args[0])
        p.ksrc.need_tree()
        print(" ".join(p.ksrc_branch(args[0])))
        p.ksrc_note(args[0])
    else:
        print(USAGE, file=sys.stderr)
        return 2
    return 0


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = os.environ.get("LEAP_ROOT") or os.path.dirname(here)
    try:
        return run(sys.argv[1:], here, root)
    except DataError as e:
        print(f"plan: {e}", file=sys.stderr)
        from .image import ImageError
        return 2 if isinstance(e, ImageError) else 1
    except BrokenPipeError:
        return 1
