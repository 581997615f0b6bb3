#!/bin/bash
# plan.sh - the matrix's one reader of its data, and the planner of cells.
# The planner is the Python package beside this file (scripts/planner/,
# standard library only); docs/plan.md says its verbs, the data's grammar
# and plan.json's schema.  This wrapper keeps the command line every caller
# uses.
set -eu
# LEAP_TRACE=FILE: note each run of this program there (tests count them).
[ -z "${LEAP_TRACE:-}" ] || echo "plan.sh $*" >>"$LEAP_TRACE"
here=$(cd "$(dirname "$0")" && pwd)
# Debian's python3 (the one deps.sh installs), not a version manager's shim
# found first on PATH: a shim's own start can cost more than the planning.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH} exec "$py" -m planner "$@"
