# M2: the 2007 hang: clock_was_set() straight from the atomic leap path (= naive).
# Killed only by the atomic-context splat itself (6.1: a WARNING in
# smp_call_function_many_cond, "sleeping function called from invalid
# context", or lockdep), not by any splat.
KILLED_BY    := SPLAT
KILLER_TESTS :=
KILLER_SPLAT := smp_call_function_many_cond|sleeping function called from invalid context|inconsistent lock state|possible circular locking dependency|HARDIRQ-safe -> HARDIRQ-unsafe
