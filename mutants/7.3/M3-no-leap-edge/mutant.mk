# M3: only the 2015 leap-edge fix removed; the 2012 fix intact.
KILLED_BY    := FAIL
KILLER_TESTS := leap_edge
