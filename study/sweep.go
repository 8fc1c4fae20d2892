package study

import (
	"sync"
	"sync/atomic"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/window"
)

// Sweep is replays of one recording (or one conversation of it) with one
// agent at a time under another policy, made when first asked for and
// kept for the sweep's life: a search asks for the same policy again
// for every value it looks at. GiveUp lets them all go; every later ask
// is answered nil. Safe for concurrent use.
type Sweep struct {
	replay func(agent string, p model.Policy) *window.Replay
	mu     sync.Mutex
	kept   map[agentPolicy]*window.Replay
	gaveUp atomic.Bool
}

type agentPolicy struct {
	agent  string
	policy model.Policy
}

func newSweep(replay func(agent string, p model.Policy) *window.Replay) *Sweep {
	return &Sweep{replay: replay, kept: map[agentPolicy]*window.Replay{}}
}

// Sweep is a sweep over the whole recording: each replay is the file's
// with agent under p and every other agent under its settled policy.
func (s *Study) Sweep() *Sweep { return newSweep(s.replayWith) }

// replayWith is the file's replay with agent under p and every other
// agent under its settled policy: a sweep's, and the advisor's.
func (s *Study) replayWith(agent string, p model.Policy) *window.Replay {
	r, _ := s.replayWithin(agent, p, 0)
	return r
}

// replayWithin is replayWith, given up once the windows of the calls
// replayed under p hold more than budget messages in all (0: no budget);
// false then. A token threshold that a replay seldom engages (it reads
// the recorded counts) keeps whole histories: over thousands of
// follow-ups, windows that hold every earlier message, quadratic in the
// conversation.
func (s *Study) replayWithin(agent string, p model.Policy, budget int) (*window.Replay, bool) {
	policies := make(map[string]model.Policy, len(s.policies))
	for k, q := range s.policies {
		policies[k] = q
	}
	policies[agent] = p
	if budget <= 0 {
		return window.Merge(s.sub, s.Lineage, s.infs, policies), true
	}
	held, over := 0, false
	r := window.MergeUntil(s.sub, s.Lineage, s.infs, policies, func(c *window.CallReplay) bool {
		held += len(c.Window())
		over = held > budget
		return over
	})
	return r, !over
}

// replayFor is replayWithin holding only the calls of a and of the runs
// in need (the other agents' runs that a's chains continue): what the
// advisor reads of a replay, in time linear in the file, not in every
// agent's calls for every agent.
func (s *Study) replayFor(a *model.Agent, p model.Policy, budget int, need map[*model.Run]bool) (*window.Replay, bool) {
	policies := make(map[string]model.Policy, len(s.policies))
	for k, q := range s.policies {
		policies[k] = q
	}
	policies[a.Key] = p
	held, over := 0, false
	var stop func(*window.CallReplay) bool
	if budget > 0 {
		stop = func(c *window.CallReplay) bool {
			held += len(c.Window())
			over = held > budget
			return over
		}
	}
	r := window.MergeFor(s.sub, s.Lineage, s.infs, policies, a, need, stop)
	return r, !over
}

// Replay is the recording replayed with agent (its key) under p; nil once
// the sweep is given up.
func (w *Sweep) Replay(agent string, p model.Policy) *window.Replay {
	if w.gaveUp.Load() {
		return nil
	}
	key := agentPolicy{agent, p}
	w.mu.Lock()
	r := w.kept[key]
	w.mu.Unlock()
	if r != nil {
		return r
	}
	r = w.replay(agent, p)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.gaveUp.Load() {
		return nil
	}
	w.kept[key] = r
	return r
}

// GiveUp lets go of every replay the sweep holds; what is asked of it
// after is answered nil.
func (w *Sweep) GiveUp() {
	w.gaveUp.Store(true)
	w.mu.Lock()
	w.kept = map[agentPolicy]*window.Replay{}
	w.mu.Unlock()
}
