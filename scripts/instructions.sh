#!/usr/bin/env bash
# instructions.sh: instructions a call of a serial replay (the generated
# 1,000-call log, BenchmarkReplay1kSerial), counted by cachegrind: a
# number the machine's speed does not move, to compare two builds by.
#
#   scripts/instructions.sh [REV]   (REV: a commit to count instead of the work tree)
#
# Needs valgrind (apt-get install valgrind). Prints the count, and the
# functions that take the most (per call) with cg_annotate's help.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$root
if [[ $# -ge 1 ]]; then
	git -C "$root" worktree add -q "$tmp/wt" "$1"
	trap 'git -C "$root" worktree remove --force "$tmp/wt"; rm -rf "$tmp"' EXIT
	src=$tmp/wt
fi
(cd "$src" && go test -c -o "$tmp/w.test" ./window)
# the benchmark writes its log on first use (rungen.Cached): once outside
# valgrind, so that neither count holds the writing
(cd "$src/window" && "$tmp/w.test" -test.run '^$' -test.bench 'Replay1kSerial' -test.benchtime 1x >/dev/null)
# one replay (N=1) against twenty-two (the N=1 run, then N=21): the
# difference is 21 replays of 1,000 calls, the load and set-up cancelled
for n in 1 21; do
	(cd "$src/window" && GOMAXPROCS=1 GOGC=off valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file="$tmp/cg.$n" "$tmp/w.test" -test.run '^$' \
		-test.bench 'Replay1kSerial' -test.benchtime "${n}x" >/dev/null 2>&1)
done
python3 - "$tmp/cg.1" "$tmp/cg.21" <<'PY'
import re, subprocess, sys
def load(f):
    out = subprocess.run(['cg_annotate', '--auto=no', '--show-percs=no', '--threshold=0', f],
                         capture_output=True, text=True).stdout
    d = {}
    for line in out.splitlines():
        m = re.match(r'^\s*([\d,]+)\s+(\S+:\S.*)$', line)
        if m:
            name = m.group(2).split(':', 1)[1]
            d[name] = d.get(name, 0) + int(m.group(1).replace(',', ''))
    return d
a, b = load(sys.argv[1]), load(sys.argv[2])
per = {k: (b.get(k, 0) - a.get(k, 0)) / 21000 for k in set(a) | set(b)}
print("instructions a call: %.0f" % sum(per.values()))
for k, v in sorted(per.items(), key=lambda x: -x[1])[:25]:
    print("%7.0f  %s" % (v, k.replace('github.com/afinspect/inspect/', '')))
PY
