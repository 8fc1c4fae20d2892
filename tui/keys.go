package tui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every key the inspector answers, grouped as the full help
// shows them. The help views are built from it, so a key and its help
// cannot drift apart.
type KeyMap struct {
	// Calls: which model call is on screen.
	PrevCall, NextCall, FirstCall, LastCall, GotoCall key.Binding
	// Turns and the detail pane.
	Up, Down, PageUp, PageDown, Focus, HideGone key.Binding
	// Policy knobs; Knobs stands for all of them in the short help.
	RecentLess, RecentMore, PinsLess, PinsMore key.Binding
	TogglePins, ToggleAnchor, Strategy         key.Binding
	ThresholdLess, ThresholdMore, Reset        key.Binding
	Knobs                                      key.Binding
	// Calls and Turns stand for their pairs in the short help.
	Calls, Turns key.Binding
	// Other.
	Help, Problems, Close, Quit key.Binding
	// Inside the go-to-call prompt.
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
		GotoCall:  b([]string{":"}, ":", "go to call"),

		Up:       b([]string{"up", "k"}, "↑/k", "turn up (detail: scroll)"),
		Down:     b([]string{"down", "j"}, "↓/j", "turn down (detail: scroll)"),
		PageUp:   b([]string{"pgup", "ctrl+u"}, "pgup", "scroll detail up"),
		PageDown: b([]string{"pgdown", "ctrl+d", " "}, "pgdn", "scroll detail"),
		Focus:    b([]string{"tab", "shift+tab"}, "tab", "focus"),
		HideGone: b([]string{"z"}, "z", "hide/show gone turns"),

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
		Knobs:         b([]string{"[", "]", "{", "}", "p", "a", "s", "t", "T", "r"}, "[ ] { } p", "knobs"),
		Calls:         b([]string{"left", "right", "h", "l"}, "←/→", "call"),
		Turns:         b([]string{"up", "down", "j", "k"}, "↑/↓", "turn"),

		Help:     b([]string{"?"}, "?", "help"),
		Problems: b([]string{"!"}, "!", "problems"),
		Close:    b([]string{"esc"}, "esc", "close"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),

		Confirm: b([]string{"enter"}, "enter", "go"),
		Erase:   b([]string{"backspace"}, "⌫", "erase"),
	}
}

// ShortHelp is the one line always on screen.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Calls, k.Turns, k.Knobs, k.Problems, k.Help, k.Quit, k.GotoCall, k.Focus, k.PageDown}
}

// FullHelp is the `?` screen, one column per group.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.PrevCall, k.NextCall, k.FirstCall, k.LastCall, k.GotoCall},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Focus, k.HideGone},
		{k.RecentLess, k.RecentMore, k.PinsLess, k.PinsMore, k.TogglePins, k.ToggleAnchor, k.Strategy, k.ThresholdLess, k.ThresholdMore, k.Reset},
		{k.Help, k.Problems, k.Close, k.Quit},
	}
}

// helpGroups names FullHelp's columns, in the same order.
var helpGroups = []string{"Calls", "Turns & detail", "Policy", "Other"}

// promptHelp is the short help while the go-to-call prompt is open.
func (k KeyMap) promptHelp() []key.Binding { return []key.Binding{k.Confirm, k.Erase, k.Close} }
