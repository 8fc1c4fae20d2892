#!/usr/bin/env bash
# bench-compare.sh: how long it takes to read one big agentfootprint log,
# for inspect's loader and for the usual tools, on the same file.
#
#   scripts/bench-compare.sh [CALLS]     # default 16000 calls, ~1 GB
#
# The log is generated once by internal/rungen (scripts/genlog) and cached
# in the temp directory. Every tool reads it from the page cache (one
# untimed wc -l warms it). Each timing is the best of REPEAT runs (default
# 3; jq takes ~40 s a run on 1 GB): the machine may be shared, and the best
# run is the one least disturbed. Needs jq and python3.
#
#   wc -l      counts lines: the floor for reading the bytes at all
#   python     json.loads on every line (decodes everything, keeps nothing)
#   jq -c .    parses and re-prints every line
#   inspect    loader.Load, the whole recording built: the
#              BenchmarkLoad1GB-style benchmark on this file (one load per
#              run), and `inspect report` (load, infer, replay, print)
set -euo pipefail
cd "$(dirname "$0")/.."

calls=${1:-16000}
repeat=${REPEAT:-3}
read -r log size < <(go run ./scripts/genlog -calls "$calls")
echo "log: $log ($((size / 1000000)) MB, $calls calls); best of $repeat runs"
wc -l "$log" >/dev/null

# best CMD...: the least wall time in seconds of $repeat runs of CMD.
best() {
	local b="" t
	for _ in $(seq "$repeat"); do
		t=$( { TIMEFORMAT=%R; time "$@" >/dev/null 2>&1; } 2>&1 )
		if [[ -z "$b" ]] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
	done
	echo "$b"
}

pyloop='
import json, sys
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)
'

bin=$(mktemp -d)/inspect
go build -o "$bin" .
go test -c -o "$bin.test" ./loader

# inspect_load: one load of the log, timed inside the benchmark.
inspect_load() {
	local best="" ns
	for _ in $(seq "$repeat"); do
		ns=$(INSPECT_BENCH_LOG="$log" INSPECT_BENCH_CALLS="$calls" "$bin.test" \
			-test.run '^$' -test.bench '^BenchmarkLoadFile$' -test.benchtime 1x |
			awk '/^BenchmarkLoadFile/ { print $3 }')
		t=$(awk -v ns="$ns" 'BEGIN { printf "%.3f", ns / 1e9 }')
		if [[ -z "$best" ]] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
	done
	echo "$best"
}

t_wc=$(best wc -l "$log")
t_load=$(inspect_load)
t_report=$(best "$bin" report "$log")
t_py=$(best python3 -c "$pyloop" "$log")
t_jq=$(best jq -c . "$log")

row() { # name seconds
	awk -v n="$1" -v t="$2" -v s="$size" -v l="$t_load" \
		'BEGIN { printf "%-20s %8.2f s %9.0f MB/s %8.2f\n", n, t, s / t / 1e6, t / l }'
}
echo
printf "%-20s %10s %14s %8s\n" "" "best" "throughput" "time / inspect load"
row "wc -l" "$t_wc"
row "inspect (load)" "$t_load"
row "inspect report" "$t_report"
row "python json.loads" "$t_py"
row "jq -c ." "$t_jq"
rm -rf "$(dirname "$bin")"
