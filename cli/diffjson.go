package cli

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/afinspect/inspect/compare"
	"github.com/afinspect/inspect/export"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/termtext"
	"github.com/afinspect/inspect/window"
)

// diffFormat names the JSON diff writes (docs/inspect.diff.v1.schema.json).
const diffFormat = "inspect.diff.v1"

type diffDoc struct {
	Format        string        `json:"format"`
	A             diffFile      `json:"a"`
	B             diffFile      `json:"b"`
	SameTask      bool          `json:"sameTask"`
	Conversations []diffConv    `json:"conversations"`
	Pairs         []diffPair    `json:"pairs"`
	Parted        *diffPlace    `json:"parted"`
	FirstChanged  *diffPlace    `json:"firstChanged"`
	Totals        diffTotals    `json:"totals"`
	Problems      []diffProblem `json:"problems"`
}

// diffFile is one side's recording: what it was replayed under.
type diffFile struct {
	Source         string               `json:"source"`
	LibraryVersion export.Library       `json:"libraryVersion"`
	Tier           string               `json:"tier"`
	Policy         export.Policy        `json:"policy"`
	Agents         []export.AgentPolicy `json:"agents"`
}

type diffProblem struct {
	Side string `json:"side"`
	model.Problem
}

type diffConvSide struct {
	Conversation int    `json:"conversation"`
	Agent        string `json:"agent"`
	Request      string `json:"request"`
}

type diffConv struct {
	A        *diffConvSide `json:"a"`
	B        *diffConvSide `json:"b"`
	SameTask bool          `json:"sameTask"`
	Pairs    [2]int        `json:"pairs"` // the 1-based pairs, first and last (0, 0: none)
}

type diffPair struct {
	Pair         int            `json:"pair"`
	Conversation int            `json:"conversation"` // 1-based, in conversations
	A            *int           `json:"a"`
	B            *int           `json:"b"`
	State        string         `json:"state"`
	Parts        bool           `json:"parts"`
	Why          *string        `json:"why"`
	Sides        diffSides      `json:"sides"`
	Window       diffWindowDiff `json:"window"`
	Values       []diffValue    `json:"values"`
}

type diffSides struct {
	A *diffSide `json:"a"`
	B *diffSide `json:"b"`
}

// diffSide is one side's call of a pair.
type diffSide struct {
	Call           int    `json:"call"`
	Run            int    `json:"run"`
	Iteration      int    `json:"iteration"`
	WindowChars    int    `json:"windowChars"`
	WindowMessages int    `json:"windowMessages"`
	RecordedWindow string `json:"recordedWindow"`
	// InputTokens is the input the call's usage recorded, null when the
	// call never ended or the replayed window is not the recorded one
	// (another policy): then no count of it exists
	InputTokens  *int     `json:"inputTokens"`
	OutputTokens *int     `json:"outputTokens"`
	OutOfView    int      `json:"outOfView"`
	OutValues    []string `json:"outOfViewValues"`
}

type diffMessage struct {
	Role       string  `json:"role"`
	Kind       string  `json:"kind"`
	ToolName   *string `json:"toolName"`
	ToolCallID *string `json:"toolCallId"`
	Chars      int     `json:"chars"`
}

type diffEdited struct {
	A diffMessage `json:"a"`
	B diffMessage `json:"b"`
}

type diffWindowDiff struct {
	AOnly  []diffMessage `json:"aOnly"`
	BOnly  []diffMessage `json:"bOnly"`
	Edited []diffEdited  `json:"edited"`
}

type diffValue struct {
	Value string  `json:"value"`
	In    string  `json:"in"`
	A     *string `json:"a"`
	B     *string `json:"b"`
}

type diffPlace struct {
	Pair int     `json:"pair"`
	A    *int    `json:"a"`
	B    *int    `json:"b"`
	Why  *string `json:"why,omitempty"`
}

type diffSideTotals struct {
	Calls        int `json:"calls"`
	InputTokens  int `json:"inputTokens"`
	OutputTokens int `json:"outputTokens"`
	WindowChars  int `json:"windowChars"`
	OutOfView    int `json:"outOfView"`
}

type diffTotals struct {
	Pairs     int            `json:"pairs"`
	Same      int            `json:"same"`
	Changed   int            `json:"changed"`
	AOnly     int            `json:"aOnly"`
	BOnly     int            `json:"bOnly"`
	Differing int            `json:"differing"`
	A         diffSideTotals `json:"a"`
	B         diffSideTotals `json:"b"`
}

// writeDiffJSON writes c as inspect.diff.v1.
func writeDiffJSON(w io.Writer, pathA, pathB string, c *compare.Comparison) error {
	doc := diffDocOf(pathA, pathB, c)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	// what a terminal would act on (C1, DEL, bidi) escaped, as every
	// document of ours is: a recording's text is in the messages
	_, err := w.Write(termtext.JSON(buf.Bytes()))
	return err
}

func diffDocOf(pathA, pathB string, c *compare.Comparison) diffDoc {
	doc := diffDoc{Format: diffFormat, A: diffFileOf(pathA, c.A.Study), B: diffFileOf(pathB, c.B.Study), SameTask: c.SameTask,
		Conversations: []diffConv{}, Pairs: make([]diffPair, 0, len(c.Pairs)), Problems: []diffProblem{}}
	for k, s := range []*study.Study{c.A.Study, c.B.Study} {
		for _, p := range s.Problems() {
			doc.Problems = append(doc.Problems, diffProblem{Side: "ab"[k : k+1], Problem: p})
		}
	}
	for _, cv := range c.Convs {
		dc := diffConv{SameTask: cv.SameTask}
		if cv.From < cv.To {
			dc.Pairs = [2]int{cv.From + 1, cv.To}
		}
		if cv.ANumber != 0 {
			dc.A = &diffConvSide{Conversation: cv.ANumber, Agent: cv.AAgent, Request: cv.ARequest}
		}
		if cv.BNumber != 0 {
			dc.B = &diffConvSide{Conversation: cv.BNumber, Agent: cv.BAgent, Request: cv.BRequest}
		}
		doc.Conversations = append(doc.Conversations, dc)
	}
	ta := diffSideTotals{Calls: c.A.Calls, InputTokens: c.A.InputTokens, OutputTokens: c.A.OutputTokens, OutOfView: c.A.OutOfView}
	tb := diffSideTotals{Calls: c.B.Calls, InputTokens: c.B.InputTokens, OutputTokens: c.B.OutputTokens, OutOfView: c.B.OutOfView}
	for i := range c.Pairs {
		p := &c.Pairs[i]
		dp := diffPair{Pair: i + 1, Conversation: p.Conv + 1, State: p.State, Parts: p.Parts, Values: []diffValue{},
			Window: diffWindowDiff{AOnly: diffMessages(p.AOnly), BOnly: diffMessages(p.BOnly), Edited: []diffEdited{}}}
		if why := c.Why(p); why != "" {
			dp.Why = &why
		}
		if x := c.CallA(p); x != nil {
			dp.A, dp.Sides.A = callNumber(x), diffSideOf(x, p.OutA, c.A.Values[p.A])
			ta.WindowChars += x.WindowChars()
		}
		if y := c.CallB(p); y != nil {
			dp.B, dp.Sides.B = callNumber(y), diffSideOf(y, p.OutB, c.B.Values[p.B])
			tb.WindowChars += y.WindowChars()
		}
		for _, e := range p.Edited {
			dp.Window.Edited = append(dp.Window.Edited, diffEdited{A: diffMessageOf(e[0]), B: diffMessageOf(e[1])})
		}
		for _, v := range p.Values {
			dp.Values = append(dp.Values, diffValue{Value: v.Value, In: v.In, A: verdictOrNull(v.A), B: verdictOrNull(v.B)})
		}
		doc.Pairs = append(doc.Pairs, dp)
	}
	doc.Parted = diffPlaceOf(c, c.Parted, true)
	doc.FirstChanged = diffPlaceOf(c, c.FirstChanged, false)
	t := c.Totals
	doc.Totals = diffTotals{Pairs: len(c.Pairs), Same: t.Same, Changed: t.Changed, AOnly: t.AOnly, BOnly: t.BOnly, Differing: t.Differing(), A: ta, B: tb}
	return doc
}

func diffFileOf(path string, s *study.Study) diffFile {
	lead := s.Lead()
	f := diffFile{Source: path, LibraryVersion: libraryObject(s.Rec), Tier: tierOf(s.Rec),
		Policy: policyObject(lead.Policy, lead.Inferred, s.Given, lead.Evidence), Agents: []export.AgentPolicy{}}
	for _, a := range s.Agents {
		f.Agents = append(f.Agents, export.AgentPolicy{Agent: a.Agent.Key, Policy: policyObject(a.Policy, a.Inferred, s.Given, a.Evidence)})
	}
	return f
}

func callNumber(c *window.CallReplay) *int {
	n := c.Call.Number
	return &n
}

func diffSideOf(c *window.CallReplay, out int, values []compare.Value) *diffSide {
	s := &diffSide{Call: c.Call.Number, Run: c.Run.RunNo, Iteration: c.Call.Iteration, WindowChars: c.WindowChars(),
		WindowMessages: len(c.Window()), RecordedWindow: c.Recorded(), OutOfView: out, OutValues: []string{}}
	if c.Call.Ended && c.Recorded() != window.Differs {
		in, o := c.Call.Usage.Input, c.Call.Usage.Output
		s.InputTokens, s.OutputTokens = &in, &o
	}
	for _, v := range values {
		if v.OutOfView() {
			s.OutValues = append(s.OutValues, v.Value)
		}
	}
	return s
}

func diffMessages(ms []*model.Message) []diffMessage {
	out := make([]diffMessage, 0, len(ms))
	for _, m := range ms {
		out = append(out, diffMessageOf(m))
	}
	return out
}

// diffMessageOf names a message without its text (the text is the
// recording's; the export and the screen show it).
func diffMessageOf(m *model.Message) diffMessage {
	d := diffMessage{Role: m.Role, Kind: messageKind(m), Chars: m.Chars()}
	if m.Role == model.RoleTool {
		name, id := m.ToolName, m.ToolCallID
		d.ToolName, d.ToolCallID = &name, &id
	}
	return d
}

// messageKind is what a message is, in the diff's words.
func messageKind(m *model.Message) string {
	switch {
	case m.IsNotice():
		return "notice"
	case m.IsFrame():
		return "frame"
	case m.IsCorrection():
		return "correction"
	case m.Role == model.RoleTool:
		return "tool-result"
	case m.Role == model.RoleAssistant:
		return "assistant"
	case m.IsPersonSaid():
		return "request"
	}
	return m.Role
}

func verdictOrNull(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

func diffPlaceOf(c *compare.Comparison, i int, why bool) *diffPlace {
	if i < 0 {
		return nil
	}
	p := &c.Pairs[i]
	d := &diffPlace{Pair: i + 1}
	if x := c.CallA(p); x != nil {
		d.A = callNumber(x)
	}
	if y := c.CallB(p); y != nil {
		d.B = callNumber(y)
	}
	if w := c.Why(p); why && w != "" {
		d.Why = &w
	}
	return d
}
