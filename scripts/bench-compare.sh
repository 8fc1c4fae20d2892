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
#   inspect advise         the policy advisor: its whole grid of policies replayed and judged
#   inspect export × N     one inspect export per policy of that grid, as a script would do
#                          it: N × the mean of the exports of three of its policies (the
#                          first, the middle, the last row), or, with ALL_EXPORTS set, every
#                          one of them run (minutes on 1 GB)
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

# best CMD...: "SECONDS KB CPU" of the least wall time of $repeat runs of
# CMD, output discarded, with that run's peak resident set and CPU seconds
# (user + system: what a machine shared with other work does not inflate).
best() {
	local b="" kb="" cpu="" t m u s
	for _ in $(seq "$repeat"); do
		/usr/bin/time -o "$tmp/time" -f '%e %M %U %S' "$@" >/dev/null 2>&1
		read -r t m u s <"$tmp/time"
		if [[ -z "$b" ]] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then
			b=$t kb=$m cpu=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
		fi
	done
	echo "$b $kb $cpu"
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
run "inspect advise" "$bin" advise -q "$log"

# the grid the advisor swept: its size, and the export flags of each policy
"$bin" advise -q --format json "$log" >"$tmp/advice.json"
python3 - "$tmp/advice.json" >"$tmp/flags" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["agents"][0]["policies"]
for r in rows:
    p = r["policy"]
    f = ["--strategy", p["strategy"], "--keep-recent-turns", str(p["keepRecentTurns"]),
         "--keep-last-tool-results", str(p["keepLastToolResults"])]
    if p.get("thresholdTokens") is not None:
        f += ["--threshold-tokens", str(p["thresholdTokens"])]
    if p.get("noAnchor"):
        f += ["--no-anchor"]
    print(" ".join(f))
PY
policies=$(wc -l <"$tmp/flags")
if [[ -n "${ALL_EXPORTS:-}" ]]; then
	/usr/bin/time -o "$tmp/time" -f '%e %U %S' bash -c 'while read -r -a flags; do "$0" export -q "${flags[@]}" "$1" >/dev/null; done <"$2"' \
		"$bin" "$log" "$tmp/flags"
	read -r t u s <"$tmp/time"
	names+=("inspect export × $policies")
	results+=("$t 0 $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')")
else
	sum=0 sumcpu=0
	for line in 1 $(((policies + 1) / 2)) "$policies"; do
		read -r -a flags < <(sed -n "${line}p" "$tmp/flags")
		read -r t _ c < <(best "$bin" export -q "${flags[@]}" "$log")
		sum=$(awk -v a="$sum" -v b="$t" 'BEGIN { print a + b }')
		sumcpu=$(awk -v a="$sumcpu" -v b="$c" 'BEGIN { print a + b }')
	done
	names+=("inspect export × $policies (≈)")
	results+=("$(awk -v s="$sum" -v c="$sumcpu" -v n="$policies" 'BEGIN { printf "%.2f 0 %.2f", s / 3 * n, c / 3 * n }')")
fi

read -r t_py _ <<<"${results[1]}"
echo
printf "%-24s %9s %9s %11s %16s %11s %9s\n" "" "best" "CPU" "throughput" "× Python's speed" "peak RSS" "RSS/file"
for i in "${!names[@]}"; do
	read -r t kb c <<<"${results[$i]}"
	awk -v n="${names[$i]}" -v t="$t" -v c="$c" -v s="$size" -v p="$t_py" -v kb="$kb" \
		'BEGIN { if (kb == 0) printf "%-24s %7.2f s %7.2f s %6.0f MB/s %16.2f %11s %9s\n", n, t, c, s / t / 1e6, p / t, "-", "-"
		         else printf "%-24s %7.2f s %7.2f s %6.0f MB/s %16.2f %8.0f MB %9.2f\n", n, t, c, s / t / 1e6, p / t, kb / 1024, kb * 1024 / s }'
done
read -r t_advise _ c_advise <<<"${results[-2]}"
read -r t_exports _ c_exports <<<"${results[-1]}"
awk -v a="$t_advise" -v e="$t_exports" -v ca="$c_advise" -v ce="$c_exports" -v n="$policies" \
	'BEGIN { printf "\ninspect advise: %d policies in %.2f s (%.2f CPU-s), %.0f× faster than one inspect export a policy (%.2f s; %.0f× in CPU-s)\n", n, a, ca, e / a, e, ce / ca }'
