package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/tui/session"
	"github.com/afinspect/inspect/tui/theme"

	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/tui/present"
)

// A log still being written: with -f (or F) the file is looked at every
// followEvery, and what was appended is read on from where the last read
// stopped and studied on from the last study (study.Grow), like tail -f;
// the screen stays on the last call when it was there. A file that was
// replaced (another inode under the name), emptied or cut short is read
// again from the start; one that is gone is said to be. Without -f, a
// file that changed since it was read says so, and R reads it again.
// What is wrong with the file, or with reading it, is said in the
// header: the screen never shows as the file's what the file no longer
// holds without saying so.

// How often the file is looked at (following: often, so that what is
// appended is on screen a frame or two after; a look that finds nothing
// new draws no frame), and how long a read again may take before the
// header says it is still at it.
const (
	followEvery = 50 * time.Millisecond
	watchEvery  = time.Second
	slowRead    = time.Second
)

// watch is what is known of the file on disk.
type watch struct {
	started bool
	follow  bool
	read    os.FileInfo // the file when the recording on screen was read (nil: not known)
	now     os.FileInfo // at the last look (nil: gone, or not looked at)
	gone    bool        // the last look found no file
	// more reads on what was appended since the recording on screen was
	// read (Stream.More); nil when it cannot, and a read starts anew
	more func() (*session.Stream, error)
	// reloading: a read is under way, since reloadAt
	reloading bool
	reloadAt  time.Time
	// failed is why the last read failed ("" when it did not): what is on
	// screen is what the file held before
	failed string
}

// startWatching starts the looks at the file, once, when the first load
// is done; src is the load, to read on from. The file's state then is
// taken as what was read: what a writer adds during that first read is
// read at the next look.
func (m Model) startWatching(src *session.Stream) (Model, tea.Cmd) {
	if m.watch.started || m.cfg.Path == "" || m.cfg.Open == nil {
		return m, nil
	}
	m.watch.started = true
	if src != nil {
		m.watch.more = src.More
	}
	if info, err := os.Stat(m.cfg.Path); err == nil {
		m.watch.read, m.watch.now = info, info
	}
	return m, session.LookCmd(m.cfg.Path, m.lookEvery())
}

func (m Model) lookEvery() time.Duration {
	if m.watch.follow {
		return followEvery
	}
	return watchEvery
}

// looked takes what the file is now: following, a file that grew is
// read on, one that is not what was read is read from the start.
func (m Model) looked(msg session.FileLookMsg) (Model, tea.Cmd) {
	note := m.fileNote()
	m.watch.now, m.watch.gone = msg.Info, msg.Err != nil && errors.Is(msg.Err, fs.ErrNotExist)
	next := session.LookCmd(m.cfg.Path, m.lookEvery())
	if !m.watch.follow || m.watch.reloading || m.stream != nil || !m.changed() {
		m.hold = m.fileNote() == note // nothing new: the frame before stands
		return m, next
	}
	m, again := m.readAgain()
	return m, tea.Batch(next, again)
}

// readAgain starts reading the file again: on from the last read when
// the file grew and the last read can go on, else from the start.
func (m Model) readAgain() (Model, tea.Cmd) {
	m.watch.reloading, m.watch.reloadAt = true, time.Now()
	if m.watch.more != nil && m.grewOnly() && m.s != nil {
		more := m.watch.more
		m.watch.more = nil // a read goes on once
		return m, session.GrowCmd(m.cfg.source(), more, m.s.Study, m.mine(), session.GrownFromScreen(m.s))
	}
	return m, session.ReloadCmd(m.cfg.source(), m.watch.follow, m.mine())
}

// changed: the file is not as it was when it was read (gone files are
// said, not read).
func (m Model) changed() bool {
	r, n := m.watch.read, m.watch.now
	return n != nil && (r == nil || !os.SameFile(r, n) || n.Size() != r.Size() || !n.ModTime().Equal(r.ModTime()))
}

// grewOnly: the file is the one read, longer.
func (m Model) grewOnly() bool {
	r, n := m.watch.read, m.watch.now
	return r != nil && n != nil && os.SameFile(r, n) && n.Size() >= r.Size()
}

// reloaded puts the file read again on screen; following, the last
// call stays in view when it was on screen. A read that failed leaves
// what is on screen, and says why in the header until a read succeeds.
func (m Model) reloaded(msg session.ReloadedMsg) (Model, tea.Cmd) {
	m.watch.reloading = false
	if msg.Err != nil && msg.Grew {
		// not the file that was read, or it lost what was read: from the start
		m.watch.reloading, m.watch.reloadAt = true, time.Now()
		return m, session.ReloadCmd(m.cfg.source(), m.watch.follow, m.mine())
	}
	m.watch.read = msg.Read
	if msg.Err != nil {
		m.watch.failed = msg.Err.Error()
		m.watch.more = nil
		return m, nil
	}
	m.watch.failed = ""
	m.watch.more = msg.More
	atEnd := m.s != nil && m.s.Call == m.s.Calls()-1
	m, cmd := m.adopt(msg.LoadedMsg)
	if m.watch.follow && atEnd && m.s.Call != m.s.Calls()-1 {
		m.goTo(m.s.Calls() - 1)
	}
	return m, cmd
}

// followKey switches following on or off (on: read the file now if it
// changed); reloadKey reads it again once. A read under way is waited
// for, and said to be.
func (m Model) followKey() (Model, tea.Cmd) {
	if m.cfg.Path == "" {
		m.flash = "only a file can be followed"
		return m, nil
	}
	m.watch.follow = !m.watch.follow
	switch {
	case m.watch.follow && m.watch.reloading:
		m.flash = "following; " + m.stillReading()
	case m.watch.follow && m.changed():
		return m.readAgain()
	}
	return m, nil
}

func (m Model) reloadKey() (Model, tea.Cmd) {
	if m.cfg.Path == "" {
		m.flash = "only a file can be read again"
		return m, nil
	}
	if m.watch.reloading {
		m.flash = m.stillReading()
		return m, nil
	}
	m.watch.more = nil // R reads from the start
	return m.readAgain()
}

// stillReading says that a read of the file is under way, and for how
// long; a named pipe's read waits for a writer.
func (m Model) stillReading() string {
	s := fmt.Sprintf("still reading %s again (%s so far)", m.cfg.Path, time.Since(m.watch.reloadAt).Round(100*time.Millisecond))
	if info, err := os.Stat(m.cfg.Path); err == nil && info.Mode()&fs.ModeNamedPipe != 0 {
		s += ": it is a named pipe, read until its writer closes it"
	}
	return s
}

// fileNote is the header's word on the file: following, what is wrong
// with it or with reading it, or that it changed since it was read.
func (m Model) fileNote() string {
	if m.cfg.Path == "" {
		return ""
	}
	name := present.ShortName(m.cfg.Path)
	bad := func(s string) string { return m.st.Error.Render(s) }
	r, n := m.watch.read, m.watch.now
	switch {
	case m.watch.gone:
		return bad(fmt.Sprintf("%s was deleted: the screen shows it as it was read", name))
	case m.watch.failed != "":
		return bad(fmt.Sprintf("reading %s again failed (%s): the screen shows what it held before", name, m.watch.failed))
	case r != nil && n != nil && !os.SameFile(r, n) && !m.watch.follow:
		return bad(fmt.Sprintf("%s was replaced since it was read: R reads the new one", name))
	case r != nil && n != nil && n.Size() < r.Size() && !m.watch.follow:
		return bad(fmt.Sprintf("%s lost what was read (%s now): the screen shows what it held; R reads it again", name, present.ByteSize(n.Size())))
	case m.watch.reloading && time.Since(m.watch.reloadAt) > slowRead:
		return m.st.Unknown.Render(m.stillReading())
	case m.watch.follow:
		return m.st.New.Render("following")
	case m.changed():
		return m.st.Unknown.Render(fmt.Sprintf("the file changed since it was read (%s now): R reads it again, F follows it", present.ByteSize(max(0, n.Size()))))
	}
	return ""
}

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
	shownCalls   int            // calls in the session on screen
	partialBusy  bool           // a partialCmd is running
	studied      *session.Study // the last partial's, whose inference the next one checks
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
func (s *streaming) partialBack(calls int, st *session.Study) {
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
