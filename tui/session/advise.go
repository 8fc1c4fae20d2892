package session

import (
	"context"
	"sync/atomic"

	"github.com/afinspect/inspect/advise"
	"github.com/afinspect/inspect/study"
	tea "github.com/charmbracelet/bubbletea"
)

// The policy advisor (P): which window policy the agent on screen should
// run, from its calls in the file. The sweep is package advise's (every
// policy of its grid replayed over every call of the agent); it runs off
// the UI goroutine, says how far it has got, and is given up through its
// context when the view closes or the conversation on screen changes.
// The study keeps its answer, and so does the view: opened again, it
// shows at once. Enter applies the policy under the cursor to the knobs,
// as K applies a suggestion.

// SweepAdvice is the advisor's engine. A test puts one there that it
// controls (one that blocks until it is given up).
var SweepAdvice = func(ctx context.Context, st *study.Study, agent string, progress func(done, total int)) (*advise.Advice, error) {
	return advise.Advise(ctx, st, agent, progress)
}

// AdviseProgressMsg is sent by the sweep's waiter (adviseJob.wait) each
// time the sweep has replayed more policies; gen names the sweep.
type AdviseProgressMsg struct {
	Gen         int
	Done, Total int
}

// AdvisedMsg is sent by the sweep's waiter when the sweep ends: with the
// advice (nil when the agent has none: a composition's own calls), or
// the error that stopped it (the context's, when it was given up).
type AdvisedMsg struct {
	Gen    int
	Advice *advise.Advice
	Err    error
}

// AdviseJob is one sweep under way: its progress, told by the sweep's
// goroutines, and its end.
type AdviseJob struct {
	gen         int
	done, total atomic.Int64
	moved       chan struct{} // a value when the progress moved since last read
	end         chan AdvisedMsg
}

// StartAdvise starts the sweep for agent of st at once (not when the
// program runs a command) and gives the job.
func StartAdvise(ctx context.Context, gen int, s *Session, agent string) *AdviseJob {
	j := &AdviseJob{gen: gen, moved: make(chan struct{}, 1), end: make(chan AdvisedMsg, 1)}
	st := s.Study
	go func() {
		ad, err := SweepAdvice(ctx, st, agent, func(done, total int) {
			j.done.Store(int64(done))
			j.total.Store(int64(total))
			select {
			case j.moved <- struct{}{}:
			default: // the screen has not read the last move yet: it will read this one
			}
		})
		j.end <- AdvisedMsg{Gen: gen, Advice: ad, Err: err}
	}()
	return j
}

// Wait is the command that waits for the job's next word: progress, or
// its end. The view asks again after each progress.
func (j *AdviseJob) Wait() tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-j.end:
			return msg
		case <-j.moved:
			return AdviseProgressMsg{Gen: j.gen, Done: int(j.done.Load()), Total: int(j.total.Load())}
		}
	}
}

// AgentKey is the key of the agent on screen ("" when the file names
// none).
func AgentKey(s *Session) string {
	if s.Agent == nil || s.Agent.Agent == nil {
		return ""
	}
	return s.Agent.Agent.Key
}
