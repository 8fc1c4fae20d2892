package evidence

import (
	"slices"
	"strings"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/toolbytes"
)

// The verdicts of §5. The first five are grounded by the library's
// rules, the last three are its `unsupported`.
const (
	InView       = "in-view"
	UserSupplied = "user-supplied"
	Summary      = "summary"
	// SummaryUnsupported: only a compaction frame's summary holds it, and
	// no tool result the run chain held before the call and no longer
	// holds does: the summarizer wrote it (§9.3).
	SummaryUnsupported = "summary-unsupported"
	LibraryNote        = "library-note"
	Left               = "left"
	// InViewText: unsupported by the library's rules, but a text of the
	// window holds its characters between atom boundaries (§9.2).
	InViewText = "in-view-text"
	NeverRead  = "never-read"
	// Unknown: the call's window is not in the log (a composition's own
	// call, docs/rules/compositions.md §15.5), so nothing can say whether the value
	// was in view; the library never checks such a call. Neither grounded
	// nor flagged, and counted apart.
	Unknown = "unknown"
)

// Unsupported reports whether the library's rules leave a value of this
// verdict unsupported (left, in-view-text, never-read).
func Unsupported(verdict string) bool {
	return verdict == Left || verdict == InViewText || verdict == NeverRead
}

// Flagged reports whether inspect flags a value of this verdict for a
// reader: the library's unsupported ones and a summary's value no tool
// result held (§9.1.3).
func Flagged(verdict string) bool { return Unsupported(verdict) || verdict == SummaryUnsupported }

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

// Judged is one value with its verdict. Sources are indices into the
// messages that left (Judge's gone), for a `left` value only; InText the
// texts that hold an `in-view-text` value; Folded, for a `summary` value,
// the tool results of the chain that hold it and are no longer in view
// (§9.3), in no order.
type Judged struct {
	Value
	Verdict string
	Sources []int
	InText  []TextHit
	Folded  []*model.Message
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

// Judger judges the values of many calls, remembering each message that
// left, indexed once (the same message leaves once and is asked about on
// every later call), by lookup form: finding the messages gone that hold
// a value costs its hits, not the number gone.
// The messages of the windows are indexed once too, while they stay in
// view (windowSets): a Judger judges the calls of one replay, whose views
// share their OwnBytes.
type Judger struct {
	only  *askedForms // the forms of the values asked about, nil for any (asked.go)
	held  map[*model.Message]bool
	where map[string][]*model.Message // lookup form → the held messages that have it
	win   windowSets
	ahead *ahead // parts made ahead (Prefetch), nil for none
}

// NewJudger is a Judger with nothing remembered.
func NewJudger() *Judger {
	return &Judger{held: map[*model.Message]bool{}, where: map[string][]*model.Message{}}
}

// NewJudgerFor is a Judger that will be asked about values (normalized),
// and so indexes each message by their forms only (asked.go). Asked about
// another value, it indexes the window and the messages gone whole for
// it: the same verdict, at a cost.
func NewJudgerFor(values []Value) *Judger {
	j := NewJudger()
	j.only = newAskedForms(values)
	j.win.only = j.only
	return j
}

// Gone is the messages that left before a call, as JudgeGone asks about
// them: List in the order sources are listed, Find a message's place in
// List. Unsent are the tool results a visit of the chain removed, at or
// before the call, before any call was sent them (a fold can take a
// result appended since the last call); IsUnsent finds one (both may be
// nil). Only a summary's values are checked against those (§9.3). Every
// message of List and Unsent must have been held (Hold) first.
type Gone struct {
	List     []*model.Message
	Find     func(*model.Message) (int, bool)
	Unsent   []*model.Message
	IsUnsent func(*model.Message) bool
}

// Judge gives each value its verdict (§5) in view, and for a value no rule
// grounds, the messages of gone (those sent on earlier calls of the run
// chain and no longer in the window, in the order sources are listed)
// that hold it. gone is asked only when some value is not grounded.
func (j *Judger) Judge(values []Value, view View, goneOf func() []*model.Message) []Judged {
	return j.JudgeGone(values, view, func() Gone {
		list := goneOf()
		at := make(map[*model.Message]int, len(list))
		for k, m := range list {
			j.Hold(m, view)
			if _, ok := at[m]; !ok {
				at[m] = k
			}
		}
		return Gone{List: list, Find: func(m *model.Message) (int, bool) { k, ok := at[m]; return k, ok }}
	})
}

// JudgeGone is Judge with the messages gone held and found by the caller.
// A value the library's rules do not ground is `left` when a message gone
// holds it, else `in-view-text` when a text of the window holds its
// characters between atom boundaries (§9.2), else `never-read`; a value
// only a summary grounds is `summary-unsupported` when no tool result of
// the chain that is no longer in view holds it (§9.3).
func (j *Judger) JudgeGone(values []Value, view View, goneOf func() Gone) []Judged {
	grounded := j.win.grounded
	if !j.win.update(view) {
		grounded = buildJudgeSets(view).grounded
	}
	out := make([]Judged, len(values))
	var gone Gone
	asked := false
	askGone := func() {
		if !asked {
			gone, asked = goneOf(), true
		}
	}
	var whole *judgeSets // the window indexed whole, for a value not asked ahead
	var unread []string  // values nothing gone holds, for the text search
	for i, v := range values {
		covered := j.only == nil || j.only.covers(v.Value)
		if !covered && whole == nil {
			s := buildJudgeSets(view)
			whole = &s
		}
		out[i] = Judged{Value: v}
		if covered {
			out[i].Verdict = grounded(v.Value)
		} else {
			out[i].Verdict = whole.grounded(v.Value)
		}
		switch out[i].Verdict {
		case "":
			askGone()
			out[i].Verdict = NeverRead
			if covered {
				out[i].Sources = j.sources(v.Value, gone)
			} else {
				out[i].Sources = wholeSources(v.Value, gone, view)
			}
			if out[i].Sources != nil {
				out[i].Verdict = Left
			} else {
				unread = append(unread, v.Value)
			}
		case Summary:
			askGone()
			out[i].Folded = j.folded(v.Value, gone, covered, view)
			if len(out[i].Folded) == 0 {
				out[i].Verdict = SummaryUnsupported
			}
		}
	}
	if len(unread) > 0 {
		hits := j.inViewText(unread, view)
		for i := range out {
			if h, ok := hits[out[i].Value.Value]; ok && out[i].Verdict == NeverRead {
				out[i].Verdict, out[i].InText = InViewText, h
			}
		}
	}
	return out
}

// folded is the tool results of the chain no longer in view (gone's list
// and its unsent results) that hold v, each once.
func (j *Judger) folded(v string, gone Gone, covered bool, view View) []*model.Message {
	var out []*model.Message
	seen := map[*model.Message]bool{}
	take := func(m *model.Message) {
		if m.Role == model.RoleTool && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	if covered {
		for _, f := range LookupForms(v) {
			for _, m := range j.where[f] {
				if _, ok := gone.Find(m); ok || gone.IsUnsent != nil && gone.IsUnsent(m) {
					take(m)
				}
			}
		}
		return out
	}
	for _, k := range wholeSources(v, gone, view) {
		take(gone.List[k])
	}
	for _, m := range gone.Unsent {
		if heldIndex(m, view).Has(v) {
			take(m)
		}
	}
	return out
}

// wholeSources is sources for a value the held messages were not indexed
// by: each message gone indexed whole, as Hold would.
func wholeSources(v string, gone Gone, view View) []int {
	var ks []int
	for k, m := range gone.List {
		if at, ok := gone.Find(m); ok && at == k && heldIndex(m, view).Has(v) {
			ks = append(ks, k)
		}
	}
	return ks
}

// sources are the places in gone of the messages that hold v, in order.
func (j *Judger) sources(v string, gone Gone) []int {
	var ks []int
	for _, f := range LookupForms(v) {
		for _, m := range j.where[f] {
			if k, ok := gone.Find(m); ok {
				ks = append(ks, k)
			}
		}
	}
	slices.Sort(ks)
	return slices.Compact(ks)
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

// Hold indexes m, a message that left, once, as what it holds by the
// library's rules: a tool result its whole content and its own bytes,
// user or system text its tokens; an assistant message (or a re-ask)
// nothing.
func (j *Judger) Hold(m *model.Message, view View) {
	if j.held[m] {
		return
	}
	j.held[m] = true
	defer j.win.left.forget(m)
	if forms := j.win.heldForms(m); forms != nil {
		for _, f := range forms {
			j.where[f] = append(j.where[f], m)
		}
		return
	}
	for f := range heldIndex(m, view).forms {
		if j.only == nil || j.only.has(f) {
			j.where[f] = append(j.where[f], m)
		}
	}
}

// heldIndex is every form m holds by the library's rules (see Hold).
func heldIndex(m *model.Message, view View) *Index {
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
