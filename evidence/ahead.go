package evidence

import "github.com/afinspect/inspect/model"

// A Judger judging the calls of a replay in order (an export) tokenizes
// each message as it enters the window (newPart). Prefetch makes those
// parts on aheadWorkers goroutines ahead of the judging, and Reach files
// them where update and Hold look (the parts of messages that left,
// leftParts), so that tokenizing and judging overlap on two cores. The
// parts are the same ones newPart would make: a message's part depends on
// the message and its own bytes only.
//
// The parts are made in batches of the messages new to a run of calls:
// handing each message's part over on its own costs more than making it
// once a message is indexed only by the values asked (asked.go).

// aheadLimit is how many batches may wait, made or being made but not yet
// reached; aheadWorkers how many goroutines make them; a batch closes at
// the end of the call that brings it batchMsgs messages or batchBytes
// bytes of content.
const (
	aheadLimit   = 8
	aheadWorkers = 2
	batchMsgs    = 64
	batchBytes   = 256 << 10
)

// aheadBatch is the parts of the messages first in the windows of calls
// from..to, made when done is closed.
type aheadBatch struct {
	from, to int
	msgs     []*model.Message
	parts    []*part
	done     chan struct{}
}

// ahead is the goroutines making parts, seen from the Judger's side.
type ahead struct {
	batches chan *aheadBatch // in the order of the windows
	stop    chan struct{}
	pending *aheadBatch // read from batches, for calls not reached yet
}

// Prefetch starts making the parts of the messages of windows 0..n-1
// (window(i) is call i's), own giving a tool result's own bytes (as
// View.OwnBytes). window and own are called on other goroutines: they
// must only read. Stop ends them.
func (j *Judger) Prefetch(n int, window func(int) []*model.Message, own func(*model.Message) string) {
	a := &ahead{batches: make(chan *aheadBatch, aheadLimit), stop: make(chan struct{})}
	j.ahead = a
	view, only := View{OwnBytes: own}, j.only
	jobs := make(chan *aheadBatch, aheadLimit)
	for range aheadWorkers {
		go func() {
			for b := range jobs {
				b.parts = make([]*part, len(b.msgs))
				for k, m := range b.msgs {
					b.parts[k] = newPart(m, view, only, true)
				}
				close(b.done)
			}
		}()
	}
	go func() {
		defer close(a.batches)
		defer close(jobs)
		var seen seenSet
		b, size := &aheadBatch{done: make(chan struct{})}, 0
		for i := range n {
			for _, m := range window(i) {
				if seen.add(m) {
					b.msgs = append(b.msgs, m)
					size += len(m.Content)
				}
			}
			if b.to = i; len(b.msgs) < batchMsgs && size < batchBytes && i < n-1 {
				continue
			}
			select {
			case a.batches <- b:
				jobs <- b
			case <-a.stop:
				return
			}
			b, size = &aheadBatch{from: i + 1, done: make(chan struct{})}, 0
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
			b, ok := <-a.batches
			if !ok {
				j.ahead = nil
				return
			}
			a.pending = b
		}
		if a.pending.from > i {
			return
		}
		<-a.pending.done
		for k, m := range a.pending.msgs {
			j.win.left.keep(m, a.pending.parts[k])
		}
		a.pending = nil
	}
}

// Stop ends Prefetch's goroutines (at once if they are waiting to hand a
// batch over).
func (j *Judger) Stop() {
	if a := j.ahead; a != nil {
		close(a.stop)
		j.ahead = nil
	}
}

// seenSet is the messages met so far, by their ID (model.Message.ID) where
// they have one. Two messages of one ID (there are none) would make the
// second met, and so not made ahead: update makes its part instead.
type seenSet struct {
	ids   []bool
	other map[*model.Message]bool // messages a replay made (ID 0)
}

// add files m and reports whether it was new.
func (s *seenSet) add(m *model.Message) bool {
	if m.ID <= 0 {
		if s.other[m] {
			return false
		}
		if s.other == nil {
			s.other = map[*model.Message]bool{}
		}
		s.other[m] = true
		return true
	}
	for m.ID >= len(s.ids) {
		s.ids = append(s.ids, false)
	}
	if s.ids[m.ID] {
		return false
	}
	s.ids[m.ID] = true
	return true
}
