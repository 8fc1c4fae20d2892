package tui

import (
	"fmt"
	"time"

	"github.com/afinspect/inspect/tui/session"

	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/tui/theme"
)

// How often a stream's progress is read: often until the first calls are
// on screen (the first frame should not wait), then calmly.
const (
	streamFirst = 15 * time.Millisecond
	streamEvery = 100 * time.Millisecond
)

// streamTickMsg is sent by streamTick while a Stream is being read.
type streamTickMsg struct{}

func streamTick(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return streamTickMsg{} })
}

// streaming is the root model's view of a Stream being read.
type streaming struct {
	src          *session.Stream
	read, total  int64
	calls        int
	shownCalls   int          // calls in the session on screen
	partialBusy  bool         // a partialCmd is running
	studied      *study.Study // the last partial's, whose inference the next one checks
	finalStarted bool
	bar          progress.Model
	// when reading began; when the partial in flight started; how long
	// the last partial took, for how many calls (worthPartial)
	began, partialAt time.Time
	now              func() time.Time // the clock (a test's own)
	lastPrepare      time.Duration
	lastCalls        int
}

func newStreaming(src *session.Stream) *streaming {
	return &streaming{src: src, bar: theme.NewLoadBar(), began: time.Now(), now: time.Now}
}

// partialBack notes that the partial in flight came back, with calls
// and its study.
func (s *streaming) partialBack(calls int, st *study.Study) {
	s.partialBusy, s.shownCalls, s.studied = false, calls, st
	s.lastPrepare, s.lastCalls = s.now().Sub(s.partialAt), calls
}

// worthPartial: a partial of the calls loaded would be back before the
// reading ends, as far as the last partial's time (per call) and the
// reading's pace so far tell. One that would not would hold the final
// load back (one prepare at a time).
func (s *streaming) worthPartial() bool {
	if s.lastCalls == 0 || s.total <= 0 || s.read <= 0 {
		return true
	}
	left := float64(s.now().Sub(s.began)) * float64(s.total-s.read) / float64(s.read)
	cost := float64(s.lastPrepare) * float64(s.calls) / float64(s.lastCalls)
	return cost < left
}

// tick reads the progress and says what to run next: the final load once
// reading is done, else a partial replay when the calls loaded are twice
// those on screen, none is running and it would be back before the
// reading ends (worthPartial). One prepare runs at a time (it
// competes with the decoders for the cores): a final waits for the
// partial in flight.
func (s *streaming) tick(cfg Config, mine *model.Policy) tea.Cmd {
	s.read, s.total, s.calls = s.src.Progress()
	select {
	case <-s.src.Done:
		switch {
		case s.finalStarted:
			return nil
		case s.partialBusy:
			return streamTick(streamFirst)
		}
		s.finalStarted = true
		return session.FinalCmd(cfg.source(), s.src, mine)
	default:
	}
	next := streamTick(s.pace())
	// each partial replays every call so far: one when the calls have
	// doubled keeps their total work within twice the final one's; a
	// writer that fell quiet has its calls shown now, not when it writes
	// again
	quiet := s.src.Waiting != nil && s.src.Waiting()
	if !s.partialBusy && s.calls > s.shownCalls && (quiet || s.calls >= 2*s.shownCalls && s.worthPartial()) {
		s.partialBusy, s.partialAt = true, s.now()
		return tea.Batch(session.PartialCmd(cfg.source(), s.src, mine, s.studied), next)
	}
	return next
}

// pace is how long until the progress is read again: the first calls,
// and the end of the load, are not waited for.
func (s *streaming) pace() time.Duration {
	if s.shownCalls == 0 || s.total > 0 && s.read >= s.total-s.total/10 {
		return streamFirst
	}
	return streamEvery
}

// finalNow starts the final load at once when reading has ended, no
// prepare is running and none has started; nil otherwise (the ticks go
// on). A partial that comes back after the end need not wait for a tick.
func (s *streaming) finalNow(cfg Config, mine *model.Policy) tea.Cmd {
	select {
	case <-s.src.Done:
	default:
		return nil
	}
	if s.finalStarted || s.partialBusy {
		return nil
	}
	s.finalStarted = true
	return session.FinalCmd(cfg.source(), s.src, mine)
}

// line is the progress line: a bar, bytes read of total, calls so far.
// An input of no known size (a pipe) has no bar and no percentage: what
// it has read, and whether its writer has fallen quiet.
func (s *streaming) line(st *theme.Styles) string {
	if s.total <= 0 {
		out := st.Label.Render("reading · ") + st.Value.Render(present.ByteSize(s.read)) + st.Label.Render(" · ") +
			st.Value.Render(present.Thousands(s.calls)) + st.Label.Render(" calls so far; step through what has loaded")
		if s.src.Waiting != nil && s.src.Waiting() {
			out += st.Label.Render(" · ") + st.Unknown.Render("the writer is quiet: waiting for more")
		}
		return out
	}
	frac := 0.0
	if s.total > 0 {
		frac = float64(s.read) / float64(s.total)
	}
	size := present.ByteSize(s.read)
	if s.total > 0 {
		size += " of " + present.ByteSize(s.total)
	}
	return st.Label.Render("loading ") + s.bar.ViewAs(min(frac, 1)) + " " +
		st.Value.Render(fmt.Sprintf("%d%%", int(frac*100))) + st.Label.Render(" · "+size+" · ") +
		st.Value.Render(present.Thousands(s.calls)) + st.Label.Render(" calls so far; step through what has loaded")
}
