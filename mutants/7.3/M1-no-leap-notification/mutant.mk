# M1: the 2012 bug alone: no hrtimer notification on a leap, the 2015
# leap-edge adjustment kept (the single fault; M3 is the edge alone).
KILLED_BY    := FAIL
KILLER_TESTS := timers_after_delete
