package tui

import (
	"os"
	"time"

	"github.com/afinspect/inspect/model"
	"github.com/afinspect/inspect/provenance"
	"github.com/afinspect/inspect/study"
	"github.com/afinspect/inspect/window"
	tea "github.com/charmbracelet/bubbletea"
)

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
func reloadCmd(from Source, following bool, mine *model.Policy) tea.Cmd {
	return func() tea.Msg {
		info, _ := os.Stat(from.Path)
		open := from.Open
		if following && from.Reopen != nil {
			open = from.Reopen
		}
		src := open()
		rec, err := src.Wait()
		if err != nil {
			return reloadedMsg{loadedMsg: loadedMsg{err: err}, read: info}
		}
		return reloadedMsg{loadedMsg: prepare(from, rec, mine), read: info, more: src.More}
	}
}

// growCmd reads on what was appended to the file since the recording on
// screen was read (more), and studies it on from prev, its study.
func growCmd(from Source, more func() (*Stream, error), prev *study.Study, mine *model.Policy, was grownFrom) tea.Cmd {
	return func() tea.Msg {
		info, _ := os.Stat(from.Path)
		src, err := more()
		if err != nil {
			return reloadedMsg{loadedMsg: loadedMsg{err: err}, read: info, grew: true}
		}
		rec, err := src.Wait()
		if err != nil {
			return reloadedMsg{loadedMsg: loadedMsg{err: err}, read: info, grew: true}
		}
		st, _ := study.Grow(prev, rec, from.request())
		return reloadedMsg{loadedMsg: prepareFrom(st, from.View, mine, was), read: info, more: src.More, grew: true}
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
