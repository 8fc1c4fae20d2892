package advise

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
)

// Advice is the policy advisor's answer for one agent: every policy of
// the grid (adviseGrid) replayed over all of the agent's calls — of one
// file, or summed over several — with what each costs and which values
// of the RECORDED responses it would have had out of view when they were
// typed. What the model would have typed under another policy is
// unknown: the responses are judged as recorded.
type Advice struct {
	Agent string // the agent key
	Files int    // how many of the files hold the agent's calls
	Calls int    // its calls, over those files
	// Recorded is the policy the agent was recorded under (the one most
	// of the files settled, the first file's on a tie); Inferred and
	// Evidence say how that file settled it, and Disagree that some
	// file settled another (each file's is in Rows).
	Recorded        model.Policy
	Inferred        bool
	Evidence        string
	Disagree        bool
	RecordedRow     int  // its row
	NeverRead       Lost // values no message of the conversation held, under the recorded policy: the same under any
	Fit             Fit  // how tokens are estimated from characters
	Rows            []Row
	Frontier        []int // rows on the Pareto frontier, fewest tokens first (Row.Frontier)
	KeepsEverything *Pick // the cheapest policy under which no value an answer used is out of view; nil when none is
	NoWorse         *Pick // the cheapest policy that has no more answer values out of view than the recorded one
	// Unengaged are the grid's thresholds left out: at or above the
	// largest input recorded, a replay never engages them (adviseGrid).
	Unengaged []int
	// Unbounded are the grid's policies left out because their windows
	// grew past AdviseGrowth times the recorded ones in some file
	// (adviseBase.budget): not in Rows.
	Unbounded []model.Policy
}

// Lost counts values out of view: typed in answers, and in tool-call
// arguments, apart (docs/rules/evidence.md §9.1).
type Lost struct{ Answers, Arguments int }

// Row is one policy of the grid.
type Row struct {
	Policy model.Policy
	// Chars is the sum of the agent's calls' window characters (UTF-16
	// units, as the export's windows hold them); PeakChars the largest
	// window's.
	Chars, PeakChars int
	// Tokens and PeakTokens are estimated from the characters (Fit).
	Tokens, PeakTokens int
	// OutOfView are the values of the recorded responses whose verdict
	// under this policy is `left` (inspect's own verdict, §9.5.3, as
	// `inspect evidence` counts them).
	OutOfView Lost
	// DropNotices counts the visits that wrote a drop notice, StandDowns
	// the records whose pins stood down, Differs the calls whose window
	// is not the one the library recorded.
	DropNotices, StandDowns, Differs int
	Frontier                         bool
}

// Pick is a row the advisor names, with its tokens against the recorded
// policy's: Delta < 0 saves, > 0 costs; Percent of the recorded tokens.
type Pick struct {
	Row     int
	Delta   int
	Percent float64
}

// Advise is the advice for agent (its key) from the file s studies: the
// grid swept on every core, progress (which may be nil) told after each
// policy, from the sweep's goroutines one at a time. It stops when ctx
// is done, with ctx's error. The answer is kept with the study: asked
// again, it is given at once. Safe to call from any goroutine.
func Advise(ctx context.Context, s *study.Study, agent string, progress func(done, total int)) (*Advice, error) {
	if a, ok := s.Remembered(adviceOf(agent)); ok {
		return a.(*Advice), nil
	}
	all, err := Files(ctx, []*study.Study{s}, agent, progress)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	s.Remember(adviceOf(agent), all[0])
	return all[0], nil
}

// adviceOf is the key the advice for an agent is kept under in its study.
type adviceOf string

// subject is one agent of one file, swept.
type subject struct {
	s     *study.Study
	agent *study.Agent
	mine  []int        // its calls' places in the study's replay (agentCalls)
	own   int          // its own recorded policy's row in the grid
	rows  []sweepTally // by grid row
	never Lost
	// base is read by the subject's first task and let go after its last
	// (ready, done): a file of many agents held every agent's at once,
	// and the collector scanned them all through the sweep
	base *adviseBase
	once sync.Once
	left atomic.Int32 // its tasks not yet tallied
	// what the answer reads of the base: its calls, their system
	// prompts' characters, and the points the tokens are fitted on
	calls, prompts int
	points         [][2]float64
}

// ready is the subject's base, read by the first to ask.
func (sub *subject) ready() *adviseBase {
	sub.once.Do(func() {
		b := readBase(sub.s, sub.agent, sub.mine)
		sub.calls, sub.points = len(b.calls), fitPoints(b)
		for _, c := range b.calls {
			sub.prompts += promptChars(b.shape.Calls[c.index].Call)
		}
		sub.base = b
	})
	return sub.base
}

// done is told when one of the subject's tasks is tallied; after the
// last, the base is let go.
func (sub *subject) done() {
	if sub.left.Add(-1) == 0 {
		sub.base = nil
	}
}

// Files is the advice for every agent of the studies (only the one
// keyed agent, when it is not ""; never a composition's own calls), each
// agent's calls summed over the files that hold it, in order of first
// appearance. The grid is one per agent key, so that its rows add up;
// the work, every policy of every file, is spread over every core.
func Files(ctx context.Context, studies []*study.Study, agent string, progress func(done, total int)) ([]*Advice, error) {
	var keys []string
	byKey := map[string][]*subject{}
	for _, s := range studies {
		var mine map[*model.Agent][]int
		for i := range s.Agents {
			a := &s.Agents[i]
			if a.Agent.Composition || agent != "" && a.Agent.Key != agent {
				continue
			}
			if byKey[a.Agent.Key] == nil {
				keys = append(keys, a.Agent.Key)
			}
			if mine == nil {
				mine = agentCalls(s.Replay())
			}
			byKey[a.Agent.Key] = append(byKey[a.Agent.Key], &subject{s: s, agent: a, mine: mine[a.Agent]})
		}
	}
	var all []*subject
	grids := map[string]*keyGrid{}
	for _, k := range keys {
		all = append(all, byKey[k]...)
		grids[k] = adviseGrid(byKey[k])
	}
	if err := sweepAll(ctx, all, grids, progress); err != nil {
		return nil, err
	}
	out := make([]*Advice, 0, len(keys))
	for _, k := range keys {
		out = append(out, answer(k, grids[k], byKey[k]))
	}
	return out, nil
}

// sweepAll replays every subject under every policy of its key's grid
// and tallies each replay, one goroutine a core; a replay is let go as
// soon as it is tallied (a grid of a long log's replays would not fit in
// memory).
func sweepAll(ctx context.Context, all []*subject, grids map[string]*keyGrid, progress func(done, total int)) error {
	type task struct {
		sub *subject
		row int
	}
	var tasks []task
	for _, sub := range all {
		grid := grids[sub.agent.Agent.Key].policies
		sub.rows = make([]sweepTally, len(grid))
		sub.left.Store(int32(len(grid)))
		for row := range grid {
			tasks = append(tasks, task{sub, row})
		}
	}
	next := make(chan task)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// the tasks come subject by subject: one walker, the current
			// subject's (one kept for every subject grew the heap with the
			// agents, and a file of 400 of them spent its time collecting)
			var w *walker
			var wBase *adviseBase
			for t := range next {
				b := t.sub.ready()
				if w == nil || wBase != b {
					w, wBase = newWalker(b), b
				}
				t.sub.tally(b, w, grids[t.sub.agent.Agent.Key].policies[t.row], t.row)
				t.sub.done()
				mu.Lock()
				done++
				if progress != nil {
					progress(done, len(tasks))
				}
				mu.Unlock()
			}
		}()
	}
	for _, t := range tasks {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- t:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	return ctx.Err()
}

// tally replays the subject's file with its agent under p (grid row
// row) and tallies it; under its own recorded policy it also counts the
// values never read.
func (sub *subject) tally(b *adviseBase, w *walker, p model.Policy, row int) {
	// given up once the windows of the calls held pass the budget
	held, budget, over := 0, b.budget(), false
	var stop func(*window.CallReplay) bool
	if budget > 0 {
		stop = func(c *window.CallReplay) bool {
			held += len(c.Window())
			over = held > budget
			return over
		}
	}
	r := sub.s.ReplayFor(sub.agent.Agent, p, b.others, stop, w.room)
	// the replay is let go once tallied: the next is written over it
	defer func() { w.room = r.Calls[:0] }()
	if over {
		sub.rows[row] = sweepTally{over: true}
		return
	}
	t := sweepTally{wantUnread: row == sub.own}
	w.walk(r, &t)
	if t.wantUnread {
		sub.never = b.neverRead(r, t.unread)
		t.unread, t.wantUnread = nil, false
	}
	sub.rows[row] = t
}
