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
PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH} exec python3 -m planner "$@"
