"""A cell's plan as a LAVA v2 job definition (YAML): the cell booted by a LAVA
lab's `qemu` device type, or by `lava-run` (lava-dispatcher) alone.

Usage: python3 -m planner.lava [--out DIR] --artifacts URL PLAN.json...
       python3 -m planner.lava device JOB.yaml [TEMPLATE_DIR...]
       python3 -m planner.lava results LOG
(scripts/lava-jobs.sh plans the cells and calls the first; `make list-jobs
FORMAT=lava`.)  With --out, DIR/<cell>.yaml per plan; else every job on
stdout, a YAML document each (`---` between them).

`device` and `results` are for lava-run alone (scripts/lava-local.sh, `make
test-lava`; they need PyYAML, and jinja2 for `device`, as lava-dispatcher
does):
  device   the device configuration lava-run takes (--device) for JOB: the
           device dictionary DEVICE_DICTIONARY (a qemu device of LAVA's own
           qemu.jinja2) rendered with the job's context, as LAVA's server
           renders it for a job (lava_scheduler_app: a jinja2 sandbox,
           trim_blocks, no autoescape; the templates from TEMPLATE_DIR,
           default the server's DEVICE_TYPES_PATHS)
  results  what lava-run's log (its stdout, a YAML mapping a line) says, as
           JSON: the job's result and error, the duration of the job (from
           the log's first to last time stamp), every results line
           (definition, case, result), the leap test's verdict (case
           `leaptest` of suite `leaptest`: PASS, FAIL, SKIP; NONE when the
           guest printed no result line) and the sha256 of each download
           by its label (kernel, ramdisk)

A job holds:
  device_type  qemu (LAVA's qemu.jinja2 device type)
  job_name     the cell's name
  timeouts     from the cell's LIMIT (plan qemu.limit_s): the test action
               (and its lava-test-monitor) gets LIMIT, as the harness gives
               the guest from QEMU's start; the silence it takes (SILENCE,
               qemu.silence_s; else LIMIT) is the monitor's connection
               timeout; the deploy gets DEPLOY_S for its two downloads, the
               boot BOOT_S to start QEMU; the job their sum; any other
               action the larger of DEPLOY_S and LIMIT
  context      the arch's QEMU arguments: arch (QEMU's binary suffix),
               memory, no_kvm (the harness's guests run under TCG), machine
               and cpu where LAVA's template writes -machine/-cpu for that
               arch, every other argument in extra_options; the console is
               QEMU's stdio (LAVA's -nographic), not the harness's file
  metadata     cell, branch, arch, variant, boot mode, tree, tree version,
               configuration, image key, expected verdicts, reproducer
               (strings: LAVA's server takes str or int values)
  actions      deploy to tmpfs: the kernel image and the initramfs from
               ARTIFACTS/<cell>/<file> (the plain layout, below), with the
               plan's kernel command line; boot: qemu; test: a `monitors`
               action (the guest has no shell), the leap test's own KTAP
               lines as LAVA test cases, suite `leaptest`: one case per
               top-level result (ok: pass, not ok: fail, ok # SKIP: skip)
               and `leaptest` for its result line (LEAPTEST RESULT:
               PASS/FAIL/SKIP), between leapinit's start and end lines.

The artifact layout (ARTIFACTS, a URL: file://, http(s)://):
  ARTIFACTS/<cell>/<the plan's image file name>   e.g. bzImage, Image
  ARTIFACTS/<cell>/<the plan's initramfs name>    initramfs.cpio
"""

import json
import os
import re
import sys

DEPLOY_S = 300
BOOT_S = 60
# LAVA's qemu.jinja2 (2023.01) writes -machine and -cpu itself for these
# arches (from the context's machine and cpu, with defaults of its own), so
# the plan's go there; for any other arch they stay in extra_options.
TEMPLATE_CPU = {"aarch64", "arm64", "arm", "i386", "riscv64"}
TEMPLATE_MACHINE = TEMPLATE_CPU | {"hppa", "m68k", "mips", "mips64", "nios2", "ppc", "ppc64",
                                   "sparc", "sparc64", "xtensa"}
# The harness's own console and display arguments: LAVA's template gives
# -nographic and -monitor none, and its connection is QEMU's stdio.
DROPPED = {"-serial", "-display", "-monitor", "-kernel", "-initrd", "-append", "-m"}

# The monitors test action.  LAVA runs `pattern` (Python re, through
# pexpect, DOTALL) again and again on the console between `start` and `end`;
# each match is a test case: its test_case_id and result groups, result
# mapped by fixupdict.  KTAP's top-level result lines start a line ("\n"
# before them: the subtests' are indented); the lookahead waits for the
# whole line (its end "\r\r\n" where QEMU's stdio is a terminal that adds
# a "\r" of its own), so a line half-read is never judged; the result group is "not"
# (not ok), "ok", "SKIP" (ok ... # SKIP) or the result line's PASS/FAIL/SKIP.
MONITOR = {
    "name": "leaptest",
    "start": "leapinit: running /leaptest",
    "end": "leapinit: (leaptest (exit|killed)|cannot run)",
    "pattern": (r"\n(?=(?:(?:not )?ok [0-9]+ |(?=LEAPTEST RESULT: ))(?P<test_case_id>[a-z0-9_]+|LEAPTEST)"
                r"[^\r\n]*\r*\n)(?:ok [0-9]+ [a-z0-9_]+ # (?=SKIP)|LEAPTEST RESULT: )?"
                r"(?P<result>SKIP|not|ok|PASS|FAIL)"),
    "fixupdict": {"not": "fail", "ok": "pass", "SKIP": "skip", "PASS": "pass", "FAIL": "fail"},
}


# The device dictionary of a lab's qemu device: LAVA's qemu.jinja2 as it is
# (the job's context sets what it reads: arch, memory, no_kvm, machine,
# cpu, extra_options).
DEVICE_DICTIONARY = "{% extends 'qemu.jinja2' %}\n"
# lava-server's DEVICE_TYPES_PATHS (lava_server/settings/common.py, 2023.01).
DEVICE_TYPES_PATHS = ["/etc/lava-server/dispatcher-config/device-types", "/usr/share/lava-server/device-types"]


class LavaError(Exception):
    """One line for the user."""


def _qemu_context(argv):
    """(context, the QEMU binary) from the plan's QEMU command."""
    binary = os.path.basename(argv[0])
    if not binary.startswith("qemu-system-"):
        raise LavaError(f"{argv[0]}: not a qemu-system-* command")
    arch = binary[len("qemu-system-"):]
    ctx = {"arch": arch, "no_kvm": True}
    extra = []
    i = 1
    while i < len(argv):
        a = argv[i]
        v = argv[i + 1] if i + 1 < len(argv) else None
        if a in DROPPED and v is not None:
            if a == "-m":
                ctx["memory"] = int(v) if v.isdigit() else v
            i += 2
            continue
        if a in ("-M", "-machine") and v is not None and arch in TEMPLATE_MACHINE:
            ctx["machine"] = v
            i += 2
            continue
        if a == "-cpu" and v is not None and arch in TEMPLATE_CPU:
            ctx["cpu"] = v
            i += 2
            continue
        if a.startswith("-") and v is not None and not v.startswith("-"):
            extra.append(f"{a} {v}")
            i += 2
        else:
            extra.append(a)
            i += 1
    if "-nodefaults" in extra:
        # No default serial port then: the console must be QEMU's stdio.
        extra.append("-serial stdio")
    for e in extra:
        if "'" in e or '"' in e:
            raise LavaError(f"QEMU argument {e!r}: a quote LAVA's command line would not keep")
    ctx["extra_options"] = extra
    return ctx, binary


def _quoted(s):
    """s in double quotes for LAVA's QEMU command line (pexpect splits it)."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def job(plan, artifacts):
    cell = plan["cell"]
    limit = int(plan["qemu"]["limit_s"])
    silence = int(plan["qemu"].get("silence_s") or 0) or limit
    ctx, _ = _qemu_context(plan["qemu"]["argv"])
    base = artifacts.rstrip("/") + "/" + cell
    kernel = os.path.basename(plan["image"]["path"])
    initrd = os.path.basename(plan["initramfs"]["path"])
    tree = plan["tree"]
    meta = {
        "cell": cell, "branch": plan["branch"], "arch": plan["arch"], "variant": plan["variant"],
        "boot_mode": plan["boot"].get("mode") or "default",
        "tree": tree.get("package") or os.path.basename(tree.get("path", "")) or tree.get("source", ""),
        "tree_source": tree.get("source", ""), "tree_version": tree.get("version", ""),
        "configuration": plan["kconfig"].get("name") or "tiny",
        "image_key": plan["image"]["key"],
        "expected": " ".join(plan.get("expect", [])),
        "limit_s": str(limit),
        "reproducer": plan.get("reproducer", ""),
        "generator": "leaptest scripts/lava-jobs.sh (make list-jobs FORMAT=lava)",
    }
    return {
        "device_type": "qemu",
        "job_name": cell,
        "visibility": "public",
        "priority": "medium",
        "timeouts": {
            "job": {"seconds": DEPLOY_S + BOOT_S + limit},
            "action": {"seconds": max(DEPLOY_S, limit)},
            "actions": {"lava-test-monitor": {"seconds": limit}},
            "connections": {"lava-test-monitor": {"seconds": silence}},
        },
        "context": ctx,
        "metadata": meta,
        "actions": [
            {"deploy": {
                "to": "tmpfs",
                "timeout": {"seconds": DEPLOY_S},
                "images": {
                    "kernel": {"url": f"{base}/{kernel}",
                               "image_arg": f"-kernel {{kernel}} -append {_quoted(plan['qemu']['cmdline'])}"},
                    "ramdisk": {"url": f"{base}/{initrd}", "image_arg": "-initrd {ramdisk}"},
                },
            }},
            {"boot": {"method": "qemu", "media": "tmpfs", "timeout": {"seconds": BOOT_S}}},
            {"test": {"timeout": {"seconds": limit}, "monitors": [MONITOR]}},
        ],
    }


# A word YAML reads as the same string unquoted (no number, no boolean or
# null of YAML 1.1 or 1.2); anything else is written as a JSON string, a
# YAML double-quoted scalar, so no other YAML quoting rule matters.
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_WORDS = {"y", "n", "yes", "no", "true", "false", "on", "off", "null"}


def _scalar(v):
    if isinstance(v, str) and _PLAIN.fullmatch(v) and v.lower() not in _WORDS:
        return v
    return json.dumps(v)


def to_yaml(x, indent=0):
    """Block-style YAML of dicts, lists and scalars."""
    pad = "  " * indent
    out = []
    if isinstance(x, dict):
        for k, v in x.items():
            if isinstance(v, (dict, list)) and v:
                out.append(f"{pad}{_scalar(k)}:")
                out.append(to_yaml(v, indent + 1))
            else:
                out.append(f"{pad}{_scalar(k)}: {_scalar(v)}")
    elif isinstance(x, list):
        for v in x:
            if isinstance(v, (dict, list)) and v:
                inner = to_yaml(v, indent + 1).split("\n")
                out.append(f"{pad}- {inner[0].lstrip()}")
                out.extend(inner[1:])
            else:
                out.append(f"{pad}- {_scalar(v)}")
    else:
        out.append(pad + _scalar(x))
    return "\n".join(out)


def render(plan, artifacts):
    head = (f"# LAVA v2 job: leap-second test cell {plan['cell']} (scripts/lava-jobs.sh; docs/ci.md).\n"
            f"# Kernel and initramfs from {artifacts.rstrip('/')}/{plan['cell']}/.\n")
    return head + to_yaml(job(plan, artifacts)) + "\n"


def device(job_path, template_dirs=None):
    """The rendered device configuration (YAML text) for the job at job_path."""
    import yaml
    from jinja2 import FileSystemLoader
    from jinja2.sandbox import SandboxedEnvironment
    with open(job_path, encoding="utf-8") as f:
        job_def = yaml.safe_load(f)
    env = SandboxedEnvironment(loader=FileSystemLoader(template_dirs or DEVICE_TYPES_PATHS),
                               autoescape=False, trim_blocks=True)
    text = env.from_string(DEVICE_DICTIONARY).render(**(job_def.get("context") or {}))
    yaml.safe_load(text)  # what lava-run reads: YAML, else the error here
    return text


def results(log_path):
    """What a lava-run log says (a dict, see the module's docstring)."""
    import datetime
    import yaml
    cases, downloads, stamps = [], {}, []
    job, error = "none", ""
    with open(log_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("{"):
                continue
            try:
                entry = yaml.safe_load(line)
            except yaml.YAMLError:
                continue
            if not isinstance(entry, dict):
                continue
            if "dt" in entry:
                stamps.append(entry["dt"])
            msg = entry.get("msg")
            if entry.get("lvl") != "results" or not isinstance(msg, dict):
                continue
            cases.append({"definition": str(msg.get("definition")), "case": str(msg.get("case")),
                          "result": str(msg.get("result"))})
            extra = msg.get("extra") or {}
            if msg.get("case") == "file-download" and isinstance(extra, dict) and "label" in extra:
                downloads[str(extra["label"])] = str(extra.get("sha256sum", ""))
            if msg.get("definition") == "lava" and msg.get("case") == "job":
                job, error = str(msg.get("result")), str(msg.get("error_msg") or "")
    verdict = next((c["result"].upper() for c in cases
                    if c["definition"] == MONITOR["name"] and c["case"] == "leaptest"), "NONE")
    elapsed = 0.0
    if len(stamps) > 1:
        t = [datetime.datetime.fromisoformat(str(s)) for s in (stamps[0], stamps[-1])]
        elapsed = round((t[1] - t[0]).total_seconds(), 1)
    return {"job": job, "error": error, "elapsed_s": elapsed, "verdict": verdict,
            "downloads": downloads, "cases": cases}


def main(argv):
    if argv[:1] == ["device"] and len(argv) >= 2:
        try:
            sys.stdout.write(device(argv[1], argv[2:]))
        except Exception as e:  # jinja2's and PyYAML's errors, a missing file
            print(f"lava: device for {argv[1]}: {e}", file=sys.stderr)
            return 1
        return 0
    if argv[:1] == ["results"] and len(argv) == 2:
        try:
            print(json.dumps(results(argv[1]), indent=1))
        except OSError as e:
            print(f"lava: results: {e}", file=sys.stderr)
            return 1
        return 0
    out, artifacts, plans = None, None, []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--out" and args:
            out = args.pop(0)
        elif a == "--artifacts" and args:
            artifacts = args.pop(0)
        else:
            plans.append(a)
    if not artifacts or not plans:
        print("usage: python3 -m planner.lava [--out DIR] --artifacts URL PLAN.json...", file=sys.stderr)
        return 2
    if "://" not in artifacts:
        print(f"lava: ARTIFACTS={artifacts}: give a URL (file:///path, https://host/path)", file=sys.stderr)
        return 2
    docs = []
    try:
        for p in plans:
            with open(p, encoding="utf-8") as f:
                plan = json.load(f)
            docs.append((plan["cell"], render(plan, artifacts)))
    except (LavaError, OSError, KeyError, ValueError) as e:
        print(f"lava: {p}: {e}", file=sys.stderr)
        return 1
    if out:
        os.makedirs(out, exist_ok=True)
        for cell, text in docs:
            path = os.path.join(out, f"{cell}.yaml")
            with open(path + ".tmp", "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(path + ".tmp", path)
            print(path)
    else:
        sys.stdout.write("---\n".join(text for _, text in docs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
