# nohz=off: the periodic tick on every CPU, idle or not (no NO_HZ idle
# stop).  The leap is applied by a tick that always comes; DESIGN.md's
# "NO_HZ idle hides the leap-edge bug" is the other side of this.
CMDLINE := nohz=off
ORDER   := 1
