package present

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/toolbytes"
	"github.com/afinspect/inspect/tui/theme"
)

// highlightBytes: a message larger than this is shown as plain wrapped
// text with a note, not highlighted (chroma would need about a second
// for it, a 6.7 MB result half a minute).
const highlightBytes = 256 << 10

// RenderTurn writes every message of a turn in full, w columns wide:
// who sent it, its size, the tool calls with their arguments, and tool
// results with the tool's own bytes apart from the library's note.
func RenderTurn(st *theme.Styles, msgs []*model.Message, w int) string {
	parts := make([]string, 0, len(msgs))
	for _, m := range msgs {
		parts = append(parts, RenderMessage(st, m, w))
	}
	return strings.Join(parts, "\n\n")
}

func RenderMessage(st *theme.Styles, m *model.Message, w int) string {
	var b strings.Builder
	label := m.Role
	switch {
	case m.Role == model.RoleTool:
		label = "tool " + termtext.Line(m.ToolName)
		if m.ToolCallID != "" {
			label += " · " + termtext.Line(m.ToolCallID)
		}
	case m.IsNotice():
		label = "user · drop notice written by the library"
	case m.IsCorrection():
		label = "user · " + correctionWho(m)
	case m.IsFrame():
		label = frameLabel(m)
	}
	b.WriteString(Rule(st, fmt.Sprintf("%s · %s chars", label, Thousands(m.Chars())), w))
	b.WriteByte('\n')
	switch {
	case m.Role == model.RoleTool:
		b.WriteString(renderToolResult(st, m, w))
	case m.IsFrame():
		b.WriteString(renderFrame(st, m, w))
	default:
		b.WriteString(renderBody(st, m.Content, w))
	}
	for _, tc := range m.ToolCalls {
		b.WriteString("\n")
		b.WriteString(st.ToolCall.Render(Fit(fmt.Sprintf("→ calls %s  (id %s)", termtext.Line(tc.Name), termtext.Line(tc.ID)), w)))
		if len(tc.Args) > 0 {
			b.WriteString("\n")
			b.WriteString(Indent(renderBody(st, string(tc.Args), w-2), "  "))
		}
	}
	return b.String()
}

// renderToolResult shows the tool's own bytes, then, set apart and
// labelled, whatever the library appended after toolChars.
func renderToolResult(st *theme.Styles, m *model.Message, w int) string {
	own, note := toolbytes.Split(m.Content, m.ToolChars)
	if note == "" {
		return renderBody(st, own, w)
	}
	var b strings.Builder
	b.WriteString(st.Label.Render(Fit(fmt.Sprintf("tool's own bytes · %s chars (toolChars); the library's note of %s chars follows them", Thousands(model.Len(own)), Thousands(model.Len(note))), w)))
	b.WriteByte('\n')
	b.WriteString(renderBody(st, own, w))
	b.WriteByte('\n')
	b.WriteString(st.LibraryNote.Render(Fit(fmt.Sprintf("┄┄ library note (not the tool's bytes) · %s chars ┄┄", Thousands(model.Len(note))), w)))
	note = termtext.Screen(strings.Trim(note, "\n"), nil)
	for _, l := range strings.Split(ansi.Wrap(note, max(1, w-2), ""), "\n") {
		b.WriteString("\n" + st.LibraryNote.Render("┆ "+l))
	}
	return b.String()
}

// renderBody is text as it reads best: JSON pretty-printed and
// highlighted, anything else wrapped as it is.
func renderBody(st *theme.Styles, s string, w int) string {
	w = max(1, w)
	if s == "" {
		return st.Dim.Render("(empty)")
	}
	if len(s) > highlightBytes {
		note := st.Dim.Render(Fit("not highlighted: "+ByteSize(int64(len(s))), w))
		if pretty, ok := prettyJSON(s); ok {
			s = pretty
		}
		return note + "\n" + ansi.Wrap(termtext.Screen(s, st.Placeholder), w, "")
	}
	if pretty, ok := prettyJSON(s); ok && jsonLexer != nil {
		return highlightJSON(st, termtext.Screen(pretty, nil), w)
	}
	return ansi.Wrap(termtext.Screen(s, st.Placeholder), w, "")
}

// prettyJSON indents s when it is a JSON object or array.
func prettyJSON(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return "", false
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(t), "", "  "); err != nil {
		return "", false
	}
	return buf.String(), true
}

var jsonLexer = lexers.Get("json")

// highlightJSON colours pretty-printed JSON with chroma's tokens and
// the style sheet's colours (so NO_COLOR and light/dark apply), and wraps
// it to w columns itself, token by token, so that no style is cut by a
// line break.
func highlightJSON(st *theme.Styles, src string, w int) string {
	it, err := jsonLexer.Tokenise(nil, src)
	if err != nil {
		return ansi.Wrap(src, w, "")
	}
	out := &wrapWriter{w: w, colour: lipgloss.ColorProfile() != termenv.Ascii}
	out.b.Grow(len(src) * 2)
	for t := it(); t != chroma.EOF; t = it() {
		style, styled := tokenStyle(st, t.Type)
		for i, seg := range strings.Split(t.Value, "\n") {
			if i > 0 {
				out.newline()
			}
			out.write(seg, style, styled)
		}
	}
	return out.b.String()
}

// wrapWriter writes styled pieces of text w columns wide: a piece that
// does not fit starts a new line, one longer than a line is cut.
type wrapWriter struct {
	b      strings.Builder
	w, col int
	colour bool
}

func (o *wrapWriter) newline() {
	o.b.WriteByte('\n')
	o.col = 0
}

func (o *wrapWriter) write(seg string, style lipgloss.Style, styled bool) {
	for seg != "" {
		sw := ansi.StringWidth(seg)
		if o.col+sw <= o.w {
			o.emit(seg, style, styled)
			o.col += sw
			return
		}
		if o.col > 0 && sw <= o.w {
			o.newline() // it fits on a line of its own
			continue
		}
		head := ansi.Truncate(seg, o.w-o.col, "")
		if head == "" && o.col > 0 {
			o.newline()
			continue
		}
		if head == "" { // not even one character fits: show it anyway
			_, size := utf8.DecodeRuneInString(seg)
			head = seg[:size]
		}
		o.emit(head, style, styled)
		o.newline()
		seg = seg[len(head):]
	}
}

func (o *wrapWriter) emit(s string, style lipgloss.Style, styled bool) {
	if styled && o.colour {
		s = style.Render(s)
	}
	o.b.WriteString(s)
}

func tokenStyle(st *theme.Styles, t chroma.TokenType) (lipgloss.Style, bool) {
	switch {
	case t == chroma.NameTag:
		return st.JSONKey, true
	case t.InSubCategory(chroma.LiteralString):
		return st.JSONString, true
	case t.InSubCategory(chroma.LiteralNumber):
		return st.JSONNumber, true
	case t.InCategory(chroma.Keyword):
		return st.JSONLiteral, true
	case t == chroma.Punctuation:
		return st.JSONPunct, true
	}
	return lipgloss.Style{}, false
}

// Rule is a labelled horizontal line: "── label ─────".
func Rule(st *theme.Styles, label string, w int) string {
	head := Fit("── "+label+" ", w)
	return st.Label.Render(head + strings.Repeat("─", max(0, w-ansi.StringWidth(head))))
}

func Indent(s, by string) string {
	return by + strings.ReplaceAll(s, "\n", "\n"+by)
}

// correctionWho names the library's correction m: its answer check's or
// its output schema's (docs/rules/evidence.md §9.4.4).
func correctionWho(m *model.Message) string {
	if strings.HasPrefix(m.Content, model.SchemaCheckPrefix) {
		return "the library's correction (schema check)"
	}
	return "the library's correction (evidence check)"
}

// MarkHits shows every place q occurs in text (rendered lines) in the
// Hit style; a line with a hit loses its other colours.
func MarkHits(st *theme.Styles, text, q string) string {
	if q == "" {
		return text
	}
	m := NewMatcher(q)
	ls := strings.Split(text, "\n")
	for i, l := range ls {
		plain := ansi.Strip(l)
		if !m.In(plain) {
			continue
		}
		ls[i] = m.Mark(plain, st.Hit)
	}
	return strings.Join(ls, "\n")
}

// FirstHitLine is the first line of text holding q, -1 when none does.
func FirstHitLine(text, q string) int {
	m := NewMatcher(q)
	for i, l := range strings.Split(text, "\n") {
		if m.In(ansi.Strip(l)) {
			return i
		}
	}
	return -1
}

// RenderWindow is every message of a window, numbered, in order.
func RenderWindow(st *theme.Styles, w []*model.Message, width int) string {
	if len(w) == 0 {
		return st.Dim.Render("the window of this call is empty")
	}
	parts := make([]string, len(w))
	for i, m := range w {
		parts[i] = st.Title.Render(fmt.Sprintf("#%d", i+1)) + "\n" + RenderMessage(st, m, width)
	}
	return strings.Join(parts, "\n\n")
}
