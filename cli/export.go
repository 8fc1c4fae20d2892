package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/afinspect/inspect/export"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// exportCmd is `inspect export`: the replay as JSON.
func (a *app) exportCmd() *cobra.Command {
	var o options
	var strict bool
	c := a.studyCmd(&cobra.Command{
		Use:   "export [flags] FILE",
		Short: "print the replay as JSON (format inspect.export.v1)",
		Long: `export prints the replay as JSON (format inspect.export.v1, contract version ` + strconv.Itoa(export.Contract) + `,
docs/rules/export-contract.md §13): each agent's policy, the conversations, and every call
with its system prompt, tools and slot budgets (not part of the window), its
window, what it evicted and why the rest stayed, the record its visit filed,
whether the window is the one the library recorded, the response and its
values' evidence. An absent policy flag is inferred.`,
	}, &o, func() error {
		if o.format != "json" {
			return a.usageError("inspect export: unknown --format %q (json is the only one)", o.format)
		}
		return nil
	}, func(path string, s *study.Study) error {
		w := io.Writer(a.stdout)
		var sw *export.Strict
		if strict {
			sw = export.NewStrict(a.stdout)
			w = sw
		}
		err := writeExport(w, path, s)
		if err == nil && sw != nil {
			err = sw.Close()
		}
		if err != nil {
			return a.fail(exitFile, err)
		}
		if sw != nil && sw.Replaced > 0 {
			fmt.Fprintf(a.stderr, "inspect export: %s: %d lone surrogate(s) written as \\ufffd (--strict-json)\n", path, sw.Replaced)
		}
		return a.failOnDiffers(o, s)
	})
	c.Flags().StringVar(&o.format, "format", "json", "`FORMAT`: json (the only one)")
	c.Flags().BoolVar(&strict, "strict-json", false, "write a lone surrogate (kept as \\ud83d, as the library's JSON.stringify writes it) as \\ufffd, for readers that refuse one")
	o.failDifferFlag(c.Flags())
	return c
}

// writeExport writes the replay as inspect.export.v1 JSON, one call at a
// time (see streamExport): what it holds is one call's JSON, not the
// whole document's.
func writeExport(w io.Writer, source string, s *study.Study) error {
	r := s.Replay()
	book := provenance.Walk(s.Rec, r)
	defer book.Stop()
	outcomes := provenance.OutcomesByCall(s.Rec)
	several := len(s.Rec.Files) > 1
	return export.Write(w, exportHead(source, s), len(r.Calls), func(i int) export.Call {
		c := exportCallOf(r, book, outcomes, i)
		if !several { // one file (an archive of one recording): the call's place is the file's
			c.File, c.Line = "", 0
		}
		return c
	})
}

func policyObject(p model.Policy, inferred bool, given []string, evidence string) export.Policy {
	out := export.Policy{Strategy: p.Strategy, KeepRecentTurns: p.KeepRecentTurns, KeepLastToolResults: p.KeepLastToolResults,
		NoAnchor: p.NoAnchor, Inferred: inferred, Given: append([]string{}, given...), Evidence: evidence}
	if p.NeedsThreshold() {
		out.ThresholdTokens = json.RawMessage("null") // 0 is no threshold: not known (§16.4)
		if p.ThresholdTokens > 0 {
			out.ThresholdTokens = strconv.AppendInt(nil, int64(p.ThresholdTokens), 10)
		}
	}
	return out
}

// libraryObject is rec's settled library version as the export writes it.
func libraryObject(rec *model.Recording) export.Library {
	l := rec.Library
	out := export.Library{Rules: window.RulesOf(rec).String(), Source: l.Source, Evidence: l.Evidence}
	if l.Version != "" {
		v := l.Version
		out.Version = &v
	}
	if out.Source == "" {
		out.Source, out.Evidence = window.VersionByDefault, "not settled: the 9.57.0–9.62.0 rules"
	}
	return out
}

// tierOf is the tier the log was written at (§16.2), standard when the
// recording does not say (one built by hand).
func tierOf(rec *model.Recording) string {
	if rec.Tier == "" {
		return model.TierStandard
	}
	return rec.Tier
}

// exportHead is the document without its calls.
func exportHead(source string, s *study.Study) export.Doc {
	lead := s.Lead()
	doc := export.Doc{
		Format: export.Format, Source: source,
		LibraryVersion: libraryObject(s.Rec), Tier: tierOf(s.Rec),
		Policy:   policyObject(lead.Policy, lead.Inferred, s.Given, lead.Evidence),
		Agents:   []export.Agent{},
		Problems: s.Problems(),
		Calls:    []export.Call{},
	}
	for _, a := range s.Agents {
		ea := export.Agent{Agent: a.Agent.Key, Path: a.Agent.Path, Step: a.Agent.Step, Composition: a.Agent.Composition,
			Policy: policyObject(a.Policy, a.Inferred, s.Given, a.Evidence)}
		if a.Agent.HasID {
			id := a.Agent.AgentID
			ea.AgentID = &id
		}
		if ea.Path == nil {
			ea.Path = []string{}
		}
		doc.Agents = append(doc.Agents, ea)
	}
	if len(s.Rec.Files) > 1 {
		doc.Files = s.Rec.Files
	}
	doc.Conversations = conversations(s)
	if doc.Problems == nil {
		doc.Problems = []model.Problem{}
	}
	return doc
}

// conversations lists the session's conversations (§10.8), with the
// runIds of their segments in order.
func conversations(s *study.Study) []export.Conversation {
	out := []export.Conversation{}
	for _, c := range s.Lineage.Conversations {
		if s.Only != nil && c.Agent != s.Only {
			continue
		}
		ec := export.Conversation{Conversation: c.Number, Agent: agentKey(s.Rec.Runs[c.Runs[0]]), Runs: []string{}}
		for _, i := range c.Runs {
			ec.Runs = append(ec.Runs, s.Rec.Runs[i].RunID)
		}
		out = append(out, ec)
	}
	return out
}

// exportCallOf is the i-th call of the replay as exported; book follows
// the messages through the replay for its evidence; outcomes are the
// answers' (provenance.OutcomesByCall).
func exportCallOf(r *window.Replay, book *provenance.Book, outcomes map[*model.Call]string, i int) export.Call {
	c := &r.Calls[i]
	ec := export.Call{
		CallHead: export.CallHead{Call: c.Call.Number, Run: c.Run.RunNo, RunID: c.Run.RunID,
			Agent: agentKey(c.Run), Iteration: c.Call.Iteration, Pass: max(c.Run.Pass, 1), File: c.Call.File,
			Request: export.RequestOf(c.Call.Request)},
		Window: nonNil(c.Visit.After), Evicted: nonNil(c.Visit.Evicted),
		CallTail: export.CallTail{Record: c.Visit.Record, RecordedWindow: c.Recorded()},
	}
	if c.Call.File != "" { // one of several files: where the call is
		ec.Line = c.Call.Line
	}
	if c.Run.Composition {
		ec.Composition = true
		ec.Window = c.Visit.After // null: the log holds no window of it (§15.5)
	} else {
		conv := c.Conversation
		ec.Conversation = &conv
	}
	if c.Call.Ended {
		u := c.Call.Usage
		ec.Usage = &u
	}
	turns := c.Visit.Turns()
	ec.Turns = make([]export.Turn, 0, len(turns))
	for k := range turns {
		t := &turns[k]
		et := export.Turn{Index: t.Index, Start: t.Start, Length: t.Length, Fate: "kept", Notice: t.Notice, PinTool: t.PinTool}
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
	ec.Response, ec.Evidence = export.ResponseOf(c.Call, outcomes[c.Call]), callEvidence(book, i, c.Call)
	return ec
}

// callEvidence judges call i's values against its replayed window and
// carries the library's own verdict as recorded.
func callEvidence(book *provenance.Book, i int, c *model.Call) export.Evidence {
	ce := book.Call(i)
	e := export.Evidence{Candidates: ce.Candidates, Values: ce.Values, BelowFloor: ce.BelowFloor, Library: export.LibraryPayload(c.Facts.EvidenceChecked)}
	if e.Values == nil {
		e.Values = []provenance.Entry{}
	}
	return e
}

func nonNil(ms []*model.Message) []*model.Message {
	if ms == nil {
		return []*model.Message{}
	}
	return ms
}
