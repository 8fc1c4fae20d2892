package main

import (
	"io"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// exportFormat names the JSON shape `inspect export` writes; version 2 of
// the contract only adds to version 1 (WINDOW-SEMANTICS §13).
const exportFormat = "inspect.export.v1"

type exportDoc struct {
	Format        string               `json:"format"`
	Source        string               `json:"source"`
	Policy        exportPolicy         `json:"policy"`
	Agents        []exportAgent        `json:"agents"`
	Conversations []exportConversation `json:"conversations"`
	Problems      []model.Problem      `json:"problems"`
	Calls         []exportCall         `json:"calls"`
}

// exportPolicy is §13.3's policy object: thresholdTokens only for the
// token strategies, noAnchor only when true.
type exportPolicy struct {
	Strategy            string   `json:"strategy"`
	KeepRecentTurns     int      `json:"keepRecentTurns"`
	KeepLastToolResults int      `json:"keepLastToolResults"`
	ThresholdTokens     *int     `json:"thresholdTokens,omitempty"`
	NoAnchor            bool     `json:"noAnchor,omitempty"`
	Inferred            bool     `json:"inferred"`
	Given               []string `json:"given"` // the knobs given as flags
	Evidence            string   `json:"evidence"`
}

type exportAgent struct {
	Agent   string       `json:"agent"`
	AgentID *string      `json:"agentId"`
	Path    []string     `json:"path"`
	Step    string       `json:"step"`
	Policy  exportPolicy `json:"policy"`
}

type exportConversation struct {
	Conversation int      `json:"conversation"`
	Agent        string   `json:"agent"`
	Runs         []string `json:"runs"`
}

// exportCall is one call of the export. Its fields are in three parts so
// that the messages, the bulk of it and the same in every call that holds
// them, can be encoded once each (encodeCall); encoding/json writes the
// embedded parts' fields as the call's own.
type exportCall struct {
	callHead
	Window  []*model.Message `json:"window"`
	Evicted []*model.Message `json:"evicted"`
	callTail
}

type callHead struct {
	Call         int    `json:"call"`
	Run          int    `json:"run"`
	RunID        string `json:"runId"`
	Conversation int    `json:"conversation"`
	Agent        string `json:"agent"`
	Iteration    int    `json:"iteration"`
}

type callTail struct {
	Turns          []exportTurn   `json:"turns"`
	Record         *model.Record  `json:"record"`
	RecordedWindow string         `json:"recordedWindow"`
	Usage          *model.Usage   `json:"usage"` // the provider's tokens; null when the call never ended
	Response       exportResponse `json:"response"`
	Evidence       exportEvidence `json:"evidence"`
}

type exportTurn struct {
	Index   int     `json:"index"`
	Start   int     `json:"start"`
	Length  int     `json:"length"`
	Fate    string  `json:"fate"`
	Reason  *string `json:"reason"`
	Notice  bool    `json:"notice"`
	PinTool string  `json:"pinTool,omitempty"`
}

// writeExport writes the replay as inspect.export.v1 JSON, one call at a
// time (see streamExport): what it holds is one call's JSON, not the
// whole document's.
func writeExport(w io.Writer, source string, s session) error {
	book := provenance.Walk(s.rec, s.replay)
	defer book.Stop()
	outcomes := callOutcomes(s.rec)
	return streamExport(w, exportHead(source, s), len(s.replay.Calls), func(i int) exportCall { return exportCallOf(s, book, outcomes, i) })
}

func policyObject(p model.Policy, inferred bool, given []string, evidence string) exportPolicy {
	out := exportPolicy{Strategy: p.Strategy, KeepRecentTurns: p.KeepRecentTurns, KeepLastToolResults: p.KeepLastToolResults,
		NoAnchor: p.NoAnchor, Inferred: inferred, Given: append([]string{}, given...), Evidence: evidence}
	if tokenMeasured(p.Strategy) {
		t := p.ThresholdTokens
		out.ThresholdTokens = &t
	}
	return out
}

// exportHead is the document without its calls.
func exportHead(source string, s session) exportDoc {
	doc := exportDoc{
		Format: exportFormat, Source: source,
		Policy:   policyObject(s.policy, s.inferred, s.given, s.evidence),
		Agents:   []exportAgent{},
		Problems: s.problems,
		Calls:    []exportCall{},
	}
	for _, a := range s.agents {
		ea := exportAgent{Agent: a.agent.Key, Path: a.agent.Path, Step: a.agent.Step,
			Policy: policyObject(a.policy, a.inferred, s.given, a.evidence)}
		if a.agent.HasID {
			id := a.agent.AgentID
			ea.AgentID = &id
		}
		if ea.Path == nil {
			ea.Path = []string{}
		}
		doc.Agents = append(doc.Agents, ea)
	}
	doc.Conversations = conversations(s)
	if doc.Problems == nil {
		doc.Problems = []model.Problem{}
	}
	return doc
}

// conversations lists the session's conversations (§10.8), with the
// runIds of their segments in order.
func conversations(s session) []exportConversation {
	out := []exportConversation{}
	for _, c := range s.lin.Conversations {
		if s.only != nil && c.Agent != s.only {
			continue
		}
		ec := exportConversation{Conversation: c.Number, Agent: agentKey(s.rec.Runs[c.Runs[0]]), Runs: []string{}}
		for _, i := range c.Runs {
			ec.Runs = append(ec.Runs, s.rec.Runs[i].RunID)
		}
		out = append(out, ec)
	}
	return out
}

// exportCallOf is the i-th call of the replay as exported; book follows
// the messages through the replay for its evidence; outcomes are the
// answers' (callOutcomes).
func exportCallOf(s session, book *provenance.Book, outcomes map[*model.Call]string, i int) exportCall {
	c := &s.replay.Calls[i]
	ec := exportCall{
		callHead: callHead{Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID, Conversation: c.Conversation,
			Agent: agentKey(c.Run), Iteration: c.Call.Iteration},
		Window: nonNil(c.Visit.After), Evicted: nonNil(c.Visit.Evicted),
		callTail: callTail{Record: c.Visit.Record, RecordedWindow: c.Recorded()},
	}
	if c.Call.Ended {
		u := c.Call.Usage
		ec.Usage = &u
	}
	turns := c.Visit.Turns()
	ec.Turns = make([]exportTurn, 0, len(turns))
	for k := range turns {
		t := &turns[k]
		et := exportTurn{Index: t.Index, Start: t.Start, Length: t.Length, Fate: "kept", Notice: t.Notice, PinTool: t.PinTool}
		switch {
		case t.Folded:
			et.Fate = "folded"
		case t.Evicted:
			et.Fate = "evicted"
		}
		if t.Reason != "" {
			et.Reason = &t.Reason // turns is this call's own
		}
		ec.Turns = append(ec.Turns, et)
	}
	ec.Response, ec.Evidence = callResponse(c.Call, outcomes[c.Call]), callEvidence(book, i, c.Call)
	return ec
}

func nonNil(ms []*model.Message) []*model.Message {
	if ms == nil {
		return []*model.Message{}
	}
	return ms
}
