#!/usr/bin/env bash
# Hostile and unlucky input in a real terminal (tmux, 120×40): a
# recording must never drive the terminal, nor freeze the screen:
#  1. a copy of s01-basic-loop with terminal escapes (window title, OSC 52
#     clipboard write, leave the alternate screen, autowrap off, insert
#     mode on, CR/BS, C1 CSI, bidi override) and width-ambiguous emoji in
#     the prompt, a tool name, the tool results and the strategy name:
#     step through it, quit, and check that the pane title, the paste
#     buffers and the terminal's modes are what they were, and that no
#     border moved;
#  2. a log with a 6.7 MB JSON tool result: select it, step past it,
#     resize, quit — each answered within 2 s;
#  3. opened at 20×5, grown to 120×40, quit: no debris on the main screen;
#  4. the log piped to `inspect -`, keys read from the terminal;
#  5. y on a tool result that ends a bracketed paste and types a command:
#     the paste buffer holds the placeholders, no ESC, C1 or bidi control;
#  6. at 180×50, c02 with a newline, colour (SGR 1;32 and 8), C1, CR, BS
#     and bidi controls in agent billing's id and path, a run id, a tool
#     name and a tool-call id: the conversations' column, the picker, the
#     header after opening billing — no line is the attacker's;
#  7. demo-evidence with the same in the tools whose values left: the
#     response block (i), K and enter on a value.
# The files are generated (scripts/hostilelog), never committed.
#
#   tui/tmux_hostile_test.sh                          # builds /tmp/inspect-hostile
#   INSPECT_BIN=/path/to/inspect tui/tmux_hostile_test.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${INSPECT_BIN:-/tmp/inspect-hostile}
if [[ -z ${INSPECT_BIN:-} ]]; then
	(cd "$root" && go build -o "$bin" .)
fi
command -v tmux >/dev/null || { echo "tmux is not installed"; exit 2; }
work=$(mktemp -d)
(cd "$root" && go run ./scripts/hostilelog -o "$work" testdata)

# a server of its own: its paste buffers are only this test's
session=inspect-hostile-$$
tmux() { command tmux -L "$session" "$@"; }
tmux -f /dev/null new-session -d -s "$session" -x 120 -y 40 "env -i HOME=$HOME TERM=xterm-256color PATH=$PATH LANG=C.UTF-8 PS1='tour\$ ' bash --norc --noprofile"
trap 'tmux kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
tmux set-option -t "$session" set-clipboard on >/dev/null   # an OSC 52 would land in a paste buffer
tmux set-option -t "$session" allow-rename on >/dev/null 2>&1 || true
tmux select-pane -t "$session" -T "before"

screen() { tmux capture-pane -p -t "$session"; }
flag() { tmux display-message -p -t "$session" "#{$1}"; }
keys() { tmux send-keys -t "$session" "$@"; }
fail() { echo "FAIL  $*"; screen; exit 1; }
now() { date +%s%N; }

# expect waits up to $2 s (5 by default) for a line matching the regexp.
expect() {
	local pattern=$1 what=$2 limit=${3:-5} start
	start=$(now)
	while (( ($(now) - start) / 1000000 < limit * 1000 )); do
		if screen | grep -qE -- "$pattern"; then
			echo "ok    $what ($(( ($(now) - start) / 1000000 )) ms)"
			return 0
		fi
		sleep 0.05
	done
	fail "$what: nothing matches /$pattern/ within $limit s"
}

# borders: every line that starts with a frame glyph ends with one, at
# the pane's last column (an emoji drawn wider than measured pushes it).
# A frame drawn while the terminal resizes may be torn: it has 2 s.
borders() {
	local bad
	for _ in $(seq 20); do
		bad=$(screen | grep -E '^[┃│┏┗╭╰]' | grep -vE '[┃│┓┛╮╯]$' || true)
		if [[ -z $bad ]]; then
			echo "ok    borders in place ($1)"
			return 0
		fi
		sleep 0.1
	done
	fail "a border moved ($1):"$'\n'"$bad"
}

modes() {
	[[ $(flag pane_title) == before ]] || fail "the pane title changed to '$(flag pane_title)'"
	[[ $(tmux list-buffers 2>/dev/null | wc -l) == 0 ]] || fail "a paste buffer was written: $(tmux list-buffers)"
	[[ $(flag wrap_flag) == 1 ]] || fail "autowrap is off"
	[[ $(flag insert_flag) == 0 ]] || fail "insert mode is on"
	echo "ok    title, clipboard, autowrap and insert mode unchanged ($1)"
}

expect '^tour\$' "a shell is ready"
modes "before"

# 1. escapes
keys "'$bin' '$work/hostile.jsonl'" Enter
expect 'call 1/9' "the hostile copy opens"
[[ $(flag alternate_on) == 1 ]] || fail "not in the alternate screen"
expect 'why␛\]0;PWNED␇␛\]52;c;' "the prompt's escapes are shown as placeholders"
borders "call 1"
for _ in 1 2 3 4 5; do keys l; done
expect 'call 6/9' "stepped to call 6"
expect 'read_file␛\]0;PWNED' "the tool name's escapes are shown"
for _ in 1 2 3 4 5 6 7 8; do keys Up; done
borders "call 6, turns walked"
keys Tab
for _ in $(seq 30); do keys Down; done
borders "call 6, detail scrolled"
[[ $(flag alternate_on) == 1 ]] || fail "dropped out of the alternate screen"
modes "inside"
keys '!'
expect 'Problems \(!, q or esc closes\)' "the problems overlay opens"
borders "problems"
keys Escape
expect 'Turns · ' "esc closes it"
keys q
expect '^tour\$ *$' "q quits to the shell prompt"
[[ $(flag alternate_on) == 0 ]] || fail "still in the alternate screen"
modes "after quitting"
keys 'clear' Enter

# 2. a 6.7 MB JSON result
keys "'$bin' '$work/big.jsonl'" Enter
expect 'call 1/9' "the log with a 6.7 MB result opens" 10
keys l
expect 'call 2/9' "step to call 2: the answer to the key" 2
expect 'not highlighted: 6\.[0-9] MB' "the 6.7 MB result is shown, plain, with its note" 2
expect '"id": "web-000000"' "its first record is on screen" 2
keys l
expect 'call 3/9' "step past it" 2
keys h
expect 'call 2/9' "back to it (from the cache)" 2
tmux resize-window -t "$session" -x 100 -y 30
# (at 30 lines the tool turn's lifetime strip leaves room for the note,
# not the first record: the note is the rendered turn, not "rendering…")
expect 'not highlighted: 6\.[0-9] MB' "resized to 100×30 and shown again" 2
borders "resized"
keys q
expect '^tour\$ *$' "q quits" 2
[[ $(flag alternate_on) == 0 ]] || fail "still in the alternate screen"
keys 'clear' Enter

# 3. opened at 20×5, grown to 120×40: nothing of the screen is left on
#    the main screen after quitting
tmux resize-window -t "$session" -x 20 -y 5
keys "'$bin' '$work/hostile.jsonl'" Enter
for _ in $(seq 50); do [[ $(flag alternate_on) == 1 ]] && break; sleep 0.1; done
[[ $(flag alternate_on) == 1 ]] || fail "not in the alternate screen at 20×5"
sleep 0.3
tmux resize-window -t "$session" -x 120 -y 40
expect 'call 1/9' "grown from 20×5 to 120×40"
borders "grown"
keys q
expect '^tour\$ *$' "q quits"
if screen | grep -qE '[┃│╭╰┏┗━─]|policy|call 1/9'; then fail "debris of the screen is left on the main screen"; fi
echo "ok    no debris on the main screen"
modes "after the 20×5 start"
keys 'clear' Enter

# 4. "-": the log piped in on standard input, keys from the terminal
keys "cat '$root/testdata/s01-basic-loop/run.jsonl' | '$bin' -" Enter
expect 'inspect stdin .*call 1/9' "- reads the log from standard input"
keys l
expect 'call 2/9' "keys still come from the terminal"
keys q
expect '^tour\$ *$' "q quits"
keys 'clear' Enter

# spoofless: the attacker's line shows only after ␊␛[1;32m, the
# placeholders of its newline and colour, and the header's second line
# is the program's
spoofless() {
	local bad
	bad=$(screen | grep -oE '.{0,8}SPOOFED' | grep -v '␊␛\[1;32mSPOOFED' || true)
	[[ -z $bad ]] || fail "a spoofed line ($1): $bad"
	screen | sed -n 2p | grep -qE '^policy ' || fail "header line 2 is not the program's ($1)"
	echo "ok    no line is the attacker's ($1)"
}

# clean: the paste buffer holds no ESC, C1, CR, BS or bidi control
clean() {
	local n
	n=$(tmux show-buffer | LC_ALL=C grep -caP '\x1b|\xc2[\x80-\x9f]|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]|\xd8\x9c|\r|\x08' || true)
	[[ $n == 0 ]] || fail "the paste buffer holds raw controls: $(tmux show-buffer | head -c 300 | od -c | head)"
	echo "ok    the paste buffer holds no escape, C1, CR, BS or bidi control ($1)"
}

# 5. y on a tool result with a bracketed-paste end and a command
keys "'$bin' '$work/hostile.jsonl'" Enter
expect 'call 1/9' "the hostile copy opens"
keys l
expect 'call 2/9' "call 2"
keys k k k k j
expect '─ new turn' "the search_docs turn is selected"
keys y
expect 'copied [0-9,]+ chars to the clipboard' "y copies it"
[[ $(tmux list-buffers | wc -l) == 1 ]] || fail "y wrote no paste buffer"
tmux show-buffer | grep -q '^␛\[201~$' || fail "the paste end marker is not shown as placeholders: $(tmux show-buffer | head -c 200)"
tmux show-buffer | grep -q '^touch /tmp/x$' || fail "the copy is not the result"
clean "the tool result"
tmux delete-buffer
keys q
expect '^tour\$ *$' "q quits"
modes "after y"
keys 'clear' Enter

# 6. names at 180×50: the conversations' column, the picker, the header
tmux resize-window -t "$session" -x 180 -y 50
keys "'$bin' '$work/names.jsonl'" Enter
expect 'call 1/9' "c02 with hostile names opens at 180×50"
expect '^│billing␊␛\[1;32mSPOOFED LINE' "the conversations' column shows billing's newline and colour"
borders "the conversations' column"
spoofless "the conversations' column"
keys w
expect '^┃agent billing␊␛\[1;32mSPOOFED LINE.*\(agentId billing␊' "the picker shows the agent key and id"
expect 'run run-1796029387850-2␊␛\[1;32mSPOOFED.*␛\[8mhidden␛\[0m\\x85\\x9b1m␍X␈Y<U\+202E>evil<U\+2066><U\+2069>␀' "the picker shows the run id, its SGR 8, C1, CR, BS, bidi and NUL"
borders "the picker"
spoofless "the picker"
keys G
expect '▸ conversation 2 ' "G puts the cursor on the last conversation"
keys Enter
expect 'billing␊␛\[1;32mSPOOFED.* · conversation 2/2 \(w\).*call 1/12' "billing's conversation: the label cut, the call counter kept"
borders "billing's conversation"
spoofless "billing's conversation"
for _ in 1 2 3 4 5 6; do keys l; done
expect 'call 7/12' "stepped to billing's call 7"
borders "billing's call 7"
spoofless "billing's call 7"
modes "names"
keys q
expect '^tour\$ *$' "q quits"
keys 'clear' Enter

# 7. the response block, K and enter on a value name the hostile tools
keys "'$bin' '$work/evidence.jsonl'" Enter
expect 'call 1/16' "demo-evidence with hostile tool names opens"
keys : 1 3 Enter
expect 'call 13/16' "call 13"
keys i
expect 'in list_hosts␊␛\[1;32mSPOOFED' "i: the sources name list_hosts with its placeholders"
expect 'would have kept it: .*keep list_hosts␊␛\[1;32mSPOOFED' "i: the suggestion names it too" 10
borders "the response block"
spoofless "the response block"
keys K
expect '^applied \(≈[^)]*\): .*list_hosts␊␛\[1;32mSPOOFED' "K: the footer names list_hosts with its placeholders" 10
spoofless "K"
keys r
keys Enter
expect '^call [0-9]+: the last call (list_hosts|get_metrics)␊␛\[1;32mSPOOFED' "enter on a value: the footer names its tool with placeholders"
borders "enter on a value"
spoofless "enter on a value"
modes "evidence"
keys q
expect '^tour\$ *$' "q quits"
[[ $(flag alternate_on) == 0 ]] || fail "still in the alternate screen"
modes "the end"
echo "hostile tour passed"
