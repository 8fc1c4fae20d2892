package window

import "github.com/afinspect/inspect/model"

// Recorded-window comparison outcomes.
const (
	Match   = "match"
	Differs = "differs"
	Unknown = "unknown"
)

// CallReplay is one model call of a replay.
type CallReplay struct {
	Index int        // 0-based, across all runs in file order
	Run   *model.Run // the run the call belongs to
	Call  *model.Call
	Visit Visit // the window visit before the call

	recorded string // memo of Recorded
}

// Recorded says whether the replayed window is the one the library
// recorded for this call: Match, Differs or Unknown. It is worked out on
// first use (it reads every message of the window), not by the replay.
func (c *CallReplay) Recorded() string {
	if c.recorded == "" {
		c.recorded = compareRecorded(c.Visit.After, c.Call)
	}
	return c.recorded
}

// Window is what the model was sent on this call, per the replay.
func (c *CallReplay) Window() []*model.Message { return c.Visit.After }

// Replay is a whole recording replayed under one policy.
type Replay struct {
	Policy   model.Policy
	Calls    []CallReplay
	Problems []string // what the replay could not decide, once each

	log []logEntry // built by Ledger on first use
}

// Run replays every run of rec under policy p, from the first iteration.
// A follow-up run starts from the previous run's last window, that call's
// answer, and the new request; what was dropped in a run stays gone.
// Under summarize-oldest the summaries come from the recorded folds,
// learned taking p as the recorded policy (RunFolds takes a book learned
// under another).
func Run(rec *model.Recording, p model.Policy) *Replay {
	var book *FoldBook
	if p.Strategy == model.SummarizeOldest {
		book = RecordedFolds(rec, p)
	}
	return RunFolds(rec, p, book)
}

// RunFolds is Run with the recorded folds given.
func RunFolds(rec *model.Recording, p model.Policy, book *FoldBook) *Replay {
	return replay(rec, p, replayOptions{book: book})
}

// replayOptions: the recorded folds, whether the replay learns refusals
// into them, and a call after which to stop (when stop is true).
type replayOptions struct {
	book  *FoldBook
	learn bool
	stop  func(*CallReplay) bool
}

// replay is Run with its options.
func replay(rec *model.Recording, p model.Policy, o replayOptions) *Replay {
	stop := o.stop
	sums := NewSummaries(o.book) // one conversation: every run continues the previous
	sums.learn = o.learn
	total := 0
	for _, r := range rec.Runs {
		total += len(r.Calls)
	}
	out := &Replay{Policy: p, Calls: make([]CallReplay, 0, total)}
	seen := map[string]bool{}
	mem := &arena{}
	var history []*model.Message
	for _, run := range rec.Runs {
		if run.RequestMessage != nil {
			history = append(history[:len(history):len(history)], run.RequestMessage)
		}
		records := make([]model.Record, 0, 2)
		var prev model.Usage
		readingAt := 0 // no reading yet
		for _, call := range run.Calls {
			v := VisitWindow(history, VisitInput{
				Policy: p, Request: run.Request, Iteration: call.Iteration,
				FirstCall: readingAt == 0, PrevUsage: prev, ReadingAt: readingAt, Records: records, mem: mem,
				Summaries: sums, Call: call,
			})
			if v.Record != nil {
				// stand-down reads only the last two records
				if len(records) == 2 {
					records[0], records = records[1], records[:1]
				}
				records = append(records, *v.Record)
			}
			if v.Problem != "" && !seen[v.Problem] {
				seen[v.Problem] = true
				out.Problems = append(out.Problems, v.Problem)
			}
			out.Calls = append(out.Calls, CallReplay{Index: len(out.Calls), Run: run, Call: call, Visit: v})
			if stop != nil && stop(&out.Calls[len(out.Calls)-1]) {
				return out
			}
			next := mem.msgs.take(len(v.After) + len(call.Appended))[:0]
			next = append(next, v.After...)
			history = append(next, call.Appended...)
			if call.Ended { // a call that never ended reported nothing
				prev, readingAt = call.Usage, call.Iteration
			}
		}
	}
	return out
}
