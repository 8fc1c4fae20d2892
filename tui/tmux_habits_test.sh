#!/usr/bin/env bash
# Habits of a terminal tool, in a real terminal (tmux, 120×32, its own
# server, tmux's default set-clipboard external):
#  1. -f on a file that is not there yet: the line says it waits, as
#     tail -F does; the file appears and the UI opens on it; a second
#     wait given up with ctrl+c ends with status 1;
#  2. y on a turn: tmux's paste buffer holds the turn's text.
#
#   tui/tmux_habits_test.sh           # builds /tmp/inspect-habits
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${INSPECT_BIN:-/tmp/inspect-habits}
[ -n "${INSPECT_BIN:-}" ] || (cd "$root" && go build -o "$bin" .)
dir=$(mktemp -d)
session=habits-$$
trap 'command tmux -S "$dir/tmux.sock" kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT
sock=$dir/tmux.sock
tmux() { command tmux -S "$sock" "$@"; }
# TMUX is kept in the pane's environment: inspect must see it is in tmux
tmux -f /dev/null new-session -d -s "$session" -x 120 -y 32 "env -i HOME=$HOME TERM=xterm-256color PATH=$PATH TMUX=\$TMUX PS1='tour\$ ' bash --norc --noprofile"
fail() { echo "FAIL: $*"; tmux capture-pane -pt "$session"; exit 1; }
waitfor() { # text, seconds
  for _ in $(seq $(( $2 * 10 ))); do
    tmux capture-pane -pt "$session" | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  fail "no '$1' on screen"
}
tmux send-keys -t "$session" "$bin -f $dir/run.jsonl; echo status=\$?" Enter
waitfor "waiting for $dir/run.jsonl to appear (-f follows it as tail -F does; ctrl+c gives up)" 5
sleep 0.5
cp "$root/testdata/s01-basic-loop/run.jsonl" "$dir/run.jsonl.part" && mv "$dir/run.jsonl.part" "$dir/run.jsonl"
waitfor "call 1/9" 10
waitfor "following" 5
tmux send-keys -t "$session" q
waitfor "status=0" 5
tmux send-keys -t "$session" "clear; $bin -f $dir/later.jsonl; echo status=\$?" Enter
waitfor "waiting for $dir/later.jsonl to appear" 5
tmux send-keys -t "$session" C-c
waitfor "gave up waiting for $dir/later.jsonl" 5
waitfor "status=1" 5
echo "ok    -f waits for a missing file, opens it when it appears, and ctrl+c gives up"

tmux send-keys -t "$session" "clear; $bin $root/testdata/s01-basic-loop/run.jsonl; echo status=\$?" Enter
waitfor "call 1/9" 10
[[ $(tmux list-buffers 2>/dev/null | wc -l) == 0 ]] || fail "a paste buffer before y"
tmux send-keys -t "$session" Right
waitfor "call 2/9" 5
tmux send-keys -t "$session" y
waitfor "to tmux's paste buffer" 5
tmux show-buffer | head -c 200 | grep -qF 'search_docs {"q":"search_docs-1","n":1}' || fail "the paste buffer holds: $(tmux show-buffer | head -c 200)"
tmux send-keys -t "$session" q
waitfor "status=0" 5
echo "ok    y puts the turn in tmux's paste buffer (set-clipboard $(tmux show-options -gv set-clipboard))"
