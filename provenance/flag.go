package provenance

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// A verdict says why a value was not in view; it does not say whether a
// reader has to look at it. A query window the model composed is
// "never read", truthfully and uselessly; `14:31` inside a timestamp in
// view is no mistake. The rules below (docs/rules/flags.md §10.2) decide,
// by the value's shape, where it was typed and what the window's texts
// hold — never by a word of one domain —, whether a value is flagged.
// The verdict itself never changes: the library's equality (§5) holds.

// The rule that decided whether a value is flagged (§10.2), in the order
// they are tried; the first that applies decides.
const (
	// RuleSummary: only a summary holds it and no tool result did (1).
	RuleSummary = "summary"
	// RuleInViewInsideToken: a text of the window holds its characters
	// between atom boundaries (2).
	RuleInViewInsideToken = "in-view-inside-token"
	// RuleOtherReading: a number with thousands commas and a unit tail
	// whose number is grounded in view (3).
	RuleOtherReading = "other-reading"
	// RuleLibraryFloor: the library's answer check listed it (6).
	RuleLibraryFloor = "library-floor"
	// RuleTimeInArgument: a time or a time window in a tool call's
	// arguments: a bound the model chose for its query (4).
	RuleTimeInArgument = "time-in-argument"
	// RuleOwnCallAnswered: a left value the model asked about in a tool
	// call of this window whose result is in this window too (5).
	RuleOwnCallAnswered = "own-call-answered"
	// RuleRefuted: every mention is negated, and a grounded value within
	// two edits is the one the model corrects to (7; with 6, Refuted).
	RuleRefuted = "refuted"
	// RuleLabelSeries: a label the model composes for one argument call
	// after call, its numbers tiling a range (§10.5).
	RuleLabelSeries = "label-series"
	// RuleArithmetic: a never-read decimal that two numbers in view add
	// or subtract to exactly, at its printed precision (§10.5): the model
	// worked it out from what it had in front of it.
	RuleArithmetic = "arithmetic"
	// RuleFlagged: no rule takes it out (8).
	RuleFlagged = "flagged"
)

// Where a value was typed, finer than In (§10.3.1): the text of a
// response that has tool calls and is no answer is narration, counted
// with the arguments: it does not reach the caller.
const (
	PlaceAnswer    = "answer"
	PlaceNarration = "narration"
	PlaceToolCall  = "toolCall"
)

// LeftInside is the tool message of an earlier call of the chain, no
// longer in view, that held a never-read value inside a longer token
// (§10.3.2): the model read its characters, and they left.
type LeftInside struct {
	Source Source  `json:"source"`
	Token  *string `json:"token"`
}

// Nearest is the form of the tool results the run had read up to a call
// nearest a never-read value (§10.3.3), and whether its message is in
// that call's window.
type Nearest struct {
	Value      string  `json:"value"`
	Distance   int     `json:"distance"`
	ToolName   *string `json:"toolName"`
	ToolCallID *string `json:"toolCallId"`
	InView     bool    `json:"inView"`
}

// flagCall is what deciding the flags of one call needs.
type flagCall struct {
	b    *Book
	i    int
	c    *window.CallReplay
	ce   *CallEvidence
	view evidence.View
	gone []*model.Message
	// listed is the library's unsupported list of this answer, nil when
	// it judged none here (or judged another window)
	listed map[string]bool
	sets   *evidence.Sets         // the library's sets of the window, made when asked
	frames []lookedFrame          // the window's absence frames (lookedFor), found when first asked
	own    []evidence.BoundedText // the window's assistant texts (inOwnWords), read when first asked
}

// flag decides `flagged`, `rule` and the explanations of §10.3 of every
// value of call i.
func (b *Book) flag(i int, c *window.CallReplay, ce *CallEvidence, view evidence.View, gone []*model.Message) {
	f := &flagCall{b: b, i: i, c: c, ce: ce, view: view, gone: gone}
	narration := len(c.Call.Facts.Response.ToolCalls) > 0 && !b.isAnswer(c)
	if raw := c.Call.Facts.EvidenceChecked; len(raw) > 0 && c.Recorded() != window.Differs {
		if l, ok := LibraryVerdict(raw, ce); ok {
			f.listed = map[string]bool{}
			for _, v := range l.Unsupported {
				f.listed[v.Value] = true
			}
		}
	}
	var inside []string // left values whose characters rule 2 looks for
	for k := range ce.Values {
		e := &ce.Values[k]
		switch {
		case e.In == InToolCall:
			e.Place = PlaceToolCall
		case narration:
			e.Place = PlaceNarration
		default:
			e.Place = PlaceAnswer
		}
		if e.Own() == evidence.Left && !slices.Contains(inside, ownValue(*e)) { // (once: each is looked for and listed once)
			inside = append(inside, ownValue(*e))
		}
	}
	var held map[string][]evidence.TextHit
	if len(inside) > 0 {
		held = b.judger.InViewTexts(inside, view)
	}
	for k := range ce.Values {
		e := &ce.Values[k]
		own := e.Own()
		if !evidence.Flagged(own) {
			continue
		}
		v := ownValue(*e)
		e.Rule, e.Flag = f.rule(e, v, own, held)
		if own == evidence.Left && e.Rule == RuleInViewInsideToken {
			e.InViewInside = f.b.inTexts(i, held[v])
		}
		if own == evidence.NeverRead {
			e.LeftInside = f.leftInside(v)
			e.Nearest = f.nearest(v)
			e.EarlierPass = f.earlierPass(v)
			e.LookedFor = f.lookedFor(v)
		}
		e.AlsoInOwnWords = f.inOwnWords(v)
	}
}

// rule is the first rule of §10.2 that applies to e (own verdict own,
// value v), and whether it leaves e flagged.
func (f *flagCall) rule(e *Entry, v, own string, held map[string][]evidence.TextHit) (string, bool) {
	if own == evidence.SummaryUnsupported { // 1: its summary is a text of the window
		return RuleSummary, true
	}
	if own == evidence.InViewText || len(held[v]) > 0 { // 2
		return RuleInViewInsideToken, false
	}
	if f.otherReading(v) { // 3
		return RuleOtherReading, false
	}
	// §10.5, beside 3: its number is not in view, but two that are make
	// it exactly; like 2 and 3 it takes a value off the library's list
	if own == evidence.NeverRead && f.arithmetic(v) {
		return RuleArithmetic, false
	}
	answerText := e.In == InAnswer
	if answerText && f.listed != nil && f.listed[listedForm(e.Value)] { // 6
		e.LibraryListed = true
		if f.refuted(v) {
			e.Refuted = true
			return RuleRefuted, false
		}
		return RuleLibraryFloor, true
	}
	if e.In == InToolCall && TimeShaped(v) { // 4
		return RuleTimeInArgument, false
	}
	if own == evidence.Left && ownCallAnswered(v, f.view.Window) { // 5
		return RuleOwnCallAnswered, false
	}
	if answerText && f.refuted(v) { // 7
		e.Refuted = true
		return RuleRefuted, false
	}
	if e.In == InToolCall && f.b.labelSeries(f.i, e, v) {
		return RuleLabelSeries, false
	}
	return RuleFlagged, true
}

// ownValue is the value inspect's own verdict judges: a JSON number's
// read (§9.5), else the value.
func ownValue(e Entry) string {
	if e.Read != nil {
		return e.Read.Value
	}
	return e.Value
}

// listedForm is v as the library's event lists it (clipped).
func listedForm(v string) string {
	l := evidence.Result{Unsupported: []evidence.Value{{Value: v}}}.Listed()
	return l[0].Value
}

// isAnswer reports whether call c is an answer (§9.4.1): what it typed
// in its text reaches the caller, or would have.
func (b *Book) isAnswer(c *window.CallReplay) bool {
	if b.inRun == nil { // each call's place in its run, once: a run may hold 50,000
		b.inRun = map[*model.Call]int{}
		for _, run := range b.rec.Runs {
			for k, rc := range run.Calls {
				b.inRun[rc] = k
			}
		}
	}
	k, ok := b.inRun[c.Call]
	if !ok || k >= len(c.Run.Calls) || c.Run.Calls[k] != c.Call {
		k = slices.Index(c.Run.Calls, c.Call) // a run the recording does not list
	}
	return k >= 0 && outcome(c.Run, k) != ""
}

// A number with thousands commas and a unit tail, which the tokenizer
// keeps as an identifier: `1,250/month` (rule 3).
var commaNumber = regexp.MustCompile(`^[-+]?(\d{1,3}(?:,\d{3})+(?:\.\d+)?)[-/]?[a-z]{1,5}(?:/[a-z]{1,5})?$`)

// otherReading reports whether v is a number with commas and a unit tail
// whose number the window's tool results or exempt text ground (rule 3).
func (f *flagCall) otherReading(v string) bool {
	m := commaNumber.FindStringSubmatch(v)
	if m == nil {
		return false
	}
	num := evidence.Normalize(strings.ReplaceAll(m[1], ",", ""))
	return f.libSets().Grounded(num)
}

func (f *flagCall) libSets() *evidence.Sets {
	if f.sets == nil {
		s := evidence.BuildSets(f.view.Window, f.view.Request, f.view.SystemPrompt)
		f.sets = &s
	}
	return f.sets
}

// A time, a date, a stamp, or two of them joined: the shapes of a bound
// a query is given (rule 4). Values are normalized: lower-cased.
var timeShaped = func() *regexp.Regexp {
	t := `\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?`
	stamp := `(?:\d{4}-\d{2}-\d{2}(?:t` + t + `)?|` + t + `)(?:z|[+-]\d{2}(?::?\d{2})?)?`
	return regexp.MustCompile(`^` + stamp + `(?:(?:-|/|\.\.|_)` + stamp + `)?$`)
}()

// TimeShaped reports whether the normalized value v is a stamp — a
// date, a date and a time, or a time, with an optional zone — or two
// stamps joined by -, /, .. or _ (§10.2 rule 4).
func TimeShaped(v string) bool { return timeShaped.MatchString(v) }

// ownCallAnswered reports whether v is in the arguments of a tool call
// of an assistant message of window whose result is in window too (rule
// 5): the model asked about it, and the answer is in front of it.
func ownCallAnswered(v string, win []*model.Message) bool {
	answered := map[string]bool{}
	for _, m := range win {
		if m.Role == model.RoleTool {
			answered[m.ToolCallID] = true
		}
	}
	for _, m := range win {
		if m.Role != model.RoleAssistant {
			continue
		}
		for _, tc := range m.ToolCalls {
			if !answered[tc.ID] {
				continue
			}
			for _, a := range evidence.ArgValues(tc.Args) {
				if a.Value == v {
					return true
				}
			}
		}
	}
	return false
}

// inOwnWords reports whether an assistant message of the window holds v
// between atom boundaries, in its text or its tool calls' arguments
// (§10.3.4): the model's own words, no evidence.
func (f *flagCall) inOwnWords(v string) bool {
	if f.own == nil { // the window's assistant texts, read once per call: every value asks
		f.own = []evidence.BoundedText{}
		for _, m := range f.view.Window {
			if m.Role == model.RoleAssistant {
				f.own = append(f.own, f.b.ownWords(m)...)
			}
		}
	}
	for _, t := range f.own {
		if t.Holds(v) {
			return true
		}
	}
	return false
}

// ownWords is assistant message m's text, then its tool calls'
// arguments, each read once for evidence.HoldsBounded.
func (b *Book) ownWords(m *model.Message) []evidence.BoundedText {
	if ts, ok := b.words[m]; ok {
		return ts
	}
	if b.words == nil {
		b.words = map[*model.Message][]evidence.BoundedText{}
	}
	ts := []evidence.BoundedText{evidence.NewBoundedText(m.Content)}
	for _, tc := range m.ToolCalls {
		ts = append(ts, evidence.NewBoundedText(string(tc.Args)))
	}
	b.words[m] = ts
	return ts
}

// The words that refute what follows them (rule 7), lower-case; a
// typographic apostrophe is read as the ASCII one.
var negations = []string{"not", "never", "nor", "instead of", "rather than", "isn't", "wasn't"}

// refuteReach is how far before a mention its negation may start.
const refuteReach = 24

// refuted reports whether the response's text names v only to refute it
// (rule 7): every mention has a negation right in front of it, and
// another value of the text, grounded in view, is within two edits of v.
func (f *flagCall) refuted(v string) bool {
	text := strings.ReplaceAll(f.c.Call.Facts.Response.Content, "’", "'")
	if !negatedMentions(text, v) {
		return false
	}
	for _, o := range f.ce.Values {
		if o.In != InAnswer || o.Value == v || !grounded(o.Own()) {
			continue
		}
		if evidence.Distance(v, o.Value, evidence.MaxNear) <= evidence.MaxNear {
			return true
		}
	}
	return false
}

// grounded reports whether a verdict is one of the library's grounded ones.
func grounded(verdict string) bool {
	switch verdict {
	case evidence.InView, evidence.UserSupplied, evidence.Summary, evidence.LibraryNote:
		return true
	}
	return false
}

// negatedMentions reports whether text mentions v (between atom
// boundaries, without case) at least once, and each mention has a
// negation within refuteReach characters before it with only spaces,
// `*`, backticks, quotes or `(` between.
func negatedMentions(text, v string) bool {
	low := strings.ToLower(text) // (ASCII positions: values are compared without case)
	if len(low) != len(text) {
		low = asciiLower(text)
	}
	n := 0
	for from := 0; from < len(low); {
		k := strings.Index(low[from:], v)
		if k < 0 {
			break
		}
		p := from + k
		from = p + 1
		if !bounded(low, p, p+len(v)) {
			continue
		}
		n++
		if !negatedAt(low, p) {
			return false
		}
	}
	return n > 0
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// bounded: text[p:q] starts and ends at atom boundaries (§9.2.2).
func bounded(text string, p, q int) bool {
	class := func(c byte) int {
		switch {
		case '0' <= c && c <= '9':
			return 1
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			return 2
		}
		return 0
	}
	at := func(p int) bool {
		if p <= 0 || p >= len(text) {
			return true
		}
		a, b := class(text[p-1]), class(text[p])
		return a == 0 || b == 0 || a != b
	}
	return at(p) && at(q)
}

// negatedAt reports whether a negation ends, before only filler, within
// refuteReach characters before position p of the lower-cased text.
func negatedAt(low string, p int) bool {
	pre := strings.TrimRight(low[:p], " *`'\"(")
	for _, neg := range negations {
		if !strings.HasSuffix(pre, neg) {
			continue
		}
		start := len(pre) - len(neg)
		if p-start > refuteReach+len(neg) { // the filler is at most refuteReach long
			continue
		}
		if start == 0 || !isWordByte(pre[start-1]) {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || c == '_' || c == '\''
}

// leftInside is the first tool message gone from call i's chain whose
// text (§9.2.3) holds the never-read v between atom boundaries, as a
// source (§10.3.2); nil when none does.
func (f *flagCall) leftInside(v string) *LeftInside {
	gone := f.gone
	if len(gone) == 0 {
		return nil
	}
	if x := f.b.leftAt(f.i, gone); x != nil && goneIndexed {
		if c, ok := f.b.leftCandidates(f.i, x, v); ok {
			gone = c // (the only ones the test below can pass, in order)
		}
	}
	for _, m := range gone {
		f.b.goneAsked++
		// (the JSON text of an absence frame's lists holds only what its
		// content does: a content that cannot hold v is passed unparsed)
		if m.Role != model.RoleTool || !evidence.MayHoldBounded(m.Content, v) {
			continue
		}
		text, ok := evidence.SearchedText(m)
		if !ok || !evidence.HoldsBounded(text, v) {
			continue
		}
		l := &LeftInside{Source: f.b.source(f.i, m)}
		if tok, ok := evidence.FirstToken(text, v); ok {
			l.Token = &tok
		}
		return l
	}
	return nil
}

// nearestMaxContent is the largest tool result the nearest form is
// looked for in: indexing every form of a 6.7 MB result takes seconds,
// on the screen's goroutine for a call near the start, for a hint that
// never changes what is flagged.
const nearestMaxContent = 1 << 18

// nearest is the form of the tool results call i's run had read —
// its window's, then those gone from its chain — nearest the never-read
// v, within min(2, ⌊len/5⌋) edits (§10.3.3), in results of at most
// nearestMaxContent bytes; nil when none is.
func (f *flagCall) nearest(v string) *Nearest {
	limit := min(evidence.MaxNear, utf8.RuneCountInString(v)/5)
	if limit == 0 {
		return nil
	}
	var best *Nearest
	found := func(m *model.Message, form string, d int, inView bool) {
		if best != nil && d >= best.Distance {
			return
		}
		name, id := f.b.toolName(f.i, m), m.ToolCallID
		best = &Nearest{Value: form, Distance: d, ToolName: &name, ToolCallID: &id, InView: inView}
	}
	try := func(m *model.Message, inView bool) {
		if !nearLooks(m) {
			return
		}
		if form, d, ok := evidence.NearestForm(v, f.b.formsOf(m, f.view), limit); ok {
			found(m, form, d, inView)
		}
	}
	for _, m := range f.view.Window { // on a tie, what the model had in front of it
		try(m, true)
	}
	if len(f.gone) == 0 {
		return best
	}
	if x := f.b.nearAt(f.i, f.gone); x != nil && goneIndexed {
		// the first message gone at the least distance: the one the
		// scan below would keep
		if m, form, d, ok, sure := f.b.nearGone(f.i, x, v, limit, f.view); sure {
			if ok {
				found(m, form, d, false)
			}
			return best
		}
	}
	for _, m := range f.gone {
		f.b.goneAsked++
		try(m, false)
	}
	return best
}

// skeleton is v with each run of digits as one '#', and how many runs it
// has.
func skeleton(v string) (string, []string) {
	var b strings.Builder
	var runs []string
	for i := 0; i < len(v); {
		if v[i] >= '0' && v[i] <= '9' {
			j := i
			for j < len(v) && v[j] >= '0' && v[j] <= '9' {
				j++
			}
			runs = append(runs, v[i:j])
			b.WriteByte('#')
			i = j
			continue
		}
		b.WriteByte(v[i])
		i++
	}
	return b.String(), runs
}

// isLabel reports whether a skeleton has a letter: a label, not a number.
func isLabel(sk string) bool {
	return strings.ContainsFunc(sk, func(r rune) bool { return 'a' <= r && r <= 'z' })
}

// containsValue reports whether vs has v.
func containsValue(vs []evidence.Value, v string) bool {
	return slices.ContainsFunc(vs, func(x evidence.Value) bool { return x.Value == v })
}

// LookedFor is the absence frame in view whose looked_for holds a
// never-read value (evidence.LookedFor): the tool was asked for it and
// answered that it found nothing.
type LookedFor struct {
	ToolName   *string `json:"toolName"`
	ToolCallID *string `json:"toolCallId"`
}

// lookedFor is the first tool message of call i's window that is an
// absence frame whose looked_for holds v between atom boundaries; nil
// for none.
func (f *flagCall) lookedFor(v string) *LookedFor {
	if f.frames == nil { // the window's absence frames, once per call: every value asks
		f.frames = []lookedFrame{}
		for _, m := range f.view.Window {
			if m.Role != model.RoleTool {
				continue
			}
			if text, ok := f.b.lookedForText(m); ok {
				f.frames = append(f.frames, lookedFrame{m: m, text: text})
			}
		}
	}
	for _, fr := range f.frames {
		if evidence.HoldsBounded(fr.text, v) {
			name, id := f.b.toolName(f.i, fr.m), fr.m.ToolCallID
			return &LookedFor{ToolName: &name, ToolCallID: &id}
		}
	}
	return nil
}

// lookedFrame is an absence frame of a window and its looked_for text.
type lookedFrame struct {
	m    *model.Message
	text string
}

// lookedForText is evidence.LookedFor of tool message m's content, read
// once per message: a window under a token budget holds many, each in
// many windows.
func (b *Book) lookedForText(m *model.Message) (string, bool) {
	if t, ok := b.looked[m]; ok {
		return t.text, t.ok
	}
	if b.looked == nil {
		b.looked = map[*model.Message]lookedText{}
	}
	text, ok := evidence.LookedFor(m.Content)
	b.looked[m] = lookedText{text, ok}
	return text, ok
}

type lookedText struct {
	text string
	ok   bool
}

// Words is "flogi_lookup call_0003's absence frame looked for it and found
// nothing".
func (l LookedFor) Words() string {
	who := "a tool"
	if l.ToolName != nil {
		who = *l.ToolName
		if l.ToolCallID != nil {
			who += " " + *l.ToolCallID
		}
	}
	return who + "'s absence frame looked for it and found nothing"
}
