package window

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/afinspect/inspect/lineage"
	"github.com/afinspect/inspect/model"
)

// Recorded-window comparison outcomes.
const (
	Match   = "match"
	Differs = "differs"
	Unknown = "unknown"
)

// CallReplay is one model call of a replay.
type CallReplay struct {
	Index        int        // 0-based position in Replay.Calls (file order of llm_start)
	Run          *model.Run // the segment the call belongs to
	Call         *model.Call
	Visit        Visit // the window visit before the call; After ends with the call's deliveries
	Conversation int   // its conversation's number (§10.8)

	continues *model.Run // the run its run continues (lineage's Pred), nil for none
	// resumes, on the first call of a run that resumeOnError() started
	// after a failure, is the call of the failed run whose iteration_end
	// history it starts from (§14.5): its predecessor, the failed call
	// after it a sibling (docs/rules/evidence.md §9.6); nil otherwise
	resumes *model.Call

	recorded string  // Recorded's answer, worked out when the call is replayed
	chars    int     // WindowChars's, likewise
	notes    []int32 // what it adds to the turn log, noted by the replay (turnnotes.go); nil: not noted
	made     []*model.Message
}

// Recorded says whether the replayed window is the one the library
// recorded for this call: Match, Differs or Unknown (worked out as the
// call is replayed: reading it changes nothing).
func (c *CallReplay) Recorded() string { return c.recorded }

// WindowChars is the size of Window in characters (UTF-16 units).
func (c *CallReplay) WindowChars() int { return c.chars }

// Window is what the model was sent on this call, per the replay.
func (c *CallReplay) Window() []*model.Message { return c.Visit.After }

// Replay is a whole recording replayed, each agent under its policy.
type Replay struct {
	Policy   model.Policy            // the first agent's (the only one, in a one-agent file)
	Policies map[string]model.Policy // by agent key
	Rules    Rules                   // the library version's window rules it followed (§17)
	Lineage  *lineage.Lineage
	Calls    []CallReplay
	Problems []string // what the replay could not decide, once each

	// the turn log, built once: when the replay is made for a screen
	// (RunFolds), else on first use
	logOnce, indexOnce sync.Once
	log                []logEntry   // the turn log (turnLog)
	places             turnPlaces   // a turn's first message → its place in log
	index              *ledgerIndex // built after log: what a ledger view reads
	begun              *ledgerIndex // the index as the log's finish began it, until index is built
	lines              *turnLines   // built with log: each call's line (lines.go)
	oneRun             bool         // every call is of one run (replay saw to it)
	views              []*Replay    // built with log where the conversation branches: each line's
	part               *logBuild    // the log begun while the replay ran (logpart.go); nil once built
	// growth is what the replay keeps to be continued on a longer part
	// of its file (grow.go); nil when it was not asked to
	growth *growth
}

// RunFolds replays every agent of rec under p (§10.9), each segment from
// the seed lin names for it; summarize-oldest takes its summaries from
// book (its refusals learned under the recorded policy). The replay is
// made for a screen: its turn log and ledger index are built with it.
func RunFolds(rec *model.Recording, lin *lineage.Lineage, p model.Policy, book *FoldBook) *Replay {
	return runFolds(rec, lin, p, book, nil, nil).built()
}

// RunWindows is RunFolds for a replay read for its calls' windows only
// (one of a sweep over many policies): nothing is noted for a turn log,
// which is built only if it is read.
func RunWindows(rec *model.Recording, lin *lineage.Lineage, p model.Policy, book *FoldBook) *Replay {
	policies := map[string]model.Policy{"": p}
	for _, a := range rec.Agents {
		policies[a.Key] = p
	}
	r := replay(rec, lin, replayOptions{policy: everyAgent(policies), book: book})
	r.Policies, r.Policy = policies, p
	return r
}

func runFolds(rec *model.Recording, lin *lineage.Lineage, p model.Policy, book *FoldBook, near *Replay, stop func(*CallReplay) bool) *Replay {
	policies := map[string]model.Policy{"": p}
	for _, a := range rec.Agents {
		policies[a.Key] = p
	}
	r := replay(rec, lin, replayOptions{policy: everyAgent(policies), book: book, near: near, split: near != nil, note: true, stop: stop, quit: stop != nil,
		keep: book == nil})
	r.Policies, r.Policy = policies, p
	return r
}

func everyAgent(policies map[string]model.Policy) func(*model.Agent) (model.Policy, bool) {
	return func(a *model.Agent) (model.Policy, bool) { return policyOf(policies, a), true }
}

// replayOptions: which agents to replay under which policy, the recorded
// folds, whether the replay learns refusals into them, and a call after
// which to stop (when stop is true).
type replayOptions struct {
	runs   []int // the runs to replay, indices in rec.Runs in order; nil: every run
	policy func(*model.Agent) (model.Policy, bool)
	book   *FoldBook
	learn  bool
	stop   func(*CallReplay) bool
	quit   bool    // stop is a cancellation, not a search: room for every call all the same
	split  bool    // long runs on two goroutines (split.go)
	note   bool    // note what each call adds to the turn log (turnnotes.go)
	near   *Replay // a replay of the same recording under another policy, for split
	keep   bool    // keep what grow needs to go on with the replay (grow.go)
	// differ: stop is "the first window that differs" (a candidate's,
	// while inference searches), which a replay that grows goes on with
	differ bool
	// mem, when set, is the arena the replay takes its memory from, one
	// an agent's candidates share while inference searches: each makes
	// little, and an arena of its own would make (and its tips keep) a
	// first block of every kind; nil: an arena of its own
	mem *arena
	// strip: the replay is read for its score and to grow (keep) only:
	// each run's calls are let go once the run is done (a candidate that
	// is not the best: a file of 20,000 conversations would keep every
	// call of every candidate)
	strip bool
	// room, when it has room for the calls, is written instead of a new
	// slice: the calls of a replay let go (MergeFor)
	room []CallReplay
}

func policyOf(policies map[string]model.Policy, a *model.Agent) model.Policy {
	if p, ok := policies[keyOf(a)]; ok {
		return p
	}
	return model.Policy{Strategy: model.SlidingWindow, KeepRecentTurns: model.DefaultKeepRecentTurns, KeepLastToolResults: model.DefaultKeepLastToolResults}
}

// replay replays the segments of the agents o.policy accepts, in order of
// first event, and stops after the first call for which o.stop is true.
// Calls come out in file order of their llm_start.
func replay(rec *model.Recording, lin *lineage.Lineage, o replayOptions) *Replay {
	rp := newReplayer(rec, lin, o)
	n, count := 0, runCount(rec, o.runs)
	for k := range count {
		n += len(rec.Runs[runAt(o.runs, k)].Calls)
	}
	if o.stop != nil && !o.quit {
		n = min(n, 256) // a search that may stop early grows its calls as it goes
	}
	if o.strip && o.mem != nil { // calls let go run by run: the room for them is the arena's, the next candidate's after
		if cap(o.mem.calls) < n {
			o.mem.calls = make([]CallReplay, 0, n)
		}
		rp.out.Calls = o.mem.calls[:0]
	} else if cap(o.room) >= n {
		clear(o.room[:cap(o.room)]) // what the last replay's calls point to is let go with them
		rp.out.Calls = o.room[:0]
	} else if r := takeRoom(o, n); r != nil {
		rp.out.Calls = r
	} else {
		rp.out.Calls = make([]CallReplay, 0, n)
	}
	if rp.grow != nil {
		rp.grow.ahead = count
	}
	for k := range count {
		rp.one(runAt(o.runs, k))
	}
	return rp.finish()
}

// spareRoom is room for the calls of the next long replay made for a
// screen, made while the screen is idle (PrepareRoom): zeroing the room
// for 50,000 calls takes a knob key's replay a couple of milliseconds on
// one core before its first visit. It is zero and was never written, so
// the replay that takes it need not clear it.
var spareRoom atomic.Pointer[[]CallReplay]

// spareLog is room for the turn log of the next long replay made for a
// screen (logRoom), made with spareRoom.
var spareLog atomic.Pointer[logRoom]

// PrepareRoom makes room ahead for a replay of about calls calls made
// for a screen, when it is long enough to be split and no room is spare.
// It is for a screen's idle moments: it takes as long as that replay
// would have.
func PrepareRoom(calls int) {
	if calls < splitMin {
		return
	}
	want := calls + calls/16 // a file that grows a little still fits
	if l := spareLog.Load(); l == nil || l.calls < want {
		spareLog.Store(makeLogRoom(want))
	}
	if s := spareRoom.Load(); s != nil && cap(*s) >= want {
		return
	}
	r := make([]CallReplay, 0, want)
	spareRoom.Store(&r)
}

// takeLogRoom is the spare log room when the replay's n calls fit it
// without leaving much of it unused; nil otherwise.
func takeLogRoom(n int) *logRoom {
	r := spareLog.Load()
	if n < splitMin || r == nil || r.calls < n || r.calls > n+n/4 || !spareLog.CompareAndSwap(r, nil) {
		return nil
	}
	return r
}

// takeRoom is the spare room, empty, when the replay is made for a
// screen (it splits, near is set) and its n calls fit it without
// leaving much of it unused; nil otherwise (the room stays spare).
func takeRoom(o replayOptions, n int) []CallReplay {
	if !o.split || o.strip || n < splitMin {
		return nil
	}
	s := spareRoom.Load()
	if s == nil || cap(*s) < n || cap(*s) > n+n/4 || !spareRoom.CompareAndSwap(s, nil) {
		return nil
	}
	return (*s)[:0]
}

// runner replays the calls of one run (a segment) under its policy.
type runner struct {
	p     model.Policy
	rules Rules
	run   *model.Run
	link  lineage.Link
	pred  *model.Run // the run it continues, nil for none
	// resumes: the call of pred a resumeOnError() run starts from
	// (CallReplay.resumes), nil otherwise
	resumes *model.Call
	sums    *Summaries
	note    bool      // note each call's turns (turnnotes.go)
	quit    bool      // its stop only gives the replay up (replayOptions.quit)
	part    *logBuild // split: the turn log of the first half's calls, begun on its goroutine
	// unmeasured reads a token strategy's visits from a log that keeps no
	// token counts (tier minimal, §16.4); nil elsewhere
	unmeasured *unmeasured
	// base is where the replay keeps call 0 of the run (CallReplay.Index);
	// unordered: a call replayed comes before the run's call before it
	// in the file (both halves of a split may set it)
	base      int
	unordered atomic.Bool
	// tally, when split made it, is the tally of every call of the run
	// (callTally), nil otherwise
	tally *callTally
}

// callInto replays call ci of the run from ch, which is left before the
// call's own messages are added (chain.after), writing into c, which is
// zero (a replay's calls are big: they are written where they are kept,
// not copied there). What is read of every call — its window's size and
// whether it is the one recorded — is worked out here, while the window
// is fresh, so that reading a replay never changes it.
func (x *runner) callInto(c *CallReplay, ch *chain, ci int, mem *arena) {
	call := x.run.Calls[ci]
	c.Index, c.Run, c.Call, c.Conversation, c.continues = x.base+ci, x.run, call, x.link.Conversation, x.pred
	if ci == 0 {
		c.resumes = x.resumes
	}
	if ci > 0 && call.Number < x.run.Calls[ci-1].Number {
		x.unordered.Store(true)
	}
	if ci == 0 && x.link.Kind == lineage.Orphan {
		c.Visit = asRecorded(ch.history)
	} else {
		ch.visit(&c.Visit, x, call, x.unmeasured.overAt(x, ch.history, ci), mem)
	}
	deliver(&c.Visit, call, mem)
	c.chars = c.Visit.sent - 1
	if c.Visit.sent == 0 {
		c.chars = model.WindowChars(c.Visit.After)
	}
	c.recorded = compareRecorded(c.Visit.After, call)
}

// all replays every call of the run in turn, appending them to out, and
// stops after the first call for which stop is true (then stopped).
func (x *runner) all(ch *chain, mem *arena, stop func(*CallReplay) bool, out []CallReplay) (_ []CallReplay, stopped bool) {
	var notes *notes
	if x.note {
		notes = newNotes(len(x.run.Calls))
	}
	for ci, call := range x.run.Calls {
		out = append(out, CallReplay{})
		x.callInto(&out[len(out)-1], ch, ci, mem)
		if x.note {
			notes.noteAt(out, len(out)-1, ci)
		}
		if stop != nil && stop(&out[len(out)-1]) {
			return out, true
		}
		ch.after(call, out[len(out)-1].Visit.After, mem)
	}
	return out, false
}

// sortCalls puts calls in file order of their llm_start and numbers them.
// Calls come run by run, each run's in order: with one run, or runs one
// after another, they are in order already, and are not moved (each is
// some 300 bytes). moved: they were not.
func sortCalls(calls []CallReplay) (moved bool) {
	for i := 1; i < len(calls); i++ {
		if calls[i].Call.Number < calls[i-1].Call.Number {
			slices.SortFunc(calls, func(a, b CallReplay) int { return a.Call.Number - b.Call.Number })
			moved = true
			break
		}
	}
	for i := range calls {
		calls[i].Index = i
	}
	return moved
}

// compositionCalls appends the calls of a composition's own segment
// (§15.5): no visit, no conversation; the window is what the log
// recorded of it, nil when it recorded nothing (a Parallel's merge).
func compositionCalls(out []CallReplay, run *model.Run) []CallReplay {
	for _, call := range run.Calls {
		c := CallReplay{Index: len(out), Run: run, Call: call, Visit: Visit{Anchor: -1, from: -1, to: -1}}
		if call.Recorded != nil {
			c.Visit = asRecorded(call.Recorded)
		}
		c.chars, c.recorded = model.WindowChars(c.Visit.After), compareRecorded(c.Visit.After, call)
		out = append(out, c)
	}
	return out
}

// asRecorded is the first call of an orphan: taken as recorded.
func asRecorded(w []*model.Message) Visit {
	return Visit{Before: w, After: w, Anchor: -1, from: -1, to: -1}
}

// deliver appends the call's deliveries to the window after the visit
// (§10.6): the next visit sees them.
func deliver(v *Visit, call *model.Call, mem *arena) {
	if call.Deliveries == 0 || call.Recorded == nil {
		return
	}
	d := call.Recorded[len(call.Recorded)-call.Deliveries:]
	v.After = mem.extend(v.After, d)
	if v.sent > 0 {
		v.sent += model.WindowChars(d)
	}
}

// keyOf is an agent's key; a run built by hand may have no agent ("").
func keyOf(a *model.Agent) string {
	if a == nil {
		return ""
	}
	return a.Key
}
