# M5: see the patch header.
KILLED_BY    := FAIL
KILLER_TESTS := tai_offset
