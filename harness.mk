# harness.mk - the roles and defaults the scripts take from the data, never
# from their own text (scripts/plan.sh role NAME; docs/plan.md).
# The branch make test, make bench, make repeat and make mutants use.
REFERENCE_BRANCH := 6.1
# The variant that is the tree as shipped, the one that carries the fix, and
# the one that re-creates the bug on a tree that carries the fix.
SHIPPED_VARIANT := stock
FIX_VARIANT     := fixed
REGRESS_VARIANT := regress
# A guest's limits in seconds (LIMIT= and SILENCE= override them; SILENCE 0
# turns the silence kill off) and its CPUs.
LIMIT   := 60
SILENCE := 20
CPUS    := 2
# The config fragments of a branch.mk that names none (configs/*.config,
# each with its arch's part, arches/<arch>/<name>.config, where there is one).
CONFIGS := common time32
