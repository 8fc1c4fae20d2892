package tui

import (
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/afinspect/inspect/model"
)

// A log still being written: with -f (or F) the file is read again
// whenever it grows, like tail -f, and the screen stays on the last
// call when it was there; without it, a file that grew since it was
// read says so and R reads it again.

// How often the file's size is looked at.
const (
	followEvery = 250 * time.Millisecond
	watchEvery  = time.Second
)

// watch is what is known of the file on disk.
type watch struct {
	started   bool
	follow    bool
	size      int64 // the size when the recording on screen was read
	now       int64 // the size at the last look
	reloading bool
}

// fileSizeMsg is sent by statCmd with the file's size, after a tick.
type fileSizeMsg struct{ size int64 }

// reloadedMsg is sent by reloadCmd with the file read again (size is
// its size before the read began, so growth during the read is seen at
// the next look).
type reloadedMsg struct {
	loadedMsg
	size int64
}

// statCmd looks at the file's size after d.
func statCmd(path string, d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg {
		st, err := os.Stat(path)
		if err != nil {
			return fileSizeMsg{size: -1}
		}
		return fileSizeMsg{size: st.Size()}
	})
}

// reloadCmd reads the whole file again and prepares it, under the policy
// the user set (mine) if any.
func reloadCmd(cfg Config, mine *model.Policy) tea.Cmd {
	return func() tea.Msg {
		var size int64 = -1
		if st, err := os.Stat(cfg.Path); err == nil {
			size = st.Size()
		}
		src := cfg.Open()
		rec, err := src.Wait()
		if err != nil {
			return reloadedMsg{loadedMsg: loadedMsg{err: err}, size: size}
		}
		return reloadedMsg{loadedMsg: prepare(cfg, rec, mine, nil), size: size}
	}
}

// startWatching starts the looks at the file, once, when the first load
// is done. The size read is taken as the file's size then: what a
// writer adds during that first read is read again at the next look.
func (m *Model) startWatching() tea.Cmd {
	if m.watch.started || m.cfg.Path == "" || m.cfg.Open == nil {
		return nil
	}
	m.watch.started = true
	if st, err := os.Stat(m.cfg.Path); err == nil {
		m.watch.size, m.watch.now = st.Size(), st.Size()
	}
	return statCmd(m.cfg.Path, m.lookEvery())
}

func (m Model) lookEvery() time.Duration {
	if m.watch.follow {
		return followEvery
	}
	return watchEvery
}

// looked takes the file's size: following, a grown file is read again.
func (m Model) looked(msg fileSizeMsg) (Model, tea.Cmd) {
	m.watch.now = msg.size
	next := statCmd(m.cfg.Path, m.lookEvery())
	if m.watch.follow && m.grew() && !m.watch.reloading && m.stream == nil {
		m.watch.reloading = true
		return m, tea.Batch(next, reloadCmd(m.cfg, m.mine()))
	}
	return m, next
}

// grew: the file is not the size it was when it was read.
func (m Model) grew() bool { return m.watch.now >= 0 && m.watch.now != m.watch.size }

// reloaded puts the file read again on screen; following, the last
// call stays in view when it was on screen.
func (m Model) reloaded(msg reloadedMsg) (Model, tea.Cmd) {
	m.watch.reloading = false
	if msg.err != nil {
		m.flash = "could not read the file again: " + msg.err.Error()
		return m, nil
	}
	m.watch.size = msg.size
	atEnd := m.s != nil && m.s.call == m.s.calls()-1
	m, cmd := m.adopt(msg.loadedMsg)
	if m.watch.follow && atEnd && m.s.call != m.s.calls()-1 {
		m.goTo(m.s.calls() - 1)
	}
	return m, cmd
}

// followKey switches following on or off (on: read the file now if it
// grew); reloadKey reads it again once.
func (m Model) followKey() (Model, tea.Cmd) {
	if m.cfg.Path == "" {
		m.flash = "only a file can be followed"
		return m, nil
	}
	m.watch.follow = !m.watch.follow
	if m.watch.follow && m.grew() && !m.watch.reloading {
		m.watch.reloading = true
		return m, reloadCmd(m.cfg, m.mine())
	}
	return m, nil
}

func (m Model) reloadKey() (Model, tea.Cmd) {
	if m.cfg.Path == "" {
		m.flash = "only a file can be read again"
		return m, nil
	}
	if m.watch.reloading {
		return m, nil
	}
	m.watch.reloading = true
	return m, reloadCmd(m.cfg, m.mine())
}

// fileNote is the header's word on the file: following, unfinished, or
// grown since it was read.
func (m Model) fileNote() string {
	var s string
	switch {
	case m.watch.follow:
		s = m.st.New.Render("following")
	case m.grew() && m.cfg.Path != "":
		s = m.st.Unknown.Render(fmt.Sprintf("the file changed since it was read (%s now): R reads it again, F follows it", byteSize(max(0, m.watch.now))))
	}
	return s
}
