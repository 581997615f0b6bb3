# M1: the 2012 bug: no hrtimer notification on a leap (= the regress variant).
KILLED_BY    := FAIL
KILLER_TESTS := timers_after_insert timers_after_delete load_after_insert
