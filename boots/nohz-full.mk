# nohz_full=1: CPU 1 runs without the tick while one task runs on it
# (adaptive ticks); its hrtimer base hears of a leap only from the
# clock-was-set IPI, never from a tick of its own.  The kernel must be built
# with CONFIG_NO_HZ_FULL, and says so on the console when it takes the option.
CMDLINE := nohz_full=1
NEEDS   := CONFIG_NO_HZ_FULL=y
SHOWS   := NO_HZ: Full dynticks CPUs: 1\.
ORDER   := 2
