# tiny: tinyconfig (allnoconfig on trees without it) with the branch's
# fragments (CONFIGS, else configs/common.config) and the arch's.  The
# default: the leap code and what boots it, built in minutes.
SOURCE := tiny
ORDER  := 1
