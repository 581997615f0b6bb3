"""LAVA's monitors test action, replayed on a recorded console (tests/test-lava.sh).

Usage: python3 tests/lava-monitor.py JOB.yaml CONSOLE.log

Reads the job's monitors (start, end, pattern, fixupdict) and plays the
console to them through a pty, in small pieces (a line arrives in parts, as
from a guest), with pexpect, the way lava-dispatcher 2023.01's
TestMonitorAction does (lava_dispatcher/actions/test/monitor.py): wait for
start, then expect [EOF, TIMEOUT, end, pattern] until end; each pattern match
is a case, its result mapped by fixupdict, its test_case_id lowercased with
non-word runs made "_".  Prints "SUITE CASE RESULT" a line, then "end" or
what stopped it.  Needs PyYAML and pexpect (lava-common's and
lava-dispatcher's dependencies).
"""

import re
import sys

import pexpect
import yaml

PLAYER = r"""
import random, sys, time
random.seed(7)
d = open(sys.argv[1], "rb").read()
i = 0
while i < len(d):
    n = random.randint(1, 48)
    sys.stdout.buffer.write(d[i:i + n]); sys.stdout.buffer.flush(); i += n
    time.sleep(0.0002)
"""


def main(job_path, console):
    job = yaml.safe_load(open(job_path, encoding="utf-8"))
    monitors = next(a["test"]["monitors"] for a in job["actions"] if "test" in a)
    conn = pexpect.spawn(sys.executable, ["-c", PLAYER, console], encoding="utf-8",
                         codec_errors="replace", timeout=30)
    for m in monitors:
        suite = m["name"].replace(" ", "-").lower()
        fix = m.get("fixupdict") or {}
        conn.expect(m["start"])
        patterns = [pexpect.EOF, pexpect.TIMEOUT, m["end"], m["pattern"]]
        while True:
            i = conn.expect(patterns)
            if i == 0:
                print("stopped: end of file before the end string")
                return 1
            if i == 1:
                print("stopped: timeout")
                return 1
            if i == 2:
                print("end")
                break
            g = conn.match.groupdict()
            res = fix.get(g["result"], g["result"])
            if res not in ("pass", "fail", "skip", "unknown"):
                print(f"bad result {g['result']!r}")
                return 1
            print(suite, re.sub(r"\W+", "_", g["test_case_id"].strip().lower()), res)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
