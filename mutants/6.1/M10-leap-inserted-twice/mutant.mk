# M10: see the patch header.
KILLED_BY    := FAIL
KILLER_TESTS := leap_states wall_clock_sequence
