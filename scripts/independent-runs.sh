#!/bin/sh
# independent-runs.sh IN OUT N — writes N copies of the log IN one after
# the other into OUT, each copy's runIds made its own ("<runId>-copy<i>"),
# so that OUT holds N independent conversations of one agent (inference
# must not fall back on them, and must cost little more than a replay).
# 14 copies of s08 make the ~200 MB file of the measurement in README.
set -eu
in=$1 out=$2 n=$3
ids=$(grep -o '"runId":"[^"]*"' "$in" | sort -u | sed 's/"runId":"\(.*\)"/\1/' | grep -v '^consumer-scope$')
: >"$out"
i=1
while [ "$i" -le "$n" ]; do
	script=""
	for id in $ids; do
		script="$script s/\"runId\":\"$id\"/\"runId\":\"$id-copy$i\"/g;"
	done
	sed "$script" "$in" >>"$out"
	i=$((i + 1))
done
