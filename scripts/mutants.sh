#!/bin/bash
# mutants.sh - build and boot every mutant of a branch on every arch, and print
# the kill table: mutant, arch, verdict, the KTAP tests that failed, killed?
#
# Usage: mutants.sh BRANCH
#
# A mutant is a directory mutants/<branch>/<name>/ with a series, its patches
# (test fixtures, not fixes) and a mutant.mk: KILLED_BY (the verdicts that
# kill it) and KILLER_TESTS (the KTAP tests that must be among the failed
# ones: a mutant killed for another reason is a finding, not a kill).
# Exit 0 only if the stock cell passes on every arch and every mutant is
# killed for its reason.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=$(realpath -m "${BUILD_DIR:-$root/build}")
[ $# -eq 1 ] || { echo "usage: mutants.sh BRANCH" >&2; exit 2; }
b=$1
arches=$("$here/plan.sh" get "$b" ARCHES) || exit 1
[ -d "$root/mutants/$b" ] || { echo "mutants: no mutants/$b/ directory (see mutants/)" >&2; exit 1; }
mkdir -p "$build/results"
exec 8>"$build/.lock"
flock -n 8 || { echo "mutants: another make run is using $build (lock $build/.lock): wait for it" >&2; exit 1; }
run_id=mutants-$(date -u +%Y%m%d-%H%M%S)
run=$build/results/$run_id
mkdir -p "$run"
ln -sfn "$run_id" "$build/results/latest"

mutants=("$root/mutants/$b"/*/)
total=$(( $(wc -w <<<"$arches") * (${#mutants[@]} + 1) ))
i=0
for a in $arches; do
	i=$((i + 1))
	BUILD_DIR=$build "$here/cell.sh" "$b-$a-stock" "$run" "$i/$total" || true
	for m in "${mutants[@]}"; do
		i=$((i + 1))
		BUILD_DIR=$build MUTANT=${m#"$root"/} "$here/cell.sh" "$b-$a-stock" "$run" "$i/$total" || true
	done
done

get() { "$here/plan.sh" value "$1" "$2"; }
fail=0
{
	printf '%-32s %-7s %-8s %-7s %s\n' mutant arch verdict killed "failed KTAP tests"
	for a in $arches; do
		IFS=$'\t' read -r _ _ _ _ _ verdict _ _ _ _ _ _ <"$run/cells/$b-$a-stock/cell.tsv"
		printf '%-32s %-7s %-8s %-7s %s\n' "(stock)" "$a" "$verdict" "-" "$(sed -n 's/.*"failed_tests": "\([^"]*\)".*/\1/p' "$run/cells/$b-$a-stock/cell.json")"
		[ "$verdict" = PASS ] || fail=1
		for m in "${mutants[@]}"; do
			name=$(basename "$m")
			dir=$run/cells/$b-$a-$name
			IFS=$'\t' read -r _ _ _ _ _ verdict _ _ _ _ _ _ <"$dir/cell.tsv"
			failed=$(sed -n 's/.*"failed_tests": "\([^"]*\)".*/\1/p' "$dir/cell.json")
			killed=no
			for v in $(get "$m/mutant.mk" KILLED_BY); do [ "$v" = "$verdict" ] && killed=yes; done
			if [ "$killed" = yes ] && [ "$verdict" = FAIL ]; then
				for t in $(get "$m/mutant.mk" KILLER_TESTS); do
					case ",$failed," in *",$t,"*) ;; *) killed="no (not $t)" ;; esac
				done
			fi
			[ "$killed" = yes ] || fail=1
			printf '%-32s %-7s %-8s %-7s %s\n' "$name" "$a" "$verdict" "$killed" "$failed"
		done
	done
} >"$run/kill-table.tmp"
n_killed=$(awk '$4 == "yes"' "$run/kill-table.tmp" | wc -l)
n_mut=$(( ${#mutants[@]} * $(wc -w <<<"$arches") ))
echo "mutants: $n_killed/$n_mut killed for their reason; stock: $(awk '$1 == "(stock)" { printf "%s %s ", $2, $3 }' "$run/kill-table.tmp")" >>"$run/kill-table.tmp"
mv "$run/kill-table.tmp" "$run/kill-table.txt"
cat "$run/kill-table.txt"
"$here/report.sh" "$run" >/dev/null || true
exit $fail
