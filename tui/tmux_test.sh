#!/usr/bin/env bash
# A tour of the real inspect binary in a real terminal (tmux, 120×40):
# open s01-basic-loop, step to the last call, change both knobs, reset,
# open the help, quit; check the screen text at every step, and that the
# terminal is given back (alternate screen left, mouse off, the shell's
# prompt and line discipline back).
#
#   tui/tmux_test.sh                       # builds /tmp/inspect-tour from the repo root
#   INSPECT_BIN=/path/to/inspect tui/tmux_test.sh   # uses that binary instead
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${INSPECT_BIN:-/tmp/inspect-tour}
if [[ -z ${INSPECT_BIN:-} ]]; then
	(cd "$root" && go build -o "$bin" .)
fi
command -v tmux >/dev/null || { echo "tmux is not installed"; exit 2; }

session=inspect-tour-$$
tmux new-session -d -s "$session" -x 120 -y 40 "env -i HOME=$HOME TERM=xterm-256color PATH=$PATH PS1='tour\$ ' bash --norc --noprofile"
trap 'tmux kill-session -t "$session" 2>/dev/null || true' EXIT

screen() { tmux capture-pane -p -t "$session"; }
flag() { tmux display-message -p -t "$session" "#{$1}"; }
keys() { tmux send-keys -t "$session" "$@"; }

# expect waits up to 5 s for a line matching the extended regexp.
expect() {
	local pattern=$1 what=$2
	for _ in $(seq 50); do
		if screen | grep -qE -- "$pattern"; then
			echo "ok    $what"
			return 0
		fi
		sleep 0.1
	done
	echo "FAIL  $what: nothing matches /$pattern/ on the screen:"
	screen
	exit 1
}

# absent fails when the regexp matches anywhere on the screen.
absent() {
	local pattern=$1 what=$2
	if screen | grep -qE -- "$pattern"; then
		echo "FAIL  $what: /$pattern/ is still on the screen:"
		screen
		exit 1
	fi
	echo "ok    $what"
}

expect '^tour\$' "a shell is ready"
keys "cd '$root' && '$bin' testdata/s01-basic-loop/run.jsonl" Enter

expect 'call 1/9 \(iteration 1\)' "opens on call 1 of 9"
expect 'anchor +user: Find out why' "the request is the anchor"
[[ $(flag alternate_on) == 1 ]] && echo "ok    runs in the alternate screen" || { echo "FAIL  not in the alternate screen"; exit 1; }

keys G
expect 'call 9/9 \(iteration 9\)' "G goes to the last call"
expect 'window 10 msgs' "the last call sent 10 messages (wire.json call 9)"
expect 'notice ' "a drop notice is in the list"
expect 'gone +[a-z_,:]+ left@' "turns that left earlier are listed as gone"

keys ']'
expect 'keepRecentTurns=3\*' "] raises keepRecentTurns to 3, marked as changed"
expect 'differ at this call' "the turns that differ are counted"
keys '}'
expect 'keepLastToolResults=3\*' "} raises keepLastToolResults to 3"
expect 'policy changed by you' "the header says the policy was changed"
expect 'call 9/9' "the call stays put while the knobs move"

keys r
expect 'keepRecentTurns=2 +keepLastToolResults=2 ' "r resets both knobs"
expect 'the recorded policy;' "the bar is back on the recorded policy"
absent 'differ at this call' "no turn differs after the reset"

keys '?'
expect 'Keys \(\? or esc closes\)' "? opens the help"
expect 'keepRecentTurns −1' "the help lists the knob keys"
keys Escape
expect 'Turns · ' "esc closes the help"

keys q
expect '^tour\$ *$' "q quits to the shell prompt"
absent 'Turns · ' "the inspector's screen is gone"
[[ $(flag alternate_on) == 0 ]] && echo "ok    alternate screen left" || { echo "FAIL  still in the alternate screen"; exit 1; }
[[ $(flag mouse_any_flag) == 0 ]] && echo "ok    mouse reporting off" || { echo "FAIL  mouse reporting still on"; exit 1; }

keys 'echo "rc=$?"; stty -a | grep -oE "(^| )-?(icanon|echo)( |$)" | tr -d " " | tr "\n" " "; echo' Enter
expect '^rc=0$' "inspect exited 0"
expect '^icanon echo *$' "the terminal is back in canonical mode with echo"
echo "tour passed"
