# M8: see the patch header.
KILLED_BY    := FAIL
KILLER_TESTS := cancel_on_set
