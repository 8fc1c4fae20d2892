#!/usr/bin/env bash
# same-output.sh: two builds of inspect must print the same bytes for
# every recording: export, report, evidence and advise, under the
# inferred policy and under a few given ones (each a different replay),
# on every recording file in the repo's testdata and ../shared/testdata*
# (and on any FILE given after the two binaries).
#
#   scripts/same-output.sh BEFORE AFTER [FILE...]
#
# Prints each difference and ends with the number of runs compared and
# of differences; exits 1 when there is one.
set -uo pipefail
before=$1 after=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=("$@")
for d in "$root"/testdata/*/ "$root"/../shared/testdata*/*/; do
	for f in "$d"run.jsonl "$d"recording.json "$d"recording.json.gz "$d"run.json; do
		[[ -f $f ]] && files+=("$f")
	done
done
policies=(
	""
	"--strategy sliding-window --keep-recent-turns 2"
	"--strategy sliding-window --keep-recent-turns 1 --keep-last-tool-results 0"
	"--strategy token-budget --threshold-tokens 2000"
	"--strategy summarize-oldest --threshold-tokens 1500"
)
runs=0 diffs=0
compare() { # what args...
	local what=$1
	shift
	"$before" "$@" >"$tmp/a" 2>"$tmp/ae"
	local ra=$?
	"$after" "$@" >"$tmp/b" 2>"$tmp/be"
	local rb=$?
	runs=$((runs + 1))
	if [[ $ra != "$rb" ]] || ! cmp -s "$tmp/a" "$tmp/b" || ! cmp -s "$tmp/ae" "$tmp/be"; then
		diffs=$((diffs + 1))
		echo "DIFFERS ($ra/$rb): $what: $*"
	fi
}
for f in "${files[@]}"; do
	for p in "${policies[@]}"; do
		# shellcheck disable=SC2086
		compare export export -q $p "$f"
		# shellcheck disable=SC2086
		compare report report -q $p "$f"
	done
	compare evidence evidence "$f"
	compare advise advise -q "$f"
done
echo "$runs runs on ${#files[@]} files, $diffs differences"
[[ $diffs == 0 ]]
