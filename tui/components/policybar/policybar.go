package policybar

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/tui/common"
	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
)

// PolicyBar shows the knobs of the policy in force, marks the ones moved
// off the recorded policy with *, and says how many turns that changed.
type PolicyBar struct {
	c     *common.Common
	width int
	Spin  string // spinner frame while a replay runs
}

// New is the policy bar drawn from c.
func New(c *common.Common) *PolicyBar { return &PolicyBar{c: c} }

func (b *PolicyBar) Init() tea.Cmd                       { return nil }
func (b *PolicyBar) Update(tea.Msg) (tea.Model, tea.Cmd) { return b, nil }
func (b *PolicyBar) SetSize(w, _ int)                    { b.width = max(0, w) }

func (b *PolicyBar) ShortHelp() []key.Binding { return []key.Binding{b.c.Keys.Knobs} }
func (b *PolicyBar) FullHelp() [][]key.Binding {
	k := b.c.Keys
	return [][]key.Binding{{k.RecentLess, k.RecentMore, k.PinsLess, k.PinsMore, k.TogglePins, k.ToggleAnchor, k.Strategy, k.ThresholdLess, k.ThresholdMore, k.Reset}}
}

// Height is how many lines the bar needs at its width.
func (b *PolicyBar) Height() int { return len(b.lines()) }

func (b *PolicyBar) View() string { return strings.Join(b.lines(), "\n") }

func (b *PolicyBar) lines() []string {
	if b.c.Session == nil || b.c.Session.Replay == nil {
		return []string{""}
	}
	if b.c.Session.Composition() {
		return []string{present.Fit(b.c.Styles.Label.Render("policy  ")+b.c.Styles.Value.Render("none")+b.c.Styles.Dim.Render(" — a composition's own calls"), b.width),
			present.Fit(b.c.Styles.Unknown.Render(session.NoKnobs), b.width)}
	}
	p, was := b.c.Session.Policy, b.c.Session.Agent.Recorded
	knob := func(name string, val any, changed bool) string {
		s := termtext.Line(fmt.Sprintf("%s=%v", name, val))
		if changed {
			return b.c.Styles.Changed.Render(s + "*")
		}
		return b.c.Styles.Value.Render(s)
	}
	threshold := "—"
	if p.ThresholdTokens > 0 || p.NeedsThreshold() {
		threshold = fmt.Sprint(p.ThresholdTokens)
	}
	// pins on or off, when the log cannot tell (keepLastToolResults 0
	// among the equally good values): the status line names the rest
	pins := knob("pins", onOff(p.PinsOn()), p.PinsOn() != was.PinsOn())
	if g := b.c.Session.Agent.GuessFor(p); len(g.L) > 1 && g.L[0] == 0 {
		pins = b.c.Styles.Unknown.Render("pins " + model.Range(g.L) + " equally good")
	}
	segs := []string{
		b.c.Styles.Label.Render("policy"),
		knob("keepRecentTurns", p.KeepRecentTurns, p.KeepRecentTurns != was.KeepRecentTurns),
		knob("keepLastToolResults", p.KeepLastToolResults, p.KeepLastToolResults != was.KeepLastToolResults),
		knob("strategy", p.Strategy, p.Strategy != was.Strategy),
		knob("threshold", threshold, p.ThresholdTokens != was.ThresholdTokens),
		knob("anchor", onOff(!p.NoAnchor), p.NoAnchor != was.NoAnchor),
		pins,
	}
	if n := b.c.Session.Agent.MeterNote(p); n != "" {
		segs = append(segs, b.c.Styles.Dim.Render(strings.TrimSpace(n))) // a composition agent's meter is not recorded (§15.6)
	}
	return append(present.Flow(segs, "  ", b.width), b.withRules(b.Status()))
}

// withRules is the status line with, at its end, whose window rules the
// replay follows and how that was told, and what a tier minimal log
// does not keep (library.go), said as fully as the width allows; where
// even the shortest form does not fit, the status is cut for it (its
// end is a hint, "(r resets)", "change a knob…").
func (b *PolicyBar) withRules(status string) string {
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
func (b *PolicyBar) rulesSegment(level int) string {
	r := b.c.Styles.Label.Render(present.RulesWords(b.c.Session.Rec.Library, level, b.callWords))
	tier := 0
	if level >= 4 {
		tier = 2 // the tier in a word only where the rules are too
	}
	if t := present.TierWords(b.c.Session.Rec.Tier, tier); t != "" {
		r += b.c.Styles.Label.Render(" · ") + b.c.Styles.Unknown.Render(t)
	}
	return r + b.c.Styles.Label.Render(" (!)")
}

// callWords names the file's call n as the screen numbers it: "call 4",
// or "file call 4" where the screen numbers calls otherwise (":f4").
func (b *PolicyBar) callWords(n int) string {
	if b.c.Session.FileNumbers() {
		return "file call " + strconv.Itoa(n)
	}
	return "call " + strconv.Itoa(n)
}

func (b *PolicyBar) Status() string {
	g := b.c.Session.Agent.GuessFor(b.c.Session.Policy)
	switch {
	case b.c.Session.Replaying:
		return b.Spin + " replaying…"
	case !b.c.Session.Changed() && g.Any():
		return b.c.Styles.Unknown.Render("a guess: the log cannot tell "+strings.Join(g.Knobs(), ", ")+" apart") +
			b.c.Styles.Dim.Render("; change a knob to replay the run under another")
	case !b.c.Session.Changed():
		return b.c.Styles.Dim.Render("the recorded policy; change a knob to replay the run under another")
	}
	if b.c.Session.Changes.Pending {
		return b.c.Styles.Changed.Render("≠ comparing every turn with the recorded policy…") + b.c.Styles.Dim.Render(b.sizes()+"  (r resets)")
	}
	n := b.c.Session.Changes.Count()
	return b.c.Styles.Changed.Render(fmt.Sprintf("≠ %d turn(s) differ at this call from the recorded policy", n)) + b.c.Styles.Dim.Render(b.sizes()+"  (r resets)")
}

// sizes compares the window at this call under the two policies: chars
// for both, and the provider's tokens, which exist only for the window
// the library sent.
func (b *PolicyBar) sizes() string {
	c := b.c.Session.Current()
	if c == nil || b.c.Session.Call >= len(b.c.Session.Recorded.Calls) {
		return ""
	}
	was := model.WindowChars(b.c.Session.Recorded.Calls[b.c.Session.Call].Window())
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
