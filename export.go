package main

import (
	"io"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
)

// exportFormat names the JSON shape `inspect export` writes.
const exportFormat = "inspect.export.v1"

type exportDoc struct {
	Format   string          `json:"format"`
	Source   string          `json:"source"`
	Policy   exportPolicy    `json:"policy"`
	Problems []model.Problem `json:"problems"`
	Calls    []exportCall    `json:"calls"`
}

type exportPolicy struct {
	Strategy            string   `json:"strategy"`
	KeepRecentTurns     int      `json:"keepRecentTurns"`
	KeepLastToolResults int      `json:"keepLastToolResults"`
	ThresholdTokens     int      `json:"thresholdTokens"`
	NoAnchor            bool     `json:"noAnchor"`
	Inferred            bool     `json:"inferred"`
	Given               []string `json:"given"` // the knobs given as flags
	Evidence            string   `json:"evidence"`
}

type exportCall struct {
	Call           int              `json:"call"`
	Run            int              `json:"run"`
	RunID          string           `json:"runId"`
	Iteration      int              `json:"iteration"`
	Window         []*model.Message `json:"window"`
	Evicted        []*model.Message `json:"evicted"`
	Turns          []exportTurn     `json:"turns"`
	Record         *model.Record    `json:"record"`
	RecordedWindow string           `json:"recordedWindow"`
	Usage          *model.Usage     `json:"usage"` // the provider's tokens; null when the call never ended
	Response       model.Response   `json:"response"`
	Evidence       exportEvidence   `json:"evidence"`
}

type exportTurn struct {
	Index  int     `json:"index"`
	Start  int     `json:"start"`
	Length int     `json:"length"`
	Fate   string  `json:"fate"`
	Reason *string `json:"reason"`
	Notice bool    `json:"notice"`
}

// writeExport writes the replay as inspect.export.v1 JSON, one call at a
// time (see streamExport): what it holds is one call's JSON, not the
// whole document's.
func writeExport(w io.Writer, source string, s session) error {
	book := provenance.New(s.rec, s.replay)
	return streamExport(w, exportHead(source, s), len(s.replay.Calls), func(i int) exportCall { return exportCallOf(s, book, i) })
}

// exportHead is the document without its calls.
func exportHead(source string, s session) exportDoc {
	doc := exportDoc{
		Format: exportFormat, Source: source,
		Policy: exportPolicy{
			Strategy: s.policy.Strategy, KeepRecentTurns: s.policy.KeepRecentTurns,
			KeepLastToolResults: s.policy.KeepLastToolResults, ThresholdTokens: s.policy.ThresholdTokens,
			NoAnchor: s.policy.NoAnchor, Inferred: s.inferred, Given: append([]string{}, s.given...), Evidence: s.evidence,
		},
		Problems: s.problems,
		Calls:    []exportCall{},
	}
	if doc.Problems == nil {
		doc.Problems = []model.Problem{}
	}
	return doc
}

// exportCallOf is the i-th call of the replay as exported; book follows
// the messages through the replay for its evidence.
func exportCallOf(s session, book *provenance.Book, i int) exportCall {
	c := &s.replay.Calls[i]
	ec := exportCall{
		Call: i + 1, Run: c.Run.Index, RunID: c.Run.RunID, Iteration: c.Call.Iteration,
		Window: nonNil(c.Visit.After), Evicted: nonNil(c.Visit.Evicted),
		Record: c.Visit.Record, RecordedWindow: c.Recorded(),
		Turns: make([]exportTurn, 0, 8),
	}
	if c.Call.Ended {
		u := c.Call.Usage
		ec.Usage = &u
	}
	for _, t := range c.Visit.Turns() {
		et := exportTurn{Index: t.Index, Start: t.Start, Length: t.Length, Fate: "kept", Notice: t.Notice}
		switch {
		case t.Folded:
			et.Fate = "folded"
		case t.Evicted:
			et.Fate = "evicted"
		}
		if t.Reason != "" {
			r := t.Reason
			et.Reason = &r
		}
		ec.Turns = append(ec.Turns, et)
	}
	ec.Response, ec.Evidence = callResponse(c.Call), callEvidence(book, i, c.Call)
	return ec
}

func nonNil(ms []*model.Message) []*model.Message {
	if ms == nil {
		return []*model.Message{}
	}
	return ms
}
