#!/bin/bash
# kcidb.sh - a run's kcidb.json: its cells as KCIDB I/O data (schema v4:
# checkouts, builds, tests), for KernelCI's database.  The planner's module
# scripts/planner/kcidb.py says what goes where; report.sh calls this, so
# every run and every merged run has one.
#
# Usage: kcidb.sh RUN_DIR
#   ORIGIN=name        the submitter, KCIDB's origin (default leaptest_local)
#   RESULTS_URL=url    where RUN_DIR is published (default file://RUN_DIR):
#                      the consoles' URLs
set -eu
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
[ -x "$py" ] || py=python3
PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH} exec "$py" -m planner.kcidb "$@"
