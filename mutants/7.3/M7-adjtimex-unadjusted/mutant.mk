# M7: see the patch header.
KILLED_BY    := FAIL
KILLER_TESTS := adjtimex_at_leap
