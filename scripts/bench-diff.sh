#!/usr/bin/env bash
# bench-diff.sh: inspect diff on two big generated logs against what the
# comparison cannot do without — loading, replaying and judging each file
# (inspect export), the two run at once — with each one's wall time and
# peak memory (GNU time's %M).
#
#   scripts/bench-diff.sh [CALLS]      # default 16000 calls, ~1 GB each side
#
# The log is generated once by internal/rungen (scripts/genlog) and cached
# in the temp directory; B is the same file, once as it was recorded and
# once replayed under --b-keep-recent-turns 5 (every window from call 7
# on differs). Each time is the best of REPEAT runs (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."

repeat=${REPEAT:-1}
read -r log size < <(go run ./scripts/genlog -calls "${1:-16000}")
bin=$(mktemp -d)/inspect
go build -o "$bin" .
echo "log: $log ($((size / 1000000)) MB) on both sides; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
wc -l "$log" >/dev/null

best() { # best NAME COMMAND…: the best wall time of $repeat runs, and its peak RSS
	local name=$1 out t m bt="" bm=""
	shift
	for _ in $(seq "$repeat"); do
		out=$( { /usr/bin/time -f '%e %M' "$@" >/dev/null; } 2>&1 | tail -1)
		read -r t m <<<"$out"
		if [[ -z $bt ]] || awk "BEGIN{exit !($t < $bt)}"; then bt=$t bm=$m; fi
	done
	printf '%-34s %6s s  %6d MB\n' "$name" "$bt" $((bm / 1024))
}
both() { "$bin" export -q "$log" >/dev/null & "$bin" export -q "$log" >/dev/null & wait; }
export -f both
export bin log
best "inspect export A" "$bin" export -q "$log"
best "inspect export A & B (at once)" bash -c both
best "inspect diff A B (json)" "$bin" diff -q --format json "$log" "$log"
best "inspect diff A B --b-keep-recent-turns 5" "$bin" diff -q --b-keep-recent-turns 5 "$log" "$log"
