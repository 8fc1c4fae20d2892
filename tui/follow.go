package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/tui/present"
	"github.com/afinspect/inspect/window"
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
	more func() (*Stream, error)
	// reloading: a read is under way, since reloadAt
	reloading bool
	reloadAt  time.Time
	// failed is why the last read failed ("" when it did not): what is on
	// screen is what the file held before
	failed string
}

// fileLookMsg is sent by lookCmd with what the file is now.
type fileLookMsg struct {
	info os.FileInfo
	err  error
}

// reloadedMsg is sent by reloadCmd and growCmd with the file read
// again; read is the file as it was when the read began (what a writer
// adds during the read is read at the next look), more what reads on
// from there.
type reloadedMsg struct {
	loadedMsg
	read os.FileInfo
	more func() (*Stream, error)
	// grew: it read on from the last read; when that could not be (the
	// file is not the one read), the file is read from the start
	grew bool
}

// lookCmd looks at the file after d.
func lookCmd(path string, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg {
		info, err := os.Stat(path)
		return fileLookMsg{info: info, err: err}
	})
}

// reloadCmd reads the whole file again and prepares it, under the policy
// the user set (mine) if any; following, a last line still being written
// is waited for.
func reloadCmd(cfg Config, following bool, mine *model.Policy) tea.Cmd {
	return func() tea.Msg {
		info, _ := os.Stat(cfg.Path)
		open := cfg.Open
		if following && cfg.Reopen != nil {
			open = cfg.Reopen
		}
		src := open()
		rec, err := src.Wait()
		if err != nil {
			return reloadedMsg{loadedMsg: loadedMsg{err: err}, read: info}
		}
		return reloadedMsg{loadedMsg: prepare(cfg, rec, mine), read: info, more: src.More}
	}
}

// growCmd reads on what was appended to the file since the recording on
// screen was read (more), and studies it on from prev, its study.
func growCmd(cfg Config, more func() (*Stream, error), prev *study.Study, mine *model.Policy, was grownFrom) tea.Cmd {
	return func() tea.Msg {
		info, _ := os.Stat(cfg.Path)
		src, err := more()
		if err != nil {
			return reloadedMsg{loadedMsg: loadedMsg{err: err}, read: info, grew: true}
		}
		rec, err := src.Wait()
		if err != nil {
			return reloadedMsg{loadedMsg: loadedMsg{err: err}, read: info, grew: true}
		}
		st, _ := study.Grow(prev, rec, study.Request{Knobs: cfg.Knobs, Recorded: true, Library: cfg.Library})
		return reloadedMsg{loadedMsg: prepareFrom(st, cfg.View, mine, was), read: info, more: src.More, grew: true}
	}
}

// grownFrom is what the screen had of the last part of a file followed
// as it grows: the recorded replay's book, and its judgement with the
// book that made it when every call was judged.
type grownFrom struct {
	from   *provenance.Book
	judged *judgement
	walker *provenance.Book
	// the replay on screen under the policy the user set, and its book
	// (nil when the screen shows the recorded one)
	start     *window.Replay
	startFrom *provenance.Book
}

// grownFromScreen is what s has to grow from. Its walker is handed on:
// s never asks it again.
func grownFromScreen(s *session) grownFrom {
	if s == nil || s.recordedBook == nil || s.lent == s.recordedBook {
		return grownFrom{} // a book lent to an evidence job is not read here: the grown file's is made anew
	}
	g := grownFrom{from: s.recordedBook}
	if j, ok := s.judgements[s.recordedBook]; ok && s.walker != nil {
		g.judged, g.walker = &j, s.walker
		s.walker = nil
	}
	if s.replay != s.recorded && !s.replaying && s.lent != s.book {
		g.start, g.startFrom = s.replay, s.book
	}
	return g
}

// replay is conversation v replayed under p: the replay on screen of the
// last part grown on, where it was under p, else made anew.
func (g grownFrom) replay(v *study.View, p model.Policy) *window.Replay {
	if g.start != nil && g.start.Policy == p && p != v.Agent.Recorded {
		if r := v.GrowReplay(g.start); r != nil {
			return r
		}
	}
	return v.Replay(p, nil)
}

// startBook is the book of start, the replay under the user's policy:
// grown from the last part's where start grew from its replay.
func (g grownFrom) startBook(rec *model.Recording, start *window.Replay) *provenance.Book {
	if b := provenance.Grow(g.startFrom, rec, start); b != nil {
		return b
	}
	return provenance.New(rec, start)
}

// book is the book of r, a replay of rec: grown from the last part's
// where r grew from its replay, else made anew.
func (g grownFrom) book(rec *model.Recording, r *window.Replay) *provenance.Book {
	if b := provenance.Grow(g.from, rec, r); b != nil {
		return b
	}
	return provenance.New(rec, r)
}

// judge is every call of r judged, when the last part's were and r grew
// from its replay: the calls they share keep their judgement (a call's
// values are judged against the windows up to it), the others are
// judged by the walker grown on (provenance.GrowOn), which is returned
// to judge the next part; nil otherwise.
func (g grownFrom) judge(rec *model.Recording, r *window.Replay) (*judgement, *provenance.Book) {
	if g.judged == nil || g.walker == nil {
		return nil, nil
	}
	w := provenance.GrowOn(g.walker, rec, r)
	from, ok := w.GrownFrom(g.walker)
	if w == nil || !ok || from > len(g.judged.flags) {
		return nil, nil
	}
	n := len(r.Calls)
	j := judgement{flags: make([]bool, n), args: make([]bool, n), counts: make([]provenance.CallTally, n), used: make(map[*model.Message][]int, len(g.judged.used))}
	copy(j.flags, g.judged.flags[:from])
	copy(j.args, g.judged.args[:from])
	copy(j.counts, g.judged.counts[:from])
	for m, calls := range g.judged.used {
		k := 0
		for k < len(calls) && calls[k] < from {
			k++
		}
		if k > 0 {
			j.used[m] = calls[:k:k]
		}
	}
	judgeInto(&j, w, from, n, nil)
	return &j, w
}

// startWatching starts the looks at the file, once, when the first load
// is done; src is the load, to read on from. The file's state then is
// taken as what was read: what a writer adds during that first read is
// read at the next look.
func (m *Model) startWatching(src *Stream) tea.Cmd {
	if m.watch.started || m.cfg.Path == "" || m.cfg.Open == nil {
		return nil
	}
	m.watch.started = true
	if src != nil {
		m.watch.more = src.More
	}
	if info, err := os.Stat(m.cfg.Path); err == nil {
		m.watch.read, m.watch.now = info, info
	}
	return lookCmd(m.cfg.Path, m.lookEvery())
}

func (m Model) lookEvery() time.Duration {
	if m.watch.follow {
		return followEvery
	}
	return watchEvery
}

// looked takes what the file is now: following, a file that grew is
// read on, one that is not what was read is read from the start.
func (m Model) looked(msg fileLookMsg) (Model, tea.Cmd) {
	note := m.fileNote()
	m.watch.now, m.watch.gone = msg.info, msg.err != nil && errors.Is(msg.err, fs.ErrNotExist)
	next := lookCmd(m.cfg.Path, m.lookEvery())
	if !m.watch.follow || m.watch.reloading || m.stream != nil || !m.changed() {
		m.hold = m.fileNote() == note // nothing new: the frame before stands
		return m, next
	}
	return m, tea.Batch(next, m.readAgain())
}

// readAgain starts reading the file again: on from the last read when
// the file grew and the last read can go on, else from the start.
func (m *Model) readAgain() tea.Cmd {
	m.watch.reloading, m.watch.reloadAt = true, time.Now()
	if m.watch.more != nil && m.grewOnly() && m.s != nil {
		more := m.watch.more
		m.watch.more = nil // a read goes on once
		return growCmd(m.cfg, more, m.s.study, m.mine(), grownFromScreen(m.s))
	}
	return reloadCmd(m.cfg, m.watch.follow, m.mine())
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
func (m Model) reloaded(msg reloadedMsg) (Model, tea.Cmd) {
	m.watch.reloading = false
	if msg.err != nil && msg.grew {
		// not the file that was read, or it lost what was read: from the start
		m.watch.reloading, m.watch.reloadAt = true, time.Now()
		return m, reloadCmd(m.cfg, m.watch.follow, m.mine())
	}
	m.watch.read = msg.read
	if msg.err != nil {
		m.watch.failed = msg.err.Error()
		m.watch.more = nil
		return m, nil
	}
	m.watch.failed = ""
	m.watch.more = msg.more
	atEnd := m.s != nil && m.s.call == m.s.calls()-1
	m, cmd := m.adopt(msg.loadedMsg)
	if m.watch.follow && atEnd && m.s.call != m.s.calls()-1 {
		m.goTo(m.s.calls() - 1)
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
		return m, m.readAgain()
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
	return m, m.readAgain()
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
	name := shortName(m.cfg.Path)
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
