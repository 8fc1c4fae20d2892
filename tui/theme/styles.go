package theme

import (
	"reflect"
	"sync"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// Styles is the one style sheet of the inspector. Every colour is named
// once, by what it means; each is an AdaptiveColor so light and dark
// terminals both read well, and lipgloss drops them all under NO_COLOR.
// Nothing on screen may depend on a colour alone: every fate also has
// its word, the cursor its glyph, the focused pane its border shape.
type Styles struct {
	// Fates of a turn at a call.
	Anchor, Pinned, Recent, Kept, Evicted, Gone, Notice, New lipgloss.Style
	// Folded turns left into a summary; Summary is a frame holding one.
	Folded, Summary lipgloss.Style
	// LibraryNote is text the library appended after a tool's own bytes.
	LibraryNote lipgloss.Style
	// Changed marks a turn whose fate differs from the recorded policy's.
	Changed lipgloss.Style
	// Response is the word of the response row: the model's output, not a
	// turn of the window.
	Response lipgloss.Style
	// InText is a value whose characters were in view inside a longer
	// token (the library's check does not split tokens); SummaryOnly one
	// only a summary held, that no tool result backs.
	InText, SummaryOnly lipgloss.Style

	Title, Label, Value, Dim, Error lipgloss.Style
	Match, Differs, Unknown         lipgloss.Style
	Border, BorderFocused           lipgloss.Style
	ToolCall                        lipgloss.Style
	// Hit is a search match in the detail.
	Hit lipgloss.Style

	// Tokens of a highlighted JSON tool result.
	JSONKey, JSONString, JSONNumber, JSONLiteral, JSONPunct lipgloss.Style

	// Help keys and their descriptions.
	HelpKey, HelpDesc, HelpSep lipgloss.Style

	own ownSGR
}

// ownSGR is the palette of the sheet under one colour profile and
// background: made once, read by every frame.
type ownSGR struct {
	mu      sync.Mutex
	profile termenv.Profile
	dark    bool
	made    termtext.Palette
}

func fg(light, dark string) lipgloss.Style {
	return lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: light, Dark: dark})
}

// DefaultStyles is the inspector's style sheet.
func DefaultStyles() *Styles {
	s := &Styles{
		Anchor:      fg("#0550AE", "#79C0FF").Bold(true),
		Pinned:      fg("#8250DF", "#D2A8FF").Bold(true),
		Recent:      fg("#1A7F37", "#56D364"),
		Kept:        fg("#116329", "#7EE787"),
		Evicted:     fg("#CF222E", "#FF7B72").Bold(true),
		Gone:        fg("#8C959F", "#6E7681").Faint(true),
		Notice:      fg("#9A6700", "#E3B341"),
		New:         fg("#0969DA", "#58A6FF"),
		Folded:      fg("#BC4C00", "#FFA657").Bold(true),
		Summary:     fg("#6639BA", "#BC8CFF").Italic(true),
		LibraryNote: fg("#953800", "#FFA657").Italic(true),
		Changed:     fg("#BF3989", "#FF9BCE").Bold(true),
		Response:    fg("#0550AE", "#A5D6FF").Bold(true).Underline(true),
		InText:      fg("#1B7C83", "#56D4DD"),
		SummaryOnly: fg("#A0111F", "#FF9492").Bold(true).Italic(true),

		Title:   lipgloss.NewStyle().Bold(true),
		Label:   fg("#57606A", "#8B949E"),
		Value:   lipgloss.NewStyle().Bold(true),
		Dim:     fg("#8C959F", "#6E7681"),
		Error:   fg("#CF222E", "#FF7B72").Bold(true),
		Match:   fg("#1A7F37", "#56D364"),
		Differs: fg("#CF222E", "#FF7B72").Bold(true),
		Unknown: fg("#9A6700", "#E3B341"),

		Border:        fg("#D0D7DE", "#30363D"),
		BorderFocused: fg("#0969DA", "#58A6FF"),
		ToolCall:      fg("#8250DF", "#D2A8FF"),
		Hit:           lipgloss.NewStyle().Reverse(true).Bold(true),

		JSONKey:     fg("#0550AE", "#79C0FF"),
		JSONString:  fg("#0A3069", "#A5D6FF"),
		JSONNumber:  fg("#953800", "#FFA657"),
		JSONLiteral: fg("#CF222E", "#FF7B72"),
		JSONPunct:   fg("#57606A", "#8B949E"),

		HelpKey:  fg("#57606A", "#8B949E").Bold(true),
		HelpDesc: fg("#6E7781", "#6E7681"),
		HelpSep:  fg("#D0D7DE", "#30363D"),
	}
	return s
}

// Fate is the style of a fate word.
func (s *Styles) Fate(f window.Fate) lipgloss.Style {
	switch f {
	case window.FateAnchor:
		return s.Anchor
	case window.FatePinned:
		return s.Pinned
	case window.FateRecent:
		return s.Recent
	case window.FateKept:
		return s.Kept
	case window.FateEvicted:
		return s.Evicted
	case window.FateGone:
		return s.Gone
	case window.FateNotice:
		return s.Notice
	case window.FateNew:
		return s.New
	case window.FateFolded:
		return s.Folded
	case window.FateSummary:
		return s.Summary
	}
	return lipgloss.NewStyle()
}

// Source is the style of a system-prompt piece's source; the source word
// is always written beside it.
func (s *Styles) Source(src string) lipgloss.Style {
	switch src {
	case "base":
		return s.Kept
	case "steering":
		return s.Notice
	case "instructions", "instruction":
		return s.Pinned
	case "skill":
		return s.New
	case "rag":
		return s.InText
	case "memory":
		return s.Summary
	}
	return s.Value
}

// Verdict is the style of a verdict word; the word itself always says it.
func (s *Styles) Verdict(v string) lipgloss.Style {
	switch v {
	case evidence.InView:
		return s.Match
	case evidence.UserSupplied:
		return s.Anchor
	case evidence.Summary:
		return s.Summary
	case evidence.LibraryNote:
		return s.LibraryNote
	case evidence.Left:
		return s.Evicted
	case evidence.InViewText:
		return s.InText
	case evidence.NeverRead:
		return s.Error
	case evidence.SummaryUnsupported:
		return s.SummaryOnly
	case evidence.Unknown:
		return s.Unknown
	}
	return s.Value
}

// Placeholder styles what stands in for a control character or an
// invisible one in a recording's text (termtext's placeholders).
func (s *Styles) Placeholder(p string) string { return s.Dim.Render(p) }

// Palette is every SGR sequence the program writes under the colour
// profile and background in force: the only escapes a frame may hold
// (termtext.Palette.Frame). Every style is a field of the sheet, so a
// style added there is in it; each is rendered on a word, a space and a
// second line (the shapes lipgloss styles differently), and once more
// wrapped by lipgloss, as a viewport wraps a line that does not fit
// (lipgloss ends the style with a reset of its own there and opens it
// again on the next line, its attributes in its own order). The loading
// bar's colours are the bubbles progress bar's own.
func (s *Styles) Palette() termtext.Palette {
	profile, dark := lipgloss.ColorProfile(), lipgloss.HasDarkBackground()
	o := &s.own
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.made != nil && o.profile == profile && o.dark == dark {
		return o.made
	}
	var samples []string
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if st, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			samples = append(samples, st.Render("x y\nx"), lipgloss.NewStyle().Width(2).Render(st.Render("xx xx")))
		}
	}
	bar := NewLoadBar()
	samples = append(samples, bar.ViewAs(0), bar.ViewAs(1))
	o.made, o.profile, o.dark = termtext.PaletteOf(samples...), profile, dark
	return o.made
}

// NewLoadBar is the header's progress bar while a file loads, in the
// colours the style sheet is drawn in (none under NO_COLOR).
func NewLoadBar() progress.Model {
	return progress.New(progress.WithoutPercentage(), progress.WithWidth(24), progress.WithColorProfile(lipgloss.ColorProfile()))
}
