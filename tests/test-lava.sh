#!/bin/bash
# test-lava.sh - the cells as LAVA v2 jobs (scripts/lava-jobs.sh, make
# list-jobs FORMAT=lava): the jobs of the make test cells (the reference
# branch on the MAKE_TEST arches) validate with LAVA's own schema
# (lava-common's lava_common.schemas.validate, Debian 12's LAVA 2023.01)
# and a copy with a wrong key does not; each job's name, timeouts,
# context, metadata and deploy come from its plan; and the job's monitors,
# replayed with pexpect on the recorded consoles (fixtures/run-6.1) as
# lava-dispatcher's monitors action reads them (tests/lava-monitor.py),
# give each KTAP result as a LAVA case and the cell's own verdict.
# lava-run's own logs (fixtures/lava, make test-lava's run) read back
# (planner.lava results) as the leap test printed them in the log; a job's
# device configuration rendered from the job's context (planner.lava device,
# with stand-in templates); scripts/lava-local.sh refuses a bad cell before
# it makes anything.
# Planned offline: a build directory of its own with the tree's version pinned.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
plan=$ROOT/scripts/plan.sh
ref=$("$plan" role reference)
export BUILD_DIR=$w/build
mkdir -p "$BUILD_DIR/pins"
echo 6.1.192-3 >"$BUILD_DIR/pins/$("$plan" get "$ref" PACKAGE).version"
mapfile -t cells < <("$plan" cells "$ref" "$("$plan" test-arches | paste -sd ' ')")
jobs=$w/jobs

"$ROOT/scripts/lava-jobs.sh" "$jobs" https://lab.example.org/leap "${cells[@]}" >"$w/list"
check_eq "a job per make test cell, named for it" "$(printf '%s.yaml\n' "${cells[@]}" | sort | paste -sd ' ')" "$(cd "$jobs" && printf '%s\n' *.yaml | sort | paste -sd ' ')"
check_eq "... their paths printed" "${#cells[@]}" "$(wc -l <"$w/list")"
"$ROOT/scripts/lava-jobs.sh" "" https://lab.example.org/leap "${cells[@]}" >"$w/stream"
check_eq "without OUT: the same jobs on stdout, a YAML document each" "$(cat "$jobs"/*.yaml | wc -l) $((${#cells[@]} - 1))" \
	"$(grep -vxc -- '---' "$w/stream") $(grep -xc -- '---' "$w/stream")"
check "planned twice: the same jobs" cmp -s "$w/stream" <("$ROOT/scripts/lava-jobs.sh" "" https://lab.example.org/leap "${cells[@]}")
err=$("$ROOT/scripts/lava-jobs.sh" "" /srv/artifacts "${cells[0]}" 2>&1) && rc=0 || rc=$?
check_eq "ARTIFACTS that is no URL: one line, exit 2" "2 1" "$rc $(grep -c '^lava-jobs: ARTIFACTS=/srv/artifacts: give a URL' <<<"$err")"
check "no ARTIFACTS: file:// of BUILD_DIR/artifacts" grep -q "url: \"file://$BUILD_DIR/artifacts/${cells[0]}/" \
	<<<"$("$ROOT/scripts/lava-jobs.sh" "" "" "${cells[0]}")"

# The make target (matrix.mk's list-jobs with FORMAT=lava).
if grep -q 'lava-jobs.sh' "$ROOT/matrix.mk"; then
	(cd "$ROOT" && make -s list-jobs FORMAT=lava OUT="$w/make-jobs" ARTIFACTS=https://lab.example.org/leap \
		BRANCH="$ref" ARCH="$("$plan" test-arches | paste -sd ' ')") >/dev/null
	check_eq "make list-jobs FORMAT=lava OUT=: the same jobs" "" "$(diff -r "$jobs" "$w/make-jobs")"
else
	echo "SKIP: make list-jobs FORMAT=lava: matrix.mk's list-jobs does not call scripts/lava-jobs.sh yet"
fi

# What each job holds, read back as YAML (PyYAML: lava-common's dependency).
py=""
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import yaml' 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
	"$py" - "$jobs" "$w" "${cells[@]}" <<'EOF' >"$w/shape"
import sys, yaml
jobs, w, cells = sys.argv[1], sys.argv[2], sys.argv[3:]
for c in cells:
    j = yaml.safe_load(open(f"{jobs}/{c}.yaml"))
    d, b, t = (next(a[k] for a in j["actions"] if k in a) for k in ("deploy", "boot", "test"))
    print(c, j["job_name"], j["device_type"], j["timeouts"]["job"]["seconds"], t["timeout"]["seconds"],
          j["timeouts"]["connections"]["lava-test-monitor"]["seconds"], j["context"]["arch"],
          j["context"]["memory"], j["context"].get("no_kvm"), j["metadata"]["tree"], j["metadata"]["tree_version"],
          j["metadata"]["configuration"], j["metadata"]["image_key"], j["metadata"]["expected"].replace(" ", ","),
          d["to"], d["images"]["kernel"]["url"], d["images"]["ramdisk"]["url"], b["method"],
          "-append" in d["images"]["kernel"]["image_arg"], t["monitors"][0]["name"],
          all(isinstance(v, str) for v in j["metadata"].values()))
EOF
	"$plan" resolve "$w/plans" "${cells[@]}"
	bad=0
	for c in "${cells[@]}"; do
		p=$w/plans/cells/$c/plan.json
		want="$c $c qemu $((300 + 60 + $(jq .qemu.limit_s "$p"))) $(jq .qemu.limit_s "$p") $(jq .qemu.silence_s "$p")"
		want+=" $(jq -r '.qemu.argv[0] | ltrimstr("qemu-system-")' "$p") $(jq -r '.qemu.argv as $a | $a[($a | index("-m")) + 1]' "$p") True"
		want+=" $(jq -r '.tree.package, .tree.version, .kconfig.name, .image.key, (.expect | join(","))' "$p" | sed 's/^$/tiny/' | paste -sd ' ')"
		want+=" tmpfs https://lab.example.org/leap/$c/$(jq -r '.image.path | split("/")[-1]' "$p")"
		want+=" https://lab.example.org/leap/$c/$(jq -r '.initramfs.path | split("/")[-1]' "$p") qemu True leaptest True"
		got=$(grep "^$c " "$w/shape")
		[ "$want" = "$got" ] || { bad=$((bad + 1)); printf '  expected: %s\n  actual:   %s\n' "$want" "$got"; }
	done
	check_eq "each job from its plan: name, timeouts from LIMIT and SILENCE, QEMU context, metadata, deploy, monitors" 0 "$bad"
	LIMIT=90 SILENCE=0 "$ROOT/scripts/lava-jobs.sh" "$w/long" https://lab.example.org/leap "${cells[0]}" >/dev/null
	check_eq "LIMIT=90 SILENCE=0: test 90 s, silence the whole limit, job 450 s" "90 90 450" \
		"$("$py" -c 'import sys, yaml; j = yaml.safe_load(open(sys.argv[1])); t = next(a["test"] for a in j["actions"] if "test" in a)
print(t["timeout"]["seconds"], j["timeouts"]["connections"]["lava-test-monitor"]["seconds"], j["timeouts"]["job"]["seconds"])' "$w/long/${cells[0]}.yaml")"
	check_eq "the console on QEMU's stdio, not the harness's file" "0 $(jq '[.qemu.argv[] | select(. == "-nodefaults")] | length' "$w/plans/cells/${cells[0]}/plan.json")" \
		"$(grep -c 'file:' <<<"$(grep -A20 '^context:' "$jobs/${cells[0]}.yaml")") $(grep -c -- '- "-serial stdio"' "$jobs/${cells[0]}.yaml")"
else
	echo "SKIP: the jobs' contents: no python3 with PyYAML here (apt-get install python3-yaml)"
fi

# LAVA's own schema: lava-common (Debian 12: 2023.01).
if /usr/bin/python3 -c 'import lava_common.schemas' 2>/dev/null; then
	validate() { # JOB.yaml...: each valid, else its error
		/usr/bin/python3 -c '
import sys, yaml
from lava_common.schemas import validate
rc = 0
for f in sys.argv[1:]:
    try:
        validate(yaml.safe_load(open(f)), strict=True)
    except Exception as e:
        print(f"{f}: {e}"); rc = 1
sys.exit(rc)' "$@"
	}
	out=$(validate "$jobs"/*.yaml) && rc=0 || rc=$?
	check_eq "every job valid by lava_common.schemas.validate (lava-common $(dpkg-query -W -f '${Version}' lava-common 2>/dev/null))" "0 " "$rc $out"
	sed 's/^  connections:$/  connection_timeouts:/' "$jobs/${cells[0]}.yaml" >"$w/bad1.yaml"
	sed 's/^ *pattern:/          patern:/' "$jobs/${cells[0]}.yaml" >"$w/bad2.yaml"
	sed 's/^  arch: /  architecture: /' "$jobs/${cells[0]}.yaml" >"$w/bad3.yaml"
	for n in 1 2 3; do
		check "a broken copy (a wrong key, $n of 3) fails validation" not validate "$w/bad$n.yaml"
	done
else
	echo "SKIP: LAVA's schema: lava-common is not installed (apt-get install lava-common: Debian 12's LAVA 2023.01)"
fi

# The monitors on the recorded consoles, as lava-dispatcher reads them.
py=""
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import yaml, pexpect' 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
	fx=$ROOT/tests/fixtures/run-6.1/cells
	for c in "${cells[@]}"; do
		[ -f "$fx/$c/cell.json" ] || continue
		got=$("$py" "$ROOT/tests/lava-monitor.py" "$jobs/$c.yaml" "$fx/$c/console.log" | paste -sd ' ')
		want=$(tr -d '\r' <"$fx/$c/console.log" | sed -nE 's/^(not ok|ok) [0-9]+ ([a-z0-9_]+)( # SKIP)?.*/\1 \2\3/p' |
			awk '{ r = ($1 == "not") ? "fail" : ($NF == "SKIP" ? "skip" : "pass"); n = ($1 == "not") ? $3 : $2; printf "leaptest %s %s ", n, r }')
		# The verdict where it is the leap test's own (PASS, FAIL, SKIP); a
		# SPLAT (a kernel BUG or WARNING the harness finds on the console) is
		# no case of the monitor's: there LAVA has the result line's.
		v=$(jq -r .verdict "$fx/$c/cell.json")
		case "$v" in
		PASS | FAIL | SKIP) what="its verdict $v" ;;
		*) what="the result line's (the harness's verdict: $v)"
		   v=$(tr -d '\r' <"$fx/$c/console.log" | sed -n 's/^LEAPTEST RESULT: \([A-Z]*\).*/\1/p') ;;
		esac
		want+="leaptest leaptest ${v,,} end"
		check_eq "monitors on $c's console: its KTAP results and $what as LAVA cases" "$want" "$got"
	done
	# A console with a check skipped: LAVA's skip.
	tr -d '\r' <"$fx/${cells[0]}/console.log" | sed -E 's/^ok 8 leap_edge$/ok 8 leap_edge # SKIP timers tick-bound/' >"$w/skip.log"
	check "a skipped check is LAVA's skip" grep -q 'leaptest leap_edge skip' <<<"$("$py" "$ROOT/tests/lava-monitor.py" "$jobs/${cells[0]}.yaml" "$w/skip.log")"
else
	echo "SKIP: the monitors replayed: no python3 with PyYAML and pexpect here (apt-get install python3-pexpect)"
fi
# lava-run's logs read back: the verdict and the checks as the guest printed
# them in the same log (its "target" lines), the job's result, the downloads.
py=""
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import yaml' 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
	lava_results() { (cd "$ROOT/scripts" && "$py" -m planner.lava results "$1"); }
	for log in "$ROOT"/tests/fixtures/lava/*.log; do
		name=$(basename "$log" .log)
		r=$(lava_results "$log")
		target=$(sed -n 's/.*"lvl": "target", "msg": "\(.*\)"}$/\1/p' "$log")
		want=$(sed -nE 's/^(not ok|ok) [0-9]+ ([a-z0-9_]+)( # SKIP)?.*/\1 \2\3/p' <<<"$target" |
			awk '{ r = ($1 == "not") ? "fail" : ($NF == "SKIP" ? "skip" : "pass"); n = ($1 == "not") ? $3 : $2; printf "%s %s\n", n, r }')
		want+=$'\n'"leaptest $(sed -n 's/^LEAPTEST RESULT: \([A-Z]*\).*/\1/p' <<<"$target" | tr '[:upper:]' '[:lower:]')"
		check_eq "lava-run's log of $name: its leaptest cases are the KTAP results and result line the guest printed" "$want" \
			"$(jq -r '.cases[] | select(.definition == "leaptest") | "\(.case) \(.result)"' <<<"$r")"
		check_eq "... the verdict is the result line's, the job pass, two downloads with their sha256" \
			"$(sed -n 's/^LEAPTEST RESULT: \([A-Z]*\).*/\1/p' <<<"$target") pass kernel,ramdisk 2" \
			"$(jq -r '"\(.verdict) \(.job) \(.downloads | keys | join(",")) \([.downloads[] | select(test("^[0-9a-f]{64}$"))] | length)"' <<<"$r")"
	done
	log=$ROOT/tests/fixtures/lava/6.1-arm64-regress.log
	sed '/LEAPTEST RESULT/,$d' "$log" >"$w/cut.log"
	check_eq "a log cut before the result line: verdict NONE, no job result" "NONE none" \
		"$(lava_results "$w/cut.log" | jq -r '"\(.verdict) \(.job)"')"
	sed 's/"case": "job", "definition": "lava", "result": "pass"/"case": "job", "definition": "lava", "error_msg": "timed out", "error_type": "Job", "result": "fail"/' "$log" >"$w/failed.log"
	check_eq "a job that failed: its result and error" "fail timed out" "$(lava_results "$w/failed.log" | jq -r '"\(.job) \(.error)"')"

	# lava-local.sh's step 4 on a run's files: the fixtures' jobs, the cells'
	# verdicts as the logs' result lines, their files the ones LAVA downloaded.
	run=$w/run
	fcells=()
	for log in "$ROOT"/tests/fixtures/lava/*.log; do
		c=$(basename "$log" .log)
		fcells+=("$c")
		mkdir -p "$run/cells/$c" "$run/lava/$c"
		lava_results "$log" >"$run/lava/$c/results.json"
		jq -n --arg v "$(sed -n 's/.*"msg": "LEAPTEST RESULT: \([A-Z]*\).*/\1/p' "$log")" '{verdict: $v}' >"$run/cells/$c/cell.json"
		jq -r '"\(.downloads.kernel)  Image\n\(.downloads.ramdisk)  initramfs.cpio"' "$run/lava/$c/results.json" >"$run/lava/$c/SHA256SUMS"
	done
	compare() { "$ROOT/scripts/lava-local.sh" --compare "$run" "${fcells[@]}"; }
	out=$(compare) && rc=0 || rc=$?
	check_eq "lava-local.sh --compare: LAVA's verdicts are the cells': exit 0, each job agrees" "0 ${#fcells[@]}" "$rc $(grep -c ' agree$' <<<"$out")"
	check_eq "... summary.tsv: a line per job" "$((${#fcells[@]} + 1))" "$(wc -l <"$run/lava/summary.tsv")"
	c=${fcells[0]}
	cp "$run/cells/$c/cell.json" "$w/cell.json"
	jq '.verdict = (if .verdict == "PASS" then "FAIL" else "PASS" end)' "$w/cell.json" >"$run/cells/$c/cell.json"
	out=$(compare) && rc=0 || rc=$?
	check_eq "a cell whose verdict is not LAVA's: exit 1, that job DISAGREE (verdicts differ)" "1 1" "$rc $(grep -c "^$c .*DISAGREE (verdicts differ)$" <<<"$out")"
	cp "$w/cell.json" "$run/cells/$c/cell.json"
	sed -i "1s/^[0-9a-f]\{64\}/$(printf '0%.0s' {1..64})/" "$run/lava/$c/SHA256SUMS"
	out=$(compare) && rc=0 || rc=$?
	check_eq "a kernel LAVA did not download: exit 1, DISAGREE" "1 1" "$rc $(grep -c "^$c .*DISAGREE (LAVA did not boot the cell's published files)$" <<<"$out")"
	rm "$run/lava/$c/results.json"
	out=$(compare) && rc=0 || rc=$?
	check_eq "a job lava-run left no results of: exit 1, LAVA NONE" "1 1" "$rc $(grep -c "^$c  *LAVA NONE .*DISAGREE" <<<"$out")"
else
	echo "SKIP: lava-run's logs: no python3 with PyYAML here (apt-get install python3-yaml)"
fi

# The device configuration: the device dictionary rendered with the job's
# context (stand-in templates: LAVA's own ship with lava-server).
if [ -n "$py" ] && "$py" -c 'import jinja2' 2>/dev/null; then
	mkdir -p "$w/dt"
	printf '%s\n' '{% block body %}{% endblock %}' >"$w/dt/base.jinja2"
	printf '%s\n' "{% extends 'base.jinja2' %}{% block body %}" 'arch: {{ arch }}' 'kvm: {{ not no_kvm }}' \
		'memory: {{ memory|default(512) }}' 'extra: {{ extra_options }}' '{% endblock %}' >"$w/dt/qemu.jinja2"
	lava_device() { (cd "$ROOT/scripts" && "$py" -m planner.lava device "$@"); }
	dev=$(lava_device "$jobs/${cells[0]}.yaml" "$w/dt")
	check_eq "device: LAVA's qemu template with the job's context" \
		"$("$py" -c 'import sys, yaml; c = yaml.safe_load(open(sys.argv[1]))["context"]; print(c["arch"], False, c["memory"], c["extra_options"])' "$jobs/${cells[0]}.yaml")" \
		"$("$py" -c 'import sys, yaml; d = yaml.safe_load(sys.stdin); print(d["arch"], d["kvm"], d["memory"], d["extra"])' <<<"$dev")"
	printf '%s\n' 'arch: [{{ arch }}' >"$w/dt/qemu.jinja2"
	check "device: a template that renders no YAML fails" not lava_device "$jobs/${cells[0]}.yaml" "$w/dt"
else
	echo "SKIP: the device configuration: no python3 with PyYAML and jinja2 here (apt-get install python3-jinja2)"
fi

# lava-local.sh: a bad cell is refused before anything is made.
err=$(BUILD_DIR=$w/local "$ROOT/scripts/lava-local.sh" 6.1-x86_64-nosuch 2>&1) && rc=0 || rc=$?
check_eq "lava-local.sh with a bad cell: exit 2, nothing made" "2 no" "$rc $([ -e "$w/local/lava-root" ] && echo yes || echo no)"
check "... and says why" test -n "$err"

finish lava
