package evidence

import "github.com/afinspect/inspect/model"

// A Judger judging the calls of a replay in order (an export) tokenizes
// each message as it enters the window (newPart): on one goroutine that is
// most of the export's work after the load. Prefetch makes those parts on
// aheadWorkers goroutines, call by call ahead of the judging, and Reach files
// them where update and Hold look (the parts of messages that left,
// leftParts), so that tokenizing and judging overlap on two cores. The
// parts are the same ones newPart would make: a message's part depends on
// the message and its own bytes only.

// aheadLimit is how many parts may wait, made but not yet reached;
// aheadWorkers how many goroutines make them.
const (
	aheadLimit   = 32
	aheadWorkers = 2
)

// aheadPart is the part of a message first in the window of call, made
// when done is closed.
type aheadPart struct {
	call int
	m    *model.Message
	p    *part
	done chan struct{}
}

// ahead is the goroutines making parts, seen from the Judger's side.
type ahead struct {
	parts   chan *aheadPart // in the order of the windows
	stop    chan struct{}
	pending *aheadPart // read from parts, for a call not reached yet
}

// Prefetch starts making the parts of the messages of windows 0..n-1
// (window(i) is call i's), own giving a tool result's own bytes (as
// View.OwnBytes). window and own are called on another goroutine: they
// must only read. Stop ends it.
func (j *Judger) Prefetch(n int, window func(int) []*model.Message, own func(*model.Message) string) {
	a := &ahead{parts: make(chan *aheadPart, aheadLimit), stop: make(chan struct{})}
	j.ahead = a
	view, only := View{OwnBytes: own}, j.only
	jobs := make(chan *aheadPart, aheadLimit)
	for range aheadWorkers {
		go func() {
			for ap := range jobs {
				ap.p = newPart(ap.m, view, only)
				close(ap.done)
			}
		}()
	}
	go func() {
		defer close(a.parts)
		defer close(jobs)
		seen := map[*model.Message]bool{}
		for i := range n {
			for _, m := range window(i) {
				if seen[m] {
					continue
				}
				seen[m] = true
				ap := &aheadPart{call: i, m: m, done: make(chan struct{})}
				select {
				case a.parts <- ap:
					jobs <- ap
				case <-a.stop:
					return
				}
			}
		}
	}()
}

// Reach files the parts made for calls up to i, waiting for them.
func (j *Judger) Reach(i int) {
	a := j.ahead
	if a == nil {
		return
	}
	for {
		if a.pending == nil {
			ap, ok := <-a.parts
			if !ok {
				j.ahead = nil
				return
			}
			a.pending = ap
		}
		if a.pending.call > i {
			return
		}
		<-a.pending.done
		j.win.left.keep(a.pending.m, a.pending.p)
		a.pending = nil
	}
}

// Stop ends Prefetch's goroutine (at once if it is waiting to hand a part
// over).
func (j *Judger) Stop() {
	if a := j.ahead; a != nil {
		close(a.stop)
		j.ahead = nil
	}
}
