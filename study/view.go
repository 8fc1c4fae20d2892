package study

import (
	"sync"
	"sync/atomic"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// View is one conversation of one agent, as the screen shows it: its
// runs, replayed under that agent's policy or another. Its replays give
// the windows the file-wide replay gives for the same calls (the same
// lineage, the same summaries), on the conversation's calls alone.
type View struct {
	Number int              // the conversation's number in the file (§10.8)
	Rec    *model.Recording // its runs and its agent; the file itself when it holds one conversation of one agent
	Agent  *Agent           // its agent, settled

	s     *Study
	lin   *lineage.Lineage // Rec's: the file's links, renumbered
	first int              // its conversation's first run (-1: the whole file)
	from  *View            // the view of its conversation in the study of an earlier part of the file

	recordedOnce sync.Once
	recorded     *window.Replay
	made         atomic.Pointer[window.Replay] // recorded, once made
}

// View is conversation number (§10.8) of the file, or for a negative
// number the model calls of a composition (§15.5), as Conversations
// numbers them; 0, or a number not there, is the first conversation. A
// file with no conversation, or whose runs name no agent (one built by
// hand), is one view of the whole file under the lead agent's policy.
// Views are made once and shared.
func (s *Study) View(number int) *View {
	var comps []lineage.Conversation
	if number < 0 {
		comps = s.compositions()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	convs := s.Lineage.Conversations
	c := lineage.Conversation{}
	for i, x := range append(convs[:len(convs):len(convs)], comps...) {
		if i == 0 || x.Number == number {
			c = x
		}
	}
	if v := s.views[c.Number]; v != nil {
		return v
	}
	v := &View{Number: c.Number, Agent: s.Agent(c.Agent), s: s, Rec: s.sub, lin: s.Lineage, first: -1}
	if len(c.Runs) > 0 {
		v.first = c.Runs[0]
	}
	v.from = s.before(v.first)
	switch {
	case v.Agent == nil: // no agent named (or one --agent left out)
		v.Agent = &s.lead
	case len(convs) > 1 || len(s.sub.Agents) > 1 || c.Number < 0:
		v.Rec, v.lin = scope(s.Rec, s.Lineage, c)
	}
	if s.views == nil {
		s.views = map[int]*View{}
	}
	s.views[c.Number] = v
	return v
}

// scope is the recording of conversation c alone — its runs, its agent,
// the file's problems — and its lineage: the file's links, each
// predecessor renumbered among c's runs.
func scope(rec *model.Recording, lin *lineage.Lineage, c lineage.Conversation) (*model.Recording, *lineage.Lineage) {
	out := *rec
	out.Agents, out.Runs = []*model.Agent{c.Agent}, make([]*model.Run, len(c.Runs))
	at := make(map[int]int, len(c.Runs))
	for j, i := range c.Runs {
		out.Runs[j], at[i] = rec.Runs[i], j
	}
	sub := &lineage.Lineage{Links: make([]lineage.Link, len(c.Runs))}
	for j, i := range c.Runs {
		l := lin.Links[i]
		if p, ok := at[l.Pred]; ok {
			l.Pred = p
		} else {
			l.Pred = -1
		}
		sub.Links[j] = l
	}
	cc := c
	cc.Runs = make([]int, len(c.Runs))
	for j := range cc.Runs {
		cc.Runs[j] = j
	}
	sub.Conversations = []lineage.Conversation{cc}
	return &out, sub
}

// Recorded is the conversation replayed under its agent's recorded
// policy. Made once.
func (v *View) Recorded() *window.Replay {
	v.recordedOnce.Do(func() {
		p := v.Agent.Recorded
		f := v.from
		v.from = nil // (what it is grown from is let go)
		defer func() { v.made.Store(v.recorded) }()
		if inf := v.Agent.inf; inf != nil {
			if r := inf.Replay(v.Rec); r != nil {
				v.recorded = r // the inference's own
				return
			}
		}
		if f != nil && f.Agent.Recorded == p {
			if was := f.made.Load(); was != nil {
				if v.recorded = window.Grow(was, v.Rec, v.lin); v.recorded != nil {
					return
				}
			}
		}
		v.recorded = window.RunFolds(v.Rec, v.lin, p, v.s.foldsFor(p))
	})
	return v.recorded
}

// Start is the conversation replayed under its agent's settled policy:
// the one the screen opens with.
func (v *View) Start() *window.Replay { return v.Replay(v.Agent.Policy, nil) }

// Replay is the conversation replayed with its agent under p; a long run
// is replayed on two goroutines, the second half started from the
// recorded replay (window.RunNearUntil). Once quit is set (a newer key made
// it moot) it gives up and returns nil; quit may be nil.
func (v *View) Replay(p model.Policy, quit *atomic.Bool) *window.Replay {
	return v.ReplayWith(p, quit, nil)
}

// ReplayWith is Replay that also runs along on the replay before it
// returns it, beside the replay's last serial work where it can
// (window.RunNearUntil); along reads its calls only. It is not run on a
// replay given up.
func (v *View) ReplayWith(p model.Policy, quit *atomic.Bool, along func(*window.Replay)) *window.Replay {
	if p == v.Agent.Recorded {
		r := v.Recorded()
		if along != nil {
			along(r)
		}
		return r
	}
	if quit == nil {
		quit = new(atomic.Bool)
	}
	return window.RunNearUntil(v.Rec, v.lin, p, v.s.foldsFor(p), v.Recorded(), quit, along)
}

// Windows is the conversation replayed with its agent under p, read for
// its windows alone (window.RunWindows): what a sweep of it asks for.
func (v *View) Windows(p model.Policy) *window.Replay {
	if p == v.Agent.Recorded {
		return v.Recorded()
	}
	return window.RunWindows(v.Rec, v.lin, p, v.s.foldsFor(p))
}

// Study is the study the view is of.
func (v *View) Study() *Study { return v.s }
