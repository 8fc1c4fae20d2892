package evidence

import "github.com/afinspect/inspect/model"

// A Judger judging the calls of a replay in order (an export) tokenizes
// each message as it enters the window (newPart): on one goroutine that is
// most of the export's work after the load. Prefetch makes those parts on
// another goroutine, call by call ahead of the judging, and Reach files
// them where update and Hold look (the parts of messages that left,
// leftParts), so that tokenizing and judging overlap on two cores. The
// parts are the same ones newPart would make: a message's part depends on
// the message and its own bytes only.

// aheadLimit is how many parts may wait, made but not yet reached.
const aheadLimit = 256

// aheadPart is the part of a message first in the window of call.
type aheadPart struct {
	call int
	m    *model.Message
	p    *part
}

// ahead is the goroutine making parts, seen from the Judger's side.
type ahead struct {
	parts   chan aheadPart
	stop    chan struct{}
	pending *aheadPart // read from parts, for a call not reached yet
}

// Prefetch starts making the parts of the messages of windows 0..n-1
// (window(i) is call i's), own giving a tool result's own bytes (as
// View.OwnBytes). window and own are called on another goroutine: they
// must only read. Stop ends it.
func (j *Judger) Prefetch(n int, window func(int) []*model.Message, own func(*model.Message) string) {
	a := &ahead{parts: make(chan aheadPart, aheadLimit), stop: make(chan struct{})}
	j.ahead = a
	view := View{OwnBytes: own}
	go func() {
		defer close(a.parts)
		seen := map[*model.Message]bool{}
		for i := range n {
			for _, m := range window(i) {
				if seen[m] {
					continue
				}
				seen[m] = true
				select {
				case a.parts <- aheadPart{call: i, m: m, p: newPart(m, view)}:
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
			a.pending = &ap
		}
		if a.pending.call > i {
			return
		}
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
