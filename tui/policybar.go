package tui

import (
	"fmt"
	"strings"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/keys"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
)

// policyBar shows the knobs of the policy in force, marks the ones moved
// off the recorded policy with *, and says how many turns that changed.
type policyBar struct {
	s     *session.Session
	st    *theme.Styles
	keys  keys.KeyMap
	width int
	spin  string // spinner frame while a replay runs
}

func newPolicyBar(st *theme.Styles, keys keys.KeyMap) *policyBar {
	return &policyBar{st: st, keys: keys}
}

func (b *policyBar) Init() tea.Cmd                       { return nil }
func (b *policyBar) Update(tea.Msg) (tea.Model, tea.Cmd) { return b, nil }
func (b *policyBar) SetSize(w, _ int)                    { b.width = max(0, w) }

func (b *policyBar) ShortHelp() []key.Binding { return []key.Binding{b.keys.Knobs} }
func (b *policyBar) FullHelp() [][]key.Binding {
	k := b.keys
	return [][]key.Binding{{k.RecentLess, k.RecentMore, k.PinsLess, k.PinsMore, k.TogglePins, k.ToggleAnchor, k.Strategy, k.ThresholdLess, k.ThresholdMore, k.Reset}}
}

// height is how many lines the bar needs at its width.
func (b *policyBar) height() int { return len(b.lines()) }

func (b *policyBar) View() string { return strings.Join(b.lines(), "\n") }

func (b *policyBar) lines() []string {
	if b.s == nil || b.s.Replay == nil {
		return []string{""}
	}
	if b.s.Composition() {
		return []string{present.Fit(b.st.Label.Render("policy  ")+b.st.Value.Render("none")+b.st.Dim.Render(" — a composition's own calls"), b.width),
			present.Fit(b.st.Unknown.Render(session.NoKnobs), b.width)}
	}
	p, was := b.s.Policy, b.s.Agent.Recorded
	knob := func(name string, val any, changed bool) string {
		s := termtext.Line(fmt.Sprintf("%s=%v", name, val))
		if changed {
			return b.st.Changed.Render(s + "*")
		}
		return b.st.Value.Render(s)
	}
	threshold := "—"
	if p.ThresholdTokens > 0 || p.NeedsThreshold() {
		threshold = fmt.Sprint(p.ThresholdTokens)
	}
	// pins on or off, when the log cannot tell (keepLastToolResults 0
	// among the equally good values): the status line names the rest
	pins := knob("pins", onOff(p.PinsOn()), p.PinsOn() != was.PinsOn())
	if g := b.s.Agent.GuessFor(p); len(g.L) > 1 && g.L[0] == 0 {
		pins = b.st.Unknown.Render("pins " + model.Range(g.L) + " equally good")
	}
	segs := []string{
		b.st.Label.Render("policy"),
		knob("keepRecentTurns", p.KeepRecentTurns, p.KeepRecentTurns != was.KeepRecentTurns),
		knob("keepLastToolResults", p.KeepLastToolResults, p.KeepLastToolResults != was.KeepLastToolResults),
		knob("strategy", p.Strategy, p.Strategy != was.Strategy),
		knob("threshold", threshold, p.ThresholdTokens != was.ThresholdTokens),
		knob("anchor", onOff(!p.NoAnchor), p.NoAnchor != was.NoAnchor),
		pins,
	}
	if n := b.s.Agent.MeterNote(p); n != "" {
		segs = append(segs, b.st.Dim.Render(strings.TrimSpace(n))) // a composition agent's meter is not recorded (§15.6)
	}
	return append(present.Flow(segs, "  ", b.width), b.withRules(b.status()))
}

// withRules is the status line with, at its end, whose window rules the
// replay follows and how that was told, and what a tier minimal log
// does not keep (library.go), said as fully as the width allows; where
// even the shortest form does not fit, the status is cut for it (its
// end is a hint, "(r resets)", "change a knob…").
func (b *policyBar) withRules(status string) string {
	const gap = "   "
	for level := range 5 {
		r := b.rulesSegment(level)
		if ansi.StringWidth(status)+len(gap)+ansi.StringWidth(r) <= b.width {
			return status + gap + r
		}
	}
	r := b.rulesSegment(4)
	return present.Fit(present.CutBetweenWords(status, max(0, b.width-len(gap)-ansi.StringWidth(r)))+gap+r, b.width)
}

// rulesSegment is the rules and the tier, shorter at each level (0–4),
// and the key of the panel that says them in full.
func (b *policyBar) rulesSegment(level int) string {
	r := b.st.Label.Render(present.RulesWords(b.s.Rec.Library, level, b.callWords))
	tier := 0
	if level >= 4 {
		tier = 2 // the tier in a word only where the rules are too
	}
	if t := present.TierWords(b.s.Rec.Tier, tier); t != "" {
		r += b.st.Label.Render(" · ") + b.st.Unknown.Render(t)
	}
	return r + b.st.Label.Render(" (!)")
}

// callWords names the file's call n as the screen numbers it: "call 4",
// or "file call 4" where the screen numbers calls otherwise (":f4").
func (b *policyBar) callWords(n int) string {
	if b.s.FileNumbers() {
		return "file call " + itoa(n)
	}
	return "call " + itoa(n)
}

func (b *policyBar) status() string {
	g := b.s.Agent.GuessFor(b.s.Policy)
	switch {
	case b.s.Replaying:
		return b.spin + " replaying…"
	case !b.s.Changed() && g.Any():
		return b.st.Unknown.Render("a guess: the log cannot tell "+strings.Join(g.Knobs(), ", ")+" apart") +
			b.st.Dim.Render("; change a knob to replay the run under another")
	case !b.s.Changed():
		return b.st.Dim.Render("the recorded policy; change a knob to replay the run under another")
	}
	if b.s.Changes.Pending {
		return b.st.Changed.Render("≠ comparing every turn with the recorded policy…") + b.st.Dim.Render(b.sizes()+"  (r resets)")
	}
	n := b.s.Changes.Count()
	return b.st.Changed.Render(fmt.Sprintf("≠ %d turn(s) differ at this call from the recorded policy", n)) + b.st.Dim.Render(b.sizes()+"  (r resets)")
}

// sizes compares the window at this call under the two policies: chars
// for both, and the provider's tokens, which exist only for the window
// the library sent.
func (b *policyBar) sizes() string {
	c := b.s.Current()
	if c == nil || b.s.Call >= len(b.s.Recorded.Calls) {
		return ""
	}
	was := model.WindowChars(b.s.Recorded.Calls[b.s.Call].Window())
	now := model.WindowChars(c.Window())
	s := fmt.Sprintf(" · window %s → %s chars", present.Thousands(was), present.Thousands(now))
	if c.Call.Ended {
		s += fmt.Sprintf(" (recorded: %s tok)", present.Thousands(c.Call.Usage.Input))
	}
	return s
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
