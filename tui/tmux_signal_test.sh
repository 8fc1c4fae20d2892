#!/usr/bin/env bash
# Every signal that ends inspect gives the terminal back: after SIGHUP,
# SIGQUIT, SIGTERM and SIGINT sent to the real binary in tmux, the
# alternate screen is left, mouse reporting is off, the cursor is shown,
# the line discipline is the shell's again, and a pager's temporary file
# (the pager still open on it) is gone. Ctrl-Z and a SIGTSTP from outside suspend (the shell's
# prompt is back, the process stopped) and fg draws the screen again
# with the mouse on. Every step waits for the state the last one caused,
# never for a while.
#
#   tui/tmux_signal_test.sh                       # builds /tmp/inspect-sig from the repo root
#   INSPECT_BIN=/path/to/inspect tui/tmux_signal_test.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${INSPECT_BIN:-/tmp/inspect-sig}
if [[ -z ${INSPECT_BIN:-} ]]; then
	(cd "$root" && go build -o "$bin" .)
fi
command -v tmux >/dev/null || { echo "tmux is not installed"; exit 2; }

session=inspect-sig-$$
tm() { tmux -L "$session" "$@"; }
tmp=$(mktemp -d /tmp/inspect-sig-XXXXXX)
tm new-session -d -s "$session" -x 120 -y 40 "env -i HOME=$HOME TERM=xterm-256color PATH=$PATH TMPDIR=$tmp/t PAGER=less LESSCHARSET=utf-8 PS1='sig\$ ' bash --norc --noprofile"
trap 'tm kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t"

screen() { tm capture-pane -p -t "$session"; }
flag() { tm display-message -p -t "$session" "#{$1}"; }
keys() { tm send-keys -t "$session" "$@"; }
fail() { echo "FAIL  $*"; screen; exit 1; }

# until waits up to 10 s for a command to succeed.
until_() {
	local what=$1
	shift
	for _ in $(seq 100); do
		if "$@"; then
			echo "ok    $what"
			return 0
		fi
		sleep 0.1
	done
	fail "$what"
}
on_screen() { screen | grep -qE -- "$1"; }
is_flag() { [[ $(flag "$1") == "$2" ]]; }
gone() { ! kill -0 "$1" 2>/dev/null; }
stopped() { [[ $(ps -o stat= -p "$1" 2>/dev/null) == T* ]]; }

until_ "a shell is ready" on_screen '^sig\$'
keys "stty -a > $tmp/stty.before" Enter
until_ "the shell's line discipline noted" test -s "$tmp/stty.before"

# start opens s01 in the background of the shell and brings it to the
# front, so that $! names inspect itself; it waits for the first call.
start() {
	keys clear Enter
	keys "'$bin' '$root/testdata/s01-basic-loop/run.jsonl' & echo \$! > $tmp/pid; fg" Enter
	until_ "inspect opens s01" on_screen 'call 1/9 \(iter'
	until_ "  in the alternate screen, the mouse on" eval '[[ $(flag alternate_on)$(flag mouse_any_flag) == 11 ]]'
	pid=$(cat "$tmp/pid")
}

# given_back checks the terminal is the shell's again.
given_back() {
	local sig=$1
	until_ "$sig: the alternate screen is left" is_flag alternate_on 0
	until_ "$sig: mouse reporting is off" is_flag mouse_any_flag 0
	until_ "$sig: the cursor is shown" is_flag cursor_flag 1
	until_ "$sig: the prompt is back" on_screen '^sig\$ *$'
	rm -f "$tmp/stty.after"
	# (a pager the hangup ended may take the first key with it: a space)
	keys " stty -a > $tmp/stty.after" Enter
	until_ "$sig: the line discipline noted" test -s "$tmp/stty.after"
	diff "$tmp/stty.before" "$tmp/stty.after" >/dev/null || fail "$sig: stty differs: $(diff "$tmp/stty.before" "$tmp/stty.after")"
	echo "ok    $sig: the line discipline is the shell's"
}

for sig in HUP QUIT TERM INT; do
	start
	kill -"$sig" "$pid"
	until_ "$sig ends inspect" gone "$pid"
	given_back "$sig"
done

# a pager open on its temporary file when the hangup comes
start
keys o
until_ "o opens the pager" eval '[[ -n $(ls "$tmp/t") ]] && is_flag alternate_on 1 && ! on_screen "call 1/9 \\(iter"'
kill -HUP "$pid"
until_ "HUP with the pager open ends inspect" gone "$pid"
given_back "HUP (pager)"
until_ "the pager's temporary file is removed" eval '[[ -z $(ls "$tmp/t") ]]'

# Ctrl-Z suspends, fg draws the screen again
start
keys C-z
until_ "Ctrl-Z stops inspect" stopped "$pid"
given_back "Ctrl-Z"
keys fg Enter
until_ "fg: the screen is drawn again" on_screen 'call 1/9 \(iter'
until_ "fg: the alternate screen and the mouse are back" eval '[[ $(flag alternate_on)$(flag mouse_any_flag) == 11 ]]'
keys q
until_ "q quits" gone "$pid"
given_back "q after fg"

# a SIGTSTP from outside suspends as Ctrl-Z does, and fg draws again
start
kill -TSTP "$pid"
until_ "kill -TSTP stops inspect" stopped "$pid"
given_back "kill -TSTP"
keys fg Enter
until_ "fg after TSTP: the screen is drawn again" on_screen 'call 1/9 \(iter'
until_ "fg after TSTP: the alternate screen and the mouse are back" eval '[[ $(flag alternate_on)$(flag mouse_any_flag) == 11 ]]'
kill -TSTP "$pid"
until_ "a second kill -TSTP stops it again" stopped "$pid"
given_back "second kill -TSTP"
keys fg Enter
until_ "fg again" on_screen 'call 1/9 \(iter'
keys q
until_ "q quits" gone "$pid"
given_back "q after the second fg"
echo "signals passed"
