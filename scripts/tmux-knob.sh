#!/usr/bin/env bash
# tmux-knob.sh: what a user waits for after a knob key, measured from
# outside, in tmux: opens FILE in inspect at its last call, moves the pins
# off the recorded policy (}), then presses keepRecentTurns +1 and −1 in
# turn (] and [) ROUNDS times, each time timing from the key to the first
# capture of a screen that shows the new policy and no "replaying…".
#
#   scripts/tmux-knob.sh BIN FILE        # ROUNDS=10 by default
#
# PAUSE (seconds, default 1.5) is how long a round waits after its screen,
# as a reader would. BURST=N instead presses ] N times 40 ms apart each
# round (a key held down) and times from the last press. COLD=1 instead
# presses ] and } in turn, so that every key asks for a policy never
# replayed before, and never the one the key before would replay ahead
# (the key pressed again): each is a replay of every call.
#
# Each capture of the pane costs ~2 ms, so a time is good to a few ms.
set -euo pipefail
bin=$1 file=$2 rounds=${ROUNDS:-10}
sock=knob$$
t() { tmux -L "$sock" "$@"; }
trap 't kill-server 2>/dev/null || true' EXIT
t new-session -d -x 200 -y 50 "$bin" "$file"
now() { date +%s%N; }
screen() { t capture-pane -p; }
waitfor() { # pattern [not-pattern]: until the screen has pattern (and not not-pattern)
	local deadline=$(($(now) + 120000000000)) s
	while :; do
		s=$(screen)
		if grep -q -- "$1" <<<"$s" && { [ -z "${2:-}" ] || ! grep -q -- "$2" <<<"$s"; }; then return 0; fi
		if [ "$(now)" -gt "$deadline" ]; then echo "timed out waiting for $1" >&2; screen >&2; exit 1; fi
		sleep 0.002
	done
}
waitfor 'policy recorded' 'loading'
t send-keys G
sleep 1
t send-keys '}'
waitfor 'keepLastToolResults=[0-9]' 'replaying…'
sleep "${SETTLE:-2}" # what starts after the frame (the evidence pass, work ahead) settles
k0=$(screen | grep -o 'keepRecentTurns=[0-9]*' | head -1 | cut -d= -f2)
l0=$(screen | grep -o 'keepLastToolResults=[0-9]*' | head -1 | cut -d= -f2)
echo "file: $file; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); keepRecentTurns starts at $k0"
burst=${BURST:-0}
for i in $(seq 1 "$rounds"); do
	if [ "$burst" -gt 0 ]; then
		want=$((k0 + burst * i))
		for _ in $(seq 1 "$burst"); do t send-keys ']'; sleep 0.04; done
		start=$(now)
		waitfor "keepRecentTurns=$want" 'replaying…'
		echo "$burst × ] → keepRecentTurns=$want on screen $((($(now) - start) / 1000000)) ms after the last press"
		sleep "${PAUSE:-1.5}"
		continue
	fi
	if [ "${COLD:-0}" = 1 ]; then
		if [ $((i % 2)) = 1 ]; then key=']'; else key='}'; fi
		k=$((k0 + (i + 1) / 2)) l=$((l0 + i / 2))
		start=$(now)
		t send-keys "$key"
		waitfor "keepRecentTurns=${k}[* ] *keepLastToolResults=${l}[* ]" 'replaying…'
		echo "key $key → keepRecentTurns=$k keepLastToolResults=$l (never replayed before) on screen in $((($(now) - start) / 1000000)) ms"
		sleep "${PAUSE:-1.5}"
		continue
	fi
	if [ $((i % 2)) = 1 ]; then key=']' want=$((k0 + 1)); else key='[' want=$k0; fi
	start=$(now)
	t send-keys "$key"
	waitfor "keepRecentTurns=$want " 'replaying…'
	echo "key $key → keepRecentTurns=$want on screen in $((($(now) - start) / 1000000)) ms"
	sleep "${PAUSE:-1.5}" # let the background passes of this replay end, as a reader would
done
