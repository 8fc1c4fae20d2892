package provenance

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/afinspect/inspect/evidence"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/toolbytes"
	"github.com/afinspect/inspect/window"
)

// Book answers §6.2 for every call of one replay; it remembers what it
// worked out, so asking again is cheap. It is not safe for concurrent use.
type Book struct {
	rec   *model.Recording
	r     *window.Replay
	lives *lives
	// before is lives as of the calls before beforeAt, the first call
	// that is the last of a run not ended (nil: not kept): a replay of a
	// log that grows changes from there on (Grow)
	before   *lives
	beforeAt int
	// id tells books apart; from is the id of the book it was grown from
	// (0: none; not the book itself, which a long follow would chain
	// forever), shared how many of its first calls it shares with it
	id, from uint64
	shared   int
	gone     []*goneList
	preds    []int // each call's predecessor on its run chain, -1 for none
	judger   *evidence.Judger
	memo     map[int]*CallEvidence
	last     goneAt // the messages gone at the last call asked, kept to extend
	// keep is last as it was at the call before beforeAt, kept for a book
	// grown from this one that takes its judger over (GrowOn)
	keep goneAt
	// prompts is each call's system prompt (see systemPrompt)
	prompts  [][]string
	values   []callValues // each call's, read ahead by Walk; nil: read by Call
	nears    map[string]*nearMemo
	series   map[string][]seriesMember                 // composed label series (labelSeries), made when first asked
	forms    map[*model.Message][]string               // each tool result's forms, once a never-read value's nearest was looked for in it
	inRun    map[*model.Call]int                       // each call's place in its run (isAnswer), made when first asked
	passes   map[*model.Run][]*passMessage             // what the earlier passes of a run's agent were sent (earlierPass), made when first asked
	passHeld map[*model.Message]*evidence.Index        // what each of those messages holds, indexed when first asked
	runsOf   map[*model.Message][]string               // each gone tool message's runs of digits (leftIndex), read when first indexed
	looked   map[*model.Message]lookedText             // each window tool message's looked_for (lookedForText), read when first asked
	words    map[*model.Message][]evidence.BoundedText // each assistant message's texts (ownWords), read when first asked
	// goneAsked counts the messages gone that the flags of never-read
	// values asked of, one by one (the test that they do not grow with
	// the run counts them)
	goneAsked int
}

// New follows every message of replay r (of rec) through its windows.
func New(rec *model.Recording, r *window.Replay) *Book { return NewUntil(rec, r, nil) }

// NewUntil is New given up as soon as quit is set (nil: never), then
// nil: a book of 50,000 calls takes as long as their replay, and one for
// a replay the user has already left would take the cores from the
// replay they asked for next.
func NewUntil(rec *model.Recording, r *window.Replay, quit *atomic.Bool) *Book {
	b := &Book{rec: rec, r: r, judger: evidence.NewJudger(), memo: map[int]*CallEvidence{}, last: goneAt{call: -1}, keep: goneAt{call: -1}, id: bookIDs.Add(1)}
	if !b.follow(quit) {
		return nil
	}
	return b
}

// follow follows every message of b's replay through its windows, as of
// the calls that will not change when the file grows (before) and of
// all (lives); false when quit was set first.
func (b *Book) follow(quit *atomic.Bool) bool {
	r := b.r
	b.beforeAt = mayChange(r)
	b.before, b.gone, b.preds = trackUpTo(r, b.beforeAt, quit)
	if b.before == nil {
		return false
	}
	b.lives = b.before.over(len(r.Calls))
	for i := b.beforeAt; i < len(r.Calls); i++ {
		if given(quit, i) {
			return false
		}
		b.lives.step(r, i, b.preds, b.gone)
	}
	return true
}

// given reports whether quit is set, looked at on every 512th call (i):
// a call's step is cheap enough that a load on each would show.
func given(quit *atomic.Bool, i int) bool {
	return quit != nil && i%512 == 0 && quit.Load()
}

// Walk is New for Call asked about every call in order (an export): the
// values of every response are read first, so that the messages are
// indexed by those values only (evidence.NewJudgerFor), and the messages
// of the windows are indexed on other goroutines, ahead of Call (see
// evidence.Prefetch), while this one follows the messages through the
// windows. Stop ends them. Its answers are not remembered: a call asked
// again is judged again (the same answer, at a call's cost).
func Walk(rec *model.Recording, r *window.Replay) *Book { return walk(rec, r, false) }

// WalkOn is Walk for a replay of a log followed as it is written: its
// judger indexes everything that left (not only what the values read
// ahead look up), so that the calls a longer part of the log adds,
// whose values it has not read, are judged at their own cost by the
// book grown on from it (GrowOn). It costs some times Walk's.
func WalkOn(rec *model.Recording, r *window.Replay) *Book { return walk(rec, r, true) }

func walk(rec *model.Recording, r *window.Replay, whole bool) *Book {
	b := &Book{rec: rec, r: r, memo: map[int]*CallEvidence{}, last: goneAt{call: -1}, keep: goneAt{call: -1}, id: bookIDs.Add(1)}
	tracked := make(chan struct{})
	go func() {
		b.follow(nil)
		close(tracked)
	}()
	b.values = make([]callValues, len(r.Calls))
	var all []evidence.Value
	for i := range r.Calls {
		b.values[i] = valuesOf(&r.Calls[i].Call.Facts.Response)
		all = append(all, b.values[i].values...) // the reads' numbers too
	}
	b.judger = evidence.NewJudgerFor(all)
	if whole {
		b.judger = evidence.NewJudger()
	}
	b.judger.Prefetch(len(r.Calls), func(i int) []*model.Message { return r.Calls[i].Window() }, b.OwnBytes)
	<-tracked
	return b
}

// Stop ends Walk's goroutines.
func (b *Book) Stop() { b.judger.Stop() }

// Ready reports whether Call(i) is at hand: judged already, the first
// call of its chain, or the next of a walk in call order (its messages
// gone extend the last call's). Any other call lists and indexes every
// message gone before it, work that grows with the conversation.
func (b *Book) Ready(i int) bool {
	if _, ok := b.memo[i]; ok {
		return true
	}
	return b.preds[i] < 0 || b.last.call == b.preds[i] || b.last.call == i
}

// JudgeTo judges call i and up to n-1 calls before it on its chain, in
// chain order: the first lists what was gone at it, each next one only
// extends that, so that the calls before i are at hand too (Ready) for a
// reader going back from i. It stops at a call judged already.
func (b *Book) JudgeTo(i, n int) {
	chain := []int{i}
	for k := b.preds[i]; k >= 0 && len(chain) < n; k = b.preds[k] {
		if _, ok := b.memo[k]; ok {
			break
		}
		chain = append(chain, k)
	}
	for k := len(chain) - 1; k >= 0; k-- {
		b.Call(chain[k])
	}
}

// Call judges every value of call i's response (0-based) against its
// replayed window.
func (b *Book) Call(i int) *CallEvidence {
	if ce, ok := b.memo[i]; ok {
		return ce
	}
	b.judger.Reach(i)
	c := &b.r.Calls[i]
	resp := c.Call.Facts.Response
	var cv callValues
	if b.values != nil {
		cv = b.values[i]
	} else {
		cv = valuesOf(&resp)
	}
	ce := &CallEvidence{Candidates: cv.groups[0], Values: make([]Entry, 0, len(cv.values)-len(cv.reads))}
	switch {
	case len(cv.values) == 0:
	case Unjudged(c):
		b.unjudged(ce, cv, c)
	default:
		view := evidence.View{Window: c.Window(), Request: b.request(i),
			SystemPrompt: b.systemPrompt(i), OwnBytes: b.OwnBytes}
		var gone []*model.Message
		judged := b.judger.JudgeGone(cv.values, view, func() evidence.Gone {
			gone = b.goneBefore(i)
			for _, m := range b.last.unheld {
				b.judger.Hold(m, view)
			}
			b.last.unheld = nil
			unsent := b.last.unsent
			return evidence.Gone{List: gone, Find: func(m *model.Message) (int, bool) { return b.findGone(m, i) },
				Unsent: unsent, IsUnsent: func(m *model.Message) bool { return b.isUnsent(m, i) }}
		})
		k := 0
		for g, n := range cv.groups {
			for _, j := range judged[k : k+n] {
				e := Entry{Value: j.Value.Value, Shape: j.Shape, In: InAnswer}
				if g > 0 {
					e.In, e.ToolCallID = InToolCall, &c.Call.Facts.Response.ToolCalls[g-1].ID
				}
				e.Verdict, e.Sources, e.InText, e.Near = b.judgement(i, j, gone, view)
				ce.Values = append(ce.Values, e)
			}
			k += n
		}
		for _, r := range cv.reads {
			read := &Read{Value: r.value.Value, Sources: []Source{}}
			if r.value.Shape != "" {
				j := judged[k]
				k++
				verdict, sources, inText, near := b.judgement(i, j, gone, view)
				read.Shape, read.Verdict = &j.Shape, &verdict
				read.Sources, read.InText, read.Near = sources, inText, near
			}
			ce.Values[r.at].Read = read
			if read.Verdict != nil && *read.Verdict != ce.Values[r.at].Verdict {
				ce.Values[r.at].OwnVerdict = *read.Verdict
			}
		}
		b.flag(i, c, ce, view, gone)
		b.belowFloor(i, c, ce, judged[len(judged)-cv.floor:], gone, view)
	}
	if b.values == nil { // (a Walk never asks again)
		b.memo[i] = ce
	}
	if b.last.call != i {
		b.extendGone(i) // keeps a sequential walk linear
	}
	return ce
}

// Unjudged reports whether call c's window is not in the log — a
// composition's own call whose messages the log does not carry
// (docs/rules/compositions.md §15.5) —, so that its values can be judged against
// nothing: each is evidence.Unknown.
func Unjudged(c *window.CallReplay) bool { return c.Run.Composition && c.Call.Recorded == nil }

// unjudged lists the values of call c, whose window is not in the log,
// each with the verdict unknown and nothing else.
func (b *Book) unjudged(ce *CallEvidence, cv callValues, c *window.CallReplay) {
	place := PlaceAnswer
	if len(c.Call.Facts.Response.ToolCalls) > 0 && !b.isAnswer(c) {
		place = PlaceNarration
	}
	k := 0
	for g, n := range cv.groups {
		for _, v := range cv.values[k : k+n] {
			e := Entry{Value: v.Value, Shape: v.Shape, In: InAnswer, Verdict: evidence.Unknown, Sources: []Source{}, Place: place}
			if g > 0 {
				e.In, e.ToolCallID, e.Place = InToolCall, &c.Call.Facts.Response.ToolCalls[g-1].ID, PlaceToolCall
			}
			ce.Values = append(ce.Values, e)
		}
		k += n
	}
	for _, r := range cv.reads {
		read := &Read{Value: r.value.Value, Sources: []Source{}}
		if r.value.Shape != "" {
			shape, verdict := r.value.Shape, evidence.Unknown
			read.Shape, read.Verdict = &shape, &verdict
		}
		ce.Values[r.at].Read = read
	}
}

// judgement is what an entry says of one judged value of call i: its
// verdict, and the sources, texts or nearest form the verdict names.
func (b *Book) judgement(i int, j evidence.Judged, gone []*model.Message, view evidence.View) (string, []Source, []InText, *Near) {
	sources := []Source{}
	var inText []InText
	var near *Near
	switch j.Verdict {
	case evidence.Left:
		for _, s := range j.Sources {
			sources = append(sources, b.source(i, gone[s]))
		}
	case evidence.Summary:
		folded := slices.Clone(j.Folded)
		slices.SortFunc(folded, func(x, y *model.Message) int {
			return cmp.Compare(key(b.lives.at(x, i)), key(b.lives.at(y, i)))
		})
		for _, m := range folded {
			sources = append(sources, b.source(i, m))
		}
	case evidence.SummaryUnsupported:
		n := b.near(i, j.Value.Value, view)
		near = &n
	case evidence.InViewText:
		inText = b.inTexts(i, j.InText)
	}
	return j.Verdict, sources, inText, near
}

// inTexts names the texts of call i's window that hold a value (hits).
func (b *Book) inTexts(i int, hits []evidence.TextHit) []InText {
	out := make([]InText, len(hits))
	for k, h := range hits {
		out[k] = InText{Token: h.Token, msg: h.Msg}
		if h.Msg != nil && h.Msg.Role == model.RoleTool {
			name, id := b.toolName(i, h.Msg), h.Msg.ToolCallID
			out[k].ToolName, out[k].ToolCallID = &name, &id
		}
	}
	return out
}

// isUnsent reports whether m is a tool result a visit of call i's chain
// removed, at or before call i, before any call was sent it.
func (b *Book) isUnsent(m *model.Message, i int) bool {
	l := b.lives.at(m, i)
	return l != nil && l.unsent && l.evictedAt <= i && m.Role == model.RoleTool
}

// callValues are the values of one response: the answer's, then each
// tool call's arguments', then the numbers the answer's JSON-number
// tokens stand for that are values; groups counts the first two, the
// answer's first.
type callValues struct {
	values []evidence.Value
	groups []int
	reads  []jsonRead
	floor  int // the last floor values: the answer's numbers below the library's floor (BelowFloor)
}

// jsonRead is the number an answer value `:NNNN` stands for (§9.5); its
// Shape is "" when it is no value (it is then not judged).
type jsonRead struct {
	at    int // the answer value's place
	value evidence.Value
}

func valuesOf(resp *model.Response) callValues {
	answer := evidence.Candidates(resp.Content)
	cv := callValues{values: answer, groups: []int{len(answer)}}
	for k, v := range answer {
		if num, ok := evidence.JSONNumber(v.Value); ok {
			cv.reads = append(cv.reads, jsonRead{at: k, value: num})
		}
	}
	if cv.reads != nil {
		cv.values = slices.Clone(answer)
	}
	for _, tc := range resp.ToolCalls {
		vs := evidence.ArgValues(tc.Args)
		cv.values = append(cv.values, vs...)
		cv.groups = append(cv.groups, len(vs))
	}
	for _, r := range cv.reads {
		if r.value.Shape != "" {
			cv.values = append(cv.values, r.value)
		}
	}
	// (judged on an answer only, which Call tells)
	floor := evidence.BelowFloor(resp.Content)
	cv.values = append(cv.values, floor...)
	cv.floor = len(floor)
	return cv
}

// source is message m, gone before call i, as a source of a value of
// call i: a tool result never sent has no sentOn.
func (b *Book) source(i int, m *model.Message) Source {
	l := b.lives.at(m, i)
	s := Source{Run: b.r.Calls[l.first].Run.RunNo, SentOn: [2]int{b.number(l.first), b.number(l.last)},
		EvictedAt: b.number(l.evictedAt), Rule: l.rule, unsent: l.unsent, msg: m}
	if l.unsent {
		s.SentOn = [2]int{}
	}
	if m.Role == model.RoleTool {
		name, id := b.toolName(l.first, m), m.ToolCallID
		s.ToolName, s.ToolCallID = &name, &id
	}
	return s
}

// toolName is tool message m's name: its own, else the name of the call
// that asked for it in the history of call i (docs/rules/window.md §4).
func (b *Book) toolName(i int, m *model.Message) string {
	if m.ToolName != "" {
		return m.ToolName
	}
	if name := toolNameIn(b.r.Calls[i].Window(), m.ToolCallID); name != "" {
		return name
	}
	return toolNameIn(b.r.Calls[i].Visit.Before, m.ToolCallID)
}

// number is the export's number of replay call i (0 for none).
func (b *Book) number(i int) int {
	if i < 0 {
		return 0
	}
	return b.r.Calls[i].Call.Number
}

// toolNameIn is the name of the assistant tool call with id in w
// (docs/rules/window.md §4), for a result that does not carry its own.
func toolNameIn(w []*model.Message, id string) string {
	for _, m := range w {
		for _, tc := range m.ToolCalls {
			if tc.ID == id && tc.Name != "" {
				return tc.Name
			}
		}
	}
	return ""
}

// OwnBytes is a tool message's own bytes (§6 "Tool bytes"): the toolChars
// cut when it applies; else, for a repeated call whose tool_end text is a
// proper prefix of the content, that prefix; else the whole content.
func (b *Book) OwnBytes(m *model.Message) string {
	if cut, ok := toolbytes.Cut(m.Content, m.ToolChars); ok {
		return m.Content[:cut]
	}
	if res, ok := b.rec.RepeatedResults[m]; ok && len(res) < len(m.Content) && strings.HasPrefix(m.Content, res) {
		return res
	}
	return m.Content
}

// request is the current run's request text at call i: its run's own, or
// for a run that opened with none (made by resume()), the run it
// continues'.
func (b *Book) request(i int) string {
	for ; i >= 0; i = b.preds[i] {
		if run := b.r.Calls[i].Run; run.RequestMessage != nil {
			return run.Request
		}
	}
	return ""
}

// systemPrompt is the system prompt call i was built from: its own
// records, or when none were composed since the chain's last call, that
// call's.
func (b *Book) systemPrompt(i int) []string {
	if b.prompts == nil { // each call's, from its predecessor's: one walk
		b.prompts = make([][]string, len(b.r.Calls))
		for k := range b.r.Calls {
			if sp := b.r.Calls[k].Call.Facts.SystemPrompt; sp != nil {
				b.prompts[k] = sp
			} else if p := b.preds[k]; p >= 0 {
				b.prompts[k] = b.prompts[p]
			}
		}
	}
	return b.prompts[i]
}

// Message is the message the source names, for a caller that follows it
// through the windows (the TUI's lifetime strip).
func (s Source) Message() *model.Message { return s.msg }

// Who names the message for a reader: its tool and call ("list_hosts
// call_0001"), else what the library wrote in the person's role (a
// summary frame, a drop notice), else "user text" — a summary is a
// model's claim, never something the person said.
func (s Source) Who() string {
	switch {
	case s.ToolName != nil && s.ToolCallID != nil:
		return *s.ToolName + " " + *s.ToolCallID
	case s.ToolName != nil:
		return *s.ToolName
	case s.msg != nil && s.msg.IsFrame():
		return "a summary frame"
	case s.msg != nil && s.msg.IsNotice():
		return "a drop notice"
	}
	return "user text"
}
