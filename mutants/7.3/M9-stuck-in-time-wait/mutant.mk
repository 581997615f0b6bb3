# M9: see the patch header.
KILLED_BY    := FAIL
KILLER_TESTS := leap_states
