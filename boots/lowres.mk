# highres=off: low-resolution mode, timers expire at the tick.  The leap
# test measures at the tick's resolution there and says so on the console.
CMDLINE := highres=off
SHOWS   := ^# leaptest: low-resolution mode
ORDER   := 3
