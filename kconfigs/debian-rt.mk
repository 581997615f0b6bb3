# debian-rt: Debian's rt flavour (PREEMPT_RT: most hrtimers expire in
# softirq context, clock_was_set() runs from a work item).
SOURCE    := debian
# Since 6.12 rt is a flavour of the "none" featureset (rt-amd64, rt-arm64).
FILE      := config.$(DEBIAN_ARCH)_none_rt-$(DEBIAN_FLAVOUR)
FRAGMENTS := qemu
# Why a branch may not have it (said with its KCONFIGS).
WITHOUT   := its packaged source cannot build PREEMPT_RT: no ARCH_SUPPORTS_RT before 6.12
ORDER     := 3
