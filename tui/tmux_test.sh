#!/usr/bin/env bash
# A tour of the real inspect binary in a real terminal (tmux, 120×40):
# open s01-basic-loop, step to the last call, change both knobs, reset,
# open the help, quit; check the screen text at every step, and that the
# terminal is given back (alternate screen left, mouse off, the shell's
# prompt and line discipline back). Then the demo: search a value and step
# through its hits, jump to the next eviction and the next run, copy a turn
# by OSC 52 (read back with tmux show-buffer) on demo-incident; on the
# embedded demo (demo-evidence) jump to a flagged answer, and with I to a
# flagged argument, see a tool turn's
# lifetime strip, select the final answer's response row, open its values,
# apply the suggestion and see the verdicts change; open the policy advisor,
# move along its frontier, apply a point and see the knobs and verdicts
# change; at 80×24 the header's whole count and the advisor; A on
# e02-rails' refused answer; a Parallel's own merge call on n06 (its
# window not in the log, no knob replays it), a Loop's passes and a
# Conditional's branches on n07, tier minimal on n09, an aborted run on
# n02, the 9.55 rules told from the log; and -f on a
# file that another process appends to. And c02: pick the other agent,
# move a knob, and see only that agent's windows change. And compare: two
# recordings side by side, the jump to where they first differ and back.
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
# a tmux server of its own: paste buffers are the server's, not a session's
tm() { tmux -L "$session" "$@"; }
live=$(mktemp /tmp/inspect-live-XXXXXX.jsonl)
tm new-session -d -s "$session" -x 120 -y 40 "env -i HOME=$HOME TERM=xterm-256color PATH=$PATH PS1='tour\$ ' bash --norc --noprofile"
trap 'tm kill-server 2>/dev/null || true; rm -f "$live"' EXIT
# an application's OSC 52 sets a tmux paste buffer
tm set-option -s set-clipboard on

screen() { tm capture-pane -p -t "$session"; }
flag() { tm display-message -p -t "$session" "#{$1}"; }
keys() { tm send-keys -t "$session" "$@"; }

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
expect 'a guess: the log cannot tell keepLastToolResults 1–5 apart' "the bar is back on the inferred policy, and says its pin limit is a guess"
absent 'differ at this call' "no turn differs after the reset"

keys '?'
expect 'Keys \(\?, q or esc closes' "? opens the help"
expect 'keepRecentTurns −1' "the help lists the knob keys"
keys Escape
expect 'Turns · ' "esc closes the help"
keys '?'
expect 'Keys \(\?, q or esc closes' "? opens the help again"
keys G
expect ':f11 goes there' "G scrolls the help to its end"
keys q
expect 'Turns · ' "q closes the help"
absent '^tour\$' "and the program is still running"

keys q
expect '^tour\$ *$' "q quits to the shell prompt"
absent 'Turns · ' "the inspector's screen is gone"
[[ $(flag alternate_on) == 0 ]] && echo "ok    alternate screen left" || { echo "FAIL  still in the alternate screen"; exit 1; }
[[ $(flag mouse_any_flag) == 0 ]] && echo "ok    mouse reporting off" || { echo "FAIL  mouse reporting still on"; exit 1; }

keys 'echo "rc=$?"; stty -a | grep -oE "(^| )-?(icanon|echo)( |$)" | tr -d " " | tr "\n" " "; echo' Enter
expect '^rc=0$' "inspect exited 0"
expect '^icanon echo *$' "the terminal is back in canonical mode with echo"

# esc sends Escape alone: followed at once by another key, the terminal
# would read the two as one Alt key.
esc() {
	keys Escape
	sleep 0.3
}

# within waits up to n tenths of a second for the regexp.
within() {
	local tenths=$1 pattern=$2 what=$3
	for _ in $(seq "$tenths"); do
		if screen | grep -qE -- "$pattern"; then
			echo "ok    $what"
			return 0
		fi
		sleep 0.1
	done
	echo "FAIL  $what: nothing matches /$pattern/ within $tenths tenths of a second:"
	screen
	exit 1
}

keys clear Enter
keys "'$bin' testdata/demo-incident/run.jsonl" Enter
expect 'call 1/16 \(iteration 1\)' "demo-incident opens"
keys / w e b - 9 d 4 b 2 7
expect '^/web-9d4b27.*1 hit' "a search for a host id finds one message while it is typed"
keys Enter
expect 'hit 1 of 1 · in the list_hosts result · sent on calls 2–7 · evicted at 8 \(yielded\)' "the hit says where it was in view and where it left, by the rule the value list names"
expect 'call 2/16' "enter goes to the first call that sent it"
esc
keys / w e b - 1 c 9 4 d 2 Enter
expect 'hit 1 of 5' "another value has five hits"
keys n
expect 'hit 2 of 5' "n steps to the next hit"
keys n n
expect 'hit 4 of 5' "and on"
keys N
expect 'hit 3 of 5' "N steps back"
esc
keys g e
expect 'call 5/16' "e jumps to the first eviction (call 5)"
keys '>'
expect 'run 2/2 +call 13/16' "> jumps to the next run (call 13)"
keys ':' 8 Enter
expect 'evicted list_hosts' "call 8: the list_hosts turn is evicted"
keys y
expect 'copied [0-9,]+ chars to the clipboard' "y says it copied"
for _ in $(seq 30); do
	tm show-buffer 2>/dev/null | grep -q '"id":"web-9d4b27"' && break
	sleep 0.1
done
tm show-buffer 2>/dev/null | grep -q '"id":"web-9d4b27"' && echo "ok    y put the list_hosts turn on the clipboard (tmux show-buffer)" ||
	{ echo "FAIL  tmux show-buffer does not hold the copied turn"; exit 1; }
keys q
expect '^tour\$ *$' "q quits demo-incident"

# the embedded demo (demo-evidence): the values typed, not read
keys clear Enter
keys "'$bin'" Enter
expect 'call 1/16 \(iteration 1\)' "the demo opens"
keys x
expect 'call 13/16' "x jumps to the first call whose answer holds a value not read"
keys g I x
expect 'call 7/16' "with I, x stops on the tool calls' arguments too, past call 2's composed query windows (not flagged)"
expect 'args: 1 left' "call 7's get_metrics typed web-9d4b27 from memory, counted as an argument's"
keys ':' 7 Enter
expect 'call 7/16' ": goes to call 7, where list_hosts left"
expect 'list_hosts ·▮▮▣▣▣▲·····▲··▲' "the evicted inventory's lifetime strip: in view on 2–6, used out of view at 7, 13, 16"
expect 'used out of view at calls 7, 13, 16' "the strip in words"
expect 'response → get_metrics\(web-9d4b27' "call 7's response row: the id typed from memory"
keys A
expect 'call 13/16' "A goes to run 1's final answer"
expect 'answers: 4 left · 1 never read' "the header counts its answer's flagged values"
expect '▸ response answer 1075 chars · delivered' "A selects its response row: run 1's answer, delivered"
expect '│ left +us-east-1b' "the detail shows the response: us-east-1b left the window"
keys i
expect 'Response of call 13' "i opens the values over the whole width"
expect '(^|[^a-z-])left +us-east-1b' "us-east-1b left the window"
expect 'in list_hosts call_0001 · sent on calls 2–6 · evicted at 7 \(yielded\)' "its source, when it left and why"
expect 'would have kept it: keepRecentTurns 2→3 and keepLastToolResults 2→3' "the policy that would have kept it"
expect 'never-read +web-3e6f14' "the invented canary id was never read"
keys K
expect 'keepRecentTurns=3\* +keepLastToolResults=3\*' "K applies the suggestion to the knobs"
expect 'answers: 1 left · 1 never read' "under it only 3940 left and web-3e6f14 stays invented"
expect '(^|[^a-z-])in-view +us-east-1b' "us-east-1b is in view now"
keys q
expect 'Turns · ' "q closes the values"
keys q
expect '^tour\$ *$' "q quits the demo"

# the policy advisor on the embedded demo: the frontier of the README's
# `inspect advise`, a point of it applied to the knobs, the verdicts of
# the final answer under it
keys clear Enter
keys "'$bin'" Enter
expect 'call 1/16 \(iteration 1\)' "the demo opens again"
keys A
expect 'answers: 4 left · 1 never read' "the final answer under the recorded policy: 4 values left"
keys P
expect 'Policy advisor · agent agent' "P opens the advisor"
expect 'keeps everything: token-budget T2149 K3 L2, costs ≈24,524 tokens more \(\+94\.2%\)' "the pick that keeps everything, and its cost"
expect 'no worse: sliding-window K2 L2, as many ≈tokens as the recorded policy' "the pick no worse than the recorded policy"
expect '▸◆ +sliding-window K2 L2 +26,036 +=' "the cursor starts on the recorded policy"
expect '○' "the chart marks the frontier"
expect 'The RECORDED responses judged against each policy' "the screen says what the rows are"
keys Down
expect '▸ +sliding-window K4 L2 +34,097 +\+31\.0%' "↓ moves along the frontier"
keys j j j j j
expect '▸ +token-budget T2149 K3 L2 +50,560 +\+94\.2% +0 +0' "j to its end: no value out of view"
keys Enter
expect 'keepRecentTurns=3\* +keepLastToolResults=2 +strategy=token-budget\* +threshold=2149\*' "enter applies it to the knobs"
expect 'answers: 1 never read' "under it the answer's values are in view, but the one never read"
absent 'answers: 4 left' "the recorded policy's count is gone"
expect '(^|[^a-z-])in-view +us-east-1b' "us-east-1b is in view now"
keys P
expect '▸ +token-budget T2149 K3 L2' "P again: the answer kept, the cursor where it was"
keys Escape
expect 'Turns · ' "esc closes the advisor"
keys q
expect '^tour\$ *$' "q quits the demo"

# 80×24, the smallest supported terminal: the demo's call 13 header holds
# the whole count of its answer's flagged values (EVIDENCE §9.1.2: 4 left,
# 1 never read), and a file name that says which file it is
tm resize-window -t "$session" -x 80 -y 24
keys clear Enter
keys "'$bin' testdata/demo-evidence/run.jsonl" Enter
expect 'call 1/16' "the demo's log opens at 80×24"
keys A
expect '^demo-evidence/run.jsonl +run 1/2 +call 13/16' "line 1 names the file by its folder and name"
expect 'answers: 4 left · 1 never read' "line 2 holds the whole count"
keys P
expect 'keeps everything: budget T2149 K3 L2' "the advisor at 80×24: the picks"
expect '▸◆ sliding K2 L2 +26,036' "the table, the recorded policy under the cursor"
expect '◈' "the chart, the cursor on the recorded policy"
keys q
expect 'Turns · ' "q closes the advisor, not the program"
keys q
expect '^tour\$ *$' "q quits"
tm resize-window -t "$session" -x 120 -y 40

# e02-rails (posture rails): A lands on the run's last answer, call 9,
# which the library refused: run() threw, nothing was delivered
keys clear Enter
keys "'$bin' testdata/e02-rails/run.jsonl" Enter
expect 'call 1/9' "e02-rails opens"
keys A
expect 'call 9/9' "A goes to the run's last answer, call 9"
expect 'response answer 204 chars · refused' "its row says it was refused"
expect 'refused: run\(\) threw UnsupportedValuesError; the caller got' "the detail says nothing was delivered"
absent 'delivered:' "never that it was delivered"
keys q
expect '^tour\$ *$' "q quits e02"

# n06: a Parallel's merge, the composition's own call, whose window is
# not in the log: the picker lists it, its screen never says sent, and no
# knob replays it
keys clear Enter
keys "'$bin' testdata/n06-parallel-composition/run.jsonl" Enter
expect 'triage/metrics · conversation 1/4 \(w\)' "n06 opens on the metrics branch"
keys w
expect 'triage \(Parallel\) · its own calls: 2 · windows not in the log' "w lists the composition's own calls"
keys G Enter
expect 'triage \(Parallel\) · its own calls' "enter opens them"
expect 'window not in the log' "the header says its window is not in the log"
expect 'response answer 64 chars · the composition' "its answer is the composition's result"
absent 'undelivered|never read|[0-9] sent' "nothing says undelivered, never read or sent"
keys ']'
expect 'no knob replays a composition.s own calls' "a knob says why it does not replay it"
keys v
expect 'its window is not in the log' "the transcript says there is no window"
keys q q
expect '^tour\$ *$' "q quits n06"

# n07: a Loop's passes and a Conditional's branches, named in the picker
# and the header
keys clear Enter
keys "'$bin' testdata/n07-loop-conditional/run.jsonl" Enter
expect 'refine/body · pass 1/3 · conversation 1/5' "n07 opens on the Loop body's first pass"
keys w
expect 'conversation 2 · pass 2/3 · 1 run · 5 calls' "the picker names the passes"
expect 'branch urgent of Conditional router' "and the Conditional's branches"
keys j Enter
expect 'refine/body · pass 2/3 · conversation 2/5' "enter opens pass 2"
keys q
expect '^tour\$ *$' "q quits n07"

# n09, tier minimal: the bar says what the tier does not keep; a run's
# last call, whose window is not in the log, is replayed, not sent
keys clear Enter
keys "'$bin' testdata/n09-tier-minimal/run.jsonl" Enter
expect 'rules 9.57–9.62 · tier minimal \(!\)' "the bar names the rules and the tier"
keys ':' 1 6 Enter
expect 'call 16/16' ": goes to the last call"
expect 'Turns · 22 · 3 replayed \(not in the log\)' "its turns are the replay's, not said sent"
keys '!'
expect 'each run.s last window is not in' "! says what the tier does not keep"
keys q q
expect '^tour\$ *$' "q quits n09"

# n02: a run aborted during a call, then continued: the call failed
keys clear Enter
keys "'$bin' testdata/n02-abort-then-followup/run.jsonl" Enter
expect 'run 1/3 +call 1/9' "n02 opens"
keys ':' 7 Enter
expect 'run 2/3 failed +call 7/9' "the aborted run says it failed"
expect 'no reply: the call failed' "its last call has no reply, and says why"
keys q
expect '^tour\$ *$' "q quits n02"

# v9.56.0: the rules of an older library, told from the log
keys clear Enter
keys "'$bin' testdata/v9.56.0-demo-evidence/run.jsonl" Enter
expect 'rules 9.55–9.56 \(.*from the log.*\) \(!\)' "the bar names the 9.55–9.56 rules, told from the log"
keys '!'
expect 'The replay follows the 9.55–9.56 window rules' "! says which call told them"
keys q q
expect '^tour\$ *$' "q quits v9.56.0"

# c02: two agents interleaved in one log; w picks billing's conversation,
# a knob moves billing's policy only, and oncall's replay is untouched
keys clear Enter
keys "'$bin' testdata/c02-interleaved-agents/run.jsonl" Enter
expect 'oncall · conversation 1/2 \(w\) · run 1/1 +call 1/9' "c02 opens on oncall's conversation"
keys w
expect 'conversation 2 · 2 runs · 12 calls · match 12/12' "w lists billing's run and follow-up, reproduced"
keys j Enter
expect 'billing · conversation 2/2 \(w\) · run 1/2 +call 1/12' "enter opens billing's conversation"
keys G
expect 'keepRecentTurns=4 ' "billing's own policy (K=4)"
keys '['
expect 'policy changed by you' "[ changes billing's policy"
expect 'keepRecentTurns=3\*' "billing's K is 3 now"
keys w k Enter
expect 'oncall · conversation 1/2' "back on oncall"
expect 'policy recorded' "oncall's policy is still its recorded one"
expect 'keepRecentTurns=2 ' "oncall's K is still 2"
expect 'replay vs recorded: match' "oncall's windows are still the library's"
keys q
expect '^tour\$ *$' "q quits c02"

# compare: demo-evidence against the same script under agentfootprint
# 9.56.0; the runs never part, p jumps to the first change (call 4, where
# 9.56.0 has no pins and list_hosts leaves) and back
keys clear Enter
keys "'$bin' compare -q testdata/demo-evidence/run.jsonl testdata/v9.56.0-demo-evidence/run.jsonl" Enter
expect 'pair 1/16 · same · A call 1 · B call 1' "compare opens on the first pair"
expect 'rules 9\.55' "B is replayed under the 9.55 rules"
keys Right Right
expect 'pair 3/16 · same' "→ steps pairs"
keys p
expect 'pair 4/16 · changed · A call 4 · B call 4' "p jumps to the first change"
expect '\+ pinned +list_hosts' "A's list_hosts, pinned, is one side only"
keys p
expect 'pair 3/16 · same' "p again goes back"
keys q
expect '^tour\$ *$' "q quits compare"

# -f: another process appends to the log
sed -n '1,96p' "$root/testdata/s01-basic-loop/run.jsonl" >"$live"
keys clear Enter
keys "'$bin' -f '$live'" Enter
expect 'call 1/4 \(iteration 1\)' "a log cut after call 4 opens"
expect 'run 1/1 unfinished' "its run is unfinished: no turn_end yet"
expect 'following' "the header says it follows the file"
keys G
sed -n '97,173p' "$root/testdata/s01-basic-loop/run.jsonl" >>"$live"
within 10 'call 7/7' "calls 5-7 appear within a second, the last in view"
expect 'run 1/1 unfinished' "still unfinished"
sed -n '174,$p' "$root/testdata/s01-basic-loop/run.jsonl" >>"$live"
within 10 'call 9/9' "the rest appears"
within 10 'run 1/1   call' "the unfinished mark goes at turn_end"
keys q
expect '^tour\$ *$' "q quits"
echo "tour passed"
