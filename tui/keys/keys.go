// Package keys is every key the inspector answers, in one KeyMap grouped
// as the help shows it, and the names a config file binds them by. The
// help screens and the key reference (docs/keys.md) are written from it.
package keys

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
)

// KeyMap is every key the inspector answers, grouped as the full help
// shows them. The help views are built from it, so a key and its help
// cannot drift apart.
type KeyMap struct {
	// Calls: which model call is on screen.
	PrevCall, NextCall, FirstCall, LastCall, GotoCall key.Binding
	// Jumps to the next/previous call where something happens.
	NextEvict, PrevEvict, NextDiffer, PrevDiffer key.Binding
	NextRun, PrevRun, NextNotice, PrevNotice     key.Binding
	// Search over every message of the file.
	Search, NextHit, PrevHit key.Binding
	// Turns and the detail pane.
	Up, Down, Expand, HideGone, Focus  key.Binding
	Top, Bottom                        key.Binding // of the detail, while it is focused
	PageUp, PageDown, HalfUp, HalfDown key.Binding
	// Views and the terminal.
	Transcript, Pager, Editor, Copy, Mouse, Follow, Reload key.Binding
	// Marks: m and a letter marks the call on screen, ' and the letter
	// goes back to it (from any conversation of the file).
	Mark, JumpMark key.Binding
	// Policy knobs; Knobs stands for all of them in the short help.
	RecentLess, RecentMore, PinsLess, PinsMore key.Binding
	TogglePins, ToggleAnchor, Strategy         key.Binding
	ThresholdLess, ThresholdMore, Reset        key.Binding
	Knobs                                      key.Binding
	// Advisor opens the policy advisor: which policy the agent should run.
	Advisor key.Binding
	// Calls and Turns stand for their pairs in the short help.
	Calls, Turns key.Binding
	// Evidence: the response block, the final answer, the calls with a
	// value typed rather than read, and the suggestion applied.
	Response, FinalAnswer, NextFlagged, PrevFlagged, ApplySuggestion key.Binding
	FlaggedArgs                                                      key.Binding
	// Other.
	Help, Problems, Close, Quit key.Binding
	Picker, Recorded            key.Binding
	// Changed shows what changed since the previous call; Request opens
	// the call's system prompt and tools in the detail.
	Changed, Request key.Binding
	// Inside a prompt (go to call, search).
	Confirm, Erase key.Binding
}

// DefaultKeyMap is the inspector's keys.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return KeyMap{
		PrevCall:  b([]string{"left", "h"}, "←/h", "previous call"),
		NextCall:  b([]string{"right", "l"}, "→/l", "next call"),
		FirstCall: b([]string{"g", "home"}, "g/home", "first call"),
		LastCall:  b([]string{"G", "end"}, "G/end", "last call"),
		GotoCall:  b([]string{":"}, ":", "go to call (f11: the file's 11)"),

		NextEvict:  b([]string{"e"}, "e/E", "next/previous eviction"),
		PrevEvict:  b([]string{"E"}, "E", "previous eviction"),
		NextDiffer: b([]string{"d"}, "d/D", "next/previous call differing from its record"),
		PrevDiffer: b([]string{"D"}, "D", "previous differing call"),
		NextRun:    b([]string{">"}, ">/<", "next/previous run"),
		PrevRun:    b([]string{"<"}, "<", "previous run"),
		NextNotice: b([]string{"c"}, "c/C", "next/previous drop notice or summary written"),
		PrevNotice: b([]string{"C"}, "C", "previous drop notice or summary"),

		Search:  b([]string{"/"}, "/", "search every message"),
		NextHit: b([]string{"n"}, "n/N", "next/previous hit"),
		PrevHit: b([]string{"N"}, "N", "previous hit"),

		Up:       b([]string{"up", "k"}, "↑/k", "turn up (detail: scroll)"),
		Down:     b([]string{"down", "j"}, "↓/j", "turn down (detail: scroll)"),
		Expand:   b([]string{"enter"}, "enter", "open/close a fold; a response's values"),
		HideGone: b([]string{"z"}, "z", "hide/show gone turns"),
		Focus:    b([]string{"tab", "shift+tab"}, "tab", "focus list/detail"),
		Top:      b([]string{"g", "home"}, "g/home", "detail focused: top"),
		Bottom:   b([]string{"G", "end"}, "G/end", "detail focused: bottom"),
		PageUp:   b([]string{"pgup", "b", "ctrl+b"}, "pgup/b/ctrl+b", "detail page up"),
		PageDown: b([]string{"pgdown", " ", "ctrl+f"}, "pgdn/space/ctrl+f", "detail page down"),
		HalfUp:   b([]string{"ctrl+u"}, "ctrl+u", "detail half page up"),
		HalfDown: b([]string{"ctrl+d"}, "ctrl+d", "detail half page down"),

		Transcript: b([]string{"v"}, "v", "transcript: the whole window"),
		Pager:      b([]string{"o"}, "o", "open the turn (transcript: the window) in $PAGER"),
		Editor:     b([]string{"O"}, "O", "open the turn in $EDITOR (read-only)"),
		Copy:       b([]string{"y"}, "y", "copy the turn (transcript: the window) by OSC 52"),
		Mouse:      b([]string{"M"}, "M", "mouse off/on (off: select text)"),
		Mark:       b([]string{"m"}, "m·letter", "mark this call"),
		JumpMark:   b([]string{"'"}, "'·letter", "go to a mark"),
		Follow:     b([]string{"F"}, "F", "follow the file as it grows"),
		Reload:     b([]string{"R"}, "R", "reload a file that grew"),

		RecentLess:    b([]string{"["}, "[", "keepRecentTurns −1"),
		RecentMore:    b([]string{"]"}, "]", "keepRecentTurns +1"),
		PinsLess:      b([]string{"{"}, "{", "keepLastToolResults −1"),
		PinsMore:      b([]string{"}"}, "}", "keepLastToolResults +1"),
		TogglePins:    b([]string{"p"}, "p", "pins on/off"),
		ToggleAnchor:  b([]string{"a"}, "a", "current-request anchor on/off"),
		Strategy:      b([]string{"s"}, "s", "cycle strategy"),
		ThresholdLess: b([]string{"t"}, "t", "thresholdTokens −500"),
		ThresholdMore: b([]string{"T"}, "T", "thresholdTokens +500"),
		Reset:         b([]string{"r"}, "r", "reset to recorded policy"),
		Advisor:       b([]string{"P"}, "P", "the policy advisor"),
		Knobs:         b([]string{"[", "]", "{", "}", "p", "a", "s", "t", "T", "r"}, "[ ] { } p", "knobs"),
		Calls:         b([]string{"left", "right", "h", "l"}, "←/→", "call"),
		Turns:         b([]string{"up", "down", "j", "k"}, "↑/↓", "turn"),

		Response:        b([]string{"i"}, "i", "the response: its values and why each was (not) in view"),
		FinalAnswer:     b([]string{"A"}, "A", "the run's final answer (its response row)"),
		NextFlagged:     b([]string{"x"}, "x/X", "next/previous call whose answer has a flagged value"),
		PrevFlagged:     b([]string{"X"}, "X", "previous call whose answer has a flagged value"),
		FlaggedArgs:     b([]string{"I"}, "I", "x/X: stop on tool-call arguments' values too (on/off)"),
		ApplySuggestion: b([]string{"K"}, "K", "apply the policy that would have kept it"),

		Picker:   b([]string{"w"}, "w", "pick an agent and conversation"),
		Recorded: b([]string{"W"}, "W", "the recorded window beside the replay"),
		Changed:  b([]string{"u"}, "u", "what changed since the previous call"),
		Request:  b([]string{"S"}, "S", "the request: system prompt and tools"),
		Help:     b([]string{"?"}, "?", "help"),
		Problems: b([]string{"!"}, "!", "problems"),
		Close:    b([]string{"esc"}, "esc", "close a view (q too; q quits only from the main screen)"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),

		Confirm: b([]string{"enter"}, "enter", "go"),
		Erase:   b([]string{"backspace"}, "⌫", "erase"),
	}
}

// ShortHelp is the one line always on screen.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Calls, k.Turns, k.Search, k.NextEvict, k.Knobs, k.Help, k.Quit, k.Problems, k.GotoCall, k.Focus}
}

// FullHelp is the `?` screen, one column per group.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.PrevCall, k.NextCall, k.FirstCall, k.LastCall, k.GotoCall},
		{k.Search, k.NextHit, k.NextEvict, k.NextDiffer, k.NextRun, k.NextNotice},
		{k.Up, k.Down, k.Expand, k.HideGone, k.Focus, k.Top, k.Bottom, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown},
		{k.Picker, k.Recorded, k.Changed, k.Request, k.Transcript, k.Pager, k.Editor, k.Copy, k.Mouse, k.Follow, k.Reload, k.Mark, k.JumpMark},
		{k.RecentLess, k.RecentMore, k.PinsLess, k.PinsMore, k.TogglePins, k.ToggleAnchor, k.Strategy, k.ThresholdLess, k.ThresholdMore, k.Reset, k.Advisor},
		{k.Response, k.FinalAnswer, k.NextFlagged, k.FlaggedArgs, k.ApplySuggestion},
		{k.Help, k.Problems, k.Close, k.Quit},
	}
}

// helpGroups names FullHelp's columns, in the same order.
var helpGroups = []string{"Calls", "Find", "Turns & detail", "Views", "Policy", "Evidence", "Other"}

// HelpGroups names FullHelp's columns, in the same order: the headings
// of the `?` screen and of the key reference written from the key map
// (docs/keys.md, by tui/keydoc).
func (k KeyMap) HelpGroups() []string { return slices.Clone(helpGroups) }

// PromptHelp is the keys inside a prompt (go to call, search): the short
// help while the go-to-call prompt is open.
func (k KeyMap) PromptHelp() []key.Binding { return []key.Binding{k.Confirm, k.Erase, k.Close} }
