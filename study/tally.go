package study

import (
	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Conversation is one conversation of the file (§10.8): its agent, its
// runs in order, and how many of its recorded windows the replay under
// the recorded policies reproduces (Matched of Compared). Or, with
// Composition set, the model calls of one composition (§15.5), which
// belong to no conversation: then Number is −1, −2, … (Compositions).
type Conversation struct {
	Number            int
	Agent             *model.Agent
	Runs              []Run
	Calls             int
	Matched, Compared int
	Composition       bool
}

// Run is one run (a segment) of a conversation, with its tally.
type Run struct {
	Index             int // in Rec.Runs
	Run               *model.Run
	Paused            bool // a later resume continues it (§10.7): it stopped for a person, not because the log was cut
	Matched, Compared int
}

// Conversations are the file's conversations, each run tallied under the
// agents' recorded policies (RecordedReplay, made once).
func (s *Study) Conversations() []Conversation {
	r := s.RecordedReplay()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.convs != nil {
		return s.convs
	}
	paused := map[int]bool{}
	for _, l := range s.Lineage.Links {
		if l.Kind == lineage.Resume {
			paused[l.Pred] = true
		}
	}
	byRun := r.ByRun()
	out := []Conversation{}
	for _, c := range s.Lineage.Conversations {
		out = append(out, tallied(s.Rec, c, byRun, paused))
	}
	for _, c := range s.compositions() {
		cv := tallied(s.Rec, c, byRun, paused)
		cv.Composition = true
		out = append(out, cv)
	}
	s.convs = out
	return out
}

// tallied is c with each of its runs' tallies.
func tallied(rec *model.Recording, c lineage.Conversation, byRun map[*model.Run]window.Tally, paused map[int]bool) Conversation {
	cv := Conversation{Number: c.Number, Agent: c.Agent}
	for _, i := range c.Runs {
		run := rec.Runs[i]
		t := byRun[run]
		cv.Runs = append(cv.Runs, Run{Index: i, Run: run, Paused: paused[i], Matched: t.Matched, Compared: t.Compared})
		cv.Calls += len(run.Calls)
		cv.Matched += t.Matched
		cv.Compared += t.Compared
	}
	return cv
}

// compositions are the runs of each replayed composition that made model
// calls of its own (§15.5), one entry per composition in order of first
// appearance, numbered −1, −2, …: the numbers View opens them by. They
// are in no conversation of the lineage.
func (s *Study) compositions() []lineage.Conversation {
	var out []lineage.Conversation
	at := map[*model.Agent]int{}
	for i, run := range s.sub.Runs {
		if !run.Composition || len(run.Calls) == 0 || s.Agent(run.Agent) == nil {
			continue
		}
		k, ok := at[run.Agent]
		if !ok {
			k, at[run.Agent] = len(out), len(out)
			out = append(out, lineage.Conversation{Number: -(k + 1), Agent: run.Agent})
		}
		out[k].Runs = append(out[k].Runs, i)
	}
	return out
}
