package main

import (
	"encoding/json"
	"io"

	"github.com/afinspect/inspect/model"
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
	Strategy            string `json:"strategy"`
	KeepRecentTurns     int    `json:"keepRecentTurns"`
	KeepLastToolResults int    `json:"keepLastToolResults"`
	ThresholdTokens     *int   `json:"thresholdTokens,omitempty"`
	NoAnchor            bool   `json:"noAnchor,omitempty"`
	Inferred            bool   `json:"inferred"`
	Evidence            string `json:"evidence"`
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

type exportCall struct {
	Call           int              `json:"call"`
	Run            int              `json:"run"`
	RunID          string           `json:"runId"`
	Conversation   int              `json:"conversation"`
	Agent          string           `json:"agent"`
	Iteration      int              `json:"iteration"`
	Window         []*model.Message `json:"window"`
	Evicted        []*model.Message `json:"evicted"`
	Turns          []exportTurn     `json:"turns"`
	Record         *model.Record    `json:"record"`
	RecordedWindow string           `json:"recordedWindow"`
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

func policyObject(a agentPolicy) exportPolicy {
	p := a.policy
	out := exportPolicy{Strategy: p.Strategy, KeepRecentTurns: p.KeepRecentTurns, KeepLastToolResults: p.KeepLastToolResults,
		NoAnchor: p.NoAnchor, Inferred: a.inferred, Evidence: a.evidence}
	if p.Strategy == model.TokenBudget || p.Strategy == model.SummarizeOldest {
		t := p.ThresholdTokens
		out.ThresholdTokens = &t
	}
	return out
}

// writeExport writes the replay as JSON (§13).
func writeExport(w io.Writer, source string, s session) error {
	doc := exportDoc{
		Format: exportFormat, Source: source,
		Policy:   policyObject(agentPolicy{policy: s.policy, inferred: s.inferred, evidence: s.evidence}),
		Agents:   make([]exportAgent, 0, len(s.agents)),
		Problems: s.problems,
		Calls:    make([]exportCall, 0, len(s.replay.Calls)),
	}
	for _, a := range s.agents {
		ea := exportAgent{Agent: a.agent.Key, Path: a.agent.Path, Step: a.agent.Step, Policy: policyObject(a)}
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
	for i := range s.replay.Calls {
		c := &s.replay.Calls[i]
		ec := exportCall{
			Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID, Conversation: c.Conversation,
			Agent: c.Run.Agent.Key, Iteration: c.Call.Iteration,
			Window: nonNil(c.Visit.After), Evicted: nonNil(c.Visit.Evicted),
			Record: c.Visit.Record, RecordedWindow: c.Recorded(),
			Turns: make([]exportTurn, 0, 8),
		}
		for _, t := range c.Visit.Turns() {
			et := exportTurn{Index: t.Index, Start: t.Start, Length: t.Length, Fate: "kept", Notice: t.Notice, PinTool: t.PinTool}
			if t.Evicted {
				et.Fate = "evicted"
			}
			if t.Reason != "" {
				r := t.Reason
				et.Reason = &r
			}
			ec.Turns = append(ec.Turns, et)
		}
		doc.Calls = append(doc.Calls, ec)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// conversations lists the session's conversations (§10.8), with the
// runIds of their segments in order.
func conversations(s session) []exportConversation {
	out := []exportConversation{}
	for _, c := range s.lin.Conversations {
		if s.only != nil && c.Agent != s.only {
			continue
		}
		ec := exportConversation{Conversation: c.Number, Agent: c.Agent.Key, Runs: []string{}}
		for _, i := range c.Runs {
			ec.Runs = append(ec.Runs, s.rec.Runs[i].RunID)
		}
		out = append(out, ec)
	}
	return out
}

func nonNil(ms []*model.Message) []*model.Message {
	if ms == nil {
		return []*model.Message{}
	}
	return ms
}
