# M4: see the patch header.
KILLED_BY    := FAIL
KILLER_TESTS := timers_after_delete
