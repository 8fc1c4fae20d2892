#!/usr/bin/env bash
# bench-ab.sh: two builds of inspect on one log, run alternately, beside
# Python's json.loads per line, so that both meet the same machine load.
#
#   scripts/bench-ab.sh BEFORE AFTER FILE     # two inspect binaries
#
# Each round runs Python, report and export of BEFORE, then of AFTER;
# ROUNDS (default 3) rounds. Each line is the round with the least wall
# time, with its CPU time (user + system) and peak resident memory (GNU
# time). Build BEFORE from an older commit with
#   git archive COMMIT | tar -x -C DIR && (cd DIR && go build -o BIN .)
set -euo pipefail
before=$1 after=$2 log=$3 rounds=${ROUNDS:-3}
size=$(stat -c %s "$log")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pyloop='
import json, sys
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)
'
echo "log: $log ($((size / 1000000)) MB); best of $rounds rounds; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
wc -l "$log" >/dev/null
declare -A best
run() { # name cmd...
	local name=$1 e u s m
	shift
	/usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$@" >/dev/null 2>&1
	read -r e u s m <"$tmp/time"
	if [[ -z "${best[$name]:-}" ]] || awk -v a="$e" -v b="${best[$name]%% *}" 'BEGIN { exit !(a < b) }'; then
		best[$name]="$e $u $s $m"
	fi
}
for _ in $(seq "$rounds"); do
	run python python3 -c "$pyloop" "$log"
	for v in before after; do
		bin=$before
		[[ $v == after ]] && bin=$after
		run "report $v" "$bin" report "$log"
		run "export $v" "$bin" export "$log"
	done
done
read -r tp _ <<<"${best[python]}"
for k in python "report before" "report after" "export before" "export after"; do
	read -r e u s m <<<"${best[$k]}"
	awk -v k="$k" -v e="$e" -v u="$u" -v s="$s" -v m="$m" -v tp="$tp" -v sz="$size" \
		'BEGIN { printf "%-14s %6.2f s  CPU %5.2f s  %5.2f × Python  peak RSS %4.0f MB (%.2f × file)\n", k, e, u + s, tp / e, m / 1024, m * 1024 / sz }'
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
