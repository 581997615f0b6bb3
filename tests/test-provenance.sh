#!/bin/bash
# tier: host
# test-provenance.sh - every patch that cites an upstream commit ("commit
# <id> upstream.") draws its lines from that commit and from no other upstream
# commit, unless its note names the other one.
#
# tests/fixtures/upstream/<12 hex>.diff holds the lines an upstream commit
# adds and removes, as a named source shows them (each file's header says
# which); tests/fixtures/upstream/draws-from lists, for each such patch, the
# commits its lines may come from: its own first, then any its note names.
# An added line of a patch that a fixture adds is checked: if no commit the
# patch may draw from adds it, the line is another commit's and the patch
# fails.  A line no fixture has is the backport's own adaptation (its note
# says what it changed); a line the patch also removes is moved, not new.
set -eu
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
fx=$ROOT/tests/fixtures/upstream
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# provenance.py BRANCHES FIXTURES MANIFEST: one line per finding, "ok ..." or
# "bad ...", for every upstream-cited patch and every manifest entry.
cat >"$scratch/provenance.py" <<'PY'
import os, re, sys
branches, fixtures, manifest = sys.argv[1:4]
STOP = {'break;', 'else', 'else {', '} else {', 'return ret;', 'int ret;',
        'unsigned long flags;', '#endif', '#else', '/*', '*/', '*', '{', '}',
        '};', 'return 0;', 'goto out;', 'continue;', 'default:', '} while (0);'}
def norm(line):
    return ' '.join(line.split())
def trivial(n):
    return n in STOP or len(n.replace(' ', '')) < 6
def lines_of(text, sign):
    out = []
    for l in text.splitlines():
        if l.startswith(sign * 3 + ' ') or l.startswith(sign * 3 + '\t') or l in (sign * 3,):
            continue
        if l.startswith(sign):
            n = norm(l[1:])
            if n and not trivial(n):
                out.append(n)
    return out
fix = {}
for f in sorted(os.listdir(fixtures)):
    if f.endswith('.diff'):
        t = ''.join(l for l in open(os.path.join(fixtures, f)) if not l.startswith('#'))
        fix[f[:-5]] = set(lines_of(t, '+'))
draws, flags = {}, {}
for l in open(manifest):
    l = l.split('#', 1)[0].split()
    if l:
        draws[l[0]] = [w for w in l[1:] if re.fullmatch('[0-9a-f]{12}', w)]
        flags[l[0]] = {w for w in l[1:] if not re.fullmatch('[0-9a-f]{12}', w)}
seen = set()
for root, _, files in sorted(os.walk(branches)):
    for f in sorted(files):
        if not f.endswith('.patch'):
            continue
        p = os.path.join(root, f)
        rel = os.path.relpath(p, branches)
        t = open(p, errors='replace').read()
        m = re.search(r'(?m)^commit ([0-9a-f]{40}) upstream\.$', t)
        if not m:
            continue
        seen.add(rel)
        own = m.group(1)[:12]
        if rel not in draws:
            print(f'bad {rel}: cites {own} but is not in draws-from')
            continue
        allowed = draws[rel]
        if not allowed or allowed[0] != own:
            print(f'bad {rel}: draws-from must list its own commit {own} first')
            continue
        note, diff = t.split('\n---\n', 1) if '\n---\n' in t else (t, '')
        for c in allowed:
            if c not in fix:
                print(f'bad {rel}: no fixture for {c}')
        for c in allowed[1:]:
            if c not in note:
                print(f'bad {rel}: draws from {c}, which its note does not name')
        added, removed = lines_of(diff, '+'), set(lines_of(diff, '-'))
        foreign, mine = [], 0
        for n in added:
            mine += n in fix.get(own, ())
            if n in removed:
                continue
            owners = [c for c in fix if n in fix[c]]
            if owners and not any(c in allowed for c in owners):
                foreign.append((n, owners))
        for n, owners in foreign:
            print(f'bad {rel}: "{n}" is a line of {" ".join(owners)}')
        if not foreign:
            print(f'ok {rel}: every line a fixture knows is of {" ".join(allowed)}')
        if own in fix and mine == 0 and 'adapted' not in flags[rel]:
            print(f'bad {rel}: no line of its own commit {own} (fixture {own}.diff)')
for rel in sorted(set(draws) - seen):
    print(f'bad {rel}: in draws-from, but no such upstream-cited patch')
PY

run() { python3 "$scratch/provenance.py" "$1" "$fx" "$2"; }

# The real series.
out=$(run "$ROOT/branches" "$fx/draws-from")
check "some upstream-cited patches were checked" test "$(grep -c '^ok ' <<<"$out")" -ge 40
while IFS= read -r l; do
	case $l in
	ok\ *) check "${l#ok }" true ;;
	*) check "${l#bad }" false ;;
	esac
done <<<"$out"

# Every fixture names its source.
for f in "$fx"/*.diff; do
	check "$(basename "$f") names its source" grep -q '^# Source: ' "$f"
done

# Planted: the tests' own copies of real patches, each given a line of
# another commit, must fail.
mk() { # DIR: a branches/ copy holding one patch
	rm -rf "${scratch:?}/${1:?}"
	mkdir -p "$scratch/$1/3.0/edge"
	cp "$ROOT"/branches/3.0/edge/0001-time-Prevent-early-expiry-of-hrtimers-CLOCK_REALTIME.patch "$scratch/$1/3.0/edge/"
}
p=3.0/edge/0001-time-Prevent-early-expiry-of-hrtimers-CLOCK_REALTIME.patch
printf '%s 833f32d76302 90bf361ceae2\n' "$p" >"$scratch/draws"
mk clean
check "planted: the unchanged copy passes" not grep -q '^bad' <<<"$(run "$scratch/clean" "$scratch/draws")"
# 96efdcf2d080's read-path block inside 833f32d7's patch.
mk adjtimex
sed -i 's|^+/\* second value of the next pending leapsecond.*|&\n+\tif (unlikely(ts->tv_sec >= ntp_next_leap_sec)) {|' "$scratch/adjtimex/$p"
out=$(run "$scratch/adjtimex" "$scratch/draws")
check "planted: a line of 96efdcf2d080 in 833f32d7's patch fails" grep -q "^bad $p: .* is a line of 96efdcf2d080" <<<"$out"
# c796348774f1's "secs == ntp_next_leap_sec" test.
mk later
sed -i 's|^+\t\t} else if (secs % SECS_PER_DAY == 0) {|+\t\t} else if (secs == ntp_next_leap_sec) {|' "$scratch/later/$p"
out=$(run "$scratch/later" "$scratch/draws")
check "planted: c796348774f1's leap test in 833f32d7's patch fails" grep -q "^bad $p: .* is a line of c796348774f1" <<<"$out"
# 90bf361ceae2's SECS_PER_DAY define, when the note does not name it.
mk secs
printf '%s 833f32d76302\n' "$p" >"$scratch/draws-own"
out=$(run "$scratch/secs" "$scratch/draws-own")
check "planted: 90bf361ceae2's define fails where draws-from does not list it" \
	grep -q "^bad $p: \"#define SECS_PER_DAY 86400\" is a line of 90bf361ceae2" <<<"$out"
# A commit in draws-from that the note does not name.
sed -i 's/90bf361ceae2/90bf361cXXXX/g' "$scratch/secs/$p"
out=$(run "$scratch/secs" "$scratch/draws")
check "planted: draws-from naming a commit the note does not name fails" grep -q "^bad $p: draws from 90bf361ceae2, which its note does not name" <<<"$out"
# An upstream-cited patch draws-from does not list.
out=$(run "$scratch/clean" /dev/null)
check "planted: a patch missing from draws-from fails" grep -q "^bad $p: cites 833f32d76302 but is not in draws-from" <<<"$out"

finish provenance
