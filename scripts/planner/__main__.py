"""python3 -m planner: scripts/plan.sh's command line."""
import sys

from .cli import main

sys.exit(main())
