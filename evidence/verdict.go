package evidence

import (
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/toolbytes"
)

// The six verdicts of §5. The first four are grounded by the library's
// rules, the last two are its `unsupported`.
const (
	InView       = "in-view"
	UserSupplied = "user-supplied"
	Summary      = "summary"
	LibraryNote  = "library-note"
	Left         = "left"
	NeverRead    = "never-read"
)

// Flagged reports whether a verdict is one the library calls unsupported.
func Flagged(verdict string) bool { return verdict == Left || verdict == NeverRead }

// View is one call as §5 judges it: the window sent, the current run's
// request text, the call's system prompt, and where each tool message's
// own bytes end.
type View struct {
	Window       []*model.Message
	Request      string
	SystemPrompt []string
	// OwnBytes gives a tool message's own bytes (§6 "Tool bytes"); nil:
	// the toolChars cut alone.
	OwnBytes func(*model.Message) string
}

func (v View) own(m *model.Message) string {
	if v.OwnBytes != nil {
		return v.OwnBytes(m)
	}
	own, _ := toolbytes.Split(m.Content, m.ToolChars)
	return own
}

// Judged is one value with its verdict; Sources are indices into the
// messages that left (Judge's gone), for a `left` value only.
type Judged struct {
	Value
	Verdict string
	Sources []int
}

// judgeSets are the indexes that tell the grounded verdicts apart. Each
// message is indexed once: a tool result whole when its own bytes are its
// content (same), else whole and own apart; the exempt text by where it
// came from. While no set reaches FormLimit their unions are the
// library's sets exactly; past that, lib holds the library's sets, built
// in message order.
type judgeSets struct {
	same, whole, own *Index // tool results: own bytes = content; whole and own bytes of the others
	user             *Index // exempt text but frames and notices
	summary          *Index // compaction frames' summaries
	label            *Index // frames' labels and drop notices: the library's words
	lib              *Sets  // nil while the unions are exact
}

// Judger judges the values of many calls, remembering the index of each
// message that left (the same message leaves once and is asked about on
// every later call).
type Judger struct {
	held map[*model.Message]*Index
}

// NewJudger is a Judger with nothing remembered.
func NewJudger() *Judger { return &Judger{held: map[*model.Message]*Index{}} }

// Judge gives each value its verdict (§5) in view, and for a value no rule
// grounds, the messages of gone (those sent on earlier calls of the run
// chain and no longer in the window, in the order sources are listed)
// that hold it. gone is asked only when some value is not grounded.
func (j *Judger) Judge(values []Value, view View, goneOf func() []*model.Message) []Judged {
	s := buildJudgeSets(view)
	out := make([]Judged, len(values))
	var gone []*model.Message
	asked := false
	for i, v := range values {
		out[i] = Judged{Value: v, Verdict: s.grounded(v.Value)}
		if out[i].Verdict != "" {
			continue
		}
		if !asked {
			gone, asked = goneOf(), true
		}
		out[i].Verdict = NeverRead
		for k, m := range gone {
			if j.index(m, view).Has(v.Value) {
				out[i].Sources = append(out[i].Sources, k)
				out[i].Verdict = Left
			}
		}
	}
	return out
}

func buildJudgeSets(view View) judgeSets {
	s := judgeSets{same: NewIndex(), whole: NewIndex(), own: NewIndex(),
		user: NewIndex(), summary: NewIndex(), label: NewIndex()}
	s.user.AddText(view.Request)
	for _, m := range view.Window {
		switch {
		case m.Role == model.RoleTool:
			if own := view.own(m); own == m.Content {
				s.same.AddToolResult(own)
			} else {
				s.whole.AddToolResult(m.Content)
				s.own.AddToolResult(own)
			}
		case !isExemptRole(m):
		case strings.HasPrefix(m.Content, model.CompactedPrefix):
			// the separators at the cut make the two halves' tokens
			// those of the whole
			label, summary := SplitFrame(m.Content)
			s.label.AddText(label)
			s.summary.AddText(summary)
		case m.IsNotice():
			s.label.AddText(m.Content)
		default:
			s.user.AddText(m.Content)
		}
	}
	for _, p := range view.SystemPrompt {
		s.user.AddText(p)
	}
	if s.same.Len()+s.whole.Len() >= FormLimit || s.user.Len()+s.summary.Len()+s.label.Len() >= FormLimit {
		lib := BuildSets(view.Window, view.Request, view.SystemPrompt)
		s.lib = &lib
	}
	return s
}

// libGrounded is the library's verdict on v: in the evidence or the exempt set.
func (s judgeSets) libGrounded(v string) bool {
	if s.lib != nil {
		return s.lib.Grounded(v)
	}
	return s.same.Has(v) || s.whole.Has(v) || s.user.Has(v) || s.summary.Has(v) || s.label.Has(v)
}

// grounded names the first grounded verdict that applies, or "".
func (s judgeSets) grounded(v string) string {
	switch {
	case !s.libGrounded(v):
		return ""
	case s.same.Has(v) || s.own.Has(v):
		return InView
	case s.user.Has(v):
		return UserSupplied
	case s.summary.Has(v):
		return Summary
	}
	return LibraryNote
}

// index is what a message that left holds by the library's rules: a tool
// result its whole content and its own bytes, user or system text its
// tokens; an assistant message (or a re-ask) nothing.
func (j *Judger) index(m *model.Message, view View) *Index {
	if x, ok := j.held[m]; ok {
		return x
	}
	x := NewIndex()
	switch {
	case m.Role == model.RoleTool:
		x.AddToolResult(m.Content)
		if own := view.own(m); own != m.Content {
			x.AddToolResult(own)
		}
	case isExemptRole(m):
		x.AddText(m.Content)
	}
	j.held[m] = x
	return x
}

// SplitFrame cuts a compaction frame into its label (through the "]"
// before the first blank line) and the summary after it.
func SplitFrame(content string) (label, summary string) {
	if i := strings.Index(content, "]\n\n"); i >= 0 {
		return content[:i+1], content[i+3:]
	}
	return content, ""
}
