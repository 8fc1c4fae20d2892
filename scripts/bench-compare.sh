#!/usr/bin/env bash
# bench-compare.sh: how long inspect takes on one big agentfootprint log,
# beside the usual tools on the same file, with each one's peak memory.
#
#   scripts/bench-compare.sh [CALLS | FILE]   # default 16000 calls, ~1 GB
#
# With CALLS the log is generated once by internal/rungen (scripts/genlog)
# and cached in the temp directory; with FILE that file is read (say the
# ~200 MB file of 14 independent runs scripts/independent-runs.sh makes).
# Every tool reads it from the page cache (one untimed wc -l warms it).
# Each time is the best of REPEAT runs (default 3): the machine may be
# shared, and the best run is the one least disturbed; the peak resident
# memory (GNU time's %M) is that run's. Needs python3 and GNU time
# (/usr/bin/time); jq is run unless NO_JQ is set (~40 s a run on 1 GB).
#
#   wc -l                  counts lines: the floor for reading the bytes at all
#   python json.loads      json.loads on every line (decodes everything, keeps nothing)
#   jq -c .                parses and re-prints every line
#   inspect report         load, infer the policy, replay, compare, print
#   inspect report (given) the same with the policy given as flags ($GIVEN)
#   inspect export         the replay as JSON (to /dev/null)
set -euo pipefail
cd "$(dirname "$0")/.."

repeat=${REPEAT:-3}
given=${GIVEN:---strategy sliding-window --keep-recent-turns 4 --keep-last-tool-results 2}
arg=${1:-16000}
if [[ -f "$arg" ]]; then
	log=$arg
	size=$(stat -c %s "$log")
else
	read -r log size < <(go run ./scripts/genlog -calls "$arg")
fi
echo "log: $log ($((size / 1000000)) MB); best of $repeat runs; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
wc -l "$log" >/dev/null

# best CMD...: "SECONDS KB" of the least wall time of $repeat runs of CMD,
# output discarded, with that run's peak resident set.
best() {
	local b="" kb="" t m
	for _ in $(seq "$repeat"); do
		/usr/bin/time -o "$tmp/time" -f '%e %M' "$@" >/dev/null 2>&1
		read -r t m <"$tmp/time"
		if [[ -z "$b" ]] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t kb=$m; fi
	done
	echo "$b $kb"
}

pyloop='
import json, sys
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)
'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/inspect
go build -o "$bin" .

declare -a names results
run() { # name cmd...
	names+=("$1")
	shift
	results+=("$(best "$@")")
}
run "wc -l" wc -l "$log"
run "python json.loads" python3 -c "$pyloop" "$log"
if [[ -z "${NO_JQ:-}" ]]; then run "jq -c ." jq -c . "$log"; fi
run "inspect report" "$bin" report "$log"
# shellcheck disable=SC2086 # $given is flags
run "inspect report (given)" "$bin" report $given "$log"
run "inspect export" "$bin" export "$log"

read -r t_py _ <<<"${results[1]}"
echo
printf "%-24s %9s %11s %16s %11s %9s\n" "" "best" "throughput" "× Python's speed" "peak RSS" "RSS/file"
for i in "${!names[@]}"; do
	read -r t kb <<<"${results[$i]}"
	awk -v n="${names[$i]}" -v t="$t" -v s="$size" -v p="$t_py" -v kb="$kb" \
		'BEGIN { printf "%-24s %7.2f s %6.0f MB/s %16.2f %8.0f MB %9.2f\n", n, t, s / t / 1e6, p / t, kb / 1024, kb * 1024 / s }'
done
