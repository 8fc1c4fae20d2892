package detail

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
	"github.com/afinspect/inspect/window"
)

// The request a call received besides its messages: the system prompt
// and the tools. It is not part of the window — no strategy drops it and
// the window's characters do not count it — so it has its own line above
// the turns and its own view in the detail pane (S), never a turn.

// promptWords is "system prompt 735 chars (recorded, 5 pieces)".
func promptWords(sp model.SystemPrompt, st *theme.Styles) string {
	n, ok := sp.Length()
	if !ok {
		return st.Unknown.Render("system prompt not in the log")
	}
	words := st.Value.Render("system prompt") + " " + present.Thousands(n) + " chars"
	switch sp.Source {
	case model.PromptRecorded:
		return words + st.Dim.Render(" (recorded, "+present.Plural(len(sp.Pieces), "piece")+")")
	case model.PromptAssembled:
		if len(sp.Pieces) == 0 {
			return words
		}
		return words + st.Dim.Render(" ("+present.Plural(len(sp.Pieces), "piece")+")")
	}
	return words + st.Unknown.Render(" (its text is not in the log)")
}

// toolWords is "4 tools 1,010 chars".
func toolWords(r model.Request, st *theme.Styles) string {
	if !r.ToolsKnown {
		return st.Unknown.Render("tools not in the log")
	}
	return st.Value.Render(present.Plural(len(r.Tools), "tool")) + " " + present.Thousands(toolChars(r.Tools)) + " chars"
}

// toolChars is the characters of the tools' names and descriptions.
func toolChars(ts []model.Tool) int {
	n := 0
	for _, t := range ts {
		n += t.Chars()
	}
	return n
}

// previousCall is the call before the one on screen in the view, nil for
// the first.
func previousCall(s *session.Session) *window.CallReplay {
	if s.Call <= 0 || s.Call > s.Calls() {
		return nil
	}
	return &s.Replay.Calls[s.Call-1]
}

// requestText is the detail pane's view of the request of the call on
// screen: what changed since the previous call, the system prompt piece
// by piece, the tools offered and the slot budgets; pieceAt is the line
// each piece starts on.
func requestText(s *session.Session, st *theme.Styles, w int) (text string, pieceAt []int) {
	c := s.Current()
	if c == nil {
		return "", nil
	}
	w = max(1, w)
	r := c.Call.Request
	var out []string
	add := func(text string, style lipgloss.Style) { out = append(out, present.WrapLines(text, style, w)...) }
	add("Not part of the window: the library sends the system prompt and the tools with every call; no window strategy drops them, and the window's characters do not count them.", st.Dim)
	if prev := previousCall(s); prev != nil {
		changes := requestChanges(prev.Call.Request, r)
		head := fmt.Sprintf("Since call %d: ", s.Call)
		if len(changes) == 0 {
			add(head+"the same system prompt and tools.", st.Label)
		} else {
			add(head+strings.Join(changes, "; ")+".", st.Changed)
		}
	}
	out = append(out, "")
	sp := r.SystemPrompt
	n, known := sp.Length()
	title := "System prompt"
	if known {
		title += " · " + present.Thousands(n) + " chars"
	}
	switch {
	case sp.Source == model.PromptRecorded:
		title += " · recorded verbatim (llm_start systemPromptText)"
	case sp.Source == model.PromptAssembled && len(sp.Pieces) == 0:
		title += " · none was sent (llm_start systemPromptChars 0)"
	case sp.Source == model.PromptAssembled && len(sp.Pieces) == 1:
		title += " · its one injection record"
	case sp.Source == model.PromptAssembled:
		title += " · " + present.Plural(len(sp.Pieces), "injection record") + ", joined by a blank line as the library joins them"
	case s.Rec.Tier == model.TierMinimal:
		title += " · not in the log: tier minimal keeps no llm_start and no context.* event"
	default:
		title += " · its text is not in the log"
	}
	add(title, st.Title)
	switch {
	case sp.Source == model.PromptRecorded && len(sp.Pieces) == 0:
		add(termtext.Screen(sp.Text, nil), st.Value)
	case sp.Source == model.PromptRecorded && sp.Assembled() != sp.Text:
		add("the recorded prompt is not its pieces joined: the recorded text, then the pieces", st.Unknown)
		add(termtext.Screen(sp.Text, nil), st.Value)
	case sp.Source == model.PromptAbsent && len(sp.Pieces) > 0:
		add("its pieces, which do not make the length the library sent:", st.Unknown)
	case len(sp.Pieces) == 0 && sp.Source == model.PromptAbsent && s.Rec.Tier != model.TierMinimal:
		add("the log has no system-prompt injection record for this call", st.Dim)
	}
	for i, p := range sp.Pieces {
		if i > 0 {
			out = append(out, "") // the blank line the library joins them with
		}
		pieceAt = append(pieceAt, len(out))
		out = append(out, pieceLines(p, st, w)...)
	}
	out = append(out, "")
	switch {
	case !r.ToolsKnown:
		add("Tools · not in the log", st.Title)
	case len(r.Tools) == 0:
		add("Tools offered · none", st.Title)
	default:
		add("Tools offered · "+present.Plural(len(r.Tools), "tool")+" · "+present.Thousands(toolChars(r.Tools))+" chars of names and descriptions (their schemas are not in the log)", st.Title)
		for _, t := range r.Tools {
			name := termtext.Line(t.Name)
			text := ansi.Wrap(name+"  "+termtext.Screen(t.Description, nil), max(1, w-2), "")
			for i, l := range strings.Split(text, "\n") {
				if i == 0 && strings.HasPrefix(l, name) {
					out = append(out, st.ToolCall.Render(name)+l[len(name):])
					continue
				}
				out = append(out, "  "+l)
			}
		}
	}
	if len(r.Slots) > 0 {
		out = append(out, "")
		add("Slot budgets (context.slot_composed, characters)", st.Title)
		for _, sl := range r.Slots {
			line := fmt.Sprintf("%-13s used %s of %s, %s headroom", termtext.Line(sl.Slot), present.Thousands(sl.Used), present.Thousands(sl.Cap), present.Thousands(sl.Headroom))
			if sl.DroppedCount > 0 {
				line += fmt.Sprintf(" · %d dropped", sl.DroppedCount)
			}
			add(line, st.Label)
			for _, d := range sl.Dropped {
				add("  dropped: "+termtext.Line(d), st.Evicted)
			}
		}
	}
	return strings.Join(out, "\n"), pieceAt
}

// pieceLines is one piece: a coloured bar, its source and reason, then
// its text in the source's colour.
func pieceLines(p model.PromptPiece, st *theme.Styles, w int) []string {
	ps := st.Source(p.Source)
	head := termtext.Line(p.Source)
	if p.SourceID != "" {
		head += " " + termtext.Line(p.SourceID)
	}
	head += " · " + present.Thousands(model.Len(p.Text)) + " chars"
	if p.Reason != "" {
		head += " · " + termtext.Line(p.Reason)
	}
	if p.Summary {
		head += " · its summary only (the record has no rawContent)"
	}
	out := []string{ansi.Truncate(ps.Render("▌ "+head), w, "…")}
	for _, l := range strings.Split(ansi.Wrap(termtext.Screen(p.Text, nil), max(1, w-2), ""), "\n") {
		out = append(out, ps.Render("▌")+" "+ps.Render(l))
	}
	return out
}

// requestChanges is what changed from the request before to this one:
// pieces that arrived or left (by source and id), a prompt that changed
// in place, tools no longer offered or newly offered.
func requestChanges(before, now model.Request) []string {
	var out []string
	key := func(p model.PromptPiece) string {
		if p.SourceID != "" {
			return p.Source + " " + p.SourceID
		}
		return p.Source
	}
	had, has := map[string]string{}, map[string]string{}
	for _, p := range before.SystemPrompt.Pieces {
		had[key(p)] += p.Text
	}
	for _, p := range now.SystemPrompt.Pieces {
		has[key(p)] += p.Text
	}
	var arrived, left, changed []string
	for _, p := range now.SystemPrompt.Pieces {
		k := key(p)
		switch text, ok := had[k]; {
		case !ok && !slices.Contains(arrived, k):
			arrived = append(arrived, k)
		case ok && text != has[k] && !slices.Contains(changed, k):
			changed = append(changed, k)
		}
	}
	for _, p := range before.SystemPrompt.Pieces {
		if _, ok := has[key(p)]; !ok && !slices.Contains(left, key(p)) {
			left = append(left, key(p))
		}
	}
	for _, k := range arrived {
		out = append(out, "+ "+termtext.Line(k)+" arrived in the system prompt")
	}
	for _, k := range changed {
		out = append(out, "≠ "+termtext.Line(k)+" changed")
	}
	for _, k := range left {
		out = append(out, "− "+termtext.Line(k)+" left the system prompt")
	}
	if before.SystemPrompt.Known() && now.SystemPrompt.Known() && before.SystemPrompt.Text != now.SystemPrompt.Text &&
		len(arrived)+len(changed)+len(left) == 0 {
		out = append(out, "≠ the system prompt's text changed")
	}
	if before.ToolsKnown && now.ToolsKnown {
		names := func(ts []model.Tool) []string {
			var ns []string
			for _, t := range ts {
				ns = append(ns, t.Name)
			}
			return ns
		}
		was, is := names(before.Tools), names(now.Tools)
		for _, n := range is {
			if !slices.Contains(was, n) {
				out = append(out, "+ tool "+termtext.Line(n)+" offered")
			}
		}
		for _, n := range was {
			if !slices.Contains(is, n) {
				out = append(out, "− tool "+termtext.Line(n)+" no longer offered")
			}
		}
	}
	return out
}

// ShowRequest puts the request of the call on screen in the pane,
// keeping the scroll while it is the same call's.
func (d *Pane) ShowRequest() {
	call, same, y := d.clearFor(d.Request, d.reqCall)
	d.Request, d.reqCall = true, call
	text, pieceAt := "", []int(nil)
	if d.c.Session != nil && call >= 0 {
		text, pieceAt = requestText(d.c.Session, d.c.Styles, max(1, d.width))
	}
	d.setContent(text)
	d.resize()
	switch {
	case d.ReqFocus >= 0 && d.ReqFocus < len(pieceAt):
		d.VP.SetYOffset(pieceAt[d.ReqFocus])
		d.ReqFocus = -1 // once: then it scrolls as the user does
	case same:
		d.VP.SetYOffset(y)
	}
}

// requestTitle is the detail's title while it shows the request.
func (d *Pane) requestTitle() string {
	return "request of call " + strconv.Itoa(d.c.Session.Call+1) + " · not in the window (S/esc: the turn)" + d.position()
}

// RequestLine is the line above the turns: the system prompt, the tools
// and the messages of the call on screen, each with its characters.
func RequestLine(s *session.Session, st *theme.Styles, w int) string {
	c := s.Current()
	if c == nil {
		return ""
	}
	r := c.Call.Request
	parts := []string{st.Title.Render("request") + " " + promptWords(r.SystemPrompt, st), toolWords(r, st)}
	if win := c.Window(); win != nil || !c.Run.Composition {
		parts = append(parts, st.Value.Render(present.Plural(len(win), "message"))+" "+present.Thousands(model.WindowChars(win))+" chars")
	} else {
		parts = append(parts, st.Unknown.Render("messages not in the log"))
	}
	line := strings.Join(parts, st.Dim.Render(" · ")) + st.Dim.Render(" · not in the window (S)")
	return ansi.Truncate(line, w, "…")
}
