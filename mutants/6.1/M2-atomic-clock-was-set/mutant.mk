# M2: the 2007 hang: clock_was_set() straight from the atomic leap path (= naive).
KILLED_BY    := SPLAT TIMEOUT
KILLER_TESTS :=
