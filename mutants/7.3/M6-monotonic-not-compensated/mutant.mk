# M6: see the patch header.
KILLED_BY    := FAIL
KILLER_TESTS := monotonic_continuity
