# highres=off: low-resolution mode, timers expire at the tick.  The leap
# test measures that its timers are tick-bound and says so on the console.
CMDLINE := highres=off
SHOWS   := ^# leaptest: timers tick-bound
ORDER   := 3
UNPROVEN := leap_edge
