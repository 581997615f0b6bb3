"""The few planner calls that start a process (a tree's make kernelversion,
the fetchers, kconfig-prep.sh).  The subprocess module is imported here, when
one is started: its import is a sixth of a planner call's start, and most
calls start none."""


def run(argv, capture=False, quiet=False, stdout=None, quiet_errors=False, env=None):
    """Run argv; its output captured as text (capture), dropped (quiet) or
    written to the file stdout; its errors dropped with quiet_errors; env:
    its environment, when not the planner's."""
    import subprocess
    out = subprocess.PIPE if capture else subprocess.DEVNULL if quiet else stdout
    err = subprocess.DEVNULL if quiet_errors else None
    return subprocess.run(argv, stdout=out, stderr=err, text=capture, env=env)
