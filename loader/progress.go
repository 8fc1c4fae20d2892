package loader

import (
	"io"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/afinspect/inspect/model"
)

// Progress is how far a load has come.
type Progress struct {
	Bytes, Total int64 // input bytes read, and the input's size (0 if unknown)
	Calls        int   // model calls loaded so far: those a Snapshot now holds
	Done         bool
	// Waiting: the input has nothing more for now (a pipe whose writer is
	// quiet), and every whole line read so far is loaded: a Snapshot
	// holds what it made.
	Waiting bool
}

// Loading is a load running in the background. The runs loaded so far can
// be looked at (Snapshot) while the rest still loads.
type Loading struct {
	name  string
	opts  options
	total atomic.Int64
	read  atomic.Int64 // input bytes read
	calls atomic.Int64
	done  chan struct{}
	// waiting is set while the reader waits on an input that has nothing
	// more for now (Progress.Waiting); handed and built count the blocks
	// the reader handed on and those built and published since
	waiting       atomic.Bool
	handed, built atomic.Int64

	mu       sync.Mutex
	format   string
	runs     []*model.Run // published copies; each is never changed once published
	agents   []*model.Agent
	problems []model.Problem
	// what the events so far tell of the tier, and the versions the
	// envelopes read so far name
	tier      string
	producers []string
	files     []string // the files read so far, when several

	rec *model.Recording // the result, set before done is closed
	err error
	// compressed: the input is gzipped; resume, what a load of a file
	// that ended keeps to be continued (follow.go); viewOnly: no snapshot
	// is made while it loads (a continued load: it waits for the end)
	compressed bool
	resume     *resumePoint
	viewOnly   bool
}

// StartReader loads r in the background; name is used in messages and as
// Recording.Source, total is r's size for Progress (0 if unknown).
func StartReader(r io.Reader, name string, total int64) *Loading {
	return startReader(r, name, total, options{})
}

func startReader(r io.Reader, name string, total int64, opts options) *Loading {
	return start(name, opts, func(l *Loading) (*model.Recording, error) {
		l.total.Store(total)
		rec, _, err := l.readAll(r)
		return rec, err
	})
}

func start(name string, opts options, load func(*Loading) (*model.Recording, error)) *Loading {
	l := &Loading{name: name, opts: opts, done: make(chan struct{})}
	go func() {
		l.rec, l.err = load(l)
		close(l.done)
	}()
	return l
}

// Progress is safe to call from any goroutine, and cheap.
func (l *Loading) Progress() Progress {
	waiting := l.waiting.Load() && l.handed.Load() == l.built.Load()
	p := Progress{Bytes: l.read.Load(), Total: l.total.Load(), Calls: int(l.calls.Load()), Waiting: waiting}
	select {
	case <-l.done:
		p.Done = true
	default:
	}
	return p
}

// Snapshot is what has loaded so far: the runs with the calls whose
// messages are settled, and the problems met so far. It is a copy that
// later loading does not change (the calls and messages in it are shared
// with the final recording and never change either), so it is safe to
// replay while loading goes on.
func (l *Loading) Snapshot() *model.Recording {
	l.mu.Lock()
	defer l.mu.Unlock()
	return &model.Recording{Source: l.name, Format: l.format, Files: l.files, Runs: slices.Clone(l.runs), Agents: l.agents, Problems: l.problems,
		Tier: l.tier, Library: model.Library{Producers: l.producers}}
}

// Wait waits for the load to end and returns what Load would.
func (l *Loading) Wait() (*model.Recording, error) {
	<-l.done
	return l.rec, l.err
}

// Done is closed when the load has ended.
func (l *Loading) Done() <-chan struct{} { return l.done }

// publish makes what b has built so far visible to Snapshot. Only the runs
// changed since the last publish are copied; a run's copy leaves out its
// latest call while that call may still change.
func (l *Loading) publish(b *builder) {
	if l.viewOnly {
		l.calls.Store(int64(b.settled))
		return
	}
	var fresh []*model.Run
	for _, rs := range b.order[min(b.dirty, len(b.order)):] {
		r := *rs.run
		k := len(r.Calls)
		if rs.cur != nil && !rs.cur.settled {
			k--
		}
		r.Calls = r.Calls[:k:k]
		fresh = append(fresh, &r)
	}
	problems := b.rec.Problems
	l.mu.Lock()
	l.format = b.rec.Format
	l.runs = append(l.runs[:min(b.dirty, len(l.runs))], fresh...)
	l.problems = problems[:len(problems):len(problems)]
	l.agents = slices.Clone(b.rec.Agents)
	l.tier = b.tier.tier()
	l.producers = slices.Clip(b.rec.Library.Producers)
	l.files = slices.Clip(b.rec.Files)
	l.mu.Unlock()
	b.dirty = len(b.order)
	l.calls.Store(int64(b.settled))
}

// publishView makes rec, the view of b at the end of the input, what
// Snapshot holds.
func (l *Loading) publishView(b *builder, rec *model.Recording) {
	l.mu.Lock()
	l.format, l.runs, l.agents, l.problems = rec.Format, rec.Runs, rec.Agents, rec.Problems
	l.tier, l.producers, l.files = rec.Tier, rec.Library.Producers, rec.Files
	l.mu.Unlock()
	l.calls.Store(int64(countCalls(rec)))
	b.dirty = len(b.order)
}

// countCalls is how many calls rec's runs hold.
func countCalls(rec *model.Recording) int {
	n := 0
	for _, r := range rec.Runs {
		n += len(r.Calls)
	}
	return n
}

// counter counts the bytes read from the input, for Progress.
type counter struct {
	r io.Reader
	n *atomic.Int64
}

func (c counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
